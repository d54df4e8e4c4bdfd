"""The fake gateway: the websocket discord.py keeps open for events.

It speaks gateway v10 in plain JSON text frames: HELLO, IDENTIFY -> READY and one GUILD_CREATE
per guild, heartbeats and their ACKs, RESUME (replaying what the session missed, then RESUMED),
INVALID_SESSION, RECONNECT and REQUEST_GUILD_MEMBERS. A session outlives its connection: events
dispatched while the bot is disconnected wait in the session's backlog and are replayed when it
resumes. A client closing with 1000/1001 ends its session, as on Discord. An event dispatched
while no session is alive (the bot's ended and it has not identified anew) reaches nobody: a
new IDENTIFY gets nothing from before it.

Sessions are shards, as on Discord: IDENTIFY may carry `shard: [id, count]` (none is shard 0
of 1), and a session gets the events of the guilds on its shard only, `(guild_id >> 22) %
count == id` (its READY and GUILD_CREATEs too), and DM events only if it is shard 0. A shard
pair that makes no sense is closed with 4010 (Invalid shard); a session whose shard would
hold more than `fake.guilds_per_shard` guilds with 4011 (Sharding required), as Discord does
past 2,500 guilds a shard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import IntFlag
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import JSON, Guild, new_token

if TYPE_CHECKING:
    from asyncio import Transport

    from .server import FakeDiscord


class Op:
    DISPATCH = 0
    HEARTBEAT = 1
    IDENTIFY = 2
    PRESENCE_UPDATE = 3
    VOICE_STATE_UPDATE = 4
    RESUME = 6
    RECONNECT = 7
    REQUEST_GUILD_MEMBERS = 8
    INVALID_SESSION = 9
    HELLO = 10
    HEARTBEAT_ACK = 11


class Intent(IntFlag):
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    GUILD_MESSAGE_REACTIONS = 1 << 10
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


PRIVILEGED_INTENTS = Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT

#: Close codes after which Discord will not let the session resume.
SESSION_ENDING_CLOSES = frozenset({1000, 1001})

BACKLOG = 2000

#: Shard 0 of 1: what a session that sent no `shard` in its IDENTIFY is.
UNSHARDED = (0, 1)


def shard_of(guild_id: int, count: int) -> int:
    """The shard of `count` that gets a guild's events (Discord's formula)."""
    return (guild_id >> 22) % count


def shard_pair(value: Any) -> tuple[int, int] | None:
    """The `(id, count)` an IDENTIFY's `shard` field asks for (absent: shard 0 of 1), or
    None if Discord would refuse it (not two integers, a count under 1, an id outside it)."""
    if value is None:
        return UNSHARDED
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return None
    shard_id, count = value
    return (shard_id, count) if count >= 1 and 0 <= shard_id < count else None


@dataclass(eq=False)
class Connection:
    """One websocket connection (a bot may make several over a session's life)."""

    ws: web.WebSocketResponse
    transport: Transport | None
    path: str
    session: Session | None = None
    heartbeats: int = 0
    closed_by_server: bool = False
    close_code: int | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, payload: JSON) -> bool:
        """Send one frame; False if the socket is gone (the caller keeps it for replay)."""
        if self.ws.closed:
            return False
        async with self.lock:
            try:
                await self.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError):
                return False
        return True


@dataclass(eq=False)
class Session:
    """A gateway session: what IDENTIFY created and RESUME continues."""

    id: str
    intents: int
    identify: JSON
    seq: int = 0
    backlog: deque[tuple[int, JSON]] = field(default_factory=lambda: deque(maxlen=BACKLOG))
    connection: Connection | None = None
    ended: bool = False
    ready: bool = False
    resumes: int = 0
    #: (shard id, shard count) from the IDENTIFY.
    shard: tuple[int, int] = UNSHARDED
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def receives(self, guild_id: int | None) -> bool:
        """Whether events of this guild (None: a DM) come to this session's shard."""
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))

    @property
    def live(self) -> bool:
        """Can still receive events (now or after a resume)."""
        return not self.ended

    @property
    def connected(self) -> bool:
        return self.connection is not None and self.connection.open

    def has(self, intent: int) -> bool:
        return bool(self.intents & intent)


