"""Simulated people playing Jongg through the fake Discord, in a process of their own.

`jongg bench discord` (bot/bench/discord.py) starts this module's `serve` in a child process:
the fake Discord and the people run here, the bot alone in the bench's process, as against
Discord. The bench asks for a world, tables and play (`bot/bench/discord_wire.py`); the
people act on the fake's own loop, and only on what Discord shows them, like real players:

* a DM from the bot with controls (their rack and their choices): after a think time they
  pick its first option (button 0, discard-menu entry 0, the first tiles of a pass menu),
  which is what the first-option bots pick too;
* a post in their table's thread with Claim…/Pass under someone else's discard: after a
  think time they press Pass, or, in a share of windows, Claim… and then the first of the
  choices it shows them privately.

They see messages as a Discord client does, when the fake dispatches MESSAGE_CREATE or
MESSAGE_UPDATE (`WatchedFake`), and never look at the bot's state. Each click is recorded
with the fake's timestamps (sent, first answer), and so is every request the bot makes.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import re
import time
import traceback
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from controls import custom_ids, first_choice, went_through
from fake import (
    Channel,
    FakeDiscord,
    FakeInteraction,
    Message,
    RateLimits,
    RecordedRequest,
    User,
)

from bot.bench.discord_wire import (
    MESSAGES_ROUTE,
    Click,
    Close,
    Endpoint,
    Failed,
    Halt,
    Kind,
    Open,
    Opened,
    Play,
    Played,
    Sent,
    Shape,
    Start,
    Started,
    World,
    kind_of,
    machine_busy,
    tree_cpu,
)

#: The fake's waits (Discord's 3 s acknowledgement window included) are stretched so that a
#: saturated run measures latency instead of failing; late answers are counted instead.
PATIENCE = 300.0
#: How long tables may take to warm up or to play their games to the end: under Discord's
#: limits a thread takes 5 posts per 5 s, so a game played fast lasts minutes, and hundreds
#: of tables opening at once wait for their DM channels (one bucket for the whole bot).
GAMES_PATIENCE = 3600.0
DISCORD_ACK_SECONDS = 3.0
#: Quiet time after the last click that means the bot has delivered everything.
SETTLED_SECONDS = 0.3
#: How long after a measure at the people's pace the messages about its last moves are
#: waited for (they take milliseconds; the tables go on playing meanwhile).
DELIVERED_SECONDS = 0.5
#: How often the child's heap is frozen (`gc.freeze`): the fake keeps every request and
#: message it saw, and a full garbage collection over all that would stall the fake (and
#: with it the bot's requests) for a second at a time; the child is not what is measured.
FREEZE_SECONDS = 1.0
#: A table post's line naming who discarded (the discarder does not answer their own).
DISCARDS = re.compile(r"^(?P<name>.+) discards ", re.MULTILINE)
#: The controls of a seat's own prompt: a move, a menu of moves, the pass menu.
PROMPT_CONTROLS = ("jg:a:", "jg:d:", "jg:g:")


class WatchedFake(FakeDiscord):
    """The fake Discord, also telling the people watching a channel about each message
    created or changed there, when it tells the bot (ephemeral ones included: the watcher
    decides who can see them)."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.watchers: dict[int, list[Callable[[Message], None]]] = defaultdict(list)

    async def dispatch_message(self, event: str, message: Message) -> None:
        await super().dispatch_message(event, message)
        for see in self.watchers.get(message.channel.id, ()):
            see(message)


class Stopped(Exception):
    """The people stop: a person stops where they are."""


#: A table's people answer at once (the warm-up and the census).
AT_ONCE = (0.0, 0.0)


