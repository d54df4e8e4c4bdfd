"""Players' own options through the table service (`bot.tables.auto`, `bot.tables.seat_options`):
each option, on and off, in whole games of four people; the one delay every automatic answer
waits; a seat starting from its holder's options, and keeping its own."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from table_helpers import ANN, BO, CARD_TEXT, CY, HOST, Clock, Recorder, make_service

from bot.bots import make_player
from bot.engine.cards import load_card
from bot.engine.errors import InvalidInput
from bot.engine.game import STANDARD, Option, Phase, View, seats_to_act
from bot.engine.game.actions import Call, CallMahjong, Exchange, Mahjong, Pass
from bot.engine.tiles import JOKER
from bot.store import ClockKind, Database, Pace, ShippedCardChoice, shipped_migrations
from bot.tables.auto import automatic, drawn_tile
from bot.tables.menu import joker_only
from bot.tables.options import TableOptions
from bot.tables.seat_options import AutoDiscard, AutoMahjong, JokerCalls, SeatOptions
from bot.tables.service import TableService
from tests.reached import must_reach

PEOPLE = (HOST, ANN, BO, CY)
CARD = load_card(CARD_TEXT)
#: Every option off: nothing is skipped or played for the seat but a discard it can't call.
ALL_OFF = SeatOptions(auto_sort=False, auto_mahjong=AutoMahjong.OFF, mahjong_calls_only=False,
                      joker_calls=JokerCalls.OFFER, skip_deadening=False,
                      auto_discard=AutoDiscard.OFF)


@dataclass
class Asked:
    """One time a person was asked: their view and the tile they had just drawn."""

    view: View
    drawn: int | None


@dataclass
class Game:
    """A whole game of four people, each played by a Normal bot standing in for them."""

    asked: list[Asked] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    automatic: int = 0  # actions in the log no person made


async def _open(service: TableService, seed: int) -> int:
    game = await service.open_table(
        guild_id=1, channel_id=2, host_id=HOST, host_name="Host", seed=seed,
        options=TableOptions(STANDARD, "jongg-original", CARD_TEXT, pace="untimed"))
    for index, user in enumerate(PEOPLE[1:], start=1):
        await service.join(game.id, user, f"Player {index}")
    return game.id


async def play_people(tmp_path: Path, options: SeatOptions, seed: int) -> Game:
    """A game of four people with these options (their own, set before it starts), answered
    at once (no delay), each person choosing as a Normal bot would."""
    recorder = Recorder()
    played = Game()
    async with Database(tmp_path / f"{seed}-{hash(options)}.db") as db:
        service = make_service(db, recorder, Clock(), auto_delay=0)
        for user in PEOPLE:
            await service.set_player_options(user, options)
        game_id = await _open(service, seed)
        await service.start_game(game_id, HOST)
        deciders = [make_player("normal", CARD, STANDARD.counts, seed * 4 + s) for s in range(4)]
        for _ in range(3000):
            if not service.in_play(game_id):
                break
            state = service.registry.games[game_id].state
            seat = seats_to_act(state)[0]
            mine = service.view_for(game_id, PEOPLE[seat])
            assert service.table(game_id).options_of(seat) == options
            played.asked.append(Asked(mine, drawn_tile(state, seat)))
            action = deciders[seat].choose(mine, mine.legal)
            await service.act(game_id, PEOPLE[seat], action, mine.action_count)
        assert not service.in_play(game_id), "the game did not end"
        played.automatic = sum(a.actor_user_id is None for a in await db.actions.actions(game_id))
        await service.close()
    played.told = [line for _, update in recorder.seats for line in update.lines
                   if line.startswith("Played for you")]
    return played


def _kinds(asked: Asked) -> list[object]:
    return [option.action for option in asked.view.legal]


def _claims(game: Game) -> list[Asked]:
    return [a for a in game.asked if a.view.phase is Phase.CLAIM]


def _drawn(game: Game) -> list[Asked]:
    return [a for a in game.asked if a.drawn is not None]


#: Seeds whose Normal games end in a Mah Jongg and meet the situations the tests look for
#: (with every option off, seed 5 meets calls only jokers would fill; both meet calls that
#: would kill the caller's hand).
SEED, JOKERS_SEED = 3, 5
#: A seed whose game with auto-discard on meets a drawn tile that wins, the one drawn tile
#: a person is then asked about (in seed 3's game every drawn tile is thrown).
WINNING_DRAW_SEED = 30


@pytest.fixture(scope="module")
def off_games(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Game]:
    """The games of both seeds with every option off, to compare each option's with."""
    return {seed: asyncio.run(play_people(tmp_path_factory.mktemp("off"), ALL_OFF, seed))
            for seed in (SEED, JOKERS_SEED)}


