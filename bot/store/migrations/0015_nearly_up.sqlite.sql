-- 0015: reminders people choose.
--
-- The 'nearly_up_reminder' clock kind: the nudge at 90 % of a seat's turn clock ("time
-- nearly up"), for people who choose it with /mj settings. A seat may have all three
-- reminders running at once (turn start, 75 %, 90 %), and a clock is one per (game, kind,
-- seat), so the third moment needs a kind of its own. Like the others it rings once: the
-- clock is deleted in the same transaction that queues its message.
--
-- Adds a clock kind: every row of 0001-0015 stays as it was.

INSERT INTO clock_kinds (name) VALUES ('nearly_up_reminder');
