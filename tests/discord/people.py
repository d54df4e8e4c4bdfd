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
from fake import Channel, FakeDiscord, FakeInteraction, Message, RecordedRequest, User

from bot.bench.discord_wire import (
    MESSAGES_ROUTE,
    Click,
    Close,
    Failed,
    Kind,
    Open,
    Opened,
    Play,
    Played,
    Sent,
    Shape,
    World,
    kind_of,
)

#: The fake's waits (Discord's 3 s acknowledgement window included) are stretched so that a
#: saturated run measures latency instead of failing; late answers are counted instead.
PATIENCE = 300.0
DISCORD_ACK_SECONDS = 3.0
#: Quiet time after the last click that means the bot has delivered everything.
SETTLED_SECONDS = 0.3
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
    """The measure is over: a person stops where they are."""


@dataclass(eq=False)
class Table:
    """One table as its people know it: its game, lobby and thread, and how far it is."""

    crowd: Crowd
    game: int
    host: Person
    lobby: Message
    thread: Channel
    people: list[Person] = field(default_factory=list)
    #: Moves to play fast once play has begun, before the table counts as warmed up.
    warmup: int | None = 0
    began: bool = False
    over: bool = False
    moves: int = 0
    since_began: int = 0

    @property
    def warm(self) -> bool:
        """Done warming up: it plays at the people's pace and its moves are measured."""
        return (self.warmup is None or self.over
                or (self.began and self.since_began >= self.warmup))

    @property
    def done(self) -> bool:
        """Nothing more to play: the game is over or the table played its measured moves."""
        cap = self.crowd.plan.moves if self.crowd.plan is not None else None
        return self.over or (cap is not None and self.moves >= cap)

    def see(self, message: Message) -> None:
        """A post in the thread: play begins with the first discard open to claims; the
        result picture ends the game."""
        if not self.began and custom_ids(message, "jg:p:"):
            self.began = True
            self.crowd.check()
        if not self.over and "result.png" in message.files:
            self.over = True
            self.crowd.check()

    def moved(self, measured: bool) -> None:
        if measured:
            self.moves += 1
        elif self.began:
            self.since_began += 1
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
    busy: bool = False

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
        """Answer whatever asks for an answer, a think time after it showed up."""
        crowd = self.crowd
        table = self.table
        assert table is not None
        try:
            while not table.done:
                await crowd.until(self.wake.wait())
                self.wake.clear()
                if self.todo() is None:
                    continue
                if table.warm:
                    await crowd.until(asyncio.sleep(crowd.think()))
                message = self.todo()
                if message is not None and not table.done:
                    self.busy = True
                    try:
                        await self.act(message)
                    finally:
                        self.busy = False
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
        if self.crowd.rng.random() >= self.crowd.plan_or_fail().peek:
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
        measured = table.warm
        try:
            handle: FakeInteraction = (
                await fake.click(self.user, message, custom_id) if values is None
                else await fake.select(self.user, message, custom_id, values))
        except ValueError:  # the control went away while they were thinking
            self.crowd.missed += 1
            return None
        answer: Message | None = None
        try:
            answer = await handle.reply()
        except AssertionError as error:  # no answer at all: recorded as unacknowledged
            self.crowd.problems.append(str(error)[:500])
        refused = answer is None or (move and not went_through(handle, answer))
        callback = handle.callback
        self.crowd.clicks.append(Click(self.user.id, table.game, handle.created,
                                       None if callback is None else callback.at, move,
                                       refused))
        if move and not refused:
            table.moved(measured)
        return answer