@dataclass(eq=False)
class Table:
    """One table as its people know it: its game, lobby and thread, how far it is, and how
    fast its people answer (`pace`: think times; None while it waits between warm-up and
    play)."""

    crowd: Crowd
    game: int
    host: Person
    lobby: Message
    thread: Channel
    people: list[Person] = field(default_factory=list)
    pace: tuple[float, float] | None = None
    #: Set while the people answer (`pace` is not None).
    going: asyncio.Event = field(default_factory=asyncio.Event)
    #: Moves to play fast once play has begun (`Start`); whether a `Play` made it active.
    warmup: int = 0
    active: bool = False
    began: bool = False
    over: bool = False
    since_began: int = 0
    #: Moves played while active (the cap of `Play.moves`).
    moves: int = 0

    def set_pace(self, pace: tuple[float, float] | None) -> None:
        self.pace = pace
        if pace is None:
            self.going.clear()
        else:
            self.going.set()

    @property
    def warm(self) -> bool:
        """Done warming up: play has begun and the warm-up's moves are played."""
        return self.over or (self.began and self.since_began >= self.warmup)

    @property
    def done(self) -> bool:
        """Nothing more to play: the game is over or the table played its capped moves."""
        plan = self.crowd.plan
        return self.over or (plan is not None and plan.moves is not None
                             and self.moves >= plan.moves)

    def see(self, message: Message) -> None:
        """A post in the thread: play begins with the first discard open to claims; the
        result picture ends the game."""
        if not self.began and custom_ids(message, "jg:p:"):
            self.began = True
            self._warmed()
        if not self.over and "result.png" in message.files:
            self.over = True
            self.crowd.check()

    def moved(self) -> None:
        if self.active:
            self.moves += 1
        elif self.began:
            self.since_began += 1
            self._warmed()
        self.crowd.check()

    def _warmed(self) -> None:
        """A table that has warmed up waits, unless a `Play` made it active."""
        if self.warm and not self.active:
            self.set_pace(None)
        self.crowd.check()


@dataclass(eq=False)
class Person:
    """One person: their user, DM channel and table, and what Discord shows them that asks
    for an answer: their newest prompt with controls, the newest claim window open to them."""

    crowd: Crowd
    user: User
    dm: Channel
    table: Table | None = None
    prompt: Message | None = None
    window: Message | None = None
    newest_post: int = 0
    answered: set[str] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def name(self) -> str:
        return self.user.global_name or self.user.username

    def see(self, message: Message) -> None:
        """What their Discord client shows: a message in their DMs or their table's thread
        was created or changed (ephemeral answers come back through their own clicks)."""
        fake = self.crowd.fake
        if message.author.id != fake.bot.id or message.visible_to is not None:
            return
        if message.channel is self.dm:
            if any(custom_ids(message, prefix) for prefix in PROMPT_CONTROLS):
                if self.prompt is None or message.id >= self.prompt.id:
                    self.prompt = message
            elif message is self.prompt:
                self.prompt = None
        elif self.table is not None and message.channel is self.table.thread:
            if message.id < self.newest_post:
                return
            self.newest_post = message.id
            passing = custom_ids(message, "jg:p:")
            discarders = DISCARDS.findall(message.content)
            mine = bool(discarders) and discarders[-1] == self.name
            self.window = (message if passing and passing[0] not in self.answered and not mine
                           else None)
        self.wake.set()

    def todo(self) -> Message | None:
        return self.prompt or self.window

    async def live(self) -> None:
        """Answer whatever asks for an answer, a think time after it showed up (once the
        table plays)."""
        crowd = self.crowd
        table = self.table
        assert table is not None
        try:
            while not table.done:
                await crowd.until(self.wake.wait())
                self.wake.clear()
                if self.todo() is None:
                    continue
                await crowd.until(table.going.wait())
                if table.pace is not None and table.pace != AT_ONCE:
                    await crowd.until(asyncio.sleep(crowd.rng.uniform(*table.pace)))
                message = self.todo()
                if message is not None and not table.done:
                    await self.act(message)
        except Stopped:
            return

    async def act(self, message: Message) -> None:
        """Answer `message`: the first option of a prompt; Pass (or now and then Claim…
        and the first choice it shows) in a claim window."""
        table = self.table
        assert table is not None
        if message is self.prompt:
            self.prompt = None
            await self.choose(message)
            return
        self.window = None
        passing = custom_ids(message, "jg:p:")[0]
        self.answered.add(passing)
        plan = self.crowd.plan
        if plan is None or self.crowd.rng.random() >= plan.peek:
            await self.press(message, passing, None, move=True)
            return
        claim = custom_ids(message, "jg:c:")[0]
        menu = await self.press(message, claim, None, move=False)
        if menu is not None and menu.custom_ids():
            await self.choose(menu)

    async def choose(self, prompt: Message) -> None:
        custom_id, values = first_choice(prompt)
        await self.press(prompt, custom_id, values, move=True)

    async def press(self, message: Message, custom_id: str, values: list[str] | None, *,
                    move: bool) -> Message | None:
        """Click (or pick `values` in) a control and wait for the answer; record it. Returns
        what the person was shown, or None if the control was gone or nothing came."""
        fake, table = self.crowd.fake, self.table
        assert table is not None
        try:
            handle: FakeInteraction = (
                await fake.click(self.user, message, custom_id) if values is None
                else await fake.select(self.user, message, custom_id, values))
        except ValueError:  # the control went away while they were thinking
            self.crowd.missed.append(time.monotonic())
            return None
        answer: Message | None = None
        try:
            answer = await handle.reply()
        except AssertionError as error:  # no answer at all: recorded as unacknowledged
            self.crowd.problems.append((time.monotonic(), str(error)[:500]))
        refused = answer is None or (move and not went_through(handle, answer))
        callback = handle.callback
        self.crowd.clicks.append(Click(self.user.id, table.game, handle.created,
                                       None if callback is None else callback.at, move,
                                       refused))
        if move and not refused:
            table.moved()
        return answer


