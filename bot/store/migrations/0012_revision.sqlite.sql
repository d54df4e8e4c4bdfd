-- 0012: a game's revision, counted up by the database itself whenever something a game is
-- rebuilt from changes: its log (actions), its clocks (set or stopped; a claim is not a
-- change), its seats (taken, handed over, a closed DM), its seats' options, a seat taken
-- back from a stand-in, and the game's own thread and status.
--
-- When several bot processes share the database a click may reach a process whose copy of
-- the game is older (another process moved since). Before a move, under the game's lock,
-- the process compares the revision it last saw with the stored one and rebuilds the game
-- from the store when they differ (`bot.tables.service`). Triggers, not the store's code,
-- count, so no write can forget to, and no store function needs to know.
--
-- Adds a column with a default (every game of 0001-0011 starts at revision 0) and
-- triggers: every row stays as it was.

ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER games_revision AFTER UPDATE OF thread_id, status ON games
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.id;
END;

CREATE TRIGGER actions_revision AFTER INSERT ON actions
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER clocks_set_revision AFTER INSERT ON clocks
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER clocks_stopped_revision AFTER DELETE ON clocks
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = OLD.game_id;
END;

CREATE TRIGGER seats_taken_revision AFTER INSERT ON seats
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seats_changed_revision AFTER UPDATE ON seats
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seat_reclaims_revision AFTER INSERT ON seat_reclaims
BEGIN
    UPDATE games SET revision = revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seat_options_set_revision AFTER INSERT ON seat_options
BEGIN
    UPDATE games SET revision = revision + 1
    WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
END;

CREATE TRIGGER seat_options_changed_revision AFTER UPDATE ON seat_options
BEGIN
    UPDATE games SET revision = revision + 1
    WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
END;
