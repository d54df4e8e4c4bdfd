"""Interactions the tests start as users, and what the bot answered.

`FakeInteraction` is what `fake.slash(...)`, `fake.click(...)`, `fake.select(...)`,
`fake.autocomplete(...)` and `fake.submit_modal(...)` return. It records the bot's callback
(`POST /interactions/{id}/{token}/callback`), the original response and every follow-up, and
lets the test await them with a timeout:

    handle = await fake.slash(alice, general, "ping")
    reply = await handle.reply()            # what the user ends up seeing first
    assert reply.content == "pong"

The module also builds the INTERACTION_CREATE payloads: option values typed from the command
definitions the bot synced, `resolved` data for users, members, roles, channels and attachments,
`member` in guilds and `user` in DMs, and the fields discord.py 2.7 requires
(`attachment_size_limit`, `app_permissions`, `locale`, `entitlements`,
`authorizing_integration_owners`, `context`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from .models import (
    JSON,
    Channel,
    Message,
    Perm,
    Role,
    Upload,
    User,
)

if TYPE_CHECKING:
    from .server import FakeDiscord


class InteractionType(IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(IntEnum):
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9


class OptionType(IntEnum):
    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


#: Which callbacks Discord accepts for each kind of interaction.
ALLOWED_CALLBACKS: dict[InteractionType, frozenset[int]] = {
    InteractionType.APPLICATION_COMMAND: frozenset({4, 5, 9}),
    InteractionType.MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    InteractionType.AUTOCOMPLETE: frozenset({8}),
    InteractionType.MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

#: How long an interaction's token serves follow-ups and edits of its messages, in seconds of
#: the fake's clock (`FakeDiscord.advance` moves it).
TOKEN_LIFETIME = 15 * 60

#: What an app may do in a DM with a user.
DM_APP_PERMISSIONS = (Perm.VIEW_CHANNEL | Perm.SEND_MESSAGES | Perm.EMBED_LINKS
                      | Perm.ATTACH_FILES | Perm.READ_MESSAGE_HISTORY | Perm.ADD_REACTIONS
                      | Perm.USE_EXTERNAL_EMOJIS | Perm.USE_APPLICATION_COMMANDS)


class FakeTimeout(AssertionError):
    """The bot did not do what the test waited for, in time. The message says what it did."""


class InteractionFailed(AssertionError):
    """Discord would have shown the user "The application did not respond"."""


@dataclass(eq=False)
class Callback:
    """The bot's initial response to an interaction."""

    type: CallbackType
    data: JSON
    at: float = field(default_factory=time.monotonic)

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & 64)


