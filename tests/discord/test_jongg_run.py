"""`jongg run` that can't start says why in one line and exits 1, with no traceback: without a
token it explains how to get one; with a wrong token, no network, or a database it can't
open, it names the problem."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from discord import voice_client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("dotenv", [None, "DISCORD_TOKEN=\n"], ids=["no .env", "empty token"])
def test_run_without_a_token_prints_guidance(tmp_path: Path, dotenv: str | None) -> None:
    if dotenv is not None:
        (tmp_path / ".env").write_text(dotenv)
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert "needs a Discord bot token" in result.stderr
    assert "DISCORD_TOKEN=" in result.stderr and "jongg play" in result.stderr
    assert not (tmp_path / "jongg.sqlite3").exists()  # nothing was created


# -- failures at start-up: one line, exit 1, no traceback, no voice warnings ----------------

#: Runs `jongg run` as `python -m bot run` does, with discord.py's REST base pointed where
#: argv[1] says and, for "dns", every name lookup failing as on a machine without a network.
RUN_WITH = """\
import socket, sys
import discord.http
from bot.cli.main import main

if sys.argv[1] == "dns":
    def no_network(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    socket.getaddrinfo = no_network
else:
    discord.http.Route.BASE = sys.argv[1]
sys.exit(main(["run"]))
"""

USER = {"id": "1", "username": "jongg", "discriminator": "0", "avatar": None}
APPLICATION = {"id": "1", "name": "Jongg", "description": "", "icon": None,
               "bot_public": True, "bot_require_code_grant": False, "verify_key": "0",
               "flags": 0, "owner": {**USER, "id": "2"}}


class _Discordish(BaseHTTPRequestHandler):
    """Just enough of Discord's REST API for discord.py to log in (status 200) or to be
    refused (any other status, as for a wrong token)."""

    status = 200

    def do_GET(self) -> None:
        if self.status != 200:
            body: dict[str, Any] = {"message": f"{self.status}: Unauthorized", "code": 0}
        else:
            body = USER if self.path.endswith("/users/@me") else APPLICATION
        data = json.dumps(body).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test reads the bot's output, not the server's."""


@contextlib.contextmanager
def discordish(status: int) -> Iterator[str]:
    """A local stand-in for Discord answering `status`; yields its API base URL."""
    handler = type("Handler", (_Discordish,), {"status": status})
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        thread = threading.Thread(target=server.serve_forever, name="discordish")
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}/api/v10"
        finally:
            server.shutdown()
            thread.join()


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_bot(tmp_path: Path, target: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-token",
                   **env}
    return subprocess.run([sys.executable, "-c", RUN_WITH, target], cwd=tmp_path,
                          env=environment, capture_output=True, text=True, timeout=60,
                          check=False)


def failure_line(result: subprocess.CompletedProcess[str]) -> str:
    """The last line `jongg run` printed, after checking nothing else went wrong: exit 1, no
    traceback, nothing but log lines before it."""
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    *logged, last = result.stderr.splitlines()
    assert all(" INFO " in line for line in logged), result.stderr
    return last


def test_run_with_a_wrong_token(tmp_path: Path) -> None:
    with discordish(401) as api:
        line = failure_line(run_bot(tmp_path, api))
    assert line == ("jongg: Discord refused the bot token in DISCORD_TOKEN: it is wrong or "
                    "has been reset. Press Reset Token under Bot at https://discord.com/"
                    "developers/applications and put the new token in .env.")


def test_run_without_a_network(tmp_path: Path) -> None:
    line = failure_line(run_bot(tmp_path, "dns"))
    assert line.startswith("jongg: can't reach Discord (Cannot connect to host discord.com:443")
    assert line.endswith("[Name or service not known]). Check the network connection, then "
                         "try again.")


def test_run_when_discord_does_not_answer(tmp_path: Path) -> None:
    port = closed_port()
    line = failure_line(run_bot(tmp_path, f"http://127.0.0.1:{port}/api/v10"))
    assert line.startswith(f"jongg: can't reach Discord (Cannot connect to host 127.0.0.1:{port}")


def test_run_with_a_database_that_cant_be_opened(tmp_path: Path) -> None:
    (tmp_path / "jongg.sqlite3").write_text("not a database")
    with discordish(200) as api:
        line = failure_line(run_bot(tmp_path, api, JONGG_DB="jongg.sqlite3"))
    assert line.startswith("jongg: ") and "(`jongg run` keeps it where JONGG_DB says" in line


@pytest.mark.parametrize(("target", "why"), [
    ("mysql://jongg:secret@db.example/jongg",
     "JONGG_DB mysql://jongg@db.example/jongg is neither a file path nor a postgresql:// URL: "
     "Jongg keeps its data in SQLite (a file) or PostgreSQL, not mysql."),
    ("postgresql://jongg:secret@127.0.0.1:54o2/jongg",
     "JONGG_DB postgresql://jongg@127.0.0.1:54o2/jongg is not a valid PostgreSQL URL"),
    ("postgresql://jongg:secret@127.0.0.1:5432",
     "JONGG_DB postgresql://jongg@127.0.0.1:5432 names no database."),
    # Paths that can never hold the database were found only after logging in (#33 item 6).
    (".", "JONGG_DB . is a folder. Name a database file, like jongg.sqlite3."),
    ("/dev/zero", "JONGG_DB /dev/zero is not a regular file (a device or a pipe)."),
    ("missing/jongg.sqlite3", "JONGG_DB missing/jongg.sqlite3 is in missing, which is not a "
                              "folder that exists."),
    ("afile/jongg.sqlite3", "JONGG_DB afile/jongg.sqlite3 is in afile, which is not a folder "
                            "that exists."),
])
def test_run_with_a_malformed_database_target(tmp_path: Path, target: str, why: str) -> None:
    """A typo in JONGG_DB is bad input (exit 2) said in one line before the bot logs in to
    Discord, not a failure after it has started, and never shows the password."""
    (tmp_path / "afile").write_text("not a folder")
    with discordish(200) as api:
        result = run_bot(tmp_path, api, JONGG_DB=target)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"jongg: {why}") and result.stderr.count("\n") == 1
    assert "secret" not in result.stderr and not result.stdout


def test_run_refuses_a_token_written_as_a_header(tmp_path: Path) -> None:
    # `Bot …` (as Discord's HTTP header has it) was sent to Discord, which refused it.
    with discordish(200) as api:
        result = run_bot(tmp_path, api, DISCORD_TOKEN="Bot not-a-token")
    assert result.returncode == 2, result.stderr
    assert result.stderr == ("jongg: DISCORD_TOKEN starts with `Bot `: put the token alone in "
                             ".env (DISCORD_TOKEN=your-token); Jongg adds `Bot ` itself.\n")


@pytest.mark.skipif(voice_client.has_nacl and voice_client.has_dave,
                    reason="discord.py has its voice libraries here: nothing to warn about")
def test_run_starts_without_voice_warnings(tmp_path: Path) -> None:
    result = run_bot(tmp_path, f"http://127.0.0.1:{closed_port()}/api/v10")
    assert "INFO discord.client: logging in using static token" in result.stderr  # logs show
    assert "voice will NOT be supported" not in result.stderr
