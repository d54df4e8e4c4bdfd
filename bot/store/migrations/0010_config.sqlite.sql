-- 0010: the rest of a server's settings, beside 0001's defaults and 0006's bot level, all
-- changed with `/mj config` and kept in `guild_audit` like the others. NULL: the bot's default.
--
-- `auto_delay`: seconds every automatic answer at the server's new tables waits (the table
-- layer bounds it; a table keeps the delay it opened with). `teaching`: whether teaching
-- tables may be opened (NULL: allowed). `league_channel_id`: the channel of the server's main
-- league, where `/league` commands used elsewhere look first (a Discord id; the channel may
-- hold no league yet).
--
-- Adds nullable columns: every row of 0001-0009 stays as it was.

ALTER TABLE guilds ADD COLUMN auto_delay REAL CHECK (auto_delay >= 0);
ALTER TABLE guilds ADD COLUMN teaching INTEGER CHECK (teaching IN (0, 1));
ALTER TABLE guilds ADD COLUMN league_channel_id INTEGER;