class FakeInteraction:
    """One interaction a test started, and everything the bot did about it."""

    def __init__(self, fake: FakeDiscord, *, id: int, token: str, kind: InteractionType,
                 user: User, channel: Channel, payload: JSON, source: Message | None,
                 name: str | None) -> None:
        self.fake = fake
        self.id = id
        self.token = token
        self.kind = kind
        self.user = user
        self.channel = channel
        self.payload = payload
        #: The message whose component was used (component and modal-from-component).
        self.source = source
        #: Command name, for slash, context-menu and autocomplete interactions.
        self.name = name
        self.created = time.monotonic()
        self.deadline = self.created + fake.interaction_ack_timeout
        #: When it was sent, on the fake's clock: the token expires `TOKEN_LIFETIME` later.
        self.issued = fake.clock.now()
        #: No bot session was there to get it (the bot was away, and a new IDENTIFY does
        #: not get what happened before it): the user is told it failed.
        self.lost = False
        #: The shards, `(id, count)`, of the sessions it was sent to.
        self.delivered_to: list[tuple[int, int]] = []
        self.callback: Callback | None = None
        #: The message that is "the" response: created by callback 4/5, or the source
        #: message for 6/7. `PATCH .../@original` edits it.
        self.original: Message | None = None
        self.followups: list[Message] = []
        self.choices_sent: list[JSON] | None = None
        self.modal_sent: JSON | None = None
        self.too_late: bool = False
        self._edits_at_callback = 0
        #: The Interactions Endpoint URL it was posted to (None: sent over the gateway).
        self.endpoint: str | None = None
        #: The POST to the endpoint while its answer is awaited (`answer_read`).
        self.posting: asyncio.Future[None] | None = None

    # -- state --------------------------------------------------------------------------

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def expired(self) -> bool:
        """Past Discord's 3-second window without a callback."""
        return self.callback is None and time.monotonic() > self.deadline

    @property
    def token_expired(self) -> bool:
        """Past the token's 15 minutes: follow-ups and edits with it are refused."""
        return self.fake.clock.now() >= self.issued + TOKEN_LIFETIME

    @property
    def deferred(self) -> bool:
        return self.callback is not None and self.callback.type in (
            CallbackType.DEFERRED_CHANNEL_MESSAGE, CallbackType.DEFERRED_UPDATE_MESSAGE)

    @property
    def messages(self) -> list[Message]:
        """The response messages in order: the original (if the bot created one) and every
        follow-up (a follow-up that filled a deferred response appears once)."""
        found: list[Message] = []
        if self.original is not None and self.original is not self.source:
            found.append(self.original)
        for message in self.followups:
            if message not in found:
                found.append(message)
        return found

    async def answer_read(self) -> None:
        """Wait until the answer to the POST of this interaction (sent over HTTP) has been
        read and taken effect, if it is being read now."""
        posting = self.posting
        if posting is not None and not posting.done():
            await asyncio.wait({posting})

    def mark_callback(self, callback: Callback) -> None:
        self.callback = callback
        if self.original is not None:
            self._edits_at_callback = len(self.original.edits)

    def describe(self) -> str:
        lines = [f"{self.kind.name} interaction {self.id} by {self.user.username} in "
                 f"{self.channel!r}" + (f" (/{self.name})" if self.name else "")]
        if self.lost:
            lines.append("  lost: no bot session was connected to get it")
        if self.endpoint is not None:
            lines.append(f"  posted to {self.endpoint}")
        if self.callback is None:
            lines.append("  no callback" + (" (Discord's 3 s window has passed)"
                                            if self.expired else ""))
        else:
            lines.append(f"  callback {self.callback.type.name}: {self.callback.data}")
        if self.too_late:
            lines.append("  the bot called back after the 3 s window (got 10062)")
        if self.original is not None:
            lines.append(f"  original: {self.original!r}")
        for message in self.followups:
            lines.append(f"  follow-up: {message!r}")
        return "\n".join(lines)

    # -- waiting --------------------------------------------------------------------------

    async def acked(self, timeout: float | None = None) -> Callback:
        """Wait for the bot's callback. Fails at once if Discord's 3-second window passes
        first (the user would see "The application did not respond"), and at once for an
        interaction no bot session got (the user sees that after the 3 seconds)."""
        if self.lost:
            raise InteractionFailed(f"no bot session got the interaction (the bot was away)"
                                    f"\n{self.describe()}")
        limit = self.fake.default_timeout if timeout is None else timeout
        window = max(0.0, self.deadline - time.monotonic()) + 0.05
        try:
            return await self.fake.wait_until(lambda: self.callback,
                                              timeout=min(limit, window),
                                              what=f"a callback to\n{self.describe()}")
        except FakeTimeout:
            if self.expired:
                raise InteractionFailed(
                    f"the bot did not acknowledge within {self.fake.interaction_ack_timeout}s"
                    f" (Discord: 'The application did not respond')\n{self.describe()}\n"
                    f"{self.fake.problems()}") from None
            raise

    async def reply(self, timeout: float | None = None) -> Message:
        """What the user sees first: the message of a type-4 response; for a deferred
        response, the original once it is filled in (edited, or replaced by the first
        follow-up); for an update (7) the updated message; for a deferred update (6) the
        message once edited, or the first follow-up."""
        callback = await self.acked(timeout)
        kind = callback.type
        if kind in (CallbackType.CHANNEL_MESSAGE, CallbackType.UPDATE_MESSAGE):
            assert self.original is not None
            return self.original
        if kind == CallbackType.DEFERRED_CHANNEL_MESSAGE:
            def filled() -> Message | None:
                original = self.original
                return original if original is not None and not original.loading else None
            return await self.fake.wait_until(filled, timeout=self._limit(timeout),
                                              what=f"the deferred response to be filled:\n"
                                                   f"{self.describe()}")
        if kind == CallbackType.DEFERRED_UPDATE_MESSAGE:
            def updated() -> Message | None:
                if self.followups:
                    return self.followups[0]
                original = self.original
                if original is not None and len(original.edits) > self._edits_at_callback:
                    return original
                return None
            return await self.fake.wait_until(updated, timeout=self._limit(timeout),
                                              what=f"an edit or follow-up after a deferred "
                                                   f"update:\n{self.describe()}")
        raise AssertionError(f"the bot answered with {kind.name}, which shows no message;"
                             f" use choices() or modal()\n{self.describe()}")

    async def followup(self, index: int = 0, timeout: float | None = None) -> Message:
        """The `index`-th follow-up message (0 is the first)."""
        await self.acked(timeout)
        return await self.fake.wait_until(
            lambda: self.followups[index] if len(self.followups) > index else None,
            timeout=self._limit(timeout), what=f"follow-up #{index}:\n{self.describe()}")

    async def choices(self, timeout: float | None = None) -> list[JSON]:
        """The autocomplete choices (`[{"name": ..., "value": ...}]`)."""
        callback = await self.acked(timeout)
        if callback.type != CallbackType.AUTOCOMPLETE_RESULT or self.choices_sent is None:
            raise AssertionError(f"expected autocomplete choices\n{self.describe()}")
        return self.choices_sent

    async def modal(self, timeout: float | None = None) -> JSON:
        """The modal the bot opened (`{"custom_id", "title", "components"}`)."""
        callback = await self.acked(timeout)
        if callback.type != CallbackType.MODAL or self.modal_sent is None:
            raise AssertionError(f"expected a modal\n{self.describe()}")
        return self.modal_sent

    async def settled(self, quiet: float = 0.1, timeout: float | None = None) -> None:
        """Wait until the bot has acknowledged and then done nothing more about this
        interaction for `quiet` seconds (for tests asserting on everything it sent)."""
        await self.acked(timeout)
        await self.fake.wait_quiet(quiet, timeout=self._limit(timeout))

    def _limit(self, timeout: float | None) -> float:
        return self.fake.default_timeout if timeout is None else timeout

    def __repr__(self) -> str:
        state = self.callback.type.name if self.callback else "pending"
        return f"<FakeInteraction {self.kind.name} {self.id} {state}>"


