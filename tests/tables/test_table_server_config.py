"""A server's settings through the table layer (`bot.tables.server_config`): a manager
changes several at once, each change audited; anyone else, and any bad value, changes
nothing; `/mj config`'s picture of them names who set each; and a new table takes each
default (card, pace and clocks, stand-in level, automatic answers' delay) unless it is told
otherwise, and keeps the delay it opened with."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import ANN, BO, CY, HOST, Clock, Recorder, make_service

from bot.engine.errors import IllegalAction, InvalidInput
from bot.engine.game import STANDARD, seats_to_act
from bot.server_cards import resolve_card
from bot.store import ClockKind, Database, GuildSettings, Pace
from bot.tables.options import PACES, read_table_options
from bot.tables.server_config import (
    AUTO_DELAY_SECONDS,
    ConfigChange,
    change_settings,
    changed_settings,
    new_table_options,
    server_config,
)
from bot.tables.service import TableService
from bot.tables.timekeeping import CLAIM_BOUNDS, TURN_BOUNDS

GUILD = 1
PEOPLE = (HOST, ANN, BO, CY)
#: Several settings changed at once, away from every default.
SEVERAL = ConfigChange(card="jongg-teaching", pace="async", turn_seconds=3600,
                       claim_seconds=600, bot_level="strong", auto_delay=7.0, teaching=False,
                       league_channel_id=4242)


async def test_a_manager_changes_several_settings_in_one_audited_change(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        saved = await change_settings(db, GUILD, SEVERAL, HOST, manager=True)
        assert saved == GuildSettings(shipped_card="jongg-teaching",
                                      pace=Pace("async", 3600, 600), bot_level="strong",
                                      auto_delay=7.0, teaching=False, league_channel_id=4242)
        [entry] = await db.guilds.audit(GUILD)
        assert entry.actor_user_id == HOST
        assert json.loads(entry.after) == {
            "shipped_card": "jongg-teaching",
            "pace": {"name": "async", "turn_seconds": 3600, "claim_seconds": 600},
            "bot_level": "strong", "auto_delay": 7.0, "teaching": False,
            "league_channel_id": 4242}
        # Clocks alone change the default pace's clocks; a new pace starts from its own.
        await change_settings(db, GUILD, ConfigChange(claim_seconds=900), ANN, manager=True)
        assert (await db.guilds.settings(GUILD)).pace == Pace("async", 3600, 900)
        await change_settings(db, GUILD, ConfigChange(pace="relaxed"), ANN, manager=True)
        assert (await db.guilds.settings(GUILD)).pace == PACES["relaxed"][0]


async def test_a_reset_puts_one_setting_back_to_its_default_audited(tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        await change_settings(db, GUILD, SEVERAL, HOST, manager=True)
        for name in ("card", "league_channel", "pace"):
            await change_settings(db, GUILD, ConfigChange(reset=name), ANN, manager=True)
        shown = await server_config(db, GUILD, auto_delay=3.0)
        assert (shown.card, shown.league_channel_id, shown.pace) == (
            "jongg-original", None, PACES["live"][0])
        assert set(shown.changes) == {"bot_level", "auto_delay", "teaching"}
        newest = (await db.guilds.audit(GUILD))[0]
        assert (newest.actor_user_id, json.loads(newest.after)) == (ANN, {"pace": None})
        # A reset and a new value at once: the value is kept.
        await change_settings(db, GUILD, ConfigChange(reset="bot_level", bot_level="easy"),
                              ANN, manager=True)
        assert (await db.guilds.settings(GUILD)).bot_level == "easy"
        with pytest.raises(InvalidInput, match=r"There is no setting `colour`\. Choose one of: "
                                               r"card, pace, bot_level"):
            await change_settings(db, GUILD, ConfigChange(reset="colour"), ANN, manager=True)


async def test_anyone_else_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        with pytest.raises(IllegalAction, match="Only server managers"):
            await change_settings(db, GUILD, SEVERAL, ANN, manager=False)
        assert await db.guilds.settings(GUILD) == GuildSettings()
        assert await db.guilds.audit(GUILD) == []


@pytest.mark.parametrize(("change", "said"), [
    (ConfigChange(pace="slow"), "There is no pace `slow`. Choose one of: untimed, live"),
    (ConfigChange(turn_seconds=5), "The turn clock must be from 30s to 7d, not 5s."),
    (ConfigChange(claim_seconds=2 * 86400), "The claim window must be from 5s to 1d, not 2d."),
    (ConfigChange(pace="untimed", claim_seconds=30), "The untimed pace has no clocks"),
    (ConfigChange(auto_delay=31), "The automatic answers' delay can be 0s to 30s"),
    (ConfigChange(auto_delay=-1), "-1 seconds is out of range"),
    (ConfigChange(card="no-such-card"), "There is no card called `no-such-card`"),
    (ConfigChange(bot_level="hard"), "There is no bot level `hard`"),
    # One bad value among good ones: none of them is kept.
    (ConfigChange(bot_level="easy", teaching=False, auto_delay=99), "0s to 30s"),
])
async def test_a_bad_value_is_explained_and_nothing_changes(tmp_path: Path,
                                                            change: ConfigChange,
                                                            said: str) -> None:
    async with Database(tmp_path / "j.db") as db:
        await change_settings(db, GUILD, ConfigChange(auto_delay=2.0), HOST, manager=True)
        kept = await db.guilds.settings(GUILD)
        with pytest.raises(InvalidInput) as refused:
            await change_settings(db, GUILD, change, HOST, manager=True)
        assert said in refused.value.message
        assert await db.guilds.settings(GUILD) == kept
        assert len(await db.guilds.audit(GUILD)) == 1


async def test_the_settings_shown_say_who_set_each_and_the_rest_are_defaults(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        fresh = await server_config(db, GUILD, auto_delay=3.0)
        assert (fresh.card, fresh.pace, fresh.bot_level, fresh.auto_delay, fresh.teaching,
                fresh.league_channel_id, fresh.changes) == (
            "jongg-original", PACES["live"][0], "normal", 3.0, True, None, {})
        await change_settings(db, GUILD, ConfigChange(bot_level="easy", auto_delay=5),
                              HOST, manager=True)
        await change_settings(db, GUILD, ConfigChange(card="jongg-teaching"), ANN,
                              manager=True)
        shown = await server_config(db, GUILD, auto_delay=3.0)
        assert (shown.card, shown.bot_level, shown.auto_delay) == ("jongg-teaching", "easy",
                                                                   5.0)
        assert {name: entry.actor_user_id for name, entry in shown.changes.items()} == {
            "bot_level": HOST, "auto_delay": HOST, "card": ANN}


async def _opened(service: TableService, db: Database, *, pace: str | None = None,
                  card: str | None = None) -> int:
    """A table opened as `/mj new` opens one on `GUILD`, with four people, started."""
    settings = await db.guilds.settings(GUILD)
    chosen = await resolve_card(db, GUILD, card)
    game = await service.open_table(
        guild_id=GUILD, channel_id=2, host_id=HOST, host_name="Host",
        options=new_table_options(settings, STANDARD, chosen, pace=pace))
    for index, user in enumerate(PEOPLE[1:], start=1):
        await service.join(game.id, user, f"Player {index}")
    return game.id


async def _auto_wait(service: TableService, db: Database, clock: Clock, game_id: int) -> float:
    """How long the table's automatic answers wait: people play their first option until
    one of them has an automatic answer pending (the clock stands still meanwhile)."""
    for _ in range(400):
        autos = [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.AUTO]
        if autos:
            return autos[0].due_at - clock.now
        seat = seats_to_act(service.registry.games[game_id].state)[0]
        mine = service.view_for(game_id, PEOPLE[seat])
        await service.act(game_id, PEOPLE[seat], mine.legal[0].action, mine.action_count)
    raise AssertionError("no automatic answer came")


async def test_a_new_table_takes_each_default_and_keeps_its_delay(tmp_path: Path) -> None:
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, auto_delay=3.0)
        await change_settings(db, GUILD, SEVERAL, HOST, manager=True)
        game_id = await _opened(service, db)
        game = await db.games.game(game_id)
        assert (game.card.name, game.pace) == ("jongg-teaching", Pace("async", 3600, 600))
        assert read_table_options(game.rules).auto_delay == 7.0
        await service.leave(game_id, CY)  # an empty seat, filled at Start
        await service.start_game(game_id, HOST)
        assert await service.stored_levels(game_id) == {3: "strong"}
        assert await _auto_wait(service, db, clock, game_id) == 7.0
        due = {c.kind: c.due_at - clock.now for c in await db.clocks.clocks(game_id)}
        assert ClockKind.TURN in due or ClockKind.CLAIM in due
        assert (due.get(ClockKind.TURN, 3600), due.get(ClockKind.CLAIM, 600)) == (3600, 600)
        # The server changes its delay: the table keeps its own, through a restart too.
        await change_settings(db, GUILD, ConfigChange(auto_delay=1.0), HOST, manager=True)
        assert service.registry.games[game_id].auto_delay == 7.0
        await service.close()
    async with Database(tmp_path / "j.db") as db:
        again = make_service(db, Recorder(), clock, auto_delay=0.5)
        await again.start(run_clocks=False)
        assert again.registry.games[game_id].auto_delay == 7.0
        await again.close()


async def test_what_the_table_is_told_wins_and_a_server_with_no_settings_has_defaults(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), Clock(), auto_delay=3.0)
        plain = await db.games.game(await _opened(service, db))
        assert (plain.card.name, plain.pace) == ("jongg-original", PACES["live"][0])
        # The service's own delay, kept with the table.
        assert read_table_options(plain.rules).auto_delay == 3.0
        await change_settings(db, GUILD, SEVERAL, HOST, manager=True)
        told = await db.games.game(await _opened(service, db, pace="relaxed",
                                                 card="jongg-original"))
        # A pace named plays at that pace's own clocks, not the server's.
        assert (told.card.name, told.pace) == ("jongg-original", PACES["relaxed"][0])
        assert read_table_options(told.rules).auto_delay == 7.0
        await service.close()


#: Any good value of each setting a manager may change.
_GOOD = st.fixed_dictionaries({}, optional={
    "card": st.sampled_from(["jongg-original", "jongg-teaching"]),
    "pace": st.sampled_from(["live", "relaxed", "async"]),
    "turn_seconds": st.integers(*TURN_BOUNDS),
    "claim_seconds": st.integers(*CLAIM_BOUNDS),
    "bot_level": st.sampled_from(["easy", "normal", "strong"]),
    "auto_delay": st.floats(*AUTO_DELAY_SECONDS),
    "teaching": st.booleans(),
    "league_channel_id": st.integers(1, 2**62),
})


@settings(max_examples=40, deadline=None)
@given(st.lists(_GOOD, min_size=1, max_size=4))
def test_any_good_changes_are_kept_and_each_audit_entry_names_what_changed(
        changes: list[dict[str, Any]]) -> None:
    async def run(folder: Path) -> None:
        async with Database(folder / "j.db") as db:
            for number, asked in enumerate(changes):
                before = await db.guilds.settings(GUILD)
                entries = len(await db.guilds.audit(GUILD))
                saved = await change_settings(db, GUILD, ConfigChange(**asked), number,
                                              manager=True)
                assert saved == await db.guilds.settings(GUILD)
                shown = await server_config(db, GUILD, auto_delay=3.0)
                for name, value in asked.items():
                    got = {"card": shown.card, "bot_level": shown.bot_level,
                           "auto_delay": shown.auto_delay, "teaching": shown.teaching,
                           "league_channel_id": shown.league_channel_id,
                           "pace": shown.pace.name, "turn_seconds": shown.pace.turn_seconds,
                           "claim_seconds": shown.pace.claim_seconds}[name]
                    assert got == value, (name, asked, shown)
                log = await db.guilds.audit(GUILD)
                changed = changed_settings(before, saved)
                assert set(changed) <= set(ConfigChange(**asked).names)
                if saved == before:
                    assert changed == [] and len(log) == entries
                else:
                    assert len(log) == entries + 1 and log[0].actor_user_id == number
                    assert changed
                    assert all(name in shown.changes for name in ConfigChange(**asked).names)

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(Path(folder)))
