"""The bot's Interactions Endpoint: Discord posts interactions to a URL, any worker answers.

With an Interactions Endpoint URL set in the Developer Portal, Discord sends the bot's
interactions (slash commands, clicks, menus, modals) as signed HTTP POSTs to that URL instead
of over the gateway, so several `jongg run --http` workers behind one URL (sharing the
database) can each take any of them. Each request is checked first: `X-Signature-Ed25519` must
be the app's Ed25519 signature of `X-Signature-Timestamp` followed by the raw body (the public
key `DISCORD_PUBLIC_KEY`); anything else is answered 401, which Discord checks when the URL is
saved. A PING is answered with a PONG; every other interaction goes through discord.py's own
dispatch (commands, buttons, modals), and its first answer is the HTTP response
(`bot.discord.inline`), given within Discord's 3 seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator

import discord
from aiohttp import web
from discord.webhook.async_ import async_context
from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from bot.discord.inline import InlineAnswer
from bot.engine.errors import InvalidInput

log = logging.getLogger(__name__)

SIGNATURE = "X-Signature-Ed25519"
TIMESTAMP = "X-Signature-Timestamp"
PING = 1
PONG = {"type": 1}

#: Seconds a handler has to answer before the endpoint answers with a deferral for it:
#: Discord drops an interaction not answered within 3 s of sending it, and the answer still
#: has to travel back.
DEFER_AFTER = 2.5

#: Why a public key is refused, for `parse_public_key`.
PUBLIC_KEY_HELP = ("DISCORD_PUBLIC_KEY must be your app's public key: 64 hexadecimal "
                   "characters, from the Developer Portal (Applications > your app > General "
                   "Information > Public Key).")


def parse_public_key(text: str | None) -> VerifyKey:
    """The app's public key from `DISCORD_PUBLIC_KEY`'s text, or `InvalidInput` saying
    what to put there."""
    if not text:
        raise InvalidInput("jongg run --http needs the app's public key to check that "
                           "interactions come from Discord: set DISCORD_PUBLIC_KEY in .env. "
                           + PUBLIC_KEY_HELP)
    cleaned = text.strip()
    if len(cleaned) != 64 or any(c not in "0123456789abcdefABCDEF" for c in cleaned):
        raise InvalidInput(PUBLIC_KEY_HELP)
    return VerifyKey(bytes.fromhex(cleaned))


def signed_by(key: VerifyKey, timestamp: str | None, body: bytes,
              signature: str | None) -> bool:
    """Whether `signature` (hex) is `key`'s signature of `timestamp` + `body`."""
    if not timestamp or not signature:
        return False
    try:
        key.verify(timestamp.encode() + body, bytes.fromhex(signature))
    except (BadSignatureError, ValueError):
        return False
    return True


def parse_address(text: str) -> tuple[str, int]:
    """`HOST:PORT` (`--http`'s value) as a host and a port, or `InvalidInput`."""
    host, colon, port = text.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise InvalidInput(f"--http takes the address to serve interactions on as HOST:PORT, "
                           f"such as 127.0.0.1:8080 (got {text!r}).")
    return host.strip("[]"), int(port)


class InteractionsEndpoint:
    """The HTTP handler of Discord's interactions for `client` (logged in, its commands and
    buttons registered): checked, dispatched, answered inline."""

    def __init__(self, client: discord.Client, key: VerifyKey, *,
                 defer_after: float = DEFER_AFTER) -> None:
        self.client = client
        self.key = key
        self.defer_after = defer_after

    def app(self) -> web.Application:
        """The aiohttp application: POST on any path (a proxy in front may keep one)."""
        app = web.Application()
        app.router.add_post("/{path:.*}", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One POST from Discord."""
        body = await request.read()
        if not signed_by(self.key, request.headers.get(TIMESTAMP), body,
                         request.headers.get(SIGNATURE)):
            return web.Response(status=401, text="invalid request signature")
        try:
            payload = json.loads(body)
            kind = int(payload["type"])
        except (ValueError, KeyError, TypeError):
            return web.Response(status=400, text="not an interaction")
        if kind == PING:
            return web.json_response(PONG)
        answer = InlineAnswer(payload)
        # The handlers' tasks start inside parse_interaction_create and keep this context:
        # their callbacks, follow-ups and edits go through `answer`.
        token = async_context.set(answer)
        try:
            self.client._connection.parse_interaction_create(payload)
        finally:
            async_context.reset(token)
        first = await answer.first_answer(self.defer_after)
        response = web.json_response(first)
        try:
            await response.prepare(request)
            await response.write_eof()
        finally:
            answer.answered.set()
        return response


async def serve(endpoint: InteractionsEndpoint, host: str, port: int) -> web.AppRunner:
    """Serve `endpoint` on `host:port` until the returned runner is cleaned up."""
    runner = web.AppRunner(endpoint.app(), access_log=None, handle_signals=False)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("serving Discord's interactions on %s",
             ", ".join(f"http://{where[0]}:{where[1]}" for where in runner.addresses))
    return runner


@contextlib.asynccontextmanager
async def serving(endpoint: InteractionsEndpoint, host: str = "127.0.0.1"
                  ) -> AsyncIterator[str]:
    """Serve `endpoint` on a free port of `host` until the block ends; yields its URL (a
    worker the bench or a test starts, whose URL is then given to Discord)."""
    runner = await serve(endpoint, host, 0)
    try:
        bound, port = runner.addresses[0][:2]
        yield f"http://{bound}:{port}/interactions"
    finally:
        await runner.cleanup()


class _NotForWorkers(logging.Filter):
    """Drops discord.py's warning at login that, with an Interactions Endpoint URL set,
    the library receives no commands or clicks: true of a gateway client, while a worker
    receives them at that URL."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "interaction endpoint URL set" not in record.getMessage()


#: The one filter (adding it again changes nothing).
_NOT_FOR_WORKERS = _NotForWorkers()


async def run_worker(client: discord.Client, token: str, key: VerifyKey, host: str,
                     port: int, stop: asyncio.Event) -> None:
    """Log `client` in (REST only: no gateway connection, as interactions come over HTTP),
    serve its interactions on `host:port` until `stop` is set, then stop taking them and
    close the client (which lets the moves under way finish)."""
    logging.getLogger("discord.client").addFilter(_NOT_FOR_WORKERS)
    async with client:
        await client.login(token)
        runner = await serve(InteractionsEndpoint(client, key), host, port)
        try:
            await stop.wait()
        finally:
            await runner.cleanup()

