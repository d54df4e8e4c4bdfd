"""Trying to break the clocks and presence end to end, through the fake Discord: a traveller
typing the time zones at the edges of the clock face (half- and quarter-hour offsets, UTC+14
and UTC-12) and names that are almost right, a night owl asking for quiet hours all day, and
the bot stopped and started again on the same database while a clock was due, with the wall
clock jumped forward by days. Each probe asserts what should hold (a clear private answer;
nobody timed out for time their quiet hours covered; no move lost or made twice; no
traceback logged), not only that nothing crashed. The service-level probes are in
`tests/tables/test_clocks_break_it.py`; what the other clock files cover is not repeated."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from fake import FakeDiscord, Message, User, World
from jongg_table import assert_clean, jongg_client

from bot.tables.timekeeping import zone


def local(zone_name: str, *when: int) -> float:
    """A wall-clock time in a zone (year, month, day, hour[, minute]) as a Unix time."""
    return datetime(*when, tzinfo=zone(zone_name)).timestamp()  # type: ignore[misc]


async def settings(fake: FakeDiscord, world: World, user: User, **typed: str) -> Message:
    """`/mj settings` with the text options `typed`; the private answer."""
    return await (await fake.slash(user, world.tables, "mj settings", typed)).reply()


def private_to(answer: Message, user: User) -> None:
    """A short answer only `user` sees, worded for them (not the bot's apology)."""
    assert answer.ephemeral and answer.visible_to is user, answer.content
    assert 0 < len(answer.content) < 2000, answer.content
    assert "Sorry, something went wrong" not in answer.content, answer.content


async def test_zones_at_the_edges_and_names_almost_right_get_clear_private_answers(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    """A traveller types offsets as people write them: UTC+5:45 is Kathmandu and UTC+5:30
    Kolkata, and the answer says so without offering the same city under its old spelling
    (Asia/Katmandu, Asia/Calcutta: the zone database keeps both names) as somewhere else to
    choose; UTC+14 is Kiritimati, UTC-12 the fixed zone with its warning. A name almost
    right is refused, naming the place once; quiet hours of 23 hours are refused; and every
    answer is private, with nothing kept from a refusal."""
    alice = world.alice
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        for typed, place, alias in (("UTC+5:45", "Asia/Kathmandu", "Asia/Katmandu"),
                                    ("+05:30", "Asia/Kolkata", "Asia/Calcutta")):
            shown = await settings(fake_discord, world, alice, time_zone=typed)
            private_to(shown, alice)
            assert shown.content.startswith(f"I read `{typed}` as {place}"), shown.content
            assert f"Time zone: {place}" in shown.content
            assert alias not in shown.content, shown.content
        shown = await settings(fake_discord, world, alice, time_zone="UTC+14")
        assert shown.content.startswith("I read `UTC+14` as Pacific/Kiritimati"), shown.content
        shown = await settings(fake_discord, world, alice, time_zone="UTC-12")
        private_to(shown, alice)
        assert "Etc/GMT+12 is a fixed offset (UTC-12)" in shown.content, shown.content
        kept = await client.service.player_options(alice.id)
        assert kept.time_zone == "Etc/GMT+12"
        refused = await settings(fake_discord, world, alice, time_zone="Asia/Kathmandoo")
        private_to(refused, alice)
        assert refused.content.endswith("Did you mean Asia/Kathmandu?"), refused.content
        refused = await settings(fake_discord, world, alice, quiet_hours="8-7")
        private_to(refused, alice)
        assert "at most 16 hours" in refused.content, refused.content
        assert await client.service.player_options(alice.id) == kept
    assert_clean(fake_discord, caplog)