# -- payloads ---------------------------------------------------------------------------------


def base_payload(fake: FakeDiscord, *, kind: InteractionType, id: int, token: str, user: User,
                 channel: Channel, data: JSON, message: Message | None) -> JSON:
    """The INTERACTION_CREATE `d` for `user` acting in `channel`."""
    payload: JSON = {
        "id": str(id),
        "application_id": str(fake.application_id),
        "type": int(kind),
        "token": token,
        "version": 1,
        "data": data,
        "locale": user.locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": fake.attachment_size_limit,
        "channel_id": str(channel.id),
    }
    guild = channel.guild
    if guild is None:
        payload["user"] = user.payload()
        payload["channel"] = channel.payload()
        payload["app_permissions"] = str(int(DM_APP_PERMISSIONS))
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    else:
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user!r} is not a member of {guild!r}")
        permissions = guild.permissions_for(member, channel)
        if not permissions & Perm.VIEW_CHANNEL:
            raise ValueError(f"{user!r} cannot see {channel!r}")
        bot = guild.members[fake.bot.id]
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
        payload["guild_locale"] = guild.locale
        payload["member"] = member.payload(permissions=permissions)
        payload["channel"] = channel.payload(permissions=permissions)
        payload["app_permissions"] = str(guild.permissions_for(bot, channel))
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        payload["context"] = 0
    if message is not None:
        payload["message"] = fake.message_payload(message)
    return payload


