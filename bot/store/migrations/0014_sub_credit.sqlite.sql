-- 0014: how a league counts a seat that changed hands during play (`/mj sub`).
--
-- `league_seasons.sub_credit`: the season's rule. 'most-moves' (the default, and what
-- seasons stored before this migration get): the seat's result (counted points, placement,
-- win, rating) is the person's who made most of the seat's own moves. 'shared': the seat's
-- counted points are shared among the people who held it in proportion to the moves each
-- made; its placement, win and rating stay with the one who made most.
--
-- `league_result_holders`: for each recorded seat that changed hands, everyone who held it
-- (a bot too: `user_id` NULL), in the order they first sat there (`part`), with the seat's
-- own moves they made (not the ones a timeout or a stand-in made for them) and the counted
-- points the season's rule gave them. `credited` marks the one the seat's `league_results`
-- row is for; the others' points count toward the standings beside it.
--
-- The 'vacation_days' audit action: a director changing the open season's vacation budget
-- (`/league season vacation_days`), with the budget before and after.
--
-- Adds a column with a default, a table and an audit action: every row of 0001-0013 stays as
-- it was.

ALTER TABLE league_seasons ADD COLUMN sub_credit TEXT NOT NULL DEFAULT 'most-moves'
    CHECK (sub_credit IN ('most-moves', 'shared'));

CREATE TABLE league_result_holders (
    game_id      INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    part         INTEGER NOT NULL CHECK (part >= 0),
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL CHECK (is_bot IN (0, 1)),
    moves        INTEGER NOT NULL CHECK (moves >= 0),
    points       INTEGER NOT NULL,
    credited     INTEGER NOT NULL CHECK (credited IN (0, 1)),
    PRIMARY KEY (game_id, seat, part),
    FOREIGN KEY (game_id, seat) REFERENCES league_results (game_id, seat),
    CHECK ((user_id IS NULL) = (is_bot = 1))
) STRICT, WITHOUT ROWID;

INSERT INTO audit_actions (name) VALUES ('vacation_days');
