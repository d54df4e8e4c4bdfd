"""The fake's REST API: the routes discord.py 2.7 calls, answered like Discord answers them.

Every request is recorded (`fake.requests`) with its parsed JSON or multipart body (files keep
their bytes). Requests to routes the fake does not know answer 404 with a Discord-style body and
are also recorded in `fake.unhandled`. Discord's rate limits (`ratelimits.py`) are applied
first, and their headers put on every API answer; then injected faults (`fake.fail`,
`fake.rate_limit`, `fake.block_dms`) answer before the route's handler runs.

JSON answers carry exactly `Content-Type: application/json`: discord.py compares the header to
that string and treats anything else (even with `; charset=utf-8`) as text.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Awaitable, Callable, Iterator
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import HTTP
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .archive import THREAD_ARCHIVED
from .faults import RecordedRequest
from .gateway import Intent
from .interactions import (
    ALLOWED_CALLBACKS,
    Callback,
    CallbackType,
    FakeInteraction,
    InteractionType,
)
from .models import (
    JSON,
    Attachment,
    Channel,
    ChannelType,
    Message,
    MessageFlag,
    MessageType,
    Perm,
    Upload,
    User,
    iso,
    png,
)
from .schema import RequestSchema
from .validate import Problem, check_commands, check_message, error_body

if TYPE_CHECKING:
    from .server import FakeDiscord

API_PREFIX = "/api/v10"
CATCH_ALL = "/{tail}"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
RECORD = web.RequestKey("record", RecordedRequest)
#: Set on a request whose JSON body or `payload_json` does not parse (Discord's 50109).
MALFORMED = web.RequestKey("malformed", bool)

#: Flags a bot may set when creating a message (ephemeral only through interactions).
CREATE_FLAGS = int(MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS
                   | MessageFlag.IS_COMPONENTS_V2)
EDIT_FLAGS = int(MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2)
#: How long an enforced nonce is remembered ("the past few minutes" in Discord's docs).
NONCE_WINDOW = 300.0
#: What Discord answers a webhook request whose interaction token has expired (401).
INVALID_WEBHOOK_TOKEN = 50027


class DiscordHTTPError(Exception):
    """Raised by handlers: becomes a JSON error answer with Discord's status and code."""

    def __init__(self, status: int, code: int, message: str, *, body: JSON | None = None
                 ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = body if body is not None else {"message": message, "code": code}

    @classmethod
    def invalid(cls, problems: list[Problem]) -> DiscordHTTPError:
        return cls(400, 50035, "Invalid Form Body", body=error_body(problems))


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None
                  ) -> web.Response:
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={"Content-Type": "application/json", **(headers or {})})


