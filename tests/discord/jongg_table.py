"""Playing Jongg through the fake Discord, the way people do: slash commands, clicks, menus.

`JonggTable` opens a table with `/mj new`, seats players with the lobby's buttons, presses
Start, and then plays: `step(user)` reads what the fake recorded for that user (their newest DM
prompt, or "My rack" under the table when their DMs are closed, or the Claim…/Pass buttons
under the table's post in a claim window) and picks the first option there, which is what the
first-option bots pick too, so games are short and reproducible. The service is used only as
an oracle, to know who must move; `watchers` (the leak watch, `leak_watch.py`) look at what
was sent after every step.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from controls import DONE, components, custom_ids, first_choice, moved_on
from fake import CLIENT_OPTIONS, Channel, FakeDiscord, FakeInteraction, Message, Perm, User, World
from leak_watch import LeakWatch, kinds_named

from bot.bots import DEFAULT_LEVEL, Player
from bot.discord.client import JonggClient, make_client
from bot.discord.shards import ONE_SHARD, ShardPlan
from bot.engine.cards import Card
from bot.engine.errors import IllegalAction
from bot.engine.game import (
    Action,
    Call,
    DeclareDead,
    GameState,
    Give,
    Option,
    Pass,
    Phase,
    RuleSet,
    View,
    parse_action,
    replay,
    spectator_view,
)
from bot.engine.game import view as seat_view
from bot.server_cards import parse_card
from bot.store import GameStatus
from bot.tables.delivery import DEFAULT_BACKOFF, Backoff
from bot.tables.options import read_table_options
from bot.tables.seat_options import JokerCalls, SeatOptions


class FirstOption:
    """A bot that plays the first legal option: simple and deterministic."""

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        return options[0].action


def first_option_bot(level: str, card: Card, rules: RuleSet, seed: int) -> Player:
    return FirstOption()


class FrozenClock:
    """The table clocks' time: it only moves when a test moves it."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def jongg_client(database: str | Path, clock: FrozenClock | None = None, *, seed: int = 1,
                 sync: bool = True, backoff: Backoff = DEFAULT_BACKOFF,
                 shard_plan: ShardPlan = ONE_SHARD) -> JonggClient:
    """The real Jongg client, with first-option bots, every new game dealt from `seed`, and
    clocks the test runs by hand: the same game every run. `backoff` paces the retries of
    messages that failed; `shard_plan`: the bot's shards this client runs."""
    return make_client(database, sync_commands=sync, make_bot=first_option_bot,
                       new_seed=lambda: seed, now=clock or FrozenClock(), run_clocks=False,
                       backoff=backoff, shard_plan=shard_plan, **CLIENT_OPTIONS)


def far_world(fake: FakeDiscord, world: World) -> World:
    """A second server, on shard 1, with the same four people in it."""
    guild = fake.add_guild("Far Hall", shard=1)
    general = fake.add_channel(guild, "general")
    tables = fake.add_channel(guild, "mahjong-tables")
    for user in world.players:
        fake.add_member(guild, user)
    return World(guild, general, tables, *world.players)


async def start_table(fake: FakeDiscord, world: World, players: Sequence[User], *,
                      size: int | None = None, bots: int | Sequence[str] = 0,
                      options: dict[str, Any] | None = None) -> tuple[int, Message, Channel]:
    """`/mj new` by the first player in `world.tables`, Join for the others, Add bot `bots`
    times (a count: bots of the default level; or the level of each bot), Start. Returns
    the game's id, its lobby post and its thread."""
    host = players[0]
    levels = [DEFAULT_LEVEL] * bots if isinstance(bots, int) else list(bots)
    size = size or len(players) + len(levels)
    opened = await fake.slash(host, world.tables, "mj new", {"players": size, **(options or {})})
    lobby = await opened.reply()
    [join] = custom_ids(lobby, "jg:l:")[:1]
    game_id = int(join.split(":")[2])
    thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
    await fake.wait_for_message(channel=thread)
    await opened.settled()
    for user in players[1:]:
        await lobby_click(fake, user, lobby, f"jg:l:{game_id}:join")
    for level in levels:
        await lobby_click(fake, host, lobby, f"jg:l:{game_id}:bot:{level}")
    await lobby_click(fake, host, lobby, f"jg:l:{game_id}:start")
    assert lobby.custom_ids() == [], "the lobby keeps its buttons after Start"
    return game_id, lobby, thread


