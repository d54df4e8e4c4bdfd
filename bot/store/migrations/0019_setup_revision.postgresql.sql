-- 0019 (PostgreSQL; see the .sqlite.sql for the notes): a game's setup revision, counted up
-- by triggers whenever something a game is rebuilt from changes other than its log and its
-- clocks, so a process whose copy only missed other processes' moves catches up on them
-- instead of rebuilding the game.

ALTER TABLE games ADD COLUMN setup_revision BIGINT NOT NULL DEFAULT 0;

-- The game's own thread or status changed: counted on the row being written.
CREATE FUNCTION jongg_game_setup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.setup_revision := OLD.setup_revision + 1;
    RETURN NEW;
END
$$;

-- A seat of the game was added or changed, a seat taken back, or a seat's options set.
CREATE FUNCTION jongg_game_setup_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'seat_options' THEN
        UPDATE games SET setup_revision = setup_revision + 1
        WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
    ELSE
        UPDATE games SET setup_revision = setup_revision + 1 WHERE id = NEW.game_id;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER games_setup_revision BEFORE UPDATE OF thread_id, status ON games
    FOR EACH ROW WHEN (OLD.thread_id IS DISTINCT FROM NEW.thread_id
                       OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION jongg_game_setup_changed();
CREATE TRIGGER seats_setup_revision AFTER INSERT OR UPDATE ON seats
    FOR EACH ROW EXECUTE FUNCTION jongg_game_setup_row_changed();
CREATE TRIGGER seat_reclaims_setup_revision AFTER INSERT ON seat_reclaims
    FOR EACH ROW EXECUTE FUNCTION jongg_game_setup_row_changed();
CREATE TRIGGER seat_options_setup_revision AFTER INSERT OR UPDATE ON seat_options
    FOR EACH ROW EXECUTE FUNCTION jongg_game_setup_row_changed();
