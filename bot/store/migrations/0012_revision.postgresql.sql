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

-- A row of the game's was added, changed or removed: one with the game's `game_id`, or a
-- seat's options (keyed by the seat's row).
CREATE FUNCTION jongg_game_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed RECORD;
BEGIN
    IF TG_OP = 'DELETE' THEN
        changed := OLD;
    ELSE
        changed := NEW;
    END IF;
    IF TG_TABLE_NAME = 'seat_options' THEN
        UPDATE games SET revision = revision + 1
        WHERE id = (SELECT game_id FROM seats WHERE id = changed.seat_id);
    ELSE
        UPDATE games SET revision = revision + 1 WHERE id = changed.game_id;
    END IF;
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
    FOR EACH ROW EXECUTE FUNCTION jongg_game_row_changed();
