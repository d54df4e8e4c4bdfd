-- 0012 (PostgreSQL; see the .sqlite.sql for the notes): a game's revision, counted up by
-- triggers whenever something a game is rebuilt from changes, so a process holding an older
-- copy of the game rebuilds it before its next move.

ALTER TABLE games ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

-- The game's own thread or status changed: counted on the row being written.
CREATE FUNCTION jongg_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.revision := OLD.revision + 1;
    RETURN NEW;
END
$$;

-- A row of the game's (its `game_id`) was added, changed or removed.
CREATE FUNCTION jongg_game_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET revision = revision + 1
    WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.game_id ELSE NEW.game_id END;
    RETURN NULL;
END
$$;

-- A seat's options (keyed by the seat's row) were set or changed.
CREATE FUNCTION jongg_seat_options_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE games SET revision = revision + 1
    WHERE id = (SELECT game_id FROM seats WHERE id = NEW.seat_id);
    RETURN NULL;
END
$$;

CREATE TRIGGER games_revision BEFORE UPDATE OF thread_id, status ON games
    FOR EACH ROW WHEN (OLD.thread_id IS DISTINCT FROM NEW.thread_id
                       OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION jongg_game_changed();
CREATE TRIGGER actions_revision AFTER INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION jongg_game_row_changed();
CREATE TRIGGER clocks_revision AFTER INSERT OR DELETE ON clocks
    FOR EACH ROW EXECUTE FUNCTION jongg_game_row_changed();
CREATE TRIGGER seats_revision AFTER INSERT OR UPDATE ON seats
    FOR EACH ROW EXECUTE FUNCTION jongg_game_row_changed();
CREATE TRIGGER seat_reclaims_revision AFTER INSERT ON seat_reclaims
    FOR EACH ROW EXECUTE FUNCTION jongg_game_row_changed();
CREATE TRIGGER seat_options_revision AFTER INSERT OR UPDATE ON seat_options
    FOR EACH ROW EXECUTE FUNCTION jongg_seat_options_changed();
