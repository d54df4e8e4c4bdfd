-- 0007: each person's own options (how they like to be asked and what may be played for
-- them), kept across games and servers, keyed by their Discord user id. JSON like a seat's
-- options (0004), as the table layer writes them, so a new option needs no new column: a
-- missing key reads as that option's default. A person with no row has every default.
--
-- A seat held by a person starts from that person's options; a seat that already has a row of
-- its own in seat_options (0004) keeps it, so games stored before this migration play on with
-- the options they had.
--
-- The 'auto' clock kind: when the moves a seat's options play for it are made (every such
-- move waits the same table-level delay, so how long a claim window stays open reveals
-- nothing about who could call).
--
-- Adds a table and a clock kind: every row of 0001-0006 stays as it was.

CREATE TABLE player_options (
    user_id  INTEGER PRIMARY KEY,
    options  TEXT NOT NULL CHECK (json_valid(options))
) STRICT;

INSERT INTO clock_kinds (name) VALUES ('auto');
