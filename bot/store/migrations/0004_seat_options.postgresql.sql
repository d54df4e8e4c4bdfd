-- 0004 (PostgreSQL; see the .sqlite.sql for the notes): each seat holder's options — how they like to be asked (which calls to be offered,
-- and more to come). One JSON object per holding of a seat, kept as the table layer writes it,
-- so a new option needs no new column: a missing key reads as that option's default. A
-- holder with no row here has every default; a new holder of the seat starts without one.
--
-- Only adds a table: nothing of 0001-0003 changes.

CREATE TABLE seat_options (
    seat_id  BIGINT PRIMARY KEY REFERENCES seats (id),
    options  TEXT NOT NULL
);
