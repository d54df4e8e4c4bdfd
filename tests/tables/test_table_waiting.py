"""A person's games as `/mj games` lists them (`bot.tables.waiting`), through the table
service: those waiting on them first, the soonest deadline first and games without a clock
last, then the others with whose move it is; links to the latest prompt that still shows
their options; a claim window described without saying who may call."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from table_helpers import ANN, BO, CARD_TEXT, CY, HOST, Clock, Recorder, make_service

from bot.engine.game import STANDARD, THREE_PLAYER, Phase, RuleSet
from bot.engine.tiles import tile_name
from bot.store import Database
from bot.tables.notifier import Delivery, SeatUpdate, Table, TableUpdate
from bot.tables.options import TableOptions
from bot.tables.service import TableService
from bot.tables.waiting import MyGames, Posted, my_games

HOUR = 3600
DAY = 24 * HOUR
NAMES = {HOST: "Host", ANN: "Ann", BO: "Bo"}
#: Ann's DM channel with the bot, as the notifier keeps it.
ANN_DM = 4242
#: A deal (first options everywhere) that soon opens a claim window Ann is asked in.
SEED = 21


@dataclass
class Posting(Recorder):
    """A recorder that posts as Discord would: a message for every table picture and for
    every DM a seat gets (not in a claim window, which is answered under the table's post),
    each with a new id, kept by game, kind and seat."""

    ids: itertools.count[int] = field(default_factory=lambda: itertools.count(500))
    posted: list[tuple[int, str, int | None, int]] = field(default_factory=list)

    async def table_update(self, table: Table, update: TableUpdate,
                           delivery: Delivery) -> None:
        await super().table_update(table, update, delivery)
        if update.new_turn:
            self._post(table, "table", None, delivery)

    async def seat_update(self, table: Table, seat: int, update: SeatUpdate,
                          delivery: Delivery) -> None:
        await super().seat_update(table, seat, update, delivery)
        if update.must_act and update.view.phase is not Phase.CLAIM:
            self._post(table, "seat", seat, delivery)

    def _post(self, table: Table, kind: str, seat: int | None, delivery: Delivery) -> None:
        delivery.sent.append(next(self.ids))
        self.posted.append((table.game_id, kind, seat, delivery.sent[-1]))

    def last(self, game_id: int, kind: str, seat: int | None = None) -> int:
        return [m for g, k, s, m in self.posted if (g, k, s) == (game_id, kind, seat)][-1]


async def open_table(service: TableService, humans: Sequence[int], *, guild: int,
                     pace: str = "async", rules: RuleSet = THREE_PLAYER) -> int:
    """A started table in server `guild` (its thread: `guild * 100`), the first of
    `humans` hosting (East), bots in the empty seats."""
    game = await service.open_table(
        guild_id=guild, channel_id=guild * 10, thread_id=guild * 100, host_id=humans[0],
        host_name=NAMES[humans[0]], seed=SEED,
        options=TableOptions(rules, "jongg-original", CARD_TEXT, pace=pace))
    for user in humans[1:]:
        await service.join(game.id, user, NAMES[user])
    await service.start_game(game.id, humans[0])
    return game.id


async def until_ann_may_call(service: TableService, game_id: int,
                             humans: Sequence[int]) -> None:
    """Everyone plays their first option until a claim window in which Ann is asked."""
    for _ in range(200):
        if (moment := service.seat_moment(game_id, ANN)).asked \
                and moment.view.phase is Phase.CLAIM:
            return
        user, seen = next((u, v) for u in humans if (v := service.view_for(game_id, u)).legal)
        await service.act(game_id, user, seen.legal[0].action, seen.action_count)
    raise AssertionError("no claim window for Ann")


def where(games: MyGames) -> list[tuple[int, bool]]:
    return [(s.game_id, s.yours) for s in (*games.yours, *games.others)]


async def test_the_games_waiting_on_a_player_come_first_soonest_deadline_first(
        tmp_path: Path) -> None:
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        posts = Posting()
        service = make_service(db, posts, clock, auto_delay=0)
        await db.players.set_dm_channel(ANN, ANN_DM)
        assert await my_games(service, ANN) == MyGames((), ())
        # Ann's Charleston pass, on a day's clock; then one waiting on the host, whose pass
        # Ann has made; then a claim window Ann is asked in, on a clock of two hours; and a
        # table without clocks, where it is her turn (a three-player table has no
        # Charleston).
        charleston = await open_table(service, [ANN, BO], guild=1, rules=STANDARD)
        passed = await open_table(service, [HOST, ANN], guild=2, rules=STANDARD)
        mine = service.view_for(passed, ANN)
        await service.act(passed, ANN, mine.legal[0].action, mine.action_count)
        claim = await open_table(service, [HOST, ANN, BO], guild=2)
        await until_ann_may_call(service, claim, [HOST, ANN, BO])
        untimed = await open_table(service, [ANN, HOST], guild=1, pace="untimed")
        clock.now += HOUR  # the clocks were set when each moment began
        games = await my_games(service, ANN)
        assert where(games) == [(claim, True), (charleston, True), (untimed, True),
                                (passed, False)]
        by_id = {s.game_id: s for s in (*games.yours, *games.others)}
        assert by_id[claim].due_at == clock.now - HOUR + 2 * HOUR
        assert by_id[charleston].due_at == clock.now - HOUR + DAY
        assert by_id[untimed].due_at is None and by_id[passed].due_at is None
        assert (by_id[charleston].guild_id, by_id[charleston].channel_id,
                by_id[charleston].thread_id) == (1, 10, 100)
        step = "first Charleston, pass right"
        assert by_id[charleston].words == f"{step}: your move"
        assert by_id[untimed].words == "your turn"
        assert by_id[passed].words == f"{step}: waiting for Host"
        seen = service.view_for(claim, ANN)
        assert seen.claim is not None
        tile, discarder = tile_name(seen.claim.kind), NAMES[
            service.table(claim).user_ids[seen.claim.discarder] or 0]
        assert by_id[claim].words == f"{tile} from {discarder}: call it or pass"
        # Links: Ann's DM prompt of her Charleston pass; in the claim window the table's
        # post with Claim and Pass; none for a game not waiting on her.
        seat = service.seat_of(charleston, ANN)
        assert by_id[charleston].prompt == Posted(None, ANN_DM,
                                                  posts.last(charleston, "seat", seat))
        assert by_id[claim].prompt == Posted(2, 200, posts.last(claim, "table"))
        assert by_id[passed].prompt is None
        # Someone who plays nowhere has nothing waiting.
        assert await my_games(service, CY) == MyGames((), ())
        await service.close()


async def test_a_claim_window_is_described_alike_whoever_may_call(tmp_path: Path) -> None:
    clock = Clock()
    async with Database(tmp_path / "j.db") as db:
        # Automatic answers wait for the table's delay: a seat that can't call still owes
        # its answer, which its options will give (it is not asked).
        service = make_service(db, Posting(), clock)
        claim = await open_table(service, [HOST, ANN, BO], guild=1)
        await until_ann_may_call(service, claim, [HOST, ANN, BO])
        seen = service.view_for(claim, ANN)
        assert seen.claim is not None
        names = service.table(claim).names
        discarder = names[seen.claim.discarder]
        tile = tile_name(seen.claim.kind)
        owing = [user for user in (HOST, BO) if service.view_for(claim, user).legal]
        assert owing, "nobody but Ann still owes an answer: the case is not tested"
        for user in (HOST, BO):
            [standing] = [s for s in (await my_games(service, user)).others
                          if s.game_id == claim]
            whose = "your" if NAMES[user] == discarder else f"{discarder}'s"
            # Not who is asked, nor who has answered: only the discard, open for calls.
            assert standing.words == f"{whose} {tile} is open for calls"
            assert standing.prompt is None and standing.due_at is None
        # Ann, who is asked, is told only of the discard and her own choice.
        [asked] = (await my_games(service, ANN)).yours
        assert not any(name in asked.words for name in names if name != discarder)
        await service.close()