@pytest.fixture
def off_game(off_games: dict[int, Game]) -> Game:
    return off_games[SEED]


def _every_call(asked: Asked, which: Callable[[Option], bool]) -> bool:
    """Whether the seat could call the discard (not for Mah Jongg), every call being such."""
    calls = [o for o in asked.view.legal if isinstance(o.action, Call | CallMahjong)]
    return bool(calls) and all(isinstance(o.action, Call) and which(o) for o in calls)


def test_with_every_option_off_people_are_asked_every_real_choice(off_game: Game) -> None:
    # Nobody is asked about a discard they can't call: that is answered for them.
    assert all(any(not isinstance(k, Pass) for k in _kinds(a)) for a in off_game.asked)
    assert off_game.automatic > 0
    # Each situation an option answers does come up, so the options below change something.
    assert any(any(isinstance(k, Mahjong | CallMahjong) for k in _kinds(a))
               for a in off_game.asked)
    assert any(isinstance(k, Call) for a in _claims(off_game) for k in _kinds(a))
    assert _drawn(off_game)
    assert not off_game.told  # a pass is not worth a message; nothing else was played


def test_every_option_has_something_to_answer(off_games: dict[int, Game]) -> None:
    # Claim windows where every call would kill the hand, or use only jokers, come up.
    for seed in (SEED, JOKERS_SEED):
        assert any(_every_call(a, lambda o: o.deadens) for a in _claims(off_games[seed]))
    assert any(_every_call(a, lambda o: joker_only(o.action))
               for a in _claims(off_games[JOKERS_SEED]))


async def test_auto_mahjong_declares_every_mahjong(tmp_path: Path) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, auto_mahjong=AutoMahjong.ON), SEED)
    assert not any(isinstance(k, Mahjong | CallMahjong) for a in game.asked for k in _kinds(a))
    assert any("Mah Jongg" in line for line in game.told)


async def test_mahjong_calls_only_asks_only_about_a_discard_that_wins(
        tmp_path: Path, off_game: Game) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, mahjong_calls_only=True), SEED)
    claims = _claims(game)
    assert all(any(isinstance(k, CallMahjong) for k in _kinds(a)) for a in claims)
    assert len(claims) < len(_claims(off_game))


@pytest.mark.parametrize("seed", [SEED, JOKERS_SEED])
async def test_calls_that_would_kill_the_hand_are_not_asked_about(tmp_path: Path, seed: int
                                                                   ) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, skip_deadening=True), seed)
    assert _claims(game)
    assert not any(_every_call(a, lambda o: o.deadens) for a in _claims(game))


async def test_joker_only_calls_are_not_asked_about(tmp_path: Path) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, joker_calls=JokerCalls.SKIP),
                             JOKERS_SEED)
    assert _claims(game)
    assert not any(_every_call(a, lambda o: joker_only(o.action)) for a in _claims(game))


async def test_auto_discard_throws_every_drawn_tile_but_a_winning_one(tmp_path: Path) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, auto_discard=AutoDiscard.DRAWN),
                             WINNING_DRAW_SEED)
    for asked in must_reach(_drawn(game), "a drawn tile the person was asked about"):
        assert any(isinstance(k, Mahjong) for k in _kinds(asked))
    assert any(line.startswith("Played for you (your settings): Discard") for line in game.told)


async def test_auto_discard_unless_useful_asks_about_useful_tiles_only(
        tmp_path: Path, off_game: Game) -> None:
    game = await play_people(tmp_path, replace(ALL_OFF, auto_discard=AutoDiscard.UNLESS_USEFUL),
                             SEED)
    assert game.told, "no drawn tile was thrown"
    for asked in _drawn(game):
        kinds = _kinds(asked)
        assert (asked.drawn == JOKER or any(isinstance(k, Mahjong) for k in kinds)
                or any(isinstance(k, Exchange) and k.kind == asked.drawn for k in kinds)
                or automatic(asked.view, replace(ALL_OFF, auto_discard=AutoDiscard.DRAWN),
                             CARD, STANDARD.counts, asked.drawn) is not None)
    # Tiles that fit a nearest hand were kept for the person to decide: some drawn tiles
    # they were asked about are neither jokers nor allow an exchange or Mah Jongg.
    assert any(a.drawn != JOKER and not any(isinstance(k, Mahjong | Exchange) for k in _kinds(a))
               for a in _drawn(game))


