-- 0016: vacations told when they begin and end.
--
-- The 'away' clock kind: one per seat of a league game whose holder has a vacation ahead or
-- under way, due when it begins (a vacation planned ahead) or ends (its budget runs out).
-- When it runs out the table is told that the player is away, or back, as `/mj vacation
-- start` and `end` tell it; the next such moment sets it again.
--
-- Adds a clock kind: every row of 0001-0015 stays as it was.

INSERT INTO clock_kinds (name) VALUES ('away');
