"""Teaching tables through the table service (`bot.tables.teaching`): every table update of
a teaching table carries each seat's own view, built by the engine for that seat, while a
normal table's carry none; a teaching table is refused in a league's channel and on a server
that doesn't allow them, and a league would not count one."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_helpers import ANN, BO, CARD_TEXT, CY, HOST, Clock, Recorder, league_season, make_service

from bot.engine.errors import IllegalAction
from bot.engine.game import STANDARD, THREE_PLAYER, seats_to_act
from bot.league.record import season_fit
from bot.store import Database
from bot.tables.options import TableOptions, read_table_options
from bot.tables.server_config import ConfigChange, change_settings
from bot.tables.service import TableService
from bot.tables.teaching import racks_text

PEOPLE = (HOST, ANN, BO, CY)


async def _played(service: TableService, *, teaching: bool, moves: int = 30,
                  channel: int = 2) -> int:
    """A table of four people, `moves` of their first options played."""
    game = await service.open_table(
        guild_id=1, channel_id=channel, host_id=HOST, host_name="Host",
        options=TableOptions(STANDARD, "jongg-original", CARD_TEXT, pace="untimed",
                             teaching=teaching))
    for index, user in enumerate(PEOPLE[1:], start=1):
        await service.join(game.id, user, f"Player {index}")
    await service.start_game(game.id, HOST)
    for _ in range(moves):
        seat = seats_to_act(service.registry.games[game.id].state)[0]
        mine = service.view_for(game.id, PEOPLE[seat])
        await service.act(game.id, PEOPLE[seat], mine.legal[0].action, mine.action_count)
    await service.flush(game.id)
    return game.id


async def test_a_teaching_tables_updates_show_every_seats_own_rack(tmp_path: Path) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, Clock(), auto_delay=0)
        game_id = await _played(service, teaching=True)
        assert read_table_options((await db.games.game(game_id)).rules).teaching
        assert service.table(game_id).teaching
        assert recorder.tables and all(len(u.racks) == 4 for u in recorder.tables)
        newest = recorder.tables[-1]
        for seat, user in enumerate(PEOPLE):
            assert newest.racks[seat].seat == seat
            assert newest.racks[seat].concealed == service.view_for(game_id, user).concealed
        text = racks_text(service.table(game_id).names, newest.racks)
        assert text.startswith("**Teaching table: every rack is open**\nEast (Host): ")
        await service.close()


async def test_a_normal_tables_updates_show_no_rack(tmp_path: Path) -> None:
    recorder = Recorder()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, recorder, Clock(), auto_delay=0)
        game_id = await _played(service, teaching=False)
        assert not service.table(game_id).teaching
        assert recorder.tables and all(u.racks == () for u in recorder.tables)
        assert all(u.view.seat is None or u.view.concealed == () for u in recorder.tables)
        await service.close()


async def test_a_teaching_table_is_refused_in_a_league_and_where_the_server_says_no(
        tmp_path: Path) -> None:
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), Clock())
        await league_season(db, 60)  # a league in channel 2
        options = TableOptions(THREE_PLAYER, "jongg-original", CARD_TEXT, teaching=True)
        with pytest.raises(IllegalAction, match="league's channel"):
            await service.open_table(guild_id=1, channel_id=2, host_id=HOST,
                                     host_name="Host", options=options)
        opened = await service.open_table(guild_id=1, channel_id=3, host_id=HOST,
                                          host_name="Host", options=options)
        await change_settings(db, 1, ConfigChange(teaching=False), HOST, manager=True)
        with pytest.raises(IllegalAction, match="doesn't allow teaching tables"):
            await service.open_table(guild_id=1, channel_id=3, host_id=HOST,
                                     host_name="Host", options=options)
        # Only the one opened where it was allowed exists.
        assert [g.id for g in await db.games.unfinished_games()] == [opened.id]
        # And a league would never count a teaching table as one of its games.
        season = await db.leagues.current_season(
            (await db.leagues.leagues(1))[0].id)
        assert season is not None
        game = await db.games.game(opened.id)
        assert season_fit(season, game) == "a teaching table: every rack was open"
        await service.close()