def test_auto_sort_sorts_the_drawn_tile_in(off_game: Game) -> None:
    from bot.scenes import seat_rack_scene
    asked = _drawn(off_game)[0]
    apart = seat_rack_scene(asked.view, ALL_OFF, name="A", drawn=asked.drawn, said="x")
    sorted_in = seat_rack_scene(asked.view, replace(ALL_OFF, auto_sort=True), name="A",
                                drawn=asked.drawn, said="x")
    assert apart.drawn is not None and sorted_in.drawn is None
    assert len(sorted_in.concealed) == len(apart.concealed) + 1
    assert sorted_in.caption == "x · On: auto-sort" and apart.caption == "x"


# -- the delay ---------------------------------------------------------------------------


async def _claim_window(service: TableService, clock: Clock,
                        wanted: Callable[[TableService, int], bool]) -> int:
    """A table of four people in a claim window where `wanted` holds (people play their
    first option; automatic answers wait the service's delay, which the clock never
    reaches here)."""
    for seed in range(1, 40):
        game_id = await _open(service, seed)
        await service.start_game(game_id, HOST)
        for _ in range(400):
            state = service.registry.games[game_id].state
            if state.phase is Phase.CLAIM and wanted(service, game_id):
                return game_id
            seat = seats_to_act(state)[0]
            mine = service.view_for(game_id, PEOPLE[seat])
            await service.act(game_id, PEOPLE[seat], mine.legal[0].action, mine.action_count)
        await service.abort(game_id, HOST)
    raise AssertionError("no such claim window")


def _answered_for(service: TableService, game_id: int) -> list[int]:
    """The seats waiting in the claim window whose options answer for them."""
    live = service.registry.games[game_id]
    return [s for s in seats_to_act(live.state)
            if service.attendance.automatic(live, s) is not None]


async def test_an_automatic_answer_waits_the_tables_delay(tmp_path: Path) -> None:
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, auto_delay=3.0)
        game_id = await _claim_window(service, clock,
                                      lambda s, g: len(_answered_for(s, g)) >= 1)
        opened = clock.now
        silent = _answered_for(service, game_id)
        (auto,) = [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.AUTO]
        assert auto.due_at == opened + 3.0
        # Not a moment sooner: the seats it answers for still wait, as a person would.
        assert await service.run_due_clocks(opened + 2.9) == 0
        assert set(silent) <= set(seats_to_act(service.registry.games[game_id].state))
        assert await service.run_due_clocks(opened + 3.0) == 1
        state = service.registry.games[game_id].state
        assert not set(silent) & set(seats_to_act(state)) or state.phase is not Phase.CLAIM
        await service.close()


async def test_a_person_who_answers_first_keeps_the_windows_delay(tmp_path: Path) -> None:
    # Another seat answering doesn't move the automatic answers' time: it belongs to the
    # claim window, not to the last move.
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), clock, auto_delay=3.0)

        def mixed(s: TableService, g: int) -> bool:
            waiting = seats_to_act(s.registry.games[g].state)
            return 1 <= len(_answered_for(s, g)) < len(waiting)

        game_id = await _claim_window(service, clock, mixed)
        opened = clock.now
        live = service.registry.games[game_id]
        person = next(s for s in seats_to_act(live.state) if s not in _answered_for(service,
                                                                                    game_id))
        clock.now += 2
        mine = service.view_for(game_id, PEOPLE[person])
        await service.act(game_id, PEOPLE[person], Pass, mine.action_count)
        # The seats answered for still wait, so the window is open, its delay unmoved.
        assert service.registry.games[game_id].state.phase is Phase.CLAIM
        autos = [c for c in await db.clocks.clocks(game_id) if c.kind is ClockKind.AUTO]
        assert [c.due_at for c in autos] == [opened + 3.0]
        await service.close()


# -- where a seat's options come from -------------------------------------------------------


async def test_a_seat_starts_from_its_holders_options_and_keeps_its_own(tmp_path: Path) -> None:
    mine = replace(SeatOptions(), auto_mahjong=AutoMahjong.HOLD_FIRST,
                   auto_discard=AutoDiscard.UNLESS_USEFUL)
    async with Database(tmp_path / "j.db") as db:
        service = make_service(db, Recorder(), Clock(), auto_delay=0)
        assert await service.player_options(ANN) == SeatOptions()  # never set: defaults
        await service.set_player_options(ANN, mine)
        game_id = await _open(service, 1)
        # Bo changes his seat's options for this game only (`/mj options`).
        own = replace(SeatOptions(), joker_calls=JokerCalls.OFFER)
        await service.set_seat_options(game_id, BO, own)
        await service.start_game(game_id, HOST)
        table = service.table(game_id)
        assert [table.options_of(s) for s in range(4)] == [SeatOptions(), mine, own,
                                                           SeatOptions()]
        # Changing one's settings reaches the games one is playing, from the next prompt.
        later = replace(mine, auto_sort=False)
        await service.set_player_options(ANN, later)
        assert service.table(game_id).options_of(1) == later
        await service.close()
    async with Database(tmp_path / "j.db") as db:  # ... and a restart keeps them all
        again = make_service(db, Recorder(), Clock(), auto_delay=0)
        await again.start(run_clocks=False)
        assert [again.table(game_id).options_of(s) for s in range(4)] == [
            SeatOptions(), later, own, SeatOptions()]
        await again.close()