class Gateway:
    """All gateway sessions and connections of one fake, with the knobs tests turn."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: list[Session] = []
        self.connections: list[Connection] = []
        #: Every frame received from clients, in order (tokens blanked).
        self.received: list[JSON] = []
        self.identifies = 0
        self.resumes = 0
        self.invalidations = 0
        self.presence_updates: list[JSON] = []

    # -- observation ---------------------------------------------------------------------

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions if s.live]

    @property
    def heartbeats(self) -> int:
        return sum(c.heartbeats for c in self.connections)

    @property
    def connected(self) -> bool:
        """A bot is connected and has had its READY or RESUMED."""
        return any(s.connected and s.ready for s in self.live_sessions)

    # -- the websocket -------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws=ws, transport=request.transport, path=request.path)
        self.connections.append(conn)
        hello = {"heartbeat_interval": self.fake.heartbeat_interval_ms, "_trace": ["fake-discord"]}
        await conn.send({"op": Op.HELLO, "d": hello, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            conn.close_code = ws.close_code
            self._on_closed(conn)
        return ws

    def _on_closed(self, conn: Connection) -> None:
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            if conn.close_code in SESSION_ENDING_CLOSES and not conn.closed_by_server:
                session.ended = True
        self.fake.notify()

    async def _on_frame(self, conn: Connection, frame: JSON) -> None:
        op = frame.get("op")
        data = frame.get("d")
        self.received.append(_redact(frame))
        if op == Op.HEARTBEAT:
            conn.heartbeats += 1
            await conn.send({"op": Op.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == Op.IDENTIFY:
            await self._identify(conn, data or {})
        elif op == Op.RESUME:
            await self._resume(conn, data or {})
        elif op == Op.PRESENCE_UPDATE:
            self.presence_updates.append(data or {})
        elif op == Op.REQUEST_GUILD_MEMBERS:
            await self._members_chunk(conn, data or {})
        self.fake.notify()

    async def _identify(self, conn: Connection, data: JSON) -> None:
        if data.get("token") != self.fake.token:
            await self._close(conn, 4004, "Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        refused = intents & PRIVILEGED_INTENTS & ~self.fake.privileged_intents
        if refused:
            await self._close(conn, 4014, "Disallowed intent(s).")
            return
        shard = shard_pair(data.get("shard"))
        if shard is None:
            await self._close(conn, 4010, "Invalid shard.")
            return
        held = sum(shard_of(g.id, shard[1]) == shard[0] for g in self.fake.guilds)
        if held > self.fake.guilds_per_shard:
            await self._close(conn, 4011, "Sharding required.")
            return
        self.identifies += 1
        session = Session(id=new_token("session"), intents=intents, identify=_redact(data),
                          shard=shard)
        async with session.lock:
            self.sessions.append(session)
            session.connection = conn
            conn.session = session
            await self._send_ready(session, data)

    async def _send_ready(self, session: Session, data: JSON) -> None:
        fake = self.fake
        guilds = [g for g in fake.guilds if session.receives(g.id)]
        ready: JSON = {
            "v": 10,
            "user": fake.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": fake.resume_gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fake-local"],
            "user_settings": {},
            "auth_session_id_hash": "fake",
            "_trace": ["fake-discord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._emit(session, "READY", ready)
        for guild in guilds:
            await self._emit(session, "GUILD_CREATE", guild.payload(bot_id=fake.bot.id))
        session.ready = True

    async def _resume(self, conn: Connection, data: JSON) -> None:
        session = next((s for s in self.sessions if s.id == data.get("session_id")), None)
        if (session is None or session.ended or data.get("token") != self.fake.token):
            self.invalidations += 1
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        old = session.connection
        if old is not None and old is not conn and old.open:
            old.closed_by_server = True
            await old.ws.close(code=4000)
        async with session.lock:
            session.connection = conn
            conn.session = session
            session.resumes += 1
            self.resumes += 1
            since = int(data.get("seq") or 0)
            for seq, frame in list(session.backlog):
                if seq > since:
                    await conn.send(frame)
            await self._emit(session, "RESUMED", {"_trace": ["fake-discord"]})
            session.ready = True

    async def _members_chunk(self, conn: Connection, data: JSON) -> None:
        guild = next((g for g in self.fake.guilds if str(g.id) == str(data.get("guild_id"))),
                     None)
        if guild is None or conn.session is None or not conn.session.receives(guild.id):
            return
        wanted = {str(x) for x in data.get("user_ids") or []}
        query = str(data.get("query") or "").lower()
        members = [m for m in guild.members.values()
                   if (not wanted or str(m.id) in wanted)
                   and m.user.username.lower().startswith(query)]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {"guild_id": str(guild.id), "members": [m.payload() for m in members],
                       "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self._send_event(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- sending events ------------------------------------------------------------------

    async def _send_event(self, session: Session, event: str, data: JSON) -> None:
        async with session.lock:
            await self._emit(session, event, data)

    async def _emit(self, session: Session, event: str, data: JSON) -> None:
        """Number, keep and send one event; the caller holds `session.lock`."""
        session.seq += 1
        frame = {"op": Op.DISPATCH, "t": event, "s": session.seq, "d": data}
        session.backlog.append((session.seq, frame))
        if session.connection is not None:
            await session.connection.send(frame)

    async def dispatch(self, event: str, data: JSON | Callable[[Session], JSON | None],
                       *, guild: Guild | None, intent: int | None = None) -> list[Session]:
        """Send an event of `guild` (None: of a DM) to every live session of that guild's
        shard that has the intent (a session that is reconnecting gets it on resume). `data`
        may be a function of the session, returning None to skip it. Returns the sessions
        that got it."""
        sent: list[Session] = []
        guild_id = None if guild is None else guild.id
        for session in self.live_sessions:
            if not session.receives(guild_id):
                continue
            if intent is not None and not session.has(intent):
                continue
            payload = data(session) if callable(data) else data
            if payload is None:
                continue
            await self._send_event(session, event, payload)
            sent.append(session)
        return sent

    # -- faults and control --------------------------------------------------------------

    async def _close(self, conn: Connection, code: int, reason: str = "") -> None:
        conn.closed_by_server = True
        await conn.ws.close(code=code, message=reason.encode())

    async def drop(self, *, resumable: bool = True, abort: bool = False, code: int = 4000
                   ) -> None:
        """Cut every open connection. With `resumable` the sessions survive and the bot
        should RESUME; without, the sessions end and the bot's RESUME gets INVALID_SESSION,
        so it must IDENTIFY again. `abort` kills the TCP connection without a close frame
        (a network failure) instead of closing with `code`."""
        for conn in [c for c in self.connections if c.open]:
            session = conn.session
            if session is not None and not resumable:
                session.ended = True
            conn.closed_by_server = True
            if abort and conn.transport is not None:
                conn.transport.abort()
            else:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await conn.ws.close(code=code, message=b"fake-discord drop")
        self.fake.notify()

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: the bot should close and RESUME."""
        for conn in [c for c in self.connections if c.open and c.session is not None]:
            await conn.send({"op": Op.RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate(self) -> None:
        """Send op 9 INVALID_SESSION (not resumable): the bot should IDENTIFY again."""
        for conn in [c for c in self.connections if c.open and c.session is not None]:
            assert conn.session is not None
            conn.session.ended = True
            self.invalidations += 1
            await conn.send({"op": Op.INVALID_SESSION, "d": False, "s": None, "t": None})

    async def close_all(self) -> None:
        for conn in [c for c in self.connections if c.open]:
            conn.closed_by_server = True
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.ws.close(code=1001, message=b"fake-discord shutting down")


def _redact(data: Any) -> Any:
    """A copy with tokens blanked, for the record."""
    if isinstance(data, dict):
        return {k: ("<token>" if k == "token" else _redact(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [_redact(v) for v in data]
    return data
