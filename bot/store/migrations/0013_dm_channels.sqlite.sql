-- 0013: each person's DM channel with the bot, by their Discord user id.
--
-- Discord gives a bot one DM channel per person, for good; opening it (POST
-- /users/@me/channels) is a request in a bucket the whole bot token shares. One process
-- remembers the channels it opened, but several processes sharing the database each opened
-- every player's channel again, at once, after every start, and ran into that bucket's
-- limit. Kept here, a channel is opened once by whichever process DMs the person first.
--
-- Adds a table: every row of 0001-0012 stays as it was.

CREATE TABLE dm_channels (
    user_id    INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
) STRICT;
