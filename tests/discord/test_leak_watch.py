"""The leak watch's own rules (`leak_watch.py`), on texts and knowledge made by hand: a run of
tiles naming one copy more than its reader may know is a leak, and so is a pair never seen
together; option text (`Jokers=8`, a house rule as typed) names no tile, so a `/mj new
house:` autocomplete is not read as offering tiles. The watch is test infrastructure every
end-to-end game relies on: a rule of it that stopped failing would let real leaks through."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from fake import FakeDiscord, World
from jongg_table import JonggTable, jongg_client
from leak_watch import Knowledge, LeakWatch, tile_runs

from bot.engine.tiles import parse_tile, parse_tiles


def kinds(text: str) -> Counter[int]:
    return Counter(parse_tiles(text))


def test_a_run_naming_one_copy_more_than_the_reader_may_know_is_a_leak() -> None:
    knows = Knowledge(copies=kinds("3B 3B 5D"), groups=[kinds("3B 3B 5D")])
    assert knows.problems(kinds("3B 3B")) == []
    assert knows.problems(kinds("3B 3B 3B")) == ["3 x 3 Bam (may know of 2)"]
    assert knows.problems(kinds("5D 5D")) == ["2 x 5 Dot (may know of 1)"]


def test_a_pair_never_seen_together_is_a_leak_even_when_each_tile_is_known() -> None:
    # Both tiles have been face up, apart: naming them together says who holds them.
    knows = Knowledge(copies=kinds("3B 5D"), groups=[kinds("3B"), kinds("5D")])
    assert knows.problems(kinds("3B")) == [] and knows.problems(kinds("5D")) == []
    assert knows.problems(kinds("3B 5D")) == ["3 Bam, 5 Dot together, which it never saw "
                                              "together"]
    # Two copies of one kind, seen one at a time, are a pair too.
    apart = Knowledge(copies=kinds("3B 3B"), groups=[kinds("3B"), kinds("3B")])
    assert apart.problems(kinds("3B 3B")) == ["3 Bam, 3 Bam together, which it never saw "
                                              "together"]
    assert Knowledge(copies=kinds("3B 5D"), groups=[kinds("3B 5D")]).problems(
        kinds("3B 5D")) == []


def test_option_names_are_not_tiles() -> None:
    for text in ("Jokers=8", "Jokers=8 Blanks=0 dealer_tiles=14", "jokers=8 blanks=0",
                 "J=1", "flowers=8"):
        assert tile_runs(text) == [], text
    # A tile before other text is still one, and a seat after `=` is still no tile.
    assert tile_runs("3B, Joker and N") == [kinds("3B J N")]
    assert tile_runs("South: exposed pung 3B jokers=1 from=East") == [kinds("3B")]
    assert tile_runs("Joker = 8") == [Counter([parse_tile("J")])]


async def test_house_option_suggestions_are_not_read_as_tiles(
        fake_discord: FakeDiscord, world: World, tmp_path: Path) -> None:
    """Typing house rules at a seated table: the suggestions (which repeat what was typed,
    `Jokers=8 …`) offer no tiles, and nothing typed there counts as tiles the typist knows."""
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.bob], bots=3)
        watch = await LeakWatch.attach(table)
        for typed in ("Jokers=8 ", "Jokers=8 Blanks=0 j", "joker"):
            typing = await fake_discord.autocomplete(world.bob, table.thread, "mj new",
                                                     "house", typed)
            assert await typing.choices(), typed
            await watch(table)
        assert watch.typed[world.bob.id] == []
