-- 0008: stand-ins — who played each move for a person, seats taken back, and how a league
-- season counts the games a bot played part of for a person.
--
-- `actions.played_for` marks a move the table made for a person's seat: 'timeout' when the
-- seat's clock ran out (the server's bot moved, or the seat passed a claim), 'stand-in' when
-- the bot keeping the seat (after too many timeouts in a row) moved. NULL is every other
-- move: the person's own, their options' (auto-discard, passing what they can't call) and a
-- bot seat's own. A closed set that may grow, so a lookup table. The log stays append-only:
-- the column is written with the action and never changed.
--
-- `seat_reclaims` keeps each time a person took their seat back from its stand-in (the log
-- length then), so the count of timeouts in a row starts again there after a restart.
--
-- `league_seasons.stand_in_games`: how the season's standings count a game in which a bot
-- played for a person ('count', 'half': counted points are half the table's, 'none': recorded
-- but not counted). `league_results.played_for` is how many of the seat's moves were made for
-- its person that way, `moves` how many moves the seat made (NULL: recorded before 0008).
--
-- Adds tables and columns with defaults: every row of 0001-0007 stays as it was.

CREATE TABLE played_for_kinds (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO played_for_kinds (name) VALUES ('timeout'), ('stand-in');

ALTER TABLE actions ADD COLUMN played_for TEXT REFERENCES played_for_kinds (name);

CREATE TABLE seat_reclaims (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    at_seq  INTEGER NOT NULL CHECK (at_seq >= 0),
    user_id INTEGER NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (game_id, seat, at_seq)
) STRICT, WITHOUT ROWID;

ALTER TABLE league_seasons ADD COLUMN stand_in_games TEXT NOT NULL DEFAULT 'count'
    CHECK (stand_in_games IN ('count', 'half', 'none'));

ALTER TABLE league_results ADD COLUMN played_for INTEGER NOT NULL DEFAULT 0
    CHECK (played_for >= 0);
ALTER TABLE league_results ADD COLUMN moves INTEGER CHECK (moves >= 0);
