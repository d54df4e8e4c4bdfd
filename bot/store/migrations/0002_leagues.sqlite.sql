-- 0002: leagues — seasons, standings, ratings, tournament rounds and the directors' audit log.
--
-- Only adds tables (and lookup rows): nothing of 0001 is rebuilt, so upgrading a busy file is
-- quick and every game, seat, action and result it holds stays exactly as it was.
--
-- A league lives in one channel of a server. Its seasons follow one another (at most one is
-- open); each fixes the table size, card, scoring profile and rules its games must be played
-- with. A game finished in the league's channel while a season is open is recorded in that
-- season: `league_games` links it, `league_results` keeps each seat's counted points, its
-- placement and the score breakdown in columns (hand, section, value, self-pick, jokerless,
-- exposures, who threw, penalties, wall game, dead) so standings and stats are plain SQL
-- aggregates. Bot seats are kept (is_bot = 1) and left out of standings and ratings.
--
-- Same conventions as 0001: STRICT tables, Discord ids are INTEGER, times are REAL UTC epoch
-- seconds, closed sets that may grow are lookup tables.

CREATE TABLE scoring_profiles (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO scoring_profiles (name) VALUES ('nmjl'), ('tournament'), ('siamese');

-- A clock for the tournament rule "time's up: every player scores 0" (the table layer sets it).
INSERT INTO clock_kinds (name) VALUES ('game_limit');

CREATE TABLE audit_actions (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO audit_actions (name) VALUES
    ('create'), ('season_start'), ('season_end'), ('round_start'), ('adjust_points'),
    ('uncount'), ('count');

-- One league per channel; names are unique per server, ignoring case.
CREATE TABLE leagues (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   INTEGER NOT NULL REFERENCES guilds (id),
    name       TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 40),
    channel_id INTEGER NOT NULL UNIQUE,
    created_by INTEGER NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (guild_id, name)
) STRICT;

-- Seasons are numbered 1, 2, … per league. `players` is the table size, `rules` the engine's
-- RuleSet as JSON (it already holds players and scoring; the copies are for queries and
-- checks). `min_games` is how many games a player needs to be ranked; `game_minutes` the
-- per-game time limit of tournament play (NULL: none).
CREATE TABLE league_seasons (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    number       INTEGER NOT NULL CHECK (number >= 1),
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    players      INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    card_name    TEXT NOT NULL CHECK (length(card_name) >= 1),
    scoring      TEXT NOT NULL REFERENCES scoring_profiles (name),
    rules        TEXT NOT NULL CHECK (json_valid(rules)),
    min_games    INTEGER NOT NULL DEFAULT 0 CHECK (min_games >= 0),
    game_minutes INTEGER CHECK (game_minutes > 0),
    started_at   REAL NOT NULL,
    started_by   INTEGER NOT NULL,
    ended_at     REAL,
    ended_by     INTEGER,
    UNIQUE (league_id, number),
    CHECK ((ended_at IS NULL) = (ended_by IS NULL)),
    CHECK (ended_at IS NULL OR ended_at >= started_at)
) STRICT;
CREATE UNIQUE INDEX league_seasons_one_open ON league_seasons (league_id) WHERE ended_at IS NULL;

-- Everyone who played a recorded game or joined; `registered` players (joined with
-- /league join) are the ones seated in tournament rounds. The name is the one they had when
-- they first joined or played.
CREATE TABLE league_players (
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    registered   INTEGER NOT NULL CHECK (registered IN (0, 1)),
    joined_at    REAL NOT NULL,
    PRIMARY KEY (league_id, user_id)
) STRICT, WITHOUT ROWID;

-- Tournament rounds: who sits at which table (seat 0 is East).
CREATE TABLE league_rounds (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    season_id  INTEGER NOT NULL REFERENCES league_seasons (id),
    number     INTEGER NOT NULL CHECK (number >= 1),
    seed       INTEGER NOT NULL,
    started_at REAL NOT NULL,
    started_by INTEGER NOT NULL,
    UNIQUE (season_id, number)
) STRICT;

CREATE TABLE league_round_seats (
    round_id INTEGER NOT NULL REFERENCES league_rounds (id),
    table_no INTEGER NOT NULL CHECK (table_no >= 1),
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    user_id  INTEGER NOT NULL,
    PRIMARY KEY (round_id, table_no, seat),
    UNIQUE (round_id, user_id)
) STRICT, WITHOUT ROWID;

-- A finished game recorded in a season. `id` is the recording order, which ratings are
-- computed in. A game that does not fit the season (another table size, card or rules) is
-- kept with counted = 0 and a note saying why, so it is never looked at again.
CREATE TABLE league_games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL UNIQUE REFERENCES results (game_id),
    season_id   INTEGER NOT NULL REFERENCES league_seasons (id),
    round_id    INTEGER REFERENCES league_rounds (id),
    table_no    INTEGER CHECK (table_no >= 1),
    reason      TEXT NOT NULL REFERENCES finish_reasons (name),
    counted     INTEGER NOT NULL CHECK (counted IN (0, 1)),
    note        TEXT NOT NULL DEFAULT '',
    finished_at REAL NOT NULL,
    recorded_at REAL NOT NULL,
    CHECK ((round_id IS NULL) = (table_no IS NULL))
) STRICT;
CREATE INDEX league_games_by_season ON league_games (season_id, id);
CREATE INDEX league_games_by_round ON league_games (round_id, table_no) WHERE round_id IS NOT NULL;

