"""The Interactions Endpoint (`bot.discord.endpoint`) against the fake Discord posting
interactions over HTTP with real Ed25519 signatures: a forged or missing signature gets 401
and nothing happens; a PING gets a PONG; an answer rides in the HTTP response (the callback
endpoint is never used); a handler too slow for Discord's 3 seconds is deferred for, and its
late answer (public or private, to a command or a click) reaches the user as it would have."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from fake import EndpointRefused, FakeDiscord, InteractionFailed, World
from nacl.signing import SigningKey

from bot.cli.main import EXIT_BAD_INPUT, main
from bot.discord.endpoint import (
    PUBLIC_KEY_HELP,
    InteractionsEndpoint,
    parse_public_key,
    run_worker,
    serving,
)

CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


@contextlib.asynccontextmanager
async def http_worker(fake: FakeDiscord, client: discord.Client, *,
                      defer_after: float = 2.5) -> AsyncIterator[str]:
    """`client` logged in with the fake's token and serving interactions on a free port of
    127.0.0.1 (no gateway connection), as `jongg run --http` runs it; yields its URL."""
    async with client:
        await client.login(fake.token)
        endpoint = InteractionsEndpoint(client, parse_public_key(fake.public_key),
                                        defer_after=defer_after)
        async with serving(endpoint) as url:
            yield url


def callbacks(fake: FakeDiscord) -> list[Any]:
    """Requests the bot made to the callback endpoint."""
    return [r for r in fake.requests if r.key == CALLBACK]


class Gate:
    """Lets a test hold a handler until it says so."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.go = asyncio.Event()

    async def wait(self) -> None:
        self.reached.set()
        await self.go.wait()


