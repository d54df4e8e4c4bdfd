-- 0003: the outbox — every message a game owes the outside, written in the transaction of the
-- move (or clock, or result) it reports, so a crash between the commit and the send loses
-- nothing: the next start sends whatever is still pending.
--
-- One row per delivery (a table post, a seat's DM, the result, a reminder, a notice), in the
-- order of `id` within a game. A row does not hold the rendered message: what a message shows
-- is a function of the game's log, so it holds what identifies it — the action count it
-- reports (`at_seq`), its kind, the seat it goes to, and the lines and deadlines the log alone
-- does not give (`body`, JSON the store keeps as is). `id` is never handed out twice
-- (AUTOINCREMENT), because the table layer makes each send idempotent with a key built from it.
--
-- Only adds tables; same conventions as 0001.

CREATE TABLE delivery_kinds (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO delivery_kinds (name) VALUES
    ('table'), ('seat'), ('game_over'), ('reminder'), ('moved'), ('host');

CREATE TABLE delivery_states (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO delivery_states (name) VALUES ('pending'), ('sent'), ('failed');

CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    at_seq      INTEGER NOT NULL CHECK (at_seq >= 0),
    kind        TEXT NOT NULL REFERENCES delivery_kinds (name),
    seat        INTEGER CHECK (seat >= 0),
    body        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(body)),
    state       TEXT NOT NULL DEFAULT 'pending' REFERENCES delivery_states (name),
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    message_ids TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(message_ids)),
    error       TEXT,
    created_at  REAL NOT NULL,
    done_at     REAL,
    CHECK ((state = 'pending') = (done_at IS NULL))
) STRICT;
CREATE INDEX outbox_pending ON outbox (game_id, id) WHERE state = 'pending';
CREATE INDEX outbox_by_game ON outbox (game_id, kind);
