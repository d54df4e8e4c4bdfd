"""A fake Discord for end-to-end tests of the bot: REST and gateway on 127.0.0.1, driven by
the real discord.py client.

    async with FakeDiscord() as fake:
        ...build guilds, channels, users...
        async with fake.run(bot):
            handle = await fake.slash(alice, general, "ping")
            reply = await handle.reply()

The fake runs in a thread of its own, on its own event loop (`loop`), so it keeps its own clock
while the bot's loop is blocked. See `server.FakeDiscord` for the API tests use,
`interactions.FakeInteraction` for awaiting the bot's answers, `models` for what is recorded,
`faults` for failure injection, and `ratelimits` for Discord's rate limits.
"""

from .endpoint import EndpointPost, EndpointRefused
from .faults import Fault, RecordedRequest
from .gateway import Intent
from .interactions import (
    Callback,
    CallbackType,
    FakeInteraction,
    FakeTimeout,
    InteractionFailed,
    InteractionType,
)
from .mentions import Pings, pinged, pings
from .models import (
    Attachment,
    Channel,
    ChannelType,
    Guild,
    Member,
    Message,
    MessageFlag,
    Perm,
    Role,
    Upload,
    User,
    png,
    walk_components,
)
from .ratelimits import Bucket, RateLimits
from .remote import Address, point_discord
from .rest import remove_channel
from .runner import ClientRun, IdentifyGate, run_client
from .server import CLIENT_OPTIONS, FakeDiscord, Scheduled
from .world import World, build_world

__all__ = [
    "CLIENT_OPTIONS",
    "Address",
    "Attachment",
    "Bucket",
    "Callback",
    "CallbackType",
    "Channel",
    "ChannelType",
    "ClientRun",
    "EndpointPost",
    "EndpointRefused",
    "FakeDiscord",
    "FakeInteraction",
    "FakeTimeout",
    "Fault",
    "Guild",
    "IdentifyGate",
    "Intent",
    "InteractionFailed",
    "InteractionType",
    "Member",
    "Message",
    "MessageFlag",
    "Perm",
    "Pings",
    "RateLimits",
    "RecordedRequest",
    "Role",
    "Scheduled",
    "Upload",
    "User",
    "World",
    "build_world",
    "pinged",
    "pings",
    "png",
    "point_discord",
    "remove_channel",
    "run_client",
    "walk_components",
]