async def test_a_game_stored_before_people_had_options_plays_on_with_its_seats(
        tmp_path: Path) -> None:
    # A version 6 file: Ann's seat kept its own options (0004); nobody had options of their
    # own. After the upgrade Bo sets his; the game resumes with Ann's seat's and Bo's.
    path = tmp_path / "j.db"
    offered = SeatOptions(joker_calls=JokerCalls.OFFER)
    async with Database(path, migrations=shipped_migrations()[:6]) as old:
        game = await old.games.create_game(
            guild_id=1, channel_id=2, host_user_id=HOST,
            rules=TableOptions(STANDARD, "jongg-original", CARD_TEXT, pace="untimed").to_json(),
            card=ShippedCardChoice("jongg-original", CARD_TEXT), seed=1,
            pace=Pace("untimed"), hints=True)
        for seat, user in enumerate(PEOPLE):
            await old.seats.add_seat(game.id, seat, user_id=user, display_name=f"P{seat}")
        await old.seats.set_options(game.id, 1, offered.to_json())
        await old.games.start_game(game.id, 4)
    bo = replace(SeatOptions(), auto_discard=AutoDiscard.DRAWN)
    async with Database(path) as db:
        await db.players.set_options(BO, bo.to_json())
        service = make_service(db, Recorder(), Clock(), auto_delay=0)
        assert await service.start(run_clocks=False) == 1
        assert [service.table(game.id).options_of(s) for s in range(4)] == [
            SeatOptions(), offered, bo, SeatOptions()]
        await service.close()


def test_holding_the_first_mahjong_asks_about_it_and_declares_the_second() -> None:
    from bot.engine.game import SIAMESE, apply, new_game, view
    for seed in range(1, 30):
        state = new_game(SIAMESE, CARD, seed, ("A", "B"))
        bots = [make_player("normal", CARD, SIAMESE.counts, seed * 2 + s) for s in range(2)]
        seen_first = seen_second = False
        while state.phase is not Phase.OVER and not (seen_first and seen_second):
            seat = seats_to_act(state)[0]
            seen = view(state, seat)
            wins = [o.action for o in seen.legal if isinstance(o.action, Mahjong | CallMahjong)]
            if wins and not any(w.both for w in wins):
                held = automatic(seen, SeatOptions(auto_mahjong=AutoMahjong.HOLD_FIRST), CARD,
                                 SIAMESE.counts, None)
                on = automatic(seen, SeatOptions(auto_mahjong=AutoMahjong.ON), CARD,
                               SIAMESE.counts, None)
                assert on == wins[0]
                if seen.seats[seat].mahjongs:
                    assert held == wins[0]
                    seen_second = True
                else:
                    assert held is None
                    seen_first = True
            state, _ = apply(state, bots[seat].choose(seen, seen.legal))
        if seen_first and seen_second:
            return
    raise AssertionError("no Siamese game met a first and a second Mah Jongg")


def test_options_read_back_and_a_control_sets_one_value() -> None:
    every = SeatOptions(auto_sort=False, auto_mahjong=AutoMahjong.HOLD_FIRST,
                        mahjong_calls_only=True, joker_calls=JokerCalls.OFFER,
                        skip_deadening=False, auto_discard=AutoDiscard.UNLESS_USEFUL)
    assert SeatOptions.from_json(every.to_json()) == every
    # A value of the wrong type, or one this version lacks, reads as the default.
    assert SeatOptions.from_json('{"auto_sort": "no", "auto_discard": "sometimes"}') == (
        SeatOptions())
    assert SeatOptions().with_value("auto_sort", "off") == replace(SeatOptions(),
                                                                   auto_sort=False)
    assert SeatOptions().with_value("auto_discard", "drawn").auto_discard is AutoDiscard.DRAWN
    for name, value in (("colour", "on"), ("auto_sort", "maybe"), ("auto_mahjong", "yes")):
        with pytest.raises(InvalidInput):
            SeatOptions().with_value(name, value)
    assert every.caption() == ("On: auto Mah Jongg (holding the first), Mah Jongg calls "
                               "only, auto-discard unless useful")
    assert ALL_OFF.caption() == ""
