"""A fake Discord for end-to-end tests of the bot: REST and gateway on 127.0.0.1, driven by
the real discord.py client.

    async with FakeDiscord() as fake:
        ...build guilds, channels, users...
        async with fake.run(bot):
            handle = await fake.slash(alice, general, "ping")
            reply = await handle.reply()

See `server.FakeDiscord` for the API tests use, `interactions.FakeInteraction` for awaiting the
bot's answers, `models` for what is recorded, and `faults` for failure injection.
"""

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
from .rest import remove_channel
from .runner import ClientRun, run_client
from .server import CLIENT_OPTIONS, FakeDiscord
from .world import World, build_world

__all__ = [
    "CLIENT_OPTIONS",
    "Attachment",
    "Callback",
    "CallbackType",
    "Channel",
    "ChannelType",
    "ClientRun",
    "FakeDiscord",
    "FakeInteraction",
    "FakeTimeout",
    "Fault",
    "Guild",
    "Intent",
    "InteractionFailed",
    "InteractionType",
    "Member",
    "Message",
    "MessageFlag",
    "Perm",
    "RecordedRequest",
    "Role",
    "Upload",
    "User",
    "World",
    "build_world",
    "png",
    "remove_channel",
    "run_client",
    "walk_components",
]
