-- 0019: a game's setup revision, counted up by the database whenever something a game is
-- rebuilt from changes other than its log and its clocks: its seats (taken, handed over, a
-- closed DM), its seats' options, a seat taken back from a stand-in, and the game's own
-- thread and status. The revision of 0012 still counts every change.
--
-- A process whose copy of a game is older than the store's (another process made the last
-- moves) tells the two apart: when only the log and the clocks changed, it applies the
-- actions it has not seen and reads the clocks again (`Restorer.catch_up`), a few
-- statements, instead of rebuilding the game from its whole log; any other change still
-- rebuilds it. Triggers, not the store's code, count, so no write can forget to.
--
-- Adds a column with a default (every game starts at setup revision 0) and triggers: every
-- row stays as it was.

ALTER TABLE games ADD COLUMN setup_revision INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER games_setup_revision AFTER UPDATE OF thread_id, status ON games
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1 WHERE id = NEW.id;
END;

CREATE TRIGGER seats_taken_setup_revision AFTER INSERT ON seats
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seats_changed_setup_revision AFTER UPDATE ON seats
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seat_reclaims_setup_revision AFTER INSERT ON seat_reclaims
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1 WHERE id = NEW.game_id;
END;

CREATE TRIGGER seat_options_set_setup_revision AFTER INSERT ON seat_options
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1
    WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
END;

CREATE TRIGGER seat_options_changed_setup_revision AFTER UPDATE ON seat_options
BEGIN
    UPDATE games SET setup_revision = setup_revision + 1
    WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
END;
