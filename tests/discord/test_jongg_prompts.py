"""A seat's controls fit Discord's limits and offer every option, however many there are: calls
behind one "Call…" button, dead-hand declarations behind a question that must be confirmed."""

from __future__ import annotations

from dataclasses import replace

from fake import walk_components

from bot.discord.components import Folder
from bot.discord.prompts import PromptBuilder
from bot.engine.cards import load_card
from bot.engine.game import (
    SIAMESE,
    Option,
    Phase,
    View,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.actions import Call, DeclareDead, Discard, Exchange, Mahjong, Pass
from bot.engine.tiles import tile_name
from bot.library import shipped_card_paths
from bot.tables.narrate import headline
from bot.tables.notifier import Table
from bot.tables.seat_options import JokerCalls, SeatOptions
from renderer.measure import recording

CARD = load_card(next(p for p in shipped_card_paths() if p.stem == "jongg-original")
                 .read_text())
TABLE = Table(7, 1, 2, 3, ("Alice", "Carol"), (11, 12), SIAMESE, CARD, True)


def layout(options: tuple[Option, ...], phase: Phase = Phase.TURN,
           table: Table = TABLE) -> tuple[list[dict[str, object]], View]:
    """The action rows of seat 0's controls for these options, and the view they are for."""
    start = view(new_game(SIAMESE, CARD, 1, ("Alice", "Carol")), 0)
    seen = replace(start, phase=phase, legal=options, action_count=40)
    rows: list[dict[str, object]] = PromptBuilder().controls(table, seen).to_components()
    return rows, seen


def offered(rows: list[dict[str, object]]) -> list[int]:
    found: list[int] = []
    for item in walk_components(rows):  # type: ignore[arg-type]
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith("jg:a:"):
            found.append(int(custom_id.rsplit(":", 1)[1]))
        elif custom_id.startswith("jg:d:"):
            found += [int(o["value"]) for o in item["options"]]
    return sorted(found)


def labels(rows: list[dict[str, object]]) -> list[str]:
    return [str(i["label"]) for i in walk_components(rows)  # type: ignore[arg-type]
            if i.get("type") == 2]


def within_limits(rows: list[dict[str, object]]) -> None:
    assert len(rows) <= 5
    ids: list[str] = []
    for row in rows:
        items = row["components"]
        assert isinstance(items, list) and 1 <= len(items) <= 5
        for item in items:
            ids.append(item["custom_id"])
            assert len(item["custom_id"]) <= 100
            if item["type"] == 2:
                assert len(item["label"]) <= 80
            else:
                assert len(items) == 1 and 1 <= len(item["options"]) <= 25
                assert all(len(o["label"]) <= 100 for o in item["options"])
    assert len(ids) == len(set(ids))


def opened(seen: View, which: Folder, table: Table = TABLE) -> tuple[str, list[dict[str, object]]]:
    """What a folder button shows: its text and its rows."""
    text, controls = PromptBuilder().folder(table, seen, which)
    rows: list[dict[str, object]] = controls.to_components()
    within_limits(rows)
    return text, rows


CALLS = tuple(Option(Call(0, 5, size, jokers, rack), deadens=jokers == 3)
              for rack in (0, 1) for size in (3, 4, 5, 6) for jokers in range(4)
              if jokers < size)
JOKER_ONLY = [i for i, o in enumerate(CALLS) if o.action.jokers == o.action.size - 1]  # type: ignore[union-attr]
#: The calls the default options hide: those only jokers would fill, and those that kill.
HIDDEN = [i for i, o in enumerate(CALLS) if i in JOKER_ONLY or o.deadens]
#: Options that offer every call.
EVERY_CALL = SeatOptions(joker_calls=JokerCalls.OFFER, skip_deadening=False)


async def test_every_option_is_offered_and_calls_and_declarations_are_folded() -> None:
    discards = tuple(Option(Discard(0, kind)) for kind in range(30))
    options = (Option(Mahjong(0, rack=1)), *discards, *CALLS, Option(DeclareDead(0, 1)),
               Option(DeclareDead(0, 1, rack=1)))
    rows, seen = layout(options)
    within_limits(rows)
    assert offered(rows) == list(range(1 + len(discards)))
    shown = len(CALLS) - len(HIDDEN)
    assert labels(rows) == ["Mah Jongg! on rack 2", f"Call 6 Bam… ({shown} ways)",
                            "Declare a hand dead…"]
    # "Call…" opens every call but those only jokers would fill and those that kill...
    text, calls = opened(seen, Folder.CALLS)
    assert text == (f"Ways to call 6 Bam: ({len(HIDDEN)} more are hidden by your settings: "
                    "`/mj settings`.)")
    first = 1 + len(discards)
    assert offered(calls) == [first + i for i in range(len(CALLS)) if i not in HIDDEN]
    # ... or, for a seat that asks for them, all of them (in menus, as they are many).
    offering = replace(TABLE, seat_options=(EVERY_CALL,) * 2)
    _, every = opened(seen, Folder.CALLS, offering)
    assert offered(every) == [first + i for i in range(len(CALLS))]
    menu = [str(o["label"]) for i in walk_components(every)  # type: ignore[arg-type]
            for o in i.get("options") or []]
    assert "⚠ Call quint of 6 Bam with 3 jokers on rack 1" in menu
    # The declarations open a choice of hand, each named by its rack; nothing is declared.
    text, hands = opened(seen, Folder.DEAD)
    assert "a wrong declaration costs you your own hand" in text
    assert labels(hands) == ["Carol's rack 1 (nothing exposed)",
                             "Carol's rack 2 (nothing exposed)"]
    assert offered(hands) == []


async def test_declaring_dead_is_confirmed_naming_the_hand_and_the_cost() -> None:
    rows, seen = layout((Option(Discard(0, 1)), Option(DeclareDead(0, 1, rack=1))))
    assert labels(rows) == ["Declare a hand dead…"]
    text, question = opened(seen, Folder.DEAD)
    assert text.startswith("Declare Carol's rack 2 dead (nothing exposed)? It is dead only if")
    assert "If you're wrong, one of your own racks dies instead" in text
    assert labels(question) == ["Yes, declare it dead", "Cancel"]
    assert offered(question) == [1]


async def test_a_crowded_claim_shows_one_call_button_and_pass() -> None:
    state = new_game(SIAMESE, CARD, 1, ("Alice", "Carol"))
    while not (state.phase is Phase.CLAIM and len(legal_actions(state, 0)) > 10):
        seat = seats_to_act(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0].action)
    seen = view(state, 0)
    rows = PromptBuilder().controls(TABLE, seen).to_components()
    within_limits(rows)
    assert [label.split("…")[0] for label in labels(rows)] == [
        f"Call {tile_name(seen.claim.kind)}", "Pass"]  # type: ignore[union-attr]
    assert isinstance(seen.legal[offered(rows)[0]].action, Pass)