class Resolver:
    """Builds `resolved` data and option values for snowflake-typed options."""

    def __init__(self, fake: FakeDiscord, channel: Channel) -> None:
        self.fake = fake
        self.channel = channel
        self.resolved: dict[str, dict[str, JSON]] = {}

    def _put(self, kind: str, key: int, value: JSON) -> str:
        self.resolved.setdefault(kind, {})[str(key)] = value
        return str(key)

    def user(self, value: Any) -> str:
        user = self.fake.as_user(value)
        self._put("users", user.id, user.payload())
        guild = self.channel.guild
        if guild is not None and user.id in guild.members:
            member = guild.members[user.id]
            self._put("members", user.id, member.payload(
                with_user=False, permissions=guild.permissions_for(member, self.channel)))
        return str(user.id)

    def role(self, value: Any) -> str:
        if not isinstance(value, Role):
            raise TypeError(f"a role option needs a Role, got {value!r}")
        return self._put("roles", value.id, value.payload())

    def channel_option(self, value: Any) -> str:
        if not isinstance(value, Channel):
            raise TypeError(f"a channel option needs a Channel, got {value!r}")
        guild = self.channel.guild
        permissions = 0
        if guild is not None:
            user_member = guild.members.get(self.fake.bot.id)
            if user_member is not None:
                permissions = guild.permissions_for(user_member, value)
        return self._put("channels", value.id, value.payload(permissions=permissions))

    def mentionable(self, value: Any) -> str:
        return self.role(value) if isinstance(value, Role) else self.user(value)

    def attachment(self, value: Any) -> str:
        if isinstance(value, tuple):
            value = Upload(filename=value[0], data=value[1])
        if not isinstance(value, Upload):
            raise TypeError(f"an attachment option needs an Upload or (name, bytes), got "
                            f"{value!r}")
        attachment = self.fake.store_attachment(self.channel, value, ephemeral=True)
        return self._put("attachments", attachment.id, attachment.payload())

    def message(self, message: Message) -> str:
        return self._put("messages", message.id, self.fake.message_payload(message))


def _convert(option: JSON, value: Any, resolver: Resolver, *, strict: bool,
             lengths: bool = True) -> Any:
    kind = OptionType(int(option["type"]))
    name = option["name"]
    if kind == OptionType.STRING:
        if not isinstance(value, str):
            raise TypeError(f"option {name!r} is a string, got {value!r}")
        if strict and lengths:
            low, high = option.get("min_length", 0), option.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ValueError(f"option {name!r} must be {low}..{high} characters")
    elif kind == OptionType.INTEGER:
        if strict and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"option {name!r} is an integer, got {value!r}")
    elif kind == OptionType.NUMBER:
        if strict and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise TypeError(f"option {name!r} is a number, got {value!r}")
    elif kind == OptionType.BOOLEAN:
        if not isinstance(value, bool):
            raise TypeError(f"option {name!r} is a boolean, got {value!r}")
    elif kind == OptionType.USER:
        return resolver.user(value)
    elif kind == OptionType.ROLE:
        return resolver.role(value)
    elif kind == OptionType.CHANNEL:
        types = option.get("channel_types")
        if types and isinstance(value, Channel) and int(value.type) not in types:
            raise ValueError(f"option {name!r} takes channel types {types}, got {value!r}")
        return resolver.channel_option(value)
    elif kind == OptionType.MENTIONABLE:
        return resolver.mentionable(value)
    elif kind == OptionType.ATTACHMENT:
        return resolver.attachment(value)
    if strict and kind in (OptionType.INTEGER, OptionType.NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name!r} must be within {low}..{high}, got {value}")
    choices = option.get("choices")
    if strict and choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r} must be one of "
                         f"{[c['value'] for c in choices]}, got {value!r}")
    return value


