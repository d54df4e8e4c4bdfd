"""The fake Discord's world: users, guilds, roles, members, channels, messages and files.

Every object renders itself as the JSON payload Discord would send (`payload()`), with ids as
strings and the fields discord.py 2.7 reads without a default. The objects are plain mutable
dataclasses: tests read them directly (`message.content`, `message.files["hand.png"]`) and the
fake mutates them as the bot edits, deletes or threads things.
"""

from __future__ import annotations

import datetime as dt
import itertools
import mimetypes
import re
import struct
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum, IntFlag
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Discord-shaped ids: milliseconds since the Discord epoch in the top bits, strictly
    increasing, so `created_at` is sensible and ordering by id is ordering by creation."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """The next id whose guild would be on `shard` of `count`: the timestamp is moved
        on (a few milliseconds at most) until `(id >> 22) % count == shard`."""
        if not 0 <= shard < count:
            raise ValueError(f"there is no shard {shard} of {count}")
        moment = self.next() >> 22
        moment += (shard - moment) % count
        self._last = max(self._last, moment << 22)
        return self._last


def iso(moment: dt.datetime | None = None) -> str:
    """An ISO-8601 timestamp in UTC, as Discord writes them."""
    return (moment or dt.datetime.now(dt.UTC)).isoformat()


class ChannelType(IntEnum):
    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4
    ANNOUNCEMENT_THREAD = 10
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


THREAD_TYPES = frozenset({ChannelType.ANNOUNCEMENT_THREAD, ChannelType.PUBLIC_THREAD,
                          ChannelType.PRIVATE_THREAD})


class Perm(IntFlag):
    """The permission bits the fake checks or hands out."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1

#: What @everyone may do in a freshly made guild (roughly Discord's defaults).
EVERYONE_DEFAULT = (
    Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.READ_MESSAGE_HISTORY | Perm.ADD_REACTIONS
    | Perm.EMBED_LINKS | Perm.ATTACH_FILES | Perm.USE_APPLICATION_COMMANDS
    | Perm.SEND_MESSAGES_IN_THREADS | Perm.CREATE_PUBLIC_THREADS | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CREATE_INSTANT_INVITE
)

#: The bot's own managed role: what a sensible invite link grants.
BOT_DEFAULT = (
    EVERYONE_DEFAULT | Perm.MANAGE_THREADS | Perm.CREATE_PRIVATE_THREADS | Perm.MANAGE_MESSAGES
)


class MessageFlag(IntFlag):
    CROSSPOSTED = 1 << 0
    SUPPRESS_EMBEDS = 1 << 2
    HAS_THREAD = 1 << 5
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class MessageType(IntEnum):
    DEFAULT = 0
    THREAD_CREATED = 18
    REPLY = 19
    CHAT_INPUT_COMMAND = 20
    THREAD_STARTER_MESSAGE = 21
    CONTEXT_MENU_COMMAND = 23


class ComponentType(IntEnum):
    ACTION_ROW = 1
    BUTTON = 2
    STRING_SELECT = 3
    TEXT_INPUT = 4
    USER_SELECT = 5
    ROLE_SELECT = 6
    MENTIONABLE_SELECT = 7
    CHANNEL_SELECT = 8
    SECTION = 9
    TEXT_DISPLAY = 10
    CONTAINER = 17
    LABEL = 18


SELECT_TYPES = frozenset({ComponentType.STRING_SELECT, ComponentType.USER_SELECT,
                          ComponentType.ROLE_SELECT, ComponentType.MENTIONABLE_SELECT,
                          ComponentType.CHANNEL_SELECT})

BUTTON_STYLE_LINK = 5
BUTTON_STYLE_PREMIUM = 6


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component in a tree, parents before children (action rows, sections, containers,
    labels and their accessories)."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(eq=False)
