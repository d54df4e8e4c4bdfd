-- 0001: the games part of the bot.
--
-- Guilds and their defaults, server cards, games, who holds each seat (and who held it
-- before), the append-only action log, clocks and results. Leagues (seasons, standings,
-- ratings, audit log) arrive as 0002+ and only add tables and nullable columns that point at
-- these: guilds(id), games(id), result_seats(game_id, seat, user_id).
--
-- Conventions: STRICT tables; Discord ids are INTEGER; times are REAL UTC epoch seconds;
-- text the store does not interpret (rules, breakdowns) is JSON checked with json_valid.
-- Closed sets that may grow (statuses, clock kinds, finish reasons) are small lookup tables
-- referenced by foreign key, so a later migration adds a value with one INSERT instead of
-- rebuilding a big table to change a CHECK.

CREATE TABLE game_statuses (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO game_statuses (name) VALUES ('lobby'), ('playing'), ('finished'), ('aborted');

CREATE TABLE clock_kinds (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO clock_kinds (name) VALUES ('turn'), ('claim'), ('reminder');

CREATE TABLE finish_reasons (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO finish_reasons (name) VALUES ('mahjong'), ('wall'), ('abort'), ('timeout');

-- A Discord server and its defaults for new games; NULL means "the bot's default".
CREATE TABLE guilds (
    id                     INTEGER PRIMARY KEY,
    default_rules          TEXT,
    default_shipped_card   TEXT,
    default_server_card_id INTEGER REFERENCES server_cards (id) ON DELETE SET NULL,
    pace_name              TEXT,
    turn_seconds           INTEGER CHECK (turn_seconds > 0),
    claim_seconds          INTEGER CHECK (claim_seconds > 0),
    hints                  INTEGER CHECK (hints IN (0, 1)),
    created_at             REAL NOT NULL,
    updated_at             REAL NOT NULL,
    CHECK (default_shipped_card IS NULL OR default_server_card_id IS NULL),
    CHECK (pace_name IS NOT NULL OR (turn_seconds IS NULL AND claim_seconds IS NULL))
) STRICT;

-- A server's private card files. Every query filters on guild_id.
CREATE TABLE server_cards (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL REFERENCES guilds (id),
    name        TEXT NOT NULL COLLATE NOCASE CHECK (length(name) BETWEEN 1 AND 32),
    card_text   TEXT NOT NULL,
    uploaded_by INTEGER NOT NULL,
    uploaded_at REAL NOT NULL,
    UNIQUE (guild_id, name)
) STRICT;

-- AUTOINCREMENT: game ids are carried by buttons, so an id is never handed out twice.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL REFERENCES guilds (id),
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    lobby_message_id INTEGER,
    host_user_id     INTEGER NOT NULL,
    status           TEXT NOT NULL DEFAULT 'lobby' REFERENCES game_statuses (name),
    rules            TEXT NOT NULL CHECK (json_valid(rules)),
    card_source      TEXT NOT NULL CHECK (card_source IN ('shipped', 'server')),
    card_name        TEXT NOT NULL,
    server_card_id   INTEGER REFERENCES server_cards (id) ON DELETE SET NULL,
    card_text        TEXT NOT NULL,
    seed             INTEGER NOT NULL,
    pace_name        TEXT NOT NULL,
    turn_seconds     INTEGER CHECK (turn_seconds > 0),
    claim_seconds    INTEGER CHECK (claim_seconds > 0),
    hints            INTEGER NOT NULL CHECK (hints IN (0, 1)),
    created_at       REAL NOT NULL,
    started_at       REAL,
    finished_at      REAL,
    CHECK (card_source = 'server' OR server_card_id IS NULL)
) STRICT;
CREATE INDEX games_unfinished ON games (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_by_guild ON games (guild_id, created_at);
CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL;

-- One row per holding of a seat. In the lobby a leaver's row is deleted; once play starts a
-- seat that changes hands keeps the old row (left_at set) and gains a new one, so the first
-- row of each seat is who sat down at the start and from_seq says when each holder took over.
CREATE TABLE seats (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    dm_closed    INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1)),
    from_seq     INTEGER NOT NULL DEFAULT 0 CHECK (from_seq >= 0),
    joined_at    REAL NOT NULL,
    left_at      REAL,
    CHECK ((user_id IS NULL) = (is_bot = 1))
) STRICT;
CREATE UNIQUE INDEX seats_current_holder ON seats (game_id, seat) WHERE left_at IS NULL;
CREATE UNIQUE INDEX seats_one_per_person ON seats (game_id, user_id)
    WHERE left_at IS NULL AND user_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;

-- The append-only action log: seq runs 0, 1, 2, … with no gaps per game.
CREATE TABLE actions (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    seq           INTEGER NOT NULL CHECK (seq >= 0),
    action        TEXT NOT NULL CHECK (length(action) > 0 AND instr(action, char(10)) = 0
                                       AND instr(action, char(13)) = 0),
    actor_user_id INTEGER,
    created_at    REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- The store's code checks the expected seq; these triggers hold the same rules for anything
-- else that writes to the file.
CREATE TRIGGER actions_contiguous BEFORE INSERT ON actions
WHEN NEW.seq <> coalesce((SELECT max(seq) FROM actions WHERE game_id = NEW.game_id), -1) + 1
BEGIN
    SELECT RAISE(ABORT, 'actions must be appended in order, with no gaps');
END;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- Deadlines that survive restarts: at most one per (game, kind, seat); seat NULL means the
-- whole table. at_seq is the log length when the clock was set.
CREATE TABLE clocks (
    id      INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind    TEXT NOT NULL REFERENCES clock_kinds (name),
    seat    INTEGER CHECK (seat >= 0),
    due_at  REAL NOT NULL,
    at_seq  INTEGER NOT NULL CHECK (at_seq >= 0),
    set_at  REAL NOT NULL
) STRICT;
CREATE UNIQUE INDEX clocks_one_per_purpose ON clocks (game_id, kind, ifnull(seat, -1));
CREATE INDEX clocks_by_due ON clocks (due_at);

-- How a game ended, and each seat's points with who held the seat at the end.
CREATE TABLE results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id),
    reason      TEXT NOT NULL REFERENCES finish_reasons (name),
    winner_seat INTEGER CHECK (winner_seat >= 0),
    details     TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
    recorded_at REAL NOT NULL,
    CHECK ((reason = 'mahjong') = (winner_seat IS NOT NULL))
) STRICT;

CREATE TABLE result_seats (
    game_id      INTEGER NOT NULL REFERENCES results (game_id),
    seat         INTEGER NOT NULL CHECK (seat >= 0),
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    points       INTEGER NOT NULL,
    breakdown    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(breakdown)),
    PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
CREATE INDEX result_seats_by_user ON result_seats (user_id) WHERE user_id IS NOT NULL;
