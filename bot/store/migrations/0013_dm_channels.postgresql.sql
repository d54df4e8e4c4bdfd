-- 0013 (PostgreSQL; see the .sqlite.sql for the notes): each person's DM channel with the
-- bot, by their Discord user id, opened once by whichever process DMs the person first.
--
-- Adds a table: every row of 0001-0012 stays as it was.

CREATE TABLE dm_channels (
    user_id    BIGINT PRIMARY KEY,
    channel_id BIGINT NOT NULL
);