class User:
    """A Discord user: a person the tests act as, or the bot itself."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    public_flags: int = 0
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "banner": None,
            "accent_color": None,
            "public_flags": self.public_flags,
            "flags": self.public_flags,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.username} {self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<Role {self.name} {self.id}>"


@dataclass(eq=False)
class Overwrite:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow),
                "deny": str(self.deny)}


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    roles: list[Role] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)
    flags: int = 0

    @property
    def id(self) -> int:
        return self.user.id

    def base_permissions(self) -> int:
        """Guild-level permissions: @everyone plus every role; owners and administrators get
        everything."""
        if self.user.id == self.guild.owner_id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        if value & Perm.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(role.id) for role in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": self.flags,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        return f"<Member {self.user.username} of {self.guild.name}>"


@dataclass(eq=False)
class Channel:
    """A guild text channel, a category, a thread or a DM. Threads keep their parent's id and
    their own members; a DM knows the one person on the other side."""

    id: int
    type: ChannelType
    name: str | None = None
    guild: Guild | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient: User | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso)
    thread_members: dict[int, str] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> int | None:
        return self.messages[-1].id if self.messages else None

    @property
    def parent(self) -> Channel | None:
        if self.guild is None or self.parent_id is None:
            return None
        return self.guild.channel_by_id(self.parent_id)

    def visible_messages(self) -> list[Message]:
        """Messages still there (not deleted), oldest first."""
        return [m for m in self.messages if not m.deleted]

    def thread_member_payload(self, user_id: int) -> JSON:
        return {"id": str(self.id), "user_id": str(user_id),
                "join_timestamp": self.thread_members.get(user_id, iso()), "flags": 0}

    def payload(self, *, member_id: int | None = None, permissions: int | None = None) -> JSON:
        """The channel object. `member_id` adds the thread-member object for that user (the
        bot) when it is in the thread; `permissions` adds the resolved permissions field
        interactions carry."""
        data: JSON = {"id": str(self.id), "type": int(self.type), "flags": 0,
                      "last_message_id": _opt_id(self.last_message_id)}
        if self.is_dm:
            assert self.recipient is not None
            data["recipients"] = [self.recipient.payload()]
        else:
            assert self.guild is not None
            data.update({
                "guild_id": str(self.guild.id),
                "name": self.name,
                "position": self.position,
                "parent_id": _opt_id(self.parent_id),
                "nsfw": False,
                "rate_limit_per_user": 0,
            })
            if self.is_thread:
                data.update({
                    "owner_id": _opt_id(self.owner_id),
                    "message_count": len(self.visible_messages()),
                    "total_message_sent": len(self.messages),
                    "member_count": min(len(self.thread_members), 50),
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": self.created_at,
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": self.created_at,
                    },
                    "applied_tags": [],
                })
                if member_id is not None and member_id in self.thread_members:
                    data["member"] = self.thread_member_payload(member_id)
            else:
                data["topic"] = self.topic
                data["permission_overwrites"] = [o.payload() for o in self.overwrites]
                data["default_auto_archive_duration"] = 1440
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data

    def __repr__(self) -> str:
        if self.is_dm:
            assert self.recipient is not None
            return f"<DM with {self.recipient.username} {self.id}>"
        return f"<Channel #{self.name} {self.id} type={self.type.name}>"


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: list[Role] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"
    joined_at: str = field(default_factory=iso)

    @property
    def everyone(self) -> Role:
        return self.roles[0]

    def channel_by_id(self, channel_id: int) -> Channel | None:
        return next((c for c in self.channels if c.id == channel_id and not c.deleted), None)

    def channel(self, name: str) -> Channel:
        """The (non-deleted) channel or thread called `name`."""
        for channel in self.channels:
            if channel.name == name and not channel.deleted:
                return channel
        raise KeyError(f"no channel #{name} in {self.name}")

    def role(self, name: str) -> Role:
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(f"no role {name} in {self.name}")

    def member(self, user: User | int) -> Member:
        user_id = user if isinstance(user, int) else user.id
        return self.members[user_id]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels if c.is_thread and not c.deleted]

    def permissions_for(self, member: Member, channel: Channel) -> int:
        """Discord's permission algorithm: guild base permissions, then the channel's
        overwrites for @everyone, the member's roles and the member (threads use their
        parent's overwrites)."""
        base = member.base_permissions()
        if base & Perm.ADMINISTRATOR or base == ALL_PERMISSIONS:
            return ALL_PERMISSIONS
        source = channel.parent if channel.is_thread and channel.parent else channel
        by_id = {o.id: o for o in source.overwrites}
        value = base
        everyone = by_id.get(self.id)
        if everyone:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in member.roles:
            ow = by_id.get(role.id)
            if ow:
                allow |= ow.allow
                deny |= ow.deny
        value = (value & ~deny) | allow
        own = by_id.get(member.id)
        if own:
            value = (value & ~own.deny) | own.allow
        if not value & Perm.VIEW_CHANNEL:
            return 0
        return value

    def payload(self, *, bot_id: int) -> JSON:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": self.joined_at,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in self.members.values()],
            "channels": [c.payload() for c in self.channels if not c.is_thread and not c.deleted],
            "threads": [c.payload(member_id=bot_id) for c in self.threads if not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Upload:
    """A file as it arrived in a multipart request (`files[n]`), or a file a test attaches
    to a user's message or command option."""

    filename: str
    data: bytes
    content_type: str | None = None
    index: int = 0


@dataclass(eq=False)
class Attachment:
    """A file on a message, with its bytes kept for assertions."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def image_size(self) -> tuple[int, int] | None:
        """(width, height) for PNG files, read from the IHDR chunk."""
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and len(self.data) >= 24:
            width, height = struct.unpack(">II", self.data[16:24])
            return int(width), int(height)
        return None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
            "flags": 0,
        }
        if self.description is not None:
            data["description"] = self.description
        image = self.image_size
        if image is not None:
            data["width"], data["height"] = image
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size}B>"


def png(width: int, height: int, grey: int = 0x80) -> bytes:
    """A valid single-colour greyscale PNG (used for avatars and other CDN images)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    rows = b"".join(b"\x00" + bytes([grey]) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def guess_content_type(filename: str) -> str | None:
    guessed, _ = mimetypes.guess_type(filename)
    return guessed


_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass(eq=False)
class Edit:
    """What a message looked like before one edit."""

    at: float
    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[Attachment]
    flags: int


@dataclass(eq=False)
class Message:
    """A message as the fake stores it. `visible_to` is set for ephemeral messages (only that
    user sees them); `interaction_id` ties interaction responses and follow-ups to the
    interaction that caused them; `edits` keeps what the message looked like before each edit.
    """

    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: MessageType = MessageType.DEFAULT
    timestamp: str = field(default_factory=iso)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    visible_to: User | None = None
    reference: Message | None = None
    thread: Channel | None = None
    pinned: bool = False
    tts: bool = False
    nonce: str | int | None = None
    reactions: dict[str, set[int]] = field(default_factory=dict)
    deleted: bool = False
    edits: list[Edit] = field(default_factory=list)
    created: float = field(default_factory=time.monotonic)

    # -- questions tests ask --------------------------------------------------------------

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking..." response nobody has filled in yet."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def is_dm(self) -> bool:
        return self.channel.is_dm

    @property
    def files(self) -> dict[str, bytes]:
        """File name to bytes, for every attachment."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed titles, descriptions, fields,
        footers, text displays and component labels, one per line."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(str(embed[key]))
            author = embed.get("author") or {}
            if author.get("name"):
                parts.append(str(author["name"]))
            for embed_field in embed.get("fields") or []:
                parts.append(f"{embed_field.get('name', '')}: {embed_field.get('value', '')}")
            footer = embed.get("footer") or {}
            if footer.get("text"):
                parts.append(str(footer["text"]))
        for component in walk_components(self.components):
            if component.get("type") == ComponentType.TEXT_DISPLAY:
                parts.append(str(component.get("content", "")))
            elif component.get("label"):
                parts.append(str(component["label"]))
        return "\n".join(parts)

    def component(self, custom_id: str) -> JSON:
        """The component with this custom id (KeyError if the message has none)."""
        for component in walk_components(self.components):
            if component.get("custom_id") == custom_id:
                return component
        raise KeyError(f"message {self.id} has no component {custom_id!r}; it has "
                       f"{self.custom_ids()}")

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def buttons(self) -> list[JSON]:
        return [c for c in walk_components(self.components)
                if c.get("type") == ComponentType.BUTTON]

    @property
    def mentions(self) -> list[int]:
        return [int(x) for x in _MENTION.findall(self.content)]

    # -- payloads ---------------------------------------------------------------------------

    def snapshot(self) -> Edit:
        return Edit(at=time.monotonic(), content=self.content, embeds=list(self.embeds),
                    components=list(self.components), attachments=list(self.attachments),
                    flags=self.flags)

    def payload(self, *, users: dict[int, User] | None = None, with_reference: bool = True
                ) -> JSON:
        """The message object. `users` resolves mentions in the content to user objects."""
        known = users or {}
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": "@everyone" in self.content,
            "mentions": [known[i].payload() for i in self.mentions if i in known],
            "mention_roles": _ROLE_MENTION.findall(self.content),
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": self.pinned,
            "type": int(self.type),
            "flags": self.flags,
        }
        guild = self.guild
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(self.author.id)
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.reactions:
            data["reactions"] = [
                {"emoji": {"id": None, "name": emoji}, "count": len(who), "me": False,
                 "count_details": {"burst": 0, "normal": len(who)}, "burst_colors": [],
                 "me_burst": False, "burst_me": False, "burst_count": 0}
                for emoji, who in self.reactions.items() if who
            ]
        if self.reference is not None:
            data["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference.id),
                "channel_id": str(self.reference.channel.id),
                "guild_id": _opt_id(guild.id if guild else None),
            }
            if with_reference:
                data["referenced_message"] = (
                    None if self.reference.deleted
                    else self.reference.payload(users=users, with_reference=False))
        if self.thread is not None and not self.thread.deleted:
            data["thread"] = self.thread.payload()
        return data

    def __repr__(self) -> str:
        where = repr(self.channel)
        flags = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id} by {self.author.username} in {where}{flags}: {self.text!r}>"


def _opt_id(value: int | None) -> str | None:
    return None if value is None else str(value)


_tokens = itertools.count(1)


def new_token(prefix: str) -> str:
    """An opaque token (interaction tokens, session ids)."""
    return f"{prefix}{next(_tokens):06d}{time.time_ns() % 10**9:09d}"