class Crowd:
    """One world of the child's: the fake Discord, its people and their tables, and what
    they recorded. `start` makes it; the bench's requests go to `handle`."""

    def __init__(self, fake: WatchedFake, shape: Shape, channels: list[Channel]) -> None:
        self.fake = fake
        self.shape = shape
        #: The tables' channel in each server, shard by shard.
        self.channels = channels
        self.people: list[Person] = []
        self.tables: list[Table] = []
        self.lives: list[asyncio.Task[None]] = []
        self.plan: Play | None = None
        self.rng = random.Random(0)
        self.clicks: list[Click] = []
        #: What went wrong, and when: answers that never came, clicks on vanished controls.
        self.problems: list[tuple[float, str]] = []
        self.missed: list[float] = []
        self.stop = asyncio.Event()
        self.warm = asyncio.Event()
        self.finished = asyncio.Event()
        #: The database server's process, whose CPU each measure reads (`World`).
        self.database_pid: int | None = None

    @classmethod
    async def start(cls, world: World) -> Crowd:
        """A fresh fake Discord with a guild on each shard, a channel in each for the
        tables, and the people, each a member of their table's guild (see `World`)."""
        fake = WatchedFake(interaction_ack_timeout=PATIENCE, default_timeout=PATIENCE,
                           limits=RateLimits(time_scale=world.scale), shards=world.shards)
        await fake.start()
        guilds = [fake.add_guild(f"Jongg Bench Hall {shard}", shard=shard)
                  for shard in range(world.shards)]
        crowd = cls(fake, world.shape,
                    [fake.add_channel(guild, "mahjong-tables") for guild in guilds])
        crowd.database_pid = world.database_pid
        for number in range(world.tables * world.shape.people):
            user = fake.add_user(f"player{number}", global_name=f"Player {number}")
            fake.add_member(guilds[number // world.shape.people % world.shards], user)
            person = Person(crowd, user, fake.dm_channel(user))
            fake.watchers[person.dm.id].append(person.see)
            crowd.people.append(person)
        return crowd

    async def until(self, waiting: Any) -> None:
        """Wait for `waiting` (a coroutine), unless the people stop first (`Stopped`)."""
        task = asyncio.ensure_future(waiting)
        stop = asyncio.ensure_future(self.stop.wait())
        try:
            await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for pending in (task, stop):
                pending.cancel()
        if self.stop.is_set():
            raise Stopped

    def check(self) -> None:
        """Note when every table has warmed up, and when every active table is done."""
        if all(table.warm for table in self.tables):
            self.warm.set()
        active = [table for table in self.tables if table.active]
        if active and all(table.done for table in active):
            self.finished.set()

    # -- the bench's requests ---------------------------------------------------------------

    async def handle(self, request: object) -> object:
        """Answer `Endpoint`, `Open`, `Start`, `Play` or `Halt` (on the fake's loop, with the
        people)."""
        match request:
            case Endpoint():
                return await self.fake.loop_thread.run(
                    self.fake.set_interactions_endpoint(*request.urls))
            case Halt():
                return await self.fake.loop_thread.run(self._stop_people())
            case Open():
                return await self.fake.loop_thread.run(self.open(request))
            case Start():
                return await self.fake.loop_thread.run(self.start_tables(request))
            case Play():
                return await self.fake.loop_thread.run(self.play(request))
        raise TypeError(f"unknown request {request!r}")

    async def open(self, request: Open) -> Opened:
        """Each table's first person opens it with /mj new; the others Join."""
        gate = asyncio.Semaphore(request.at_once)
        size = self.shape.people

        async def open_one(seated: list[Person], channel: Channel) -> Table:
            async with gate:
                return await self.open_table(seated, channel)

        groups = [self.people[i:i + size] for i in range(0, len(self.people), size)]
        servers = len(self.channels)
        opened = await asyncio.gather(*(open_one(group, self.channels[number % servers])
                                        for number, group in enumerate(groups)))
        # By game within each server, the servers taking turns: the first tables a `Play`
        # makes active are shared evenly between the shards.
        turns = itertools.zip_longest(*(sorted(opened[server::servers], key=lambda t: t.game)
                                        for server in range(servers)))
        self.tables = [table for turn in turns for table in turn if table is not None]
        return Opened(tuple(t.game for t in self.tables))

    async def open_table(self, seated: list[Person], channel: Channel) -> Table:
        fake = self.fake
        host = seated[0]
        opened = await fake.slash(host.user, channel, "mj new", {"players": 4})
        lobby = await opened.reply()
        [join] = custom_ids(lobby, "jg:l:")[:1]
        game = int(join.split(":")[2])
        thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
        # Its first message says the bot has the thread: Start works from then on.
        await fake.wait_for_message(channel=thread)
        table = Table(self, game, host, lobby, thread, list(seated))
        fake.watchers[thread.id].append(table.see)
        for person in seated:
            person.table = table
            fake.watchers[thread.id].append(person.see)
        for person in seated[1:]:
            await self.lobby(person, lobby, f"jg:l:{game}:join")
        return table

    async def lobby(self, person: Person, lobby: Message, custom_id: str) -> None:
        """Press a lobby button and wait for the lobby to show it."""
        fake = self.fake
        before = len(lobby.edits)
        handle = await fake.click(person.user, lobby, custom_id)
        await handle.acked()
        await fake.wait_until(lambda: len(lobby.edits) > before or handle.followups,
                              what=f"the lobby to change after {custom_id}")
        if handle.followups:
            raise RuntimeError(f"{custom_id}: {handle.followups[0].content}")

    async def press_start(self) -> None:
        """Start every table (the people live from now on)."""
        if not self.lives:
            self.lives = [asyncio.create_task(person.live(), name=f"person {person.name}")
                          for person in self.people]
            self.lives.append(asyncio.create_task(_freeze_heap(), name="freeze the heap"))
        gate = asyncio.Semaphore(25)

        async def start(table: Table) -> None:
            async with gate:
                await self.lobby(table.host, table.lobby, f"jg:l:{table.game}:start")

        await asyncio.gather(*(start(table) for table in self.tables))

    async def start_tables(self, request: Start) -> Started:
        """Start every table and play it fast to its warm-up's end (see `Start`)."""
        rng = random.Random(request.seed)
        for table in self.tables:
            table.warmup = rng.randint(*request.warmup)
            table.set_pace(AT_ONCE)
        await self.press_start()
        self.check()
        await asyncio.wait_for(self.warm.wait(), GAMES_PATIENCE)
        return Started(time.monotonic())

    async def play(self, plan: Play) -> Played:
        """Make the first `plan.active` tables play at the plan's pace, then measure (see
        `Play`)."""
        fake = self.fake
        self.plan, self.rng = plan, random.Random(plan.seed)
        fresh = not self.lives
        self.finished.clear()
        for table in self.tables[:plan.active]:
            table.active = True
            table.set_pace(plan.think)
        start = time.monotonic()
        if fresh:
            await self.press_start()
        else:
            await asyncio.sleep(plan.settle)
            start = time.monotonic()
        first = len(self.clicks)
        cpu, machine = time.process_time(), machine_busy()
        database = tree_cpu(self.database_pid)
        self.check()
        if plan.seconds is None:
            await asyncio.wait_for(self.finished.wait(), GAMES_PATIENCE)
        else:
            await asyncio.sleep(plan.seconds)
        end = time.monotonic()
        cpu, machine = time.process_time() - cpu, machine_busy() - machine
        database = tree_cpu(self.database_pid) - database
        if plan.seconds is None:
            await fake.wait_quiet(SETTLED_SECONDS, timeout=PATIENCE)
        else:  # the messages about the last moves measured
            await asyncio.sleep(DELIVERED_SECONDS)
        clicks = tuple(c for c in self.clicks[first:] if start <= c.created <= end)
        return Played(start, end, clicks, self.sent(start), cpu,
                      sum(table.over for table in self.tables),
                      self.troubles(clicks, start, end), machine, database)

    async def close(self) -> None:
        """The people stop where they are; the fake stops."""
        await self.fake.loop_thread.run(self._stop_people())
        await self.fake.stop()

    async def _stop_people(self) -> None:
        self.stop.set()
        for life in self.lives:
            life.cancel()
        await asyncio.gather(*self.lives, return_exceptions=True)

    def sent(self, since: float) -> tuple[Sent, ...]:
        """The bot's requests from `since` on, each with its kind and its table."""
        fake = self.fake
        games = {table.thread.id: table.game for table in self.tables}
        games.update({person.dm.id: person.table.game for person in self.people
                      if person.table is not None})
        answering = tokens(fake)
        found = []
        for request in fake.requests:
            if request.at < since:
                continue
            kind, channel = request_kind(fake, request, answering)
            found.append(Sent(
                request.at, kind, None if channel is None else channel.id,
                None if channel is None else games.get(channel.id),
                request.method == "POST" and request.route == MESSAGES_ROUTE, request.status))
        return tuple(found)

    def troubles(self, clicks: tuple[Click, ...], start: float, end: float
                 ) -> tuple[str, ...]:
        """What went wrong between `start` and `end`, in words: refused requests, late or
        missing answers, clicks on controls that had gone."""
        fake = self.fake
        found = [problem for at, problem in self.problems if start <= at <= end]
        refused = [r for r in fake.failed_requests if start <= r.at <= end]
        if refused or fake.unhandled:
            found.append(f"{len(refused)} requests refused, {len(fake.unhandled)} unknown: "
                         + "; ".join(f"{r.method} {r.path} -> {r.status}"
                                     for r in [*refused, *fake.unhandled][:5]))
        late = sum(c.acked is None or c.acked - c.created > DISCORD_ACK_SECONDS
                   for c in clicks)
        if late:
            found.append(f"{late} clicks answered after Discord's 3 s window, or never")
        missed = sum(start <= at <= end for at in self.missed)
        if missed:
            found.append(f"{missed} clicks on controls gone by the time they were made")
        return tuple(found)


def tokens(fake: FakeDiscord) -> dict[str, FakeInteraction]:
    """The interactions so far, by token (what an answer's route names)."""
    return {handle.token: handle for handle in fake.interactions.values()}


def request_kind(fake: FakeDiscord, request: RecordedRequest,
                 answering: dict[str, FakeInteraction]) -> tuple[Kind, Channel | None]:
    """What a request the bot made is, as Discord's limits see it (`discord_wire.kind_of`),
    and the channel it shows something in: its route's, or for a request made with an
    interaction's token (found in `answering`, see `tokens`), the interaction's."""
    raw = request.params.get("channel_id")
    channel = None if raw is None else fake.channels.get(int(raw))
    handle = answering.get(request.params.get("token", ""))
    if handle is not None:
        channel = handle.channel
    kind = kind_of(request.method, request.route or request.path,
                   channel is not None and channel.is_dm)
    return kind, channel


async def _freeze_heap() -> None:
    """Keep what the fake has recorded out of garbage collection (see `FREEZE_SECONDS`)."""
    while True:
        gc.freeze()
        await asyncio.sleep(FREEZE_SECONDS)


def serve(connection: Connection) -> None:
    """The child process: answer the bench's requests, one at a time, until it sends None.
    A request that fails is answered `Failed`, with its traceback."""
    asyncio.run(_serve(connection))


async def _serve(connection: Connection) -> None:
    crowd: Crowd | None = None
    try:
        while (request := await asyncio.to_thread(connection.recv)) is not None:
            reply: object = None
            try:
                if isinstance(request, World | Close) and crowd is not None:
                    await crowd.close()
                    crowd = None
                if isinstance(request, World):
                    crowd = await Crowd.start(request)
                    reply = crowd.fake.address
                elif crowd is not None:
                    reply = await crowd.handle(request)
                elif not isinstance(request, Close):
                    raise RuntimeError(f"{request!r} before any World")
            except Exception:
                reply = Failed(traceback.format_exc())
            connection.send(reply)
    finally:
        if crowd is not None:
            await crowd.close()
