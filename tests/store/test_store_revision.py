"""A game's revision counts every change to what the game is rebuilt from, on both
databases, so a process holding an older copy of the game can tell it must bring it up to
date; what does not change the game (a clock claimed, a read, a message marked sent) leaves it
alone. Its setup revision counts those changes but the log's and the clocks', so that process
can tell when catching up on the moves it missed is enough."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from store_helpers import FakeClock, new_game

from bot.store import ClockKind, Database, Game


async def test_every_change_a_game_is_rebuilt_from_counts_and_nothing_else(
        db: Database, clock: FakeClock) -> None:
    game = await new_game(db)
    other = await new_game(db, first_user=2000)

    async def counts(change: Callable[[], Awaitable[object]], *, counted: bool = True,
                     setup: bool = True, of: Game = game) -> None:
        before, untouched = await db.games.revision(of.id), await db.games.revision(other.id)
        await change()
        after = await db.games.revision(of.id)
        assert (after.changes > before.changes) is counted, change
        assert (after.setup > before.setup) is (counted and setup), change
        assert await db.games.revision(other.id) == untouched

    await counts(lambda: db.actions.append_actions(game.id, 0, [("East: discard 3B", 1000)]),
                 setup=False)
    await counts(lambda: db.clocks.set_clock(game.id, ClockKind.TURN, seat=0,
                                             due_at=clock.now - 1, at_seq=1), setup=False)
    await counts(lambda: db.clocks.claim_due(), counted=False)
    await counts(lambda: db.games.load_game(game.id), counted=False)
    await counts(lambda: db.clocks.clear_clock(game.id, ClockKind.TURN, seat=0), setup=False)
    await counts(lambda: db.seats.set_dm_closed(game.id, 2, True))
    await counts(lambda: db.seats.set_options(game.id, 1, '{"auto_sort": false}'))
    await counts(lambda: db.seats.set_options(game.id, 1, '{"auto_sort": true}'))
    await counts(lambda: db.seats.replace_seat(game.id, 3, user_id=None, display_name="Bot"))
    await counts(lambda: db.seats.record_reclaim(game.id, 0, 1000))
    await counts(lambda: db.games.set_thread(game.id, 555))
    await counts(lambda: db.games.set_lobby_message(game.id, 556), counted=False)
    await counts(lambda: db.games.abort_game(game.id))
