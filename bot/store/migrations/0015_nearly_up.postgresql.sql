-- 0015 (PostgreSQL; see the .sqlite.sql for the notes): the 'nearly_up_reminder' clock
-- kind, the nudge at 90 % of a seat's turn clock ("time nearly up").
--
-- Adds a clock kind: every row of 0001-0015 stays as it was.

INSERT INTO clock_kinds (name) VALUES ('nearly_up_reminder');