async def test_a_lone_call_is_a_button_and_joker_only_calls_are_skipped() -> None:
    calls = tuple(Option(Call(0, 5, 3, jokers)) for jokers in range(3))
    rows, _ = layout((Option(Pass(0)), *calls[2:]), Phase.CLAIM)
    assert labels(rows) == ["Pass"]  # only jokers would fill it: skipped
    rows, _ = layout((Option(Pass(0)), *calls[1:]), Phase.CLAIM)
    assert labels(rows) == ["Call pung of 6 Bam with 1 joker on rack 1", "Pass"]
    offering = replace(TABLE, seat_options=(EVERY_CALL,) * 2)
    rows, _ = layout((Option(Pass(0)), *calls), Phase.CLAIM, offering)
    assert labels(rows) == ["Call 6 Bam… (3 ways)", "Pass"]


async def test_the_rack_picture_is_captioned_with_the_prompt_headline() -> None:
    seen = view(new_game(SIAMESE, CARD, 1, ("Alice", "Carol")), 0)
    with recording() as drawings:
        prompt = await PromptBuilder().build(TABLE, seen)
    (rack,) = drawings
    said = headline(seen, TABLE.names)
    assert f"**{said}**" in prompt.text
    shown = " ".join(run.text for run in rack.texts)  # wrapped or not
    assert said in shown
    # ... followed by the holder's options that are on.
    assert "On: auto-sort, skip joker-only calls, skip killing calls" in shown


async def test_every_prompt_fits_with_settings_and_my_games_after_the_moves() -> None:
    """The whole prompt (moves, Reclaim for a kept seat, then Settings and My games) keeps
    within Discord's five rows and 25 components whatever the moves; the two extras come
    last, and only a prompt whose rows the moves fill goes without them (`/mj settings` and
    `/mj games` open the same)."""
    discards = tuple(Option(Discard(0, kind)) for kind in range(30))
    swaps = tuple(Option(Exchange(0, kind, 1, group)) for kind in range(9) for group in (0, 1))
    cases = {
        "a turn with everything": ((Option(Mahjong(0, rack=1)), *discards, *CALLS,
                                    Option(DeclareDead(0, 1))), Phase.TURN),
        "a claim": ((Option(Pass(0)), *CALLS), Phase.CLAIM),
        "many swaps": ((*discards, *swaps, Option(DeclareDead(0, 1))), Phase.TURN),
        "more swaps than buttons": ((*discards, *swaps, *swaps[:10]), Phase.TURN),
        "every row a menu": ((*discards, *(Option(Exchange(0, kind, 1, group))
                                           for kind in range(9) for group in range(6))),
                             Phase.TURN),
    }
    start = view(new_game(SIAMESE, CARD, 1, ("Alice", "Carol")), 0)
    for name, (options, phase) in cases.items():
        seen = replace(start, phase=phase, legal=options, action_count=40)
        for stood_in in (False, True):
            prompt = await PromptBuilder().build(TABLE, seen, stood_in=stood_in)
            rows: list[dict[str, object]] = prompt.view.to_components()
            within_limits(rows)
            shown = labels(rows)
            moves = len(PromptBuilder().controls(TABLE, seen).to_components())
            if moves < 5:  # a row to spare: the extras come last
                assert shown[-2:] == ["Settings", "My games"], (name, shown)
            else:
                assert shown == [], (name, shown)
            assert ("Reclaim" in shown) == (stood_in and moves < 5), (name, shown)
