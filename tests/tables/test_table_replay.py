"""What a game's log shows, and when: nothing in the lobby, only what the table has seen
while the game is played, everything (seed and actions) once it is over or aborted."""

from __future__ import annotations

from pathlib import Path

from table_helpers import CARD_TEXT, HOST, Clock, Recorder, make_service

from bot.engine.game import STANDARD, parse_event, public
from bot.engine.game.events import Dealt, Discarded, Drew, Received
from bot.store import Database, GameStatus
from bot.tables.options import TableOptions
from bot.tables.replay import GameLog, LogKind, game_log, replay_stored
from bot.tables.service import TableService

#: A seed no other number in a log looks like.
SEED = 7_340_271_989_313


async def _open(service: TableService) -> int:
    game = await service.open_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", seed=SEED,
        options=TableOptions(STANDARD, "jongg-original", CARD_TEXT))
    return game.id


async def _play(service: TableService, game_id: int, moves: int) -> None:
    """The host plays its first option `moves` times (the bots answer), or to the end."""
    for _ in range(moves):
        if not service.in_play(game_id):
            return
        mine = service.view_for(game_id, HOST)
        await service.act(game_id, HOST, mine.legal[0].action, mine.action_count)


async def _log(db: Database, game_id: int) -> GameLog:
    return game_log(await db.games.game(game_id), await db.actions.actions(game_id))


async def test_the_log_shows_nothing_then_what_the_table_saw_then_everything(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), Clock())
        game_id = await _open(service)
        assert await _log(db, game_id) == GameLog(LogKind.NOTHING, (), 0)

        await service.start_game(game_id, HOST)
        await _play(service, game_id, 30)  # the Charleston and some turns
        game = await db.games.game(game_id)
        actions = await db.actions.actions(game_id)
        assert game.status is GameStatus.PLAYING
        log = await _log(db, game_id)
        assert log.kind is LogKind.PUBLIC and log.moves == len(actions)
        text = "\n".join(log.lines)
        assert str(SEED) not in text and "seed" not in text
        # Every line is an event in the form anyone at the table sees (an action would not
        # read as one: `give` names the tiles a seat passed).
        events = [parse_event(line, STANDARD.players) for line in log.lines[1:]]
        assert all(event == public(event) for event in events)
        # ... and the record misses nothing the table saw: the same events as the game's,
        # with the deal, the passes and the draws as counts only.
        _, truth = replay_stored(game, [a.text for a in actions])
        assert [e for e in events if isinstance(e, Discarded)] == [
            e for e in truth if isinstance(e, Discarded)]
        assert len([e for e in truth if isinstance(e, Discarded)]) > 5
        hidden = [e for e in events if isinstance(e, Dealt | Received | Drew)]
        assert len(hidden) == len([e for e in truth if isinstance(e, Dealt | Received | Drew)])
        assert {e.kinds for e in hidden if isinstance(e, Dealt | Received)} == {None}
        assert {e.kind for e in hidden if isinstance(e, Drew)} == {None}

        await _play(service, game_id, 5000)
        log = await _log(db, game_id)
        actions = await db.actions.actions(game_id)
        assert log.kind is LogKind.FULL
        assert f"seed {SEED}" in log.lines[0]
        assert [line.split(". ", 1)[1] for line in log.lines[1:]] == [a.text for a in actions]
        await service.close()


async def test_an_aborted_game_shows_its_whole_log(tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), Clock())
        game_id = await _open(service)
        await service.start_game(game_id, HOST)
        await _play(service, game_id, 3)
        await service.abort(game_id, HOST)
        log = await _log(db, game_id)
        assert log.kind is LogKind.FULL and f"seed {SEED}" in log.lines[0]
        assert log.moves == len(await db.actions.actions(game_id)) > 0
        await service.close()