def _snowflake(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise DiscordHTTPError.invalid([Problem("id", f"Value \"{value}\" is not snowflake.",
                                                "NUMBER_TYPE_COERCE")]) from None


def _headers(block: bytes) -> EmailMessage:
    parsed = BytesHeaderParser(policy=HTTP).parsebytes(block + b"\r\n\r\n")
    assert isinstance(parsed, EmailMessage)
    return parsed


def _multipart(content_type: str, body: bytes) -> Iterator[tuple[EmailMessage, bytes]]:
    """The parts of a whole multipart body: each one's headers and bytes.

    The body is read whole first: aiohttp's streaming part reader warns (a deprecation) when a
    body arrives in small pieces, as it does now the fake reads while the bot writes."""
    boundary = str(_headers(f"Content-Type: {content_type}".encode()).get_param("boundary"))
    for piece in (b"\r\n" + body).split(b"\r\n--" + boundary.encode())[1:]:
        if piece.startswith(b"--"):  # the closing delimiter
            return
        rest = piece.partition(b"\r\n")[2]  # after the delimiter line
        head, _, data = (b"\r\n" + rest).partition(b"\r\n\r\n")
        yield _headers(head.removeprefix(b"\r\n")), data


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true")


async def remove_channel(fake: FakeDiscord, channel: Channel) -> None:
    """Delete a channel or thread, as a moderator would: it is gone for every route (404,
    10003) and THREAD_DELETE or CHANNEL_DELETE goes out on the gateway."""
    payload = channel.payload(member_id=fake.bot.id)
    channel.deleted = True
    fake.notify()
    if channel.is_thread:
        assert channel.guild is not None
        await fake.gateway.dispatch("THREAD_DELETE", {
            "id": str(channel.id), "guild_id": str(channel.guild.id),
            "parent_id": str(channel.parent_id), "type": int(channel.type)},
            guild=channel.guild, intent=Intent.GUILDS)
    else:
        await fake.gateway.dispatch("CHANNEL_DELETE", payload, guild=channel.guild,
                                    intent=Intent.GUILDS)


class RestAPI:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        #: (channel id, nonce) -> the bot's message created with it and `enforce_nonce`, and
        #: when (the fake's clock).
        self.nonces: dict[tuple[int, str], tuple[Message, float]] = {}

    # -- plumbing -----------------------------------------------------------------------

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path in ("/gateway", "/resume-gateway"):
            return await handler(request)
        fake = self.fake
        info = request.match_info
        canonical = info.route.resource.canonical if info.route.resource else None
        known = canonical is not None and canonical != CATCH_ALL
        path = request.path
        rel = path[len(API_PREFIX):] if path.startswith(API_PREFIX) else path
        route = None
        if known and canonical is not None:
            route = canonical[len(API_PREFIX):] if canonical.startswith(API_PREFIX) else canonical
        peer = request.transport.get_extra_info("peername") if request.transport else None
        record = RecordedRequest(request.method, rel, route, params=dict(info),
                                 query=dict(request.query),
                                 connection=None if peer is None else f"{peer[0]}:{peer[1]}")
        await self._read_body(request, record)
        fake.record_request(record, known=known)
        request[RECORD] = record
        response: web.StreamResponse
        limited = path.startswith(API_PREFIX)  # the API, not files or the CDN
        try:
            self._authorize(request, rel, known)
            refusal = fake.limiter.admit(record) if limited else None
            fault = fake.faults.take(record) if refusal is None else None
            if fault is not None and fault.effective:
                # The request takes effect; only its answer is the fault's.
                with contextlib.suppress(DiscordHTTPError):
                    await handler(request)
            if refusal is not None:
                response = refusal
            elif fault is not None:
                record.fault = fault
                record.response = fault.body
                response = web.Response(status=fault.status, body=fault.body_bytes(),
                                        headers={"Content-Type": "application/json",
                                                 **fault.headers})
            else:
                response = await handler(request)
        except DiscordHTTPError as error:
            record.response = error.body
            response = json_response(error.body, error.status)
        if limited:
            fake.limiter.answered(record, response)
        record.status = response.status
        fake.notify()
        return response

    def _authorize(self, request: web.Request, rel: str, known: bool) -> None:
        open_route = (not known or rel.startswith(("/interactions/", "/webhooks/", "/gateway"))
                      or not request.path.startswith(API_PREFIX))
        if open_route:
            return
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            raise DiscordHTTPError(401, 0, "401: Unauthorized")

    async def _read_body(self, request: web.Request, record: RecordedRequest) -> None:
        if not request.can_read_body:
            return
        if request.content_type == "application/json":
            text = await request.text()
            record.json = self._parse(request, text) if text else None
        elif request.content_type.startswith("multipart/"):
            body = await request.read()
            for headers, data in _multipart(request.headers["Content-Type"], body):
                name = str(headers.get_param("name", "", header="content-disposition"))
                if name == "payload_json":
                    record.json = self._parse(request, data)
                elif name.startswith("files[") and name.endswith("]"):
                    index = int(name[6:-1])
                    kind = headers.get("Content-Type")
                    record.files.append(Upload(headers.get_filename() or f"file{index}", data,
                                               None if kind is None else str(kind), index))
        else:
            await request.read()

    @staticmethod
    def _parse(request: web.Request, text: str | bytes) -> Any:
        try:
            return json.loads(text)
        except ValueError:
            request[MALFORMED] = True
            return None

    def checked(self, method: str, route: str, handler: Handler) -> Handler:
        """`handler` behind Discord's schema for `method route`: a body or query string the
        OpenAPI document refuses is answered 400 / 50035 before the route runs (schema.py)."""
        schema = RequestSchema.of(method, route)

        async def check(request: web.Request) -> web.StreamResponse:
            if request.get(MALFORMED):
                raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.")
            record = self._record(request)
            problems = schema.problems(record.json, record.query)
            if problems:
                raise DiscordHTTPError.invalid(problems)
            return await handler(request)
        return check

    @staticmethod
    def _record(request: web.Request) -> RecordedRequest:
        return request[RECORD]

    def _body(self, request: web.Request) -> JSON:
        body = self._record(request).json
        return body if isinstance(body, dict) else {}

    def _ok(self, request: web.Request, data: Any, status: int = 200) -> web.Response:
        self._record(request).response = data
        return json_response(data, status)

    @staticmethod
    def _no_content() -> web.Response:
        return web.Response(status=204)

    # -- lookups and checks -------------------------------------------------------------

    def _channel(self, request: web.Request, key: str = "channel_id") -> Channel:
        channel = self.fake.channels.get(_snowflake(request.match_info[key]))
        if channel is None or channel.deleted:
            raise DiscordHTTPError(404, 10003, "Unknown Channel")
        return channel

    def _message(self, channel: Channel, raw: str) -> Message:
        message_id = _snowflake(raw)
        found = next((m for m in channel.messages if m.id == message_id), None)
        if found is None or found.deleted or found.ephemeral:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return found

    def _user(self, raw: str) -> User:
        if raw == "@me":
            return self.fake.bot
        user = self.fake.users.get(_snowflake(raw))
        if user is None:
            raise DiscordHTTPError(404, 10013, "Unknown User")
        return user

    def _guild(self, request: web.Request) -> Any:
        guild_id = _snowflake(request.match_info["guild_id"])
        guild = next((g for g in self.fake.guilds if g.id == guild_id), None)
        if guild is None:
            raise DiscordHTTPError(404, 10004, "Unknown Guild")
        return guild

    def _require(self, channel: Channel, *needed: int) -> int:
        """The bot's permissions in `channel`, raising Discord's 403 if it lacks any of
        `needed` (50001 when it cannot even see the channel)."""
        if channel.is_dm:
            return int(Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.ATTACH_FILES
                       | Perm.EMBED_LINKS | Perm.READ_MESSAGE_HISTORY | Perm.ADD_REACTIONS)
        guild = channel.guild
        assert guild is not None
        member = guild.members[self.fake.bot.id]
        have = guild.permissions_for(member, channel)
        hidden_thread = (channel.type == ChannelType.PRIVATE_THREAD
                         and self.fake.bot.id not in channel.thread_members
                         and not have & Perm.MANAGE_THREADS)
        if not have & Perm.VIEW_CHANNEL or hidden_thread:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        for permission in needed:
            if not have & permission:
                raise DiscordHTTPError(403, 50013, "Missing Permissions")
        return have

    async def _may_post(self, channel: Channel) -> None:
        """Before a message the channel will show: an archived thread is unarchived, and
        refuses if it is locked (see `archive`)."""
        if not await self.fake.archiver.before_post(channel):
            raise DiscordHTTPError(400, THREAD_ARCHIVED, "Thread is archived")

    async def _may_change(self, channel: Channel) -> None:
        """Before an edit, a reaction or a new member: not in an archived thread."""
        if not await self.fake.archiver.before_change(channel):
            raise DiscordHTTPError(400, THREAD_ARCHIVED, "Thread is archived")

    def _check_files(self, uploads: list[Upload]) -> None:
        for upload in uploads:
            if len(upload.data) > self.fake.attachment_size_limit:
                raise DiscordHTTPError(413, 40005, "Request entity too large")

    # -- messages -----------------------------------------------------------------------

    def _attachments(self, channel: Channel, body: JSON, uploads: list[Upload],
                     existing: list[Attachment], *, ephemeral: bool) -> list[Attachment]:
        listed = body.get("attachments")
        by_index = {u.index: u for u in uploads}
        used: set[int] = set()
        result: list[Attachment] = []
        if listed is None:
            result = list(existing)
        else:
            keep = {a.id: a for a in existing}
            for position, entry in enumerate(listed):
                key = int(entry.get("id"))
                if key in by_index and key not in used:
                    used.add(key)
                    upload = by_index[key]
                    upload.filename = entry.get("filename") or upload.filename
                    result.append(self.fake.store_attachment(
                        channel, upload, description=entry.get("description"),
                        ephemeral=ephemeral))
                elif key in keep:
                    result.append(keep[key])
                else:
                    raise DiscordHTTPError.invalid([Problem(
                        f"attachments.{position}.id", "Unknown attachment",
                        "ATTACHMENT_NOT_FOUND")])
        for upload in uploads:
            if upload.index not in used:
                result.append(self.fake.store_attachment(channel, upload, ephemeral=ephemeral))
        return result

    @staticmethod
    def _embeds(body: JSON) -> list[JSON]:
        return [{"type": "rich", **embed} for embed in body.get("embeds") or []]

    def _interaction_metadata(self, interaction: FakeInteraction) -> JSON:
        data: JSON = {
            "id": str(interaction.id),
            "type": int(interaction.kind),
            "user": interaction.user.payload(),
            "authorizing_integration_owners": interaction.payload["authorizing_integration_owners"],
        }
        if interaction.kind == InteractionType.APPLICATION_COMMAND:
            data["name"] = interaction.name
            data["command_type"] = int(interaction.payload["data"].get("type", 1))
        if interaction.source is not None:
            data["interacted_message_id"] = str(interaction.source.id)
        return data

    def _new_bot_message(self, channel: Channel, body: JSON, uploads: list[Upload], *,
                         interaction: FakeInteraction | None = None,
                         ephemeral_for: User | None = None) -> Message:
        problems = check_message(body, file_count=len(uploads), creating=True)
        if problems:
            raise DiscordHTTPError.invalid(problems)
        self._check_files(uploads)
        fake = self.fake
        flags = int(body.get("flags") or 0) & CREATE_FLAGS
        if ephemeral_for is not None:
            flags |= MessageFlag.EPHEMERAL
        kind = MessageType.DEFAULT
        reference = None
        if interaction is None and body.get("message_reference"):
            reference = self._reference(channel, body["message_reference"])
            kind = MessageType.REPLY if reference is not None else kind
        message = Message(fake.ids.next(), channel, fake.bot,
                          content=str(body.get("content") or ""), embeds=self._embeds(body),
                          components=list(body.get("components") or []), flags=flags,
                          type=kind, tts=bool(body.get("tts")), nonce=body.get("nonce"),
                          visible_to=ephemeral_for, reference=reference)
        message.attachments = self._attachments(channel, body, uploads, [],
                                                ephemeral=ephemeral_for is not None)
        if interaction is not None:
            message.webhook_id = fake.application_id
            message.application_id = fake.application_id
            message.interaction_id = interaction.id
            message.interaction_metadata = self._interaction_metadata(interaction)
            if interaction.kind == InteractionType.APPLICATION_COMMAND and not interaction.messages:
                command_type = int(interaction.payload["data"].get("type", 1))
                message.type = (MessageType.CHAT_INPUT_COMMAND if command_type == 1
                                else MessageType.CONTEXT_MENU_COMMAND)
        return fake.add_message(message)

    def _reference(self, channel: Channel, reference: JSON) -> Message | None:
        target_channel = self.fake.channels.get(int(reference.get("channel_id") or channel.id))
        message_id = int(reference.get("message_id") or 0)
        found = next((m for m in (target_channel.messages if target_channel else [])
                      if m.id == message_id and not m.deleted), None)
        if found is None and reference.get("fail_if_not_exists", True):
            raise DiscordHTTPError.invalid([Problem("message_reference", "Unknown message",
                                                    "MESSAGE_REFERENCE_UNKNOWN_MESSAGE")])
        return found

    def _edit(self, message: Message, body: JSON, uploads: list[Upload], *,
              creating: bool = False) -> None:
        problems = check_message(body, file_count=len(uploads), creating=creating)
        if problems:
            raise DiscordHTTPError.invalid(problems)
        self._check_files(uploads)
        content = str(body.get("content") or "") if "content" in body else message.content
        embeds = self._embeds(body) if "embeds" in body else message.embeds
        components = list(body.get("components") or []) if "components" in body \
            else message.components
        attachments = message.attachments
        if "attachments" in body or uploads:
            attachments = self._attachments(message.channel, body, uploads,
                                            message.attachments, ephemeral=message.ephemeral)
        if not (content or embeds or components or attachments):
            raise DiscordHTTPError(400, 50006, "Cannot send an empty message")
        message.edits.append(message.snapshot())
        message.content, message.embeds = content, embeds
        message.components, message.attachments = components, attachments
        flags = message.flags & ~MessageFlag.LOADING
        if body.get("flags") is not None:
            flags = (flags & ~EDIT_FLAGS) | (int(body["flags"]) & EDIT_FLAGS)
        message.flags = flags
        message.edited_timestamp = iso()
        self.fake.notify()

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        record = self._record(request)
        body = self._body(request)
        needed = [int(Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES)]
        if record.files:
            needed.append(int(Perm.ATTACH_FILES))
        if body.get("message_reference"):
            needed.append(int(Perm.READ_MESSAGE_HISTORY))
        self._require(channel, *needed)
        if channel.is_dm and channel.recipient is not None and channel.recipient.bot:
            raise DiscordHTTPError(403, 50007, "Cannot send messages to this user")
        await self._may_post(channel)
        nonce = body.get("nonce")  # an integer or up to 25 characters (schema.py checked)
        enforced = nonce is not None and bool(body.get("enforce_nonce"))
        if enforced:
            earlier, at = self.nonces.get((channel.id, str(nonce)), (None, 0.0))
            if (earlier is not None and not earlier.deleted
                    and self.fake.clock.now() - at < NONCE_WINDOW):
                # Discord answers a repeated create with the message it already made.
                return self._ok(request, self.fake.message_payload(earlier))
        message = self._new_bot_message(channel, body, record.files)
        if enforced:
            self.nonces[(channel.id, str(nonce))] = (message, self.fake.clock.now())
        await self.fake.dispatch_message("MESSAGE_CREATE", message)
        return self._ok(request, self.fake.message_payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, int(Perm.READ_MESSAGE_HISTORY))
        message = self._message(channel, request.match_info["message_id"])
        return self._ok(request, self.fake.message_payload(message))

    async def edit_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel)
        message = self._message(channel, request.match_info["message_id"])
        if message.author is not self.fake.bot:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        await self._may_change(channel)
        self._edit(message, self._body(request), self._record(request).files)
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return self._ok(request, self.fake.message_payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(channel, request.match_info["message_id"])
        if message.author is not self.fake.bot:
            self._require(channel, int(Perm.MANAGE_MESSAGES))
        message.deleted = True
        self.fake.notify()
        await self.fake.dispatch_message("MESSAGE_DELETE", message)
        return self._no_content()

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, int(Perm.READ_MESSAGE_HISTORY))
        query = request.query
        limit = max(1, min(100, int(query.get("limit", "50"))))
        messages = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if "before" in query:
            before = int(query["before"])
            messages = [m for m in messages if m.id < before][-limit:]
        elif "after" in query:
            after = int(query["after"])
            messages = [m for m in messages if m.id > after][:limit]
        elif "around" in query:
            around = int(query["around"])
            older = [m for m in messages if m.id < around][-(limit // 2):]
            newer = [m for m in messages if m.id >= around][:limit - len(older)]
            messages = older + newer
        else:
            messages = messages[-limit:]
        return self._ok(request, [self.fake.message_payload(m) for m in reversed(messages)])

    async def typing(self, request: web.Request) -> web.Response:
        self._require(self._channel(request), int(Perm.SEND_MESSAGES))
        return self._no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, int(Perm.ADD_REACTIONS), int(Perm.READ_MESSAGE_HISTORY))
        message = self._message(channel, request.match_info["message_id"])
        await self._may_change(channel)
        message.reactions.setdefault(request.match_info["emoji"], set()).add(self.fake.bot.id)
        return self._no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._message(channel, request.match_info["message_id"])
        message.reactions.get(request.match_info["emoji"], set()).discard(self.fake.bot.id)
        return self._no_content()

    async def pin(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, int(Perm.MANAGE_MESSAGES))
        message = self._message(channel, request.match_info["message_id"])
        message.pinned = request.method == "PUT"
        return self._no_content()

    async def pins(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel, int(Perm.READ_MESSAGE_HISTORY))
        items = [{"pinned_at": m.timestamp, "message": self.fake.message_payload(m)}
                 for m in reversed(channel.visible_messages()) if m.pinned]
        return self._ok(request, {"items": items, "has_more": False})

    # -- channels and threads -----------------------------------------------------------

    def _channel_payload(self, channel: Channel) -> JSON:
        return channel.payload(member_id=self.fake.bot.id)

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require(channel)
        return self._ok(request, self._channel_payload(channel))

    async def edit_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body = self._body(request)
        if channel.is_dm:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on a DM channel")
        if channel.is_thread:
            self._require(channel)
            if channel.owner_id != self.fake.bot.id or "locked" in body:
                self._require(channel, int(Perm.MANAGE_THREADS))
            for key in ("name", "archived", "locked", "invitable", "auto_archive_duration"):
                if key in body and body[key] is not None:
                    setattr(channel, key, body[key])
            if body.get("archived") is False or body.get("auto_archive_duration"):
                self.fake.archiver.active(channel)
            event = "THREAD_UPDATE"
        else:
            self._require(channel, int(Perm.MANAGE_CHANNELS))
            for key in ("name", "topic", "position"):
                if key in body:
                    setattr(channel, key, body[key])
            event = "CHANNEL_UPDATE"
        self.fake.notify()
        await self.fake.gateway.dispatch(event, self._channel_payload(channel),
                                         guild=channel.guild, intent=Intent.GUILDS)
        return self._ok(request, self._channel_payload(channel))

    async def delete_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        payload = self._channel_payload(channel)
        if channel.is_dm:
            return self._ok(request, payload)
        self._require(channel, int(Perm.MANAGE_THREADS if channel.is_thread
                                   else Perm.MANAGE_CHANNELS))
        await remove_channel(self.fake, channel)
        return self._ok(request, payload)

    async def _announce_thread(self, thread: Channel) -> None:
        payload = self._channel_payload(thread)
        payload["newly_created"] = True
        await self.fake.gateway.dispatch("THREAD_CREATE", payload, guild=thread.guild,
                                         intent=Intent.GUILDS)

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body = self._body(request)
        if parent.type != ChannelType.GUILD_TEXT:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        kind = int(body.get("type") or ChannelType.PRIVATE_THREAD)
        private = kind == ChannelType.PRIVATE_THREAD
        self._require(parent, int(Perm.CREATE_PRIVATE_THREADS if private
                                  else Perm.CREATE_PUBLIC_THREADS))
        thread = self.fake.add_thread(parent, str(body["name"]), private=private)
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        thread.invitable = bool(body.get("invitable", True))
        await self._announce_thread(thread)
        return self._ok(request, self._channel_payload(thread), 201)

    async def create_thread_from_message(self, request: web.Request) -> web.Response:
        parent = self._channel(request)
        body = self._body(request)
        message = self._message(parent, request.match_info["message_id"])
        if parent.type != ChannelType.GUILD_TEXT:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        self._require(parent, int(Perm.CREATE_PUBLIC_THREADS))
        if message.thread is not None:
            raise DiscordHTTPError(400, 160004, "A thread has already been created for this "
                                   "message")
        thread = self.fake.add_thread(parent, str(body["name"]), thread_id=message.id)
        thread.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
        message.thread = thread
        message.flags |= MessageFlag.HAS_THREAD
        await self._announce_thread(thread)
        return self._ok(request, self._channel_payload(thread), 201)

    def _thread(self, request: web.Request) -> Channel:
        thread = self._channel(request)
        if not thread.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        return thread

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        guild = thread.guild
        assert guild is not None
        if user.id not in guild.members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        if user is self.fake.bot:
            self._require(thread)
        else:
            self._require(thread, int(Perm.SEND_MESSAGES_IN_THREADS))
        await self._may_change(thread)
        thread.thread_members.setdefault(user.id, iso())
        self.fake.notify()
        if user is self.fake.bot:
            payload = thread.thread_member_payload(user.id)
            payload["guild_id"] = str(guild.id)
            await self.fake.gateway.dispatch("THREAD_MEMBER_UPDATE", payload, guild=guild,
                                             intent=Intent.GUILDS)
        return self._no_content()

    async def remove_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        if user is not self.fake.bot:
            self._require(thread, int(Perm.MANAGE_THREADS))
        thread.thread_members.pop(user.id, None)
        self.fake.notify()
        return self._no_content()

    async def get_thread_member(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        user = self._user(request.match_info["user_id"])
        if user.id not in thread.thread_members:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return self._ok(request, thread.thread_member_payload(user.id))

    async def thread_members(self, request: web.Request) -> web.Response:
        thread = self._thread(request)
        return self._ok(request, [thread.thread_member_payload(u) for u in thread.thread_members])

    # -- users, guilds, applications ----------------------------------------------------

    async def me(self, request: web.Request) -> web.Response:
        return self._ok(request, self.fake.bot_user_payload())

    async def get_user(self, request: web.Request) -> web.Response:
        return self._ok(request, self._user(request.match_info["user_id"]).payload())

    async def open_dm(self, request: web.Request) -> web.Response:
        body = self._body(request)
        user = self._user(str(body.get("recipient_id", "")))
        return self._ok(request, self.fake.dm_channel(user).payload())

    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        payload = guild.payload(bot_id=self.fake.bot.id)
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key, None)
        payload["approximate_member_count"] = len(guild.members)
        return self._ok(request, payload)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        return self._ok(request, [c.payload() for c in guild.channels
                                  if not c.is_thread and not c.deleted])

    async def active_threads(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        threads = [t for t in guild.threads if not t.archived]
        members = [t.thread_member_payload(self.fake.bot.id) for t in threads
                   if self.fake.bot.id in t.thread_members]
        return self._ok(request, {"threads": [self._channel_payload(t) for t in threads],
                                  "members": members})

    async def guild_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        user = self._user(request.match_info["user_id"])
        member = guild.members.get(user.id)
        if member is None:
            raise DiscordHTTPError(404, 10007, "Unknown Member")
        return self._ok(request, member.payload())

    async def guild_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        limit = int(request.query.get("limit", "1"))
        after = int(request.query.get("after", "0"))
        members = sorted((m for m in guild.members.values() if m.id > after), key=lambda m: m.id)
        return self._ok(request, [m.payload() for m in members[:limit]])

    async def guild_roles(self, request: web.Request) -> web.Response:
        return self._ok(request, [r.payload() for r in self._guild(request).roles])

    async def application(self, request: web.Request) -> web.Response:
        fake = self.fake
        return self._ok(request, {
            "id": str(fake.application_id),
            "name": fake.bot.username,
            "icon": None,
            "description": "Jongg under test",
            "summary": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": fake.bot.payload(),
            "owner": fake.owner.payload(),
            "team": None,
            "verify_key": fake.endpoint.public_key,
            "flags": fake.application_flags,
            "tags": [],
            "install_params": None,
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(fake.guilds),
            "interactions_endpoint_url": fake.endpoint.url,
            "redirect_uris": [],
        })

    async def gateway_url(self, request: web.Request) -> web.Response:
        return self._ok(request, {"url": self.fake.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return self._ok(request, {
            "url": self.fake.gateway_url, "shards": self.fake.shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                    "max_concurrency": 1}})

    # -- application commands -----------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if request.match_info["application_id"] != str(self.fake.application_id):
            raise DiscordHTTPError(404, 10002, "Unknown Application")
        if "guild_id" in request.match_info:
            return int(self._guild(request).id)
        return None

    def _command(self, guild_id: int | None, definition: JSON) -> JSON:
        fake = self.fake
        kind = int(definition.get("type") or 1)
        key = (guild_id, str(definition.get("name")), kind)
        command_id = fake.command_ids.setdefault(key, fake.ids.next())
        command = dict(definition)
        command.update(id=str(command_id), application_id=str(fake.application_id),
                       version=str(fake.ids.next()), type=kind)
        command.setdefault("description", "")
        command.setdefault("options", [])
        command.setdefault("default_member_permissions", None)
        command.setdefault("nsfw", False)
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        else:
            command.setdefault("integration_types", [0])
        return command

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body = self._record(request).json
        definitions = body if isinstance(body, list) else []
        problems = check_commands(definitions)
        if problems:
            raise DiscordHTTPError.invalid(problems)
        self.fake.commands[scope] = [self._command(scope, d) for d in definitions]
        self.fake.notify()
        return self._ok(request, self.fake.commands[scope])

    async def get_commands(self, request: web.Request) -> web.Response:
        return self._ok(request, self.fake.commands.get(self._scope(request), []))

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        definition = self._body(request)
        problems = check_commands([definition])
        if problems:
            raise DiscordHTTPError.invalid(problems)
        command = self._command(scope, definition)
        existing = [c for c in self.fake.commands.get(scope, []) if c["id"] != command["id"]]
        self.fake.commands[scope] = [*existing, command]
        return self._ok(request, command, 201)

    def _find_command(self, request: web.Request) -> tuple[int | None, JSON]:
        scope = self._scope(request)
        wanted = request.match_info["command_id"]
        for command in self.fake.commands.get(scope, []):
            if command["id"] == wanted:
                return scope, command
        raise DiscordHTTPError(404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.Response:
        return self._ok(request, self._find_command(request)[1])

    async def edit_command(self, request: web.Request) -> web.Response:
        scope, command = self._find_command(request)
        command.update(self._body(request))
        return self._ok(request, self._command(scope, command))

    async def delete_command(self, request: web.Request) -> web.Response:
        scope, command = self._find_command(request)
        self.fake.commands[scope] = [c for c in self.fake.commands[scope] if c is not command]
        return self._no_content()

    # -- interactions ---------------------------------------------------------------------

    async def callback(self, request: web.Request) -> web.Response:
        fake = self.fake
        interaction = fake.find_interaction(_snowflake(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        if interaction.endpoint is not None:
            # Discord: this endpoint "is only valid for Interactions received over the
            # gateway. Otherwise, respond to the POST request to issue an initial response."
            # (Discord documents no error for it: the fake answers as for an interaction
            # it does not know.)
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        answer = await self.respond(interaction, self._body(request),
                                    self._record(request).files)
        if not _truthy(request.query.get("with_response")):
            return self._no_content()
        return self._ok(request, answer)

    async def respond(self, interaction: FakeInteraction, body: JSON,
                      files: list[Upload]) -> JSON:
        """The bot's first answer to `interaction` (the callback endpoint's body, or the
        response to the POST of an interaction sent over HTTP) takes effect; returns the
        callback's answer (`with_response`)."""
        fake = self.fake
        if interaction.callback is not None:
            raise DiscordHTTPError(400, 40060, "Interaction has already been acknowledged.")
        if interaction.expired:
            interaction.too_late = True
            raise DiscordHTTPError(404, 10062, "Unknown interaction")
        data: JSON = body.get("data") or {}
        kind = int(body.get("type") or 0)
        allowed = ALLOWED_CALLBACKS.get(interaction.kind, frozenset())
        if kind not in allowed or (kind in (6, 7) and interaction.source is None):
            raise DiscordHTTPError.invalid([Problem("type", f"Interaction response type {kind}"
                                                    f" is not valid for a "
                                                    f"{interaction.kind.name} interaction",
                                                    "INTERACTION_RESPONSE_TYPE_INVALID")])
        callback_type = CallbackType(kind)
        ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
        viewer = interaction.user if ephemeral else None
        if callback_type in (CallbackType.CHANNEL_MESSAGE,
                             CallbackType.DEFERRED_CHANNEL_MESSAGE) and not ephemeral:
            await self._may_post(interaction.channel)
        elif (callback_type == CallbackType.UPDATE_MESSAGE and interaction.source is not None
              and not interaction.source.ephemeral):
            await self._may_change(interaction.source.channel)
        created: Message | None = None
        updated: Message | None = None
        if callback_type == CallbackType.CHANNEL_MESSAGE:
            created = self._new_bot_message(interaction.channel, data, files,
                                            interaction=interaction, ephemeral_for=viewer)
            interaction.original = created
        elif callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            flags = MessageFlag.LOADING | (MessageFlag.EPHEMERAL if ephemeral else 0)
            created = Message(fake.ids.next(), interaction.channel, fake.bot, flags=int(flags),
                              visible_to=viewer, webhook_id=fake.application_id,
                              application_id=fake.application_id,
                              interaction_id=interaction.id,
                              interaction_metadata=self._interaction_metadata(interaction))
            if interaction.kind == InteractionType.APPLICATION_COMMAND:
                created.type = MessageType.CHAT_INPUT_COMMAND
            fake.add_message(created)
            interaction.original = created
        elif callback_type == CallbackType.UPDATE_MESSAGE:
            assert interaction.source is not None
            self._edit(interaction.source, data, files)
            updated = interaction.source
        elif callback_type == CallbackType.AUTOCOMPLETE_RESULT:
            interaction.choices_sent = list(data.get("choices") or [])
        elif callback_type == CallbackType.MODAL:
            interaction.modal_sent = data
        interaction.mark_callback(Callback(callback_type, data))
        fake.notify()
        if created is not None:
            await fake.dispatch_message("MESSAGE_CREATE", created)
        if updated is not None:
            await fake.dispatch_message("MESSAGE_UPDATE", updated)
        shown = created or updated or (interaction.source
                                       if callback_type == CallbackType.DEFERRED_UPDATE_MESSAGE
                                       else None)
        answer: JSON = {"interaction": {
            "id": str(interaction.id), "type": int(interaction.kind),
            "response_message_loading": callback_type == CallbackType.DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": ephemeral}}
        resource: JSON = {"type": kind}
        if shown is not None:
            answer["interaction"]["response_message_id"] = str(shown.id)
            resource["message"] = fake.message_payload(shown)
        answer["resource"] = resource
        return answer

    async def _webhook_interaction(self, request: web.Request) -> FakeInteraction:
        interaction = self.fake.interactions_by_token.get(request.match_info["token"])
        if interaction is not None:
            # Discord has the answer to its POST before the bot, which sent that answer
            # first, can use the token: the fake reads it before it looks.
            await interaction.answer_read()
        if interaction is not None and interaction.token_expired:
            raise DiscordHTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if (interaction is None
                or request.match_info["application_id"] != str(self.fake.application_id)
                or interaction.callback is None):
            raise DiscordHTTPError(404, 10015, "Unknown Webhook")
        return interaction

    def _webhook_message(self, interaction: FakeInteraction, raw: str) -> Message:
        if raw == "@original":
            found = interaction.original
        else:
            message_id = _snowflake(raw)
            candidates = [interaction.original, *interaction.followups]
            found = next((m for m in candidates if m is not None and m.id == message_id), None)
        if found is None or found.deleted:
            raise DiscordHTTPError(404, 10008, "Unknown Message")
        return found

    async def followup(self, request: web.Request) -> web.Response:
        fake = self.fake
        interaction = await self._webhook_interaction(request)
        record = self._record(request)
        body = self._body(request)
        channel = interaction.channel
        if "thread_id" in request.query:
            channel = self.fake.channels.get(int(request.query["thread_id"])) or channel
        original = interaction.original
        assert interaction.callback is not None
        fills_deferred = (interaction.callback.type == CallbackType.DEFERRED_CHANNEL_MESSAGE
                          and original is not None and original.loading
                          and not original.deleted)
        if fills_deferred:
            # The first follow-up after a "thinking..." defer replaces the loading message;
            # it keeps the defer's ephemerality. Once that message is deleted, follow-ups
            # are new messages with their own flags.
            assert original is not None
            self._edit(original, body, record.files, creating=True)
            interaction.followups.append(original)
            message = original
            await fake.dispatch_message("MESSAGE_UPDATE", message)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & MessageFlag.EPHEMERAL)
            if not ephemeral:
                await self._may_post(channel)
            message = self._new_bot_message(channel, body, record.files,
                                            interaction=interaction,
                                            ephemeral_for=interaction.user if ephemeral
                                            else None)
            interaction.followups.append(message)
            await fake.dispatch_message("MESSAGE_CREATE", message)
        fake.notify()
        if not _truthy(request.query.get("wait")):
            return self._no_content()
        return self._ok(request, fake.message_payload(message))

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        interaction = await self._webhook_interaction(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        return self._ok(request, self.fake.message_payload(message))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        interaction = await self._webhook_interaction(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        if not message.ephemeral:
            await self._may_change(message.channel)
        self._edit(message, self._body(request), self._record(request).files)
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return self._ok(request, self.fake.message_payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        interaction = await self._webhook_interaction(request)
        message = self._webhook_message(interaction, request.match_info["message_id"])
        message.deleted = True
        self.fake.notify()
        await self.fake.dispatch_message("MESSAGE_DELETE", message)
        return self._no_content()

    # -- files and the unknown ----------------------------------------------------------

    async def attachment(self, request: web.Request) -> web.Response:
        attachment = self.fake.attachments.get(_snowflake(request.match_info["attachment_id"]))
        if attachment is None:
            raise DiscordHTTPError(404, 0, "404: Not Found")
        return web.Response(body=attachment.data,
                            headers={"Content-Type": attachment.content_type
                                     or "application/octet-stream"})

    async def cdn(self, request: web.Request) -> web.Response:
        """Avatars, banners, emoji...: a 16x16 grey PNG for any asset path."""
        return web.Response(body=png(16, 16), headers={"Content-Type": "image/png"})

    async def unknown(self, request: web.Request) -> web.Response:
        raise DiscordHTTPError(404, 0, "404: Not Found")


def build_app(fake: FakeDiscord) -> web.Application:
    api = fake.rest = RestAPI(fake)
    app = web.Application(middlewares=[api.middleware], client_max_size=256 * 1024 * 1024)
    ws = fake.gateway.handle
    app.router.add_get("/gateway", ws)
    app.router.add_get("/resume-gateway", ws)
    app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", api.attachment)
    app.router.add_get("/cdn/{path:.+}", api.cdn)

    routes: list[tuple[str, str, Handler]] = [
        ("GET", "/gateway", api.gateway_url),
        ("GET", "/gateway/bot", api.gateway_bot),
        ("GET", "/users/@me", api.me),
        ("POST", "/users/@me/channels", api.open_dm),
        ("GET", "/users/{user_id}", api.get_user),
        ("GET", "/applications/@me", api.application),
        ("GET", "/oauth2/applications/@me", api.application),
        ("GET", "/applications/{application_id}/commands", api.get_commands),
        ("PUT", "/applications/{application_id}/commands", api.put_commands),
        ("POST", "/applications/{application_id}/commands", api.upsert_command),
        ("GET", "/applications/{application_id}/commands/{command_id}", api.get_command),
        ("PATCH", "/applications/{application_id}/commands/{command_id}", api.edit_command),
        ("DELETE", "/applications/{application_id}/commands/{command_id}", api.delete_command),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", api.get_commands),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", api.put_commands),
        ("POST", "/applications/{application_id}/guilds/{guild_id}/commands",
         api.upsert_command),
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
         api.get_command),
        ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
         api.edit_command),
        ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
         api.delete_command),
        ("GET", "/guilds/{guild_id}", api.get_guild),
        ("GET", "/guilds/{guild_id}/channels", api.guild_channels),
        ("GET", "/guilds/{guild_id}/threads/active", api.active_threads),
        ("GET", "/guilds/{guild_id}/members", api.guild_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", api.guild_member),
        ("GET", "/guilds/{guild_id}/roles", api.guild_roles),
        ("GET", "/channels/{channel_id}", api.get_channel),
        ("PATCH", "/channels/{channel_id}", api.edit_channel),
        ("DELETE", "/channels/{channel_id}", api.delete_channel),
        ("POST", "/channels/{channel_id}/typing", api.typing),
        ("GET", "/channels/{channel_id}/messages/pins", api.pins),
        ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", api.pin),
        ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", api.pin),
        ("GET", "/channels/{channel_id}/messages", api.history),
        ("POST", "/channels/{channel_id}/messages", api.create_message),
        ("GET", "/channels/{channel_id}/messages/{message_id}", api.get_message),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}", api.edit_message),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}", api.delete_message),
        ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
         api.add_reaction),
        ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
         api.remove_reaction),
        ("POST", "/channels/{channel_id}/threads", api.create_thread),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads",
         api.create_thread_from_message),
        ("GET", "/channels/{channel_id}/thread-members", api.thread_members),
        ("GET", "/channels/{channel_id}/thread-members/{user_id}", api.get_thread_member),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", api.add_thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}",
         api.remove_thread_member),
        ("POST", "/interactions/{interaction_id}/{token}/callback", api.callback),
        ("POST", "/webhooks/{application_id}/{token}", api.followup),
        ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}",
         api.get_webhook_message),
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}",
         api.edit_webhook_message),
        ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}",
         api.delete_webhook_message),
    ]
    for method, path, handler in routes:
        app.router.add_route(method, API_PREFIX + path, api.checked(method, path, handler))
    app.router.add_route("*", "/{tail:.*}", api.unknown)
    return app