def slow_bot(make_bot: Any, gate: Gate) -> commands.Bot:
    """A bot whose commands answer only once `gate` lets them: publicly, privately, and
    with a button whose click answers by updating its message or with a private line."""
    bot: commands.Bot = make_bot()

    @bot.tree.command(description="Ping")
    async def ping(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("pong")

    @bot.tree.command(description="Slow and public")
    async def slow(interaction: discord.Interaction[Any]) -> None:
        await gate.wait()
        await interaction.response.send_message("late but public")

    @bot.tree.command(description="Slow and private")
    async def secret(interaction: discord.Interaction[Any]) -> None:
        await gate.wait()
        await interaction.response.send_message("late and private", ephemeral=True)

    @bot.tree.command(description="A picture")
    @discord.app_commands.describe(private="only for me")
    async def picture(interaction: discord.Interaction[Any], private: bool) -> None:
        await interaction.response.send_message(
            "here", ephemeral=private, file=discord.File(io.BytesIO(b"png"), "p.png"))

    class Buttons(discord.ui.View):
        def __init__(self) -> None:
            super().__init__(timeout=None)

        @discord.ui.button(label="Update", custom_id="t:update")
        async def update(self, interaction: discord.Interaction[Any],
                         button: discord.ui.Button[Any]) -> None:
            await gate.wait()
            await interaction.response.edit_message(content="updated late", view=None)

        @discord.ui.button(label="Whisper", custom_id="t:whisper")
        async def whisper(self, interaction: discord.Interaction[Any],
                          button: discord.ui.Button[Any]) -> None:
            await gate.wait()
            await interaction.response.send_message("whispered late", ephemeral=True)

    @bot.tree.command(description="Buttons")
    async def buttons(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("Press", view=Buttons())

    async def setup_hook() -> None:
        bot.add_view(Buttons())
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_the_url_is_saved_once_it_pongs_a_ping_and_refuses_a_bad_signature(
        fake_discord: FakeDiscord, make_bot: Any) -> None:
    fake = fake_discord
    async with http_worker(fake, slow_bot(make_bot, Gate())) as url:
        await fake.set_interactions_endpoint(url)
        ping, forged = fake.endpoint.posts
        assert (ping.status, ping.answer) == (200, {"type": 1})
        assert forged.status == 401
        assert fake.gateway.sessions == []  # the worker opened no gateway connection


async def test_a_url_that_takes_any_signature_is_refused(fake_discord: FakeDiscord) -> None:
    from aiohttp import web

    async def pong(request: web.Request) -> web.Response:
        return web.json_response({"type": 1})

    app = web.Application()
    app.router.add_post("/", pong)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        host, port = runner.addresses[0][:2]
        with pytest.raises(EndpointRefused, match="401"):
            await fake_discord.set_interactions_endpoint(f"http://{host}:{port}/")
        assert fake_discord.endpoint.url is None
    finally:
        await runner.cleanup()


async def test_a_forged_or_unsigned_interaction_gets_401_and_nothing_happens(
        fake_discord: FakeDiscord, world: World, make_bot: Any) -> None:
    fake = fake_discord
    async with http_worker(fake, slow_bot(make_bot, Gate())) as url:
        await fake.set_interactions_endpoint(url)
        handle = await fake.slash(world.alice, world.general, "ping")
        assert (await handle.reply()).content == "pong"
        payload = dict(handle.payload, id=str(fake.ids.next()), token="forged-token")
        body = json.dumps(payload).encode()
        stamp = str(int(time.time()))
        wrong_key = SigningKey.generate()
        forged = {"X-Signature-Ed25519": wrong_key.sign(stamp.encode() + body).signature.hex(),
                  "X-Signature-Timestamp": stamp, "Content-Type": "application/json"}
        before = (len(fake.requests), len(fake.messages))
        async with aiohttp.ClientSession() as session:
            for headers in (forged, {"Content-Type": "application/json"}):
                async with session.post(url, data=body, headers=headers) as response:
                    assert response.status == 401
        await handle.settled()
        assert (len(fake.requests), len(fake.messages)) == before


async def test_answers_ride_in_the_http_response(fake_discord: FakeDiscord, world: World,
                                                 make_bot: Any) -> None:
    fake = fake_discord
    gate = Gate()
    gate.go.set()
    async with http_worker(fake, slow_bot(make_bot, gate)) as url:
        await fake.set_interactions_endpoint(url)
        opened = await fake.slash(world.alice, world.general, "buttons")
        message = await opened.reply()
        clicked = await fake.click(world.bob, message, "t:update")
        assert (await clicked.reply()).content == "updated late"
        assert opened.endpoint == clicked.endpoint == url
        assert callbacks(fake) == []


@pytest.mark.parametrize("private", [False, True])
async def test_a_first_answer_with_a_file_is_deferred_then_sent_with_it(
        fake_discord: FakeDiscord, world: World, make_bot: Any, private: bool) -> None:
    """Files cannot ride in the HTTP response: the answer is a deferral (private if the
    message is), then the message with its file fills it."""
    fake = fake_discord
    async with http_worker(fake, slow_bot(make_bot, Gate())) as url:
        await fake.set_interactions_endpoint(url)
        handle = await fake.slash(world.alice, world.general, "picture", {"private": private})
        deferral = await handle.acked()
        assert deferral.type == 5 and deferral.ephemeral is private
        shown = await handle.reply()
        assert (shown.content, shown.files, shown.ephemeral) == ("here", {"p.png": b"png"},
                                                                 private)
        assert callbacks(fake) == []


@pytest.mark.parametrize(("command", "text", "private"),
                         [("slow", "late but public", False),
                          ("secret", "late and private", True)])
async def test_a_slow_command_is_deferred_and_its_answer_shown_as_it_would_be(
        fake_discord: FakeDiscord, world: World, make_bot: Any, command: str, text: str,
        private: bool) -> None:
    fake = fake_discord
    gate = Gate()
    async with http_worker(fake, slow_bot(make_bot, gate), defer_after=0.2) as url:
        await fake.set_interactions_endpoint(url)
        handle = await fake.slash(world.alice, world.general, command)
        deferral = await handle.acked()
        assert deferral.type == 5 and not deferral.ephemeral  # "thinking", for anyone
        gate.go.set()
        shown = await fake.wait_for_message(lambda m: m.content == text)
        assert shown.ephemeral is private
        assert shown in handle.messages
        if private:  # the public "thinking" message went, and nothing private was in it
            assert shown.visible_to is world.alice
            assert handle.original is not None and handle.original.deleted
        await handle.settled()
        assert callbacks(fake) == []


@pytest.mark.parametrize(("button", "text", "private"),
                         [("t:update", "updated late", False),
                          ("t:whisper", "whispered late", True)])
async def test_a_slow_click_is_deferred_and_its_answer_shown_as_it_would_be(
        fake_discord: FakeDiscord, world: World, make_bot: Any, button: str, text: str,
        private: bool) -> None:
    fake = fake_discord
    gate = Gate()
    async with http_worker(fake, slow_bot(make_bot, gate), defer_after=0.2) as url:
        await fake.set_interactions_endpoint(url)
        message = await (await fake.slash(world.alice, world.general, "buttons")).reply()
        handle = await fake.click(world.bob, message, button)
        assert (await handle.acked()).type == 6  # acknowledged, no loading state
        gate.go.set()
        shown = await fake.wait_for_message(lambda m: m.content == text)
        assert shown.ephemeral is private
        assert shown is (await handle.reply())
        if private:  # a new message only Bob sees; the buttons' message is as it was
            assert shown.visible_to is world.bob and message.content == "Press"
        await handle.settled()
        assert callbacks(fake) == []


async def test_no_answer_within_the_window_fails_the_interaction(
        fake_discord: FakeDiscord, world: World, make_bot: Any) -> None:
    fake = fake_discord
    fake.interaction_ack_timeout = 0.5  # the bot defers after 2.5 s: too late for this
    gate = Gate()
    async with http_worker(fake, slow_bot(make_bot, gate)) as url:
        await fake.set_interactions_endpoint(url)
        handle = await fake.slash(world.alice, world.general, "slow")
        with pytest.raises(InteractionFailed):
            await handle.acked()
        gate.go.set()
        post = await fake.wait_until(lambda: next(
            (p for p in fake.endpoint.posts if p.interaction is handle and p.problem), None))
        assert post.problem == "no answer within 0.5 s"
        assert handle.callback is None


# -- `jongg run --http` refuses what it cannot serve with, in one line --------------------

@pytest.mark.parametrize(("args", "key", "message"), [
    (["--http", "8080"], "", "--http takes the address to serve interactions on as "
                             "HOST:PORT, such as 127.0.0.1:8080 (got '8080')."),
    (["--http", "127.0.0.1:99999"], "", "--http takes the address to serve interactions on "
                                        "as HOST:PORT, such as 127.0.0.1:8080 (got "
                                        "'127.0.0.1:99999')."),
    (["--http", "127.0.0.1:8080"], "", "jongg run --http needs the app's public key"),
    (["--http", "127.0.0.1:8080"], "abc", PUBLIC_KEY_HELP),
    (["--http", "127.0.0.1:8080"], "g" * 64, PUBLIC_KEY_HELP),
    (["--http", "127.0.0.1:8080", "--shards", "2"], "", "--http takes no --shards"),
])
def test_run_http_refuses_a_bad_address_or_public_key(
        args: list[str], key: str, message: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a.token")
    monkeypatch.setenv("DISCORD_PUBLIC_KEY", key)
    assert main(["run", *args]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "jongg.sqlite3").exists()


async def test_a_worker_does_not_warn_that_it_receives_no_interactions(
        fake_discord: FakeDiscord, make_bot: Any, caplog: pytest.LogCaptureFixture) -> None:
    """discord.py warns at login when the app has an Interactions Endpoint URL (a gateway
    client then receives no commands or clicks); a worker receives them at that URL."""
    fake = fake_discord
    caplog.set_level(logging.INFO, logger="bot.discord.endpoint")
    async with http_worker(fake, slow_bot(make_bot, Gate())) as url:
        await fake.set_interactions_endpoint(url)
        worker = slow_bot(make_bot, Gate())
        stop = asyncio.Event()
        running = asyncio.create_task(run_worker(worker, fake.token,
                                                 parse_public_key(fake.public_key),
                                                 "127.0.0.1", 0, stop))
        try:
            await fake.wait_until(lambda: "serving Discord's interactions" in caplog.text,
                                  what="the worker to serve")
        finally:
            stop.set()
            await running
    assert "interaction endpoint URL set" not in caplog.text
