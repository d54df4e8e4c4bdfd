"""A seat's controls fit Discord's limits and offer every option, however many there are."""

from __future__ import annotations

from dataclasses import replace

from fake import walk_components

from bot.discord.prompts import PromptBuilder
from bot.engine.cards import load_card
from bot.engine.game import (
    SIAMESE,
    Option,
    Phase,
    apply,
    legal_actions,
    new_game,
    seats_to_act,
    view,
)
from bot.engine.game.actions import Call, DeclareDead, Discard, Mahjong, Pass
from bot.library import shipped_card_paths
from bot.tables.narrate import headline
from bot.tables.notifier import Table
from renderer.measure import recording

CARD = load_card(next(p for p in shipped_card_paths() if p.stem == "jongg-original")
                 .read_text())
TABLE = Table(7, 1, 2, 3, ("Alice", "Carol"), (11, 12), SIAMESE, CARD, True)


def layout(options: tuple[Option, ...], phase: Phase = Phase.TURN) -> list[dict[str, object]]:
    """The action rows of seat 0's controls for these options."""
    start = view(new_game(SIAMESE, CARD, 1, ("Alice", "Carol")), 0)
    seen = replace(start, phase=phase, legal=options, action_count=40)
    rows: list[dict[str, object]] = PromptBuilder().controls(TABLE, seen).to_components()
    return rows


def offered(rows: list[dict[str, object]]) -> list[int]:
    found: list[int] = []
    for item in walk_components(rows):  # type: ignore[arg-type]
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith("jg:a:"):
            found.append(int(custom_id.rsplit(":", 1)[1]))
        elif custom_id.startswith("jg:d:"):
            found += [int(o["value"]) for o in item["options"]]
    return sorted(found)


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


async def test_every_option_fits_even_when_there_are_many() -> None:
    discards = tuple(Option(Discard(0, kind)) for kind in range(30))
    calls = tuple(Option(Call(0, 5, size, jokers, rack), deadens=jokers == 3)
                  for rack in (0, 1) for size in (3, 4, 5, 6) for jokers in range(4))
    options = (Option(Mahjong(0, rack=1)), *discards, *calls, Option(DeclareDead(0, 1)))
    rows = layout(options)
    within_limits(rows)
    assert offered(rows) == list(range(len(options)))
    buttons = [i["label"] for i in walk_components(rows) if i.get("type") == 2]  # type: ignore[arg-type]
    assert buttons == ["Mah Jongg! on rack 2"]


async def test_a_crowded_claim_keeps_pass_as_a_button() -> None:
    state = new_game(SIAMESE, CARD, 1, ("Alice", "Carol"))
    while not (state.phase is Phase.CLAIM and len(legal_actions(state, 0)) > 25):
        seat = seats_to_act(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0].action)
    seen = view(state, 0)
    rows = PromptBuilder().controls(TABLE, seen).to_components()
    within_limits(rows)
    assert offered(rows) == list(range(len(seen.legal)))
    buttons = [i for i in walk_components(rows) if i.get("type") == 2]
    assert [b["label"] for b in buttons] == ["Pass"]
    assert isinstance(seen.legal[int(buttons[0]["custom_id"].rsplit(":", 1)[1])].action, Pass)


async def test_few_options_are_all_buttons() -> None:
    calls = tuple(Option(Call(0, 5, 3, jokers)) for jokers in range(3))
    rows = layout((Option(Pass(0)), *calls), Phase.CLAIM)
    within_limits(rows)
    labels = [i["label"] for i in walk_components(rows)  # type: ignore[arg-type]
              if i.get("type") == 2]
    assert labels == ["Call pung of 6 Bam on rack 1", "Call pung of 6 Bam with 1 joker on rack 1",
                      "Call pung of 6 Bam with 2 jokers on rack 1", "Pass"]


async def test_the_rack_picture_is_captioned_with_the_prompt_headline() -> None:
    seen = view(new_game(SIAMESE, CARD, 1, ("Alice", "Carol")), 0)
    with recording() as drawings:
        prompt = await PromptBuilder().build(TABLE, seen)
    (rack,) = drawings
    said = headline(seen, TABLE.names)
    assert f"**{said}**" in prompt.text
    assert said in [run.text for run in rack.texts]
