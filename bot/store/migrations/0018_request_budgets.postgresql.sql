-- 0018: request budgets the bot's processes share (`bot.store.budgets`).
--
-- One row per budget (Discord's global limit of the bot token, a rate-limit bucket the
-- token shares): `grants` is JSON, each process's name (`Database.owner`) with when each
-- of its requests stops counting against the limit (epoch seconds). Processes that share
-- the bot token take from it as they need, so one busy process may use nearly all of it.
-- Nothing here outlives the processes that wrote it: `jongg db copy` leaves it out.

CREATE TABLE request_budgets (
    budget  TEXT PRIMARY KEY,
    grants  TEXT NOT NULL
);
