-- 0014 (PostgreSQL; see the .sqlite.sql for the notes): how a league counts a seat that
-- changed hands during play (`/mj sub`): the season's rule, and everyone who held each such
-- recorded seat with the moves they made and the points the rule gave them; and the
-- 'vacation_days' audit action (a director changing the open season's vacation budget).
--
-- Adds a column with a default, a table and an audit action: every row of 0001-0013 stays as
-- it was.

ALTER TABLE league_seasons ADD COLUMN sub_credit TEXT NOT NULL DEFAULT 'most-moves'
    CHECK (sub_credit IN ('most-moves', 'shared'));

CREATE TABLE league_result_holders (
    game_id      BIGINT NOT NULL,
    seat         BIGINT NOT NULL,
    part         BIGINT NOT NULL CHECK (part >= 0),
    user_id      BIGINT,
    display_name TEXT NOT NULL,
    is_bot       BIGINT NOT NULL CHECK (is_bot IN (0, 1)),
    moves        BIGINT NOT NULL CHECK (moves >= 0),
    points       BIGINT NOT NULL,
    credited     BIGINT NOT NULL CHECK (credited IN (0, 1)),
    PRIMARY KEY (game_id, seat, part),
    FOREIGN KEY (game_id, seat) REFERENCES league_results (game_id, seat),
    CHECK ((user_id IS NULL) = (is_bot = 1))
);

INSERT INTO audit_actions (name) VALUES ('vacation_days');
