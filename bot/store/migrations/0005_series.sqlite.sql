-- 0005: series of games at one table, the quarters pot a game starts with, and the bettor.
--
-- A series is the games one table plays in a row ("Play again"): its people, in the order
-- they sat in its first game (seats 0, 1, … and then the bettor, if a fifth person bet), and
-- its games, numbered 0, 1, … Who sits where in game N follows from the people and N (the
-- table layer's rotation: the deal passes to the right), and the running totals are the sum
-- of the stored results, so neither is stored twice.
--
-- A game's inputs besides its seed: `series_games.pot`, the quarters pot it starts with
-- (carried from the game before it; a game in no series starts with none), and
-- `game_bettors.seat`, the seat the bettor backs (NULL while the bettor has not chosen, in
-- the lobby).
--
-- Only adds tables: every game of 0001-0004 stays as it was (no pot, no bettor, no series).

CREATE TABLE series (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL REFERENCES guilds (id),
    host_user_id INTEGER NOT NULL,
    created_at   REAL NOT NULL,
    ended_at     REAL
) STRICT;

CREATE TABLE series_people (
    series_id    INTEGER NOT NULL REFERENCES series (id),
    position     INTEGER NOT NULL CHECK (position >= 0),
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    PRIMARY KEY (series_id, position),
    CHECK ((user_id IS NULL) = (is_bot = 1))
) STRICT, WITHOUT ROWID;

CREATE TABLE series_games (
    game_id   INTEGER PRIMARY KEY REFERENCES games (id),
    series_id INTEGER NOT NULL REFERENCES series (id),
    number    INTEGER NOT NULL CHECK (number >= 0),
    pot       INTEGER NOT NULL DEFAULT 0 CHECK (pot >= 0),
    UNIQUE (series_id, number)
) STRICT;

CREATE TABLE game_bettors (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    seat         INTEGER CHECK (seat BETWEEN 0 AND 3),
    joined_at    REAL NOT NULL
) STRICT;
CREATE INDEX game_bettors_by_user ON game_bettors (user_id);