class Crowd:
    """One world of the child's: the fake Discord, its people and their tables, and what
    they recorded. `start` makes it; the bench's requests go to `handle`."""

    def __init__(self, fake: WatchedFake, shape: Shape, channel: Channel) -> None:
        self.fake = fake
        self.shape = shape
        self.channel = channel
        self.people: list[Person] = []
        self.tables: list[Table] = []
        self.plan: Play | None = None
        self.rng = random.Random(0)
        self.clicks: list[Click] = []
        self.problems: list[str] = []
        self.missed = 0
        self.stop = asyncio.Event()
        self.warm = asyncio.Event()
        self.finished = asyncio.Event()

    @classmethod
    async def start(cls, world: World) -> Crowd:
        """A fresh fake Discord with a guild, a channel for the tables and the people."""
        fake = WatchedFake(interaction_ack_timeout=PATIENCE, default_timeout=PATIENCE)
        await fake.start()
        guild = fake.add_guild("Jongg Bench Hall")
        crowd = cls(fake, world.shape, fake.add_channel(guild, "mahjong-tables"))
        for number in range(world.tables * world.shape.people):
            user = fake.add_user(f"player{number}", global_name=f"Player {number}")
            fake.add_member(guild, user)
            person = Person(crowd, user, fake.dm_channel(user))
            fake.watchers[person.dm.id].append(person.see)
            crowd.people.append(person)
        return crowd

    def plan_or_fail(self) -> Play:
        assert self.plan is not None, "not playing"
        return self.plan

    def think(self) -> float:
        return self.rng.uniform(*self.plan_or_fail().think)

    async def until(self, waiting: Any) -> None:
        """Wait for `waiting` (a coroutine), unless the measure ends first (`Stopped`)."""
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
        """Note when every table has warmed up, and when every table is done."""
        if all(table.warm for table in self.tables):
            self.warm.set()
        if all(table.done for table in self.tables):
            self.finished.set()

    # -- the bench's requests ---------------------------------------------------------------

    async def handle(self, request: object) -> object:
        """Answer `Open`, `Play` (both run on the fake's loop, with the people) or `Close`."""
        match request:
            case Open():
                return await self.fake.loop_thread.run(self.open(request))
            case Play():
                return await self.fake.loop_thread.run(self.play(request))
            case Close():
                await self.fake.stop()
                return None
        raise TypeError(f"unknown request {request!r}")

    async def open(self, request: Open) -> Opened:
        """Each table's first person opens it with /mj new; the others Join."""
        gate = asyncio.Semaphore(request.at_once)
        size = self.shape.people

        async def open_one(seated: list[Person]) -> Table:
            async with gate:
                return await self.open_table(seated)

        groups = [self.people[i:i + size] for i in range(0, len(self.people), size)]
        self.tables = sorted(await asyncio.gather(*(open_one(g) for g in groups)),
                             key=lambda t: t.game)
        return Opened(tuple(t.game for t in self.tables))

    async def open_table(self, seated: list[Person]) -> Table:
        fake = self.fake
        host = seated[0]
        opened = await fake.slash(host.user, self.channel, "mj new", {"players": 4})
        lobby = await opened.reply()
        [join] = custom_ids(lobby, "jg:l:")[:1]
        game = int(join.split(":")[2])
        thread = await fake.wait_until(lambda: lobby.thread, what="the table's thread")
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

    async def play(self, plan: Play) -> Played:
        """Start every table, warm up, then measure (see `Play`)."""
        fake = self.fake
        self.plan, self.rng = plan, random.Random(plan.seed)
        for table in self.tables:
            table.warmup = None if plan.warmup is None else self.rng.randint(*plan.warmup)
        people = {person: asyncio.create_task(person.live(), name=f"person {person.name}")
                  for person in self.people}
        freezer = asyncio.create_task(_freeze_heap(), name="freeze the heap")
        gate = asyncio.Semaphore(25)

        async def start(table: Table) -> None:
            async with gate:
                await self.lobby(table.host, table.lobby, f"jg:l:{table.game}:start")

        start_at = time.monotonic()
        await asyncio.gather(*(start(table) for table in self.tables))
        self.check()
        await asyncio.wait_for(self.warm.wait(), PATIENCE)
        start = start_at if plan.warmup is None else time.monotonic()
        first = len(self.clicks)
        cpu = time.process_time()
        if plan.seconds is None:
            await self.finished.wait()
        else:
            await asyncio.wait([asyncio.ensure_future(self.finished.wait())],
                               timeout=plan.seconds)
        end = time.monotonic()
        cpu = time.process_time() - cpu
        self.stop.set()
        freezer.cancel()
        await asyncio.gather(*people.values(), freezer, return_exceptions=True)
        await fake.wait_quiet(SETTLED_SECONDS, timeout=PATIENCE)
        clicks = tuple(c for c in self.clicks[first:] if start <= c.created <= end)
        return Played(start, end, clicks, self.sent(start), cpu,
                      sum(table.over for table in self.tables), self.troubles(clicks))

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

    def troubles(self, clicks: tuple[Click, ...]) -> tuple[str, ...]:
        """What went wrong, in words: refused requests, late or missing answers, clicks
        on controls that had gone, errors."""
        fake = self.fake
        found = list(self.problems)
        if fake.failed_requests or fake.unhandled:
            found.append(fake.problems()[:2000])
        late = sum(c.acked is None or c.acked - c.created > DISCORD_ACK_SECONDS
                   for c in clicks)
        if late:
            found.append(f"{late} clicks answered after Discord's 3 s window, or never")
        if self.missed:
            found.append(f"{self.missed} clicks on controls gone by the time they were made")
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
            reply: object
            try:
                if isinstance(request, World):
                    if crowd is not None:
                        await crowd.fake.stop()
                    crowd = await Crowd.start(request)
                    reply = crowd.fake.address
                elif crowd is None:
                    raise RuntimeError(f"{request!r} before any World")
                else:
                    reply = await crowd.handle(request)
            except Exception:
                reply = Failed(traceback.format_exc())
            connection.send(reply)
    finally:
        if crowd is not None:
            await crowd.fake.stop()