def command_options(command: JSON, path: Sequence[str], options: Mapping[str, Any],
                    resolver: Resolver, *, focused: str | None = None,
                    lengths: bool = True) -> list[JSON]:
    """The `data.options` tree for `/command path... options`, typed from the synced
    definition. Raises (in the test) where the Discord client would not let a user send it:
    unknown or missing subcommands and options, wrong types, values outside choices or
    limits. With `focused` (autocomplete) only that option is marked and nothing is
    validated, as Discord sends whatever the user has typed so far. `lengths=False` lets
    text of any length through, as a command synced before its limits existed would."""
    node = command
    chain: list[JSON] = []
    for name in path:
        child = next((o for o in node.get("options") or []
                      if o["name"] == name and int(o["type"]) in (1, 2)), None)
        if child is None:
            raise ValueError(f"/{command['name']} has no subcommand {name!r}; it has "
                             f"{_subcommands(node)}")
        chain.append(child)
        node = child
    if _subcommands(node):
        raise ValueError(f"/{' '.join([command['name'], *path])} needs a subcommand: "
                         f"{_subcommands(node)}")
    strict = focused is None
    declared = {o["name"]: o for o in node.get("options") or []}
    unknown = set(options) - set(declared)
    if unknown:
        raise ValueError(f"/{command['name']} has no option(s) {sorted(unknown)}; it has "
                         f"{sorted(declared)}")
    values: list[JSON] = []
    for name, option in declared.items():
        if name not in options:
            if strict and option.get("required"):
                raise ValueError(f"/{command['name']} needs option {name!r}")
            continue
        entry: JSON = {"name": name, "type": int(option["type"])}
        if name == focused:
            entry["value"] = options[name]
            entry["focused"] = True
        else:
            entry["value"] = _convert(option, options[name], resolver, strict=strict,
                                      lengths=lengths)
        values.append(entry)
    if focused is not None and focused not in options:
        raise ValueError(f"the focused option {focused!r} needs a value")
    if focused is not None and not declared[focused].get("autocomplete"):
        raise ValueError(f"option {focused!r} of /{command['name']} has no autocomplete")
    for sub in reversed(chain):
        values = [{"name": sub["name"], "type": int(sub["type"]), "options": values}]
    return values


def _subcommands(node: JSON) -> list[str]:
    return [o["name"] for o in node.get("options") or [] if int(o["type"]) in (1, 2)]


def modal_submit_components(modal: JSON, values: Mapping[str, Any]) -> list[JSON]:
    """The `data.components` of a modal submit: the modal's layout with each input's value
    (text inputs get `value`, selects get `values`). Inputs the test gives no value for
    submit empty; a required one raises."""
    used: set[str] = set()

    def submit(component: JSON) -> JSON:
        kind = int(component.get("type", 0))
        if kind == 1:
            return {"type": 1, "components": [submit(c) for c in component.get("components")
                                              or []]}
        if kind == 18:
            return {"type": 18, "id": component.get("id", 0),
                    "component": submit(component["component"])}
        if kind == 10:
            return {"type": 10, "id": component.get("id", 0),
                    "content": component.get("content", "")}
        custom_id = component.get("custom_id")
        if custom_id is None:
            return {"type": kind, "id": component.get("id", 0)}
        given = values.get(custom_id)
        used.add(custom_id)
        if kind == 4:
            text = "" if given is None else str(given)
            if component.get("required", True) and not text:
                raise ValueError(f"modal input {custom_id!r} is required")
            return {"type": 4, "id": component.get("id", 0), "custom_id": custom_id,
                    "value": text}
        chosen = [] if given is None else [str(v) for v in given]
        return {"type": kind, "id": component.get("id", 0), "custom_id": custom_id,
                "values": chosen}

    components = [submit(c) for c in modal.get("components") or []]
    unknown = set(values) - used
    if unknown:
        raise ValueError(f"the modal has no input(s) {sorted(unknown)}")
    return components

