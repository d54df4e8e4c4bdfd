"""The end of a Siamese-style game says what happened: Mah Jonggs laid out before the wall ran
out are named (in the table's last line and in the result picture's words), never "no winner";
and the Mah Jongg that ends a game names its winner, wherever it sits in the result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from table_helpers import CARD_TEXT, HOST, Clock, Recorder

from bot.bots import Player, make_player
from bot.engine.cards import load_card
from bot.engine.game import SIAMESE, GameState, apply, new_game, seats_to_act, spectator_view, view
from bot.engine.game.events import EndReason, Event, MahjongShown
from bot.scenes import result_scene
from bot.store import Database, GameResult
from bot.tables.narrate import public_line
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from renderer import render_result

CARD = load_card(CARD_TEXT)
NAMES = ("Ann", "Bo")
#: Seeds whose Normal games end with the wall run out after each player laid out a Mah
#: Jongg, and with Bo's second Mah Jongg after Ann's first.
RAN_OUT, BO_WINS = 3, 2


def bots(seed: int) -> list[Player]:
    return [make_player("normal", CARD, SIAMESE.counts, seed * 8 + seat) for seat in (0, 1)]


def played(seed: int) -> tuple[GameState, list[Event]]:
    """A whole game between Normal bots; the end and every event."""
    state = new_game(SIAMESE, CARD, seed, NAMES)
    players = bots(seed)
    events: list[Event] = []
    while state.result is None:
        seat = seats_to_act(state)[0]
        seen = view(state, seat)
        state, more = apply(state, players[seat].choose(seen, seen.legal))
        events += more
    return state, events


def test_a_game_that_ran_out_after_mahjongs_names_them() -> None:
    state, events = played(RAN_OUT)
    assert state.result is not None and state.result.reason is EndReason.WALL
    shown = sorted((e.seat, e.hand_id) for e in events if isinstance(e, MahjongShown))
    assert [seat for seat, _ in shown] == [0, 1]
    laid = f"Ann laid out {shown[0][1]}; Bo laid out {shown[1][1]}"
    lines = [line for e in events if (line := public_line(
        e, NAMES, racks=2, shown=state.result.declared)) is not None]
    assert lines[-1].startswith(f"The wall ran out with Mah Jonggs on the table: {laid}.")
    assert not any("no winner" in line for line in lines)
    scene = result_scene(spectator_view(state), CARD, bots=(False, True))
    assert (scene.title, scene.caption, scene.winner) == ("Tiles ran out", f"{laid}.", None)
    # Each seat shows the Mah Jongg it laid out.
    assert [len(seat.exposures) for seat in scene.seats] == [1, 1]
    assert all(len(seat.exposures[0]) == 14 for seat in scene.seats)
    assert render_result(scene).startswith(b"\x89PNG")


def test_the_mahjong_that_ends_the_game_names_the_winner() -> None:
    state, events = played(BO_WINS)
    assert state.result is not None and state.result.reason is EndReason.MAHJONG
    order = [e.seat for e in events if isinstance(e, MahjongShown)]
    assert order == [0, 1, 1]  # Ann's first, then Bo's first and second
    scene = result_scene(spectator_view(state), CARD, bots=(False, True))
    assert scene.winner == 1 and scene.caption.startswith("Bo ")


async def through_the_service(tmp_path: Path, seed: int) -> tuple[Recorder, GameResult]:
    """The same game played through the table service, Ann's seat moved by her bot: what the
    table was told, and the result the store keeps."""
    async with Database(tmp_path / "j.db") as db:
        recorder = Recorder()
        service = TableService(db, recorder, now=Clock(),
                               make_bot=lambda level, card, rules, seed: make_player(
                                   "normal", card, rules.counts, seed))
        game = await service.open_table(
            guild_id=1, channel_id=2, host_id=HOST, host_name="Ann", seed=seed,
            options=TableOptions(SIAMESE, "jongg-original", CARD_TEXT, pace="untimed"))
        await service.start_game(game.id, HOST)
        ann = bots(seed)[0]
        while service.in_play(game.id):
            seen = service.view_for(game.id, HOST)
            await service.act(game.id, HOST, ann.choose(seen, seen.legal), seen.action_count)
        await service.close()
        result = await db.games.result(game.id)
    assert result is not None
    return recorder, result


async def test_the_table_is_told_who_laid_out_what(tmp_path: Path) -> None:
    recorder, result = await through_the_service(tmp_path, RAN_OUT)
    last = recorder.tables[-1].lines[-1]
    assert last.startswith("The wall ran out with Mah Jonggs on the table: Ann laid out ")
    assert "; Bot 1 laid out " in last
    assert result.winner_seat is None


async def test_the_store_keeps_the_winner_of_the_mahjong_that_ended_it(tmp_path: Path) -> None:
    _, result = await through_the_service(tmp_path, BO_WINS)
    assert result.winner_seat == 1
    state, _ = played(BO_WINS)
    assert state.result is not None
    won = [d.hand_id for d in state.result.declared if d.seat == 1 and d.ordinal == 2]
    assert json.loads(result.details)["hands"][0] == won[0]


@pytest.mark.parametrize("seed", [RAN_OUT, BO_WINS])
def test_the_last_line_and_the_picture_show_the_same_money_and_label_hand_scores(
        seed: int) -> None:
    # The terminal said "Player +145, Bot 1 +20" (the hands' scores) where the result picture
    # said +125 / -125 (what changes hands).
    state, events = played(seed)
    result = state.result
    assert result is not None and result.settlement != result.totals
    last = public_line(events[-1], NAMES, racks=2, shown=result.declared)
    assert last is not None
    paid = ", ".join(f"{name} {amount:+d}" for name, amount in zip(NAMES, result.settlement,
                                                                   strict=True))
    scores = ", ".join(f"{name} {points}" for name, points in zip(NAMES, result.totals,
                                                                  strict=True))
    assert last.endswith(f". {paid}. Hand scores: {scores}.")
    scene = result_scene(spectator_view(state), CARD, bots=(False, True))
    assert tuple(seat.amount for seat in scene.seats) == result.settlement
