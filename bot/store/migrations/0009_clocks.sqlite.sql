-- 0009: time that respects people.
--
-- The 'start_reminder' clock kind: the nudge a seat gets when its turn starts (at an
-- asynchronous table), as 'reminder' is the one at 75 % of its clock. Each rings once: the
-- clock is deleted in the same transaction that queues its message.
--
-- A season's vacation budget: the days each player may be away in the season (set when the
-- season starts; 7 for seasons stored before this migration).
--
-- Vacations: a player away from a season's games, from started_at until they end it
-- (ended_at) or their budget runs out (until, fixed when it starts). A player has at most one
-- vacation under way per season.
--
-- Adds a clock kind, a column with a default and a table: every row of 0001-0008 stays as it
-- was.

INSERT INTO clock_kinds (name) VALUES ('start_reminder');

ALTER TABLE league_seasons ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 7
    CHECK (vacation_days BETWEEN 0 AND 365);

CREATE TABLE vacations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id   INTEGER NOT NULL REFERENCES league_seasons (id),
    user_id     INTEGER NOT NULL,
    started_at  REAL NOT NULL,
    until       REAL NOT NULL,
    ended_at    REAL,
    CHECK (until > started_at),
    CHECK (ended_at IS NULL OR ended_at BETWEEN started_at AND until)
) STRICT;
CREATE UNIQUE INDEX vacations_one_under_way ON vacations (season_id, user_id)
    WHERE ended_at IS NULL;