async def lobby_click(fake: FakeDiscord, user: User, lobby: Message, custom_id: str) -> None:
    """Click a lobby button and wait for the lobby to change (refused: fail)."""
    before = len(lobby.edits)
    handle = await fake.click(user, lobby, custom_id)
    await handle.acked()
    await fake.wait_until(lambda: len(lobby.edits) > before or handle.followups,
                          what=f"the lobby to change after {custom_id}")
    assert not handle.followups, handle.followups[0].content


@dataclass
class JonggTable:
    """One table in play, seen from the test's side."""

    fake: FakeDiscord
    world: World
    client: JonggClient
    game_id: int
    lobby: Message
    thread: Channel
    seats: list[User | None]
    #: Users whose DMs are closed: they play through "My rack".
    closed_dms: set[int] = field(default_factory=set)
    #: Users who answer claims through "Claim…" (the private menu), not the Pass button.
    claim_menu: set[int] = field(default_factory=set)
    #: Awaited after every step, once the bot has delivered everything about it.
    watchers: list[Callable[[JonggTable], Awaitable[None]]] = field(default_factory=list)
    steps: int = 0
    #: How the game ended, rebuilt from the store once it has left the service (finished
    #: games leave memory), so the checks after the last step still have an oracle.
    ended: GameState | None = None
    #: Other clients sharing the database whose process a click of this table may reach
    #: (DMs go to shard 0's): they make moves of it and send what those moves owe.
    also: tuple[JonggClient, ...] = ()

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    async def open(cls, fake: FakeDiscord, world: World, client: JonggClient,
                   players: Sequence[User], *, size: int | None = None,
                   bots: int | Sequence[str] = 0,
                   options: dict[str, Any] | None = None) -> JonggTable:
        """`start_table`, then the table as `client` holds it."""
        game_id, lobby, thread = await start_table(fake, world, players, size=size, bots=bots,
                                                   options=options)
        await client.service.flush(game_id)
        table = client.service.table(game_id)
        seats: list[User | None] = [
            None if uid is None else next(u for u in players if u.id == uid)
            for uid in table.user_ids]
        return cls(fake, world, client, game_id, lobby, thread, seats)

    # -- looking ---------------------------------------------------------------------------

    @property
    def humans(self) -> list[User]:
        return [u for u in self.seats if u is not None]

    def view(self, user: User) -> View:
        if self.ended is not None:
            return seat_view(self.ended, self.seats.index(user))
        return self.client.service.view_for(self.game_id, user.id)

    def spectator(self) -> View:
        if self.ended is not None:
            return spectator_view(self.ended)
        return self.client.service.spectator(self.game_id)

    @property
    def over(self) -> bool:
        return self.ended is not None or not self.client.service.in_play(self.game_id)

    @property
    def bots(self) -> tuple[bool, ...]:
        """Which seats a bot plays."""
        return tuple(user is None for user in self.seats)

    async def _rebuild_end(self) -> None:
        """Replay the finished game from the store, as the service would have held it."""
        record = await self.client.service.db.games.load_game(self.game_id)
        rules = read_table_options(record.game.rules).rules
        first: dict[int, str] = {}
        for holder in record.history:
            first.setdefault(holder.seat, holder.display_name)
        self.ended, _ = replay(rules, parse_card(record.game.card.text), record.game.seed,
                               tuple(first[s] for s in range(rules.players)),
                               [parse_action(a.text, rules.players) for a in record.actions])

    def to_move(self) -> list[User]:
        """The humans the game is waiting for (the oracle)."""
        return [u for u in self.humans if self.view(u).legal]

    def table_posts(self) -> list[Message]:
        """The bot's posts in the thread that carry the table's buttons, oldest first."""
        return [m for m in self.fake.messages_in(self.thread)
                if not m.ephemeral and custom_ids(m, f"jg:r:{self.game_id}")]

    def prompts(self, user: User) -> list[Message]:
        """The bot's DMs to `user` that still have controls, oldest first."""
        return [m for m in self.fake.dms(user)
                if m.author is self.fake.bot and custom_ids(m, "jg:")]

    def newest_post(self, prefix: str) -> tuple[Message, str]:
        """The newest table post with a button whose custom id starts with `prefix`."""
        for post in reversed(self.table_posts()):
            found = custom_ids(post, prefix)
            if found:
                return post, found[0]
        raise AssertionError(f"no table post has a {prefix}… button\n{self.fake.transcript()}")

    # -- acting ----------------------------------------------------------------------------

    async def step(self, user: User, seen: View | None = None) -> Message:
        """`user` makes their first option through the controls Discord shows them; returns
        what they were answered. `seen` is their view now, if the caller has it."""
        seen = seen or self.view(user)
        assert seen.legal, f"{user.username} has nothing to do"
        if seen.phase is Phase.CLAIM:
            answer = await self._claim(user, seen)
        else:
            prompt = await self.prompt(user)
            assert_offers_all(prompt, seen)
            answer = await self.first_option(user, prompt)
        await self.settle()
        return answer

    async def prompt(self, user: User) -> Message:
        """The message with `user`'s current controls: the newest DM prompt, or "My rack"
        when their DMs are closed."""
        if user.id in self.closed_dms:
            post, rack = self.newest_post(f"jg:r:{self.game_id}")
            return await self.reply(await self.fake.click(user, post, rack))
        prompts = self.prompts(user)
        assert prompts, f"{user.username} must act but has no prompt\n{self.fake.transcript()}"
        return prompts[-1]

    async def _claim(self, user: User, seen: View) -> Message:
        post, claim = self.newest_post(f"jg:c:{self.game_id}:")
        if user.id not in self.claim_menu and isinstance(seen.legal[0].action, Pass):
            passing = custom_ids(post, f"jg:p:{self.game_id}:")[0]
            return await self.done(await self.fake.click(user, post, passing))
        menu = await self.reply(await self.fake.click(user, post, claim))
        assert menu.ephemeral and menu.visible_to is user
        assert_offers_all(menu, seen)
        return await self.first_option(user, menu)

    async def first_option(self, user: User, prompt: Message) -> Message:
        """Pick option 0 on a prompt (`first_choice`)."""
        custom_id, values = first_choice(prompt)
        if values is None:
            return await self.done(await self.fake.click(user, prompt, custom_id))
        return await self.done(await self.fake.select(user, prompt, custom_id, values))

    async def reply(self, handle: FakeInteraction) -> Message:
        """What the user was shown; fails on an error answer."""
        answer = await handle.reply()
        assert not _is_error(answer.content), answer.content
        return answer

    async def done(self, handle: FakeInteraction) -> Message:
        """The answer to a move: the prompt turned into "You chose …" or "You passed.", or
        the table post moved on to the next picture (a Pass that led straight to it)."""
        answer = await self.reply(handle)
        if moved_on(handle, answer):
            return answer
        assert DONE.match(answer.content), answer.content
        assert answer.custom_ids() == [], "a used prompt keeps its controls"
        return answer

    async def settle(self) -> None:
        """Wait until everything about the last move has been delivered, then let the
        watchers look."""
        for client in (*self.also, self.client):
            await client.service.flush(self.game_id)
        await self.refresh()
        if self.ended is None and not self.client.service.in_play(self.game_id):
            await self._rebuild_end()
        self.steps += 1
        for watch in self.watchers:
            await watch(self)

    async def refresh(self) -> None:
        """Make the client's copy of the game the store's (`TableService.visit`), as the
        bot does before a click: another client may have moved it (see `also`)."""
        if self.ended is None:
            with contextlib.suppress(IllegalAction):  # over: it has left the service
                await self.client.service.visit(self.game_id)

    async def play(self, limit: int = 2000) -> int:
        """Everyone plays their first option until the game ends; returns the steps."""
        for _ in range(limit):
            if self.over:
                await self.settle()
                return self.steps
            user, seen = next(((u, v) for u in self.humans if (v := self.view(u)).legal),
                              (None, None))
            assert user is not None, f"nobody can move at {self.spectator().phase}"
            await self.step(user, seen)
        raise AssertionError("the game did not end")

    async def result_post(self) -> Message:
        return await self.fake.wait_for_message(
            lambda m: "result.png" in m.files, channel=self.thread)


