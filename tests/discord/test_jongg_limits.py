"""What people type is bounded: every text option of every command has a `max_length`, and a
value far past it (3,000 characters, as a command synced before its limits existed would let
through) still gets a short, private, friendly answer that quotes it shortened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake import FakeDiscord, Perm, Upload, World
from jongg_table import JonggTable, assert_clean, jongg_client

from bot.library import shipped_card_paths

#: A value far over every limit, with what a careless paste might hold.
LONG = ("x" * 2980 + " `quoted` @everyone")[:3000]
STRING = 3


def text_options(definition: dict[str, Any], path: tuple[str, ...] = ()
                 ) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every text option of a synced command, with the command's full name."""
    for option in definition.get("options") or []:
        if int(option["type"]) in (1, 2):
            yield from text_options(option, (*path, option["name"]))
        elif int(option["type"]) == STRING:
            yield " ".join([*path, option["name"]]), option


async def test_every_text_option_is_bounded_and_long_values_are_answered(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    director = fake_discord.add_role(world.guild, "Directors", Perm.MANAGE_GUILD)
    world.guild.member(world.alice).roles.append(director)
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        unbounded = [f"/{command['name']} {name}"
                     for command in fake_discord.commands[None]
                     for name, option in text_options(command)
                     if not 0 < option.get("max_length", 0) <= 300]
        assert not unbounded, f"text options without a sensible max_length: {unbounded}"

        table = await JonggTable.open(fake_discord, world, client, [alice], bots=3)
        made = await fake_discord.slash(alice, world.general, "league create",
                                        {"name": "Tuesday Club"})
        await made.reply()
        card = Upload("house.jongg", shipped_card_paths()[0].read_bytes())
        asked: list[tuple[str, Any, dict[str, Any]]] = [
            ("mj new", world.tables, {"card": LONG}),
            ("mj new", world.tables, {"house": LONG}),
            ("mj discard", table.thread, {"tile": LONG}),
            ("rules", world.general, {"topic": LONG}),
            ("card show", world.general, {"name": LONG}),
            ("card default", world.general, {"name": LONG}),
            ("card delete", world.general, {"name": LONG}),
            ("card upload", world.general, {"file": card, "name": LONG}),
            ("analyze", world.general, {"tiles": LONG}),
            ("analyze", world.general, {"tiles": "FF 2026B", "exposed": LONG}),
            ("analyze", world.general, {"tiles": "FF 2026B", "card": LONG}),
            ("league create", world.tables, {"name": LONG}),
            ("league season start", world.general, {"name": LONG}),
            ("league season start", world.general, {"card": LONG}),
            ("league season start", world.general, {"house": LONG}),
            ("league adjust", world.general, {"game": table.game_id, "reason": LONG}),
        ]
        for command, channel, options in asked:
            handle = await fake_discord.slash(alice, channel, command, options, lengths=False)
            answer = await handle.reply()
            said = f"/{command} {sorted(options)}: {answer.content!r}"
            assert answer.ephemeral, f"a refusal was public: {said}"
            assert 0 < len(answer.content) < 1000, said
            assert "x" * 60 not in answer.content, f"the value was echoed in full: {said}"
            assert "Sorry, something went wrong" not in answer.content, said

        for command, option in [("mj new", "card"), ("mj new", "house"), ("mj discard", "tile"),
                                ("card show", "name"), ("card delete", "name"),
                                ("analyze", "card"), ("league season start", "card"),
                                ("league season start", "house")]:
            channel = table.thread if command == "mj discard" else world.general
            typed = await fake_discord.autocomplete(alice, channel, command, option, LONG)
            assert await typed.choices() == [], f"/{command} {option} suggested something"
    assert_clean(fake_discord, caplog)
