-- 0017: personal vacations, for casual tables that pause for them.
--
-- `vacations.season_id` may now be NULL: a personal vacation, belonging to no league
-- season, which pauses the player's clocks at the casual tables opened with the
-- `vacations` option on (a league's games keep pausing only for their season's). A
-- person has at most one personal vacation open (not ended by command), as they have at
-- most one per season (`vacations_one_under_way`, unchanged: a NULL season never
-- collides there, so the personal one has an index of its own).
--
-- Every row of 0001-0016 stays as it was: every vacation so far is a season's.

ALTER TABLE vacations ALTER COLUMN season_id DROP NOT NULL;

CREATE UNIQUE INDEX vacations_one_personal ON vacations (user_id)
    WHERE season_id IS NULL AND ended_at IS NULL;
