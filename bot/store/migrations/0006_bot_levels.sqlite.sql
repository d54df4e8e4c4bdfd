-- 0006: bot levels — the level of each bot seat and of each bot of a series, a server's
-- stand-in level, and the audit log of server settings.
--
-- A bot is named by its level (the table layer's names: easy, normal, strong), a closed set
-- that may grow, so it is a lookup table. A seat's level belongs to one holding of the seat
-- (`seat_bot_levels.seat_id`), like its options (0004): a bot that takes over during play has
-- its own. A bot holding with no level (seated before this migration) plays at the table
-- layer's default level. `series_bot_levels` keeps the level of a series' bots, so Play again
-- seats the same bots. `guilds.bot_level` is the level of the bots that fill empty seats at
-- Start and stand in for absent players (NULL: the bot's default).
--
-- `guild_audit` keeps every change of a server's settings: who made it, when, and the
-- settings that changed, before and after (JSON objects keyed by setting). Append-only.
--
-- Adds tables and one nullable column: every row of 0001-0005 stays as it was.

CREATE TABLE bot_levels (
    name TEXT PRIMARY KEY
) STRICT, WITHOUT ROWID;
INSERT INTO bot_levels (name) VALUES ('easy'), ('normal'), ('strong');

ALTER TABLE guilds ADD COLUMN bot_level TEXT REFERENCES bot_levels (name);

CREATE TABLE seat_bot_levels (
    seat_id INTEGER PRIMARY KEY REFERENCES seats (id),
    level   TEXT NOT NULL REFERENCES bot_levels (name)
) STRICT;

CREATE TABLE series_bot_levels (
    series_id INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    level     TEXT NOT NULL REFERENCES bot_levels (name),
    PRIMARY KEY (series_id, position),
    FOREIGN KEY (series_id, position) REFERENCES series_people (series_id, position)
) STRICT, WITHOUT ROWID;

CREATE TABLE guild_audit (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL REFERENCES guilds (id),
    actor_user_id INTEGER NOT NULL,
    before        TEXT NOT NULL CHECK (json_valid(before)),
    after         TEXT NOT NULL CHECK (json_valid(after)),
    at            REAL NOT NULL
) STRICT;
CREATE INDEX guild_audit_by_guild ON guild_audit (guild_id, id);

CREATE TRIGGER guild_audit_no_update BEFORE UPDATE ON guild_audit
BEGIN
    SELECT RAISE(ABORT, 'the server settings audit log is append-only');
END;
CREATE TRIGGER guild_audit_no_delete BEFORE DELETE ON guild_audit
BEGIN
    SELECT RAISE(ABORT, 'the server settings audit log is append-only');
END;
