-- 0011 (PostgreSQL; see the .sqlite.sql for the notes): claims, so that when several bot processes share the database each due clock is
-- acted on by one of them and each game's outbox is drained by one of them.
--
-- A clock is claimed by a conditional UPDATE (`clocks.claimed_by`, the process, and
-- `claimed_until`, when the claim lapses): a process takes a due clock that nobody holds,
-- that it holds itself, or whose claim has lapsed (its process died). A game's outbox is
-- claimed as a whole (`outbox_claims`, one row per game), because its entries go out in
-- order: one process sends them all while its lease lasts and renews it as it goes; a
-- killed process's games are taken over once their leases lapse.
--
-- Adds nullable columns and a table: every row of 0001-0010 stays as it was.

ALTER TABLE clocks ADD COLUMN claimed_by TEXT;
ALTER TABLE clocks ADD COLUMN claimed_until DOUBLE PRECISION;

CREATE TABLE outbox_claims (
    game_id       BIGINT PRIMARY KEY REFERENCES games (id),
    claimed_by    TEXT NOT NULL,
    claimed_until DOUBLE PRECISION NOT NULL
);
