-- 0017: personal vacations, for casual tables that pause for them.
--
-- `vacations.season_id` may now be NULL: a personal vacation, belonging to no league
-- season, which pauses the player's clocks at the casual tables opened with the
-- `vacations` option on (a league's games keep pausing only for their season's). A
-- person has at most one personal vacation open (not ended by command), as they have at
-- most one per season (`vacations_one_under_way`, unchanged: a NULL season never
-- collides there, so the personal one has an index of its own).
--
-- SQLite can't drop a NOT NULL, so the table is made again (its rows, ids, CHECKs and
-- AUTOINCREMENT high-water mark kept) in SQLite's recommended order: the new table, its
-- rows, the old one dropped, the new one renamed (nothing references vacations). The
-- runner turns foreign keys off for a migration and checks them after it.
--
-- Every row of 0001-0016 stays as it was: every vacation so far is a season's.

CREATE TABLE vacations_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id   INTEGER REFERENCES league_seasons (id),
    user_id     INTEGER NOT NULL,
    started_at  REAL NOT NULL,
    until       REAL NOT NULL,
    ended_at    REAL,
    CHECK (until > started_at),
    CHECK (ended_at IS NULL OR ended_at BETWEEN started_at AND until)
) STRICT;

INSERT INTO vacations_new (id, season_id, user_id, started_at, until, ended_at)
    SELECT id, season_id, user_id, started_at, until, ended_at FROM vacations;

-- The next id stays past every id ever given, as AUTOINCREMENT promises.
DELETE FROM sqlite_sequence WHERE name = 'vacations_new';
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'vacations_new', seq FROM sqlite_sequence WHERE name = 'vacations';

DROP TABLE vacations;
ALTER TABLE vacations_new RENAME TO vacations;

CREATE UNIQUE INDEX vacations_one_under_way ON vacations (season_id, user_id)
    WHERE ended_at IS NULL;
CREATE UNIQUE INDEX vacations_one_personal ON vacations (user_id)
    WHERE season_id IS NULL AND ended_at IS NULL;