-- Each seat of a recorded game. `points` are the counted points (a director's correction
-- changes them; `table_points` keeps what the table scored). `placement` is 1 for the best
-- score, ties share a place, and a wall game is a tie. `season_id` and `counted` repeat the
-- game's (a trigger keeps `counted` in step) so standings read one covering index (a
-- partial index would not do: SQLite then reads the table to re-check its condition).
-- Breakdown: the Mah Jongg hand (id, card section, printed value), self-picked, jokerless
-- (earned the bonus: no jokers, not singles and pairs), the winner's exposures, `threw` (this
-- seat discarded the winning tile), `penalty` (points lost to penalties, as a positive
-- number), wall game, dead hand.
CREATE TABLE league_results (
    game_id      INTEGER NOT NULL REFERENCES league_games (game_id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    season_id    INTEGER NOT NULL REFERENCES league_seasons (id),
    counted      INTEGER NOT NULL CHECK (counted IN (0, 1)),
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    points       INTEGER NOT NULL,
    table_points INTEGER NOT NULL,
    placement    INTEGER NOT NULL CHECK (placement >= 1),
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    hand_id      TEXT,
    section      TEXT,
    hand_value   INTEGER,
    self_picked  INTEGER NOT NULL DEFAULT 0 CHECK (self_picked IN (0, 1)),
    jokerless    INTEGER NOT NULL DEFAULT 0 CHECK (jokerless IN (0, 1)),
    exposures    INTEGER CHECK (exposures >= 0),
    threw        INTEGER NOT NULL DEFAULT 0 CHECK (threw IN (0, 1)),
    penalty      INTEGER NOT NULL DEFAULT 0 CHECK (penalty >= 0),
    wall_game    INTEGER NOT NULL DEFAULT 0 CHECK (wall_game IN (0, 1)),
    dead         INTEGER NOT NULL DEFAULT 0 CHECK (dead IN (0, 1)),
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) = (is_bot = 1)),
    CHECK (won = 0 OR hand_id IS NOT NULL)
) STRICT, WITHOUT ROWID;
CREATE INDEX league_results_standings
    ON league_results (season_id, counted, is_bot, user_id, points, won, placement);

CREATE TRIGGER league_games_counted AFTER UPDATE OF counted ON league_games
BEGIN
    UPDATE league_results SET counted = NEW.counted WHERE game_id = NEW.game_id;
END;

-- Per-season skill ratings (Weng-Lin / OpenSkill, Plackett-Luce): mean and uncertainty,
-- over `games` rated games. Rebuilt from the season's placements after a correction.
CREATE TABLE league_ratings (
    season_id INTEGER NOT NULL REFERENCES league_seasons (id),
    user_id   INTEGER NOT NULL,
    mu        REAL NOT NULL,
    sigma     REAL NOT NULL CHECK (sigma > 0),
    games     INTEGER NOT NULL CHECK (games >= 0),
    PRIMARY KEY (season_id, user_id)
) STRICT, WITHOUT ROWID;

-- What directors did, who did it and why; `before` and `after` are JSON. Append-only.
CREATE TABLE league_audit (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id     INTEGER NOT NULL REFERENCES leagues (id),
    season_id     INTEGER REFERENCES league_seasons (id),
    game_id       INTEGER REFERENCES games (id),
    actor_user_id INTEGER NOT NULL,
    action        TEXT NOT NULL REFERENCES audit_actions (name),
    reason        TEXT NOT NULL DEFAULT '',
    before        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(before)),
    after         TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(after)),
    at            REAL NOT NULL
) STRICT;
CREATE INDEX league_audit_by_league ON league_audit (league_id, id);

CREATE TRIGGER league_audit_no_update BEFORE UPDATE ON league_audit
BEGIN
    SELECT RAISE(ABORT, 'the league audit log is append-only');
END;
CREATE TRIGGER league_audit_no_delete BEFORE DELETE ON league_audit
BEGIN
    SELECT RAISE(ABORT, 'the league audit log is append-only');
END;