def assert_clean(fake: FakeDiscord, caplog: pytest.LogCaptureFixture) -> None:
    """Every interaction the bot got was acknowledged, Discord refused nothing, the bot logged
    no error. (One no bot session got, in a gap before a new IDENTIFY, is not the bot's.)"""
    late = [i for i in fake.interactions.values()
            if not i.lost and (i.callback is None or i.too_late)]
    assert not late, [i.describe() for i in late]
    assert not fake.failed_requests, fake.problems()
    assert_no_error_logged(caplog)


def assert_no_error_logged(caplog: pytest.LogCaptureFixture) -> None:
    """The bot logged no error."""
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def finished(client: JonggClient, game_id: int) -> None:
    """The store has the game finished with a result for every seat."""
    game = await client.service.db.games.game(game_id)
    assert game.status is GameStatus.FINISHED
    result = await client.service.db.games.result(game_id)
    assert result is not None
    assert len(result.seats) == read_table_options(game.rules).rules.players


#: The options of a person who never set any.
DEFAULT_OPTIONS = SeatOptions()


def assert_offers_all(prompt: Message, seen: View, options: SeatOptions = DEFAULT_OPTIONS
                      ) -> None:
    """The prompt offers every one of the seat's options the way they are meant to be: a
    button or a menu entry each (tile passes through the pass menu), except that two or more
    calls sit behind one "Call…" button, dead-hand declarations behind "Declare a hand
    dead…", and the calls the seat's options skip (every call but Mah Jongg, calls only
    jokers would fill, calls that kill the hand) are not offered."""
    offered: list[int] = []
    folders: list[str] = []
    gives = False
    for item in components(prompt):
        custom_id = str(item.get("custom_id", ""))
        if custom_id.startswith("jg:a:"):
            offered.append(int(custom_id.rsplit(":", 1)[1]))
        elif custom_id.startswith("jg:d:"):
            offered += [int(o["value"]) for o in item.get("options") or []]
        elif custom_id.startswith("jg:g:"):
            gives = True
        elif custom_id.startswith("jg:f:"):
            folders.append(custom_id.rsplit(":", 1)[1])
    calls = [i for i, o in enumerate(seen.legal) if isinstance(o.action, Call) and not (
        options.mahjong_calls_only
        or (options.joker_calls is JokerCalls.SKIP and o.action.jokers == o.action.size - 1)
        or (options.skip_deadening and o.deadens))]
    direct = [i for i, o in enumerate(seen.legal)
              if not isinstance(o.action, Call | DeclareDead)
              and not (isinstance(o.action, Give) and o.choice and o.choice.count)]
    if len(calls) == 1:
        direct = sorted(direct + calls)
    assert sorted(offered) == direct, f"the prompt offers {sorted(offered)} of {direct}"
    wanted = ["calls"] * (len(calls) > 1) + ["dead"] * any(
        isinstance(o.action, DeclareDead) for o in seen.legal)
    assert sorted(folders) == wanted, f"the prompt opens {folders}, not {wanted}"
    assert gives == any(isinstance(o.action, Give) and o.choice and o.choice.count
                        for o in seen.legal), "the pass menu is missing"


def _is_error(text: str) -> bool:
    return any(marker in text for marker in (
        "out of date", "Sorry, something went wrong", "not playing", "isn't running",
        "belongs to another seat", "no longer there"))


__all__ = [
    "DONE",
    "FirstOption",
    "FrozenClock",
    "JonggTable",
    "LeakWatch",
    "assert_clean",
    "assert_no_error_logged",
    "components",
    "custom_ids",
    "far_world",
    "finished",
    "first_choice",
    "first_option_bot",
    "jongg_client",
    "kinds_named",
    "lobby_click",
    "start_table",
]


async def open_league(fake: FakeDiscord, world: World,
                      season: dict[str, Any] | None = None) -> None:
    """Alice (a server manager) creates a league in the tables channel and opens a season
    (with the `/league season start` options `season`): the games played there are
    recorded, and the channel's tables play the season's rules."""
    director = fake.add_role(world.guild, "Directors", Perm.MANAGE_GUILD)
    world.guild.member(world.alice).roles.append(director)
    for command, options in (("league create", {"name": "Tuesday Club"}),
                             ("league season start", season or {})):
        answer = await (await fake.slash(world.alice, world.tables, command, options)).reply()
        assert not answer.ephemeral, answer.content
