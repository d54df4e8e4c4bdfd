"""Throw-away PostgreSQL databases: a server of our own for a run, and scratch databases on
any server, for the store's tests and `jongg bench --database postgresql|URL`.

`ThrowawayServer` runs `initdb` in a temporary folder and starts the server on a free port of
127.0.0.1; stopping it removes the folder (`halt` and `resume` stop and start it again with
its data, for tests of a database that goes away). The server binaries are looked for on PATH, then
in /usr/lib/postgresql/*/bin (Debian's place). PostgreSQL refuses to run as root, so when
this runs as root the folder is given to the `postgres` user and the binaries run as that
user (`runuser`). Durability is switched off (fsync, synchronous_commit): the data dies with
the run anyway, so figures measured on it are the server's work without the disk's flushes.

`create_database` / `drop_database` make and remove databases on a server named by a URL of
one of its databases (the bot never does: it is given a database and keeps to it).
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.store.errors import DatabaseUnavailable

#: Where the binaries were looked for, and how to install them, for messages.
NOT_FOUND = ("PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in "
             "/usr/lib/postgresql/*/bin")
INSTALL = ("Debian/Ubuntu: apt install postgresql; Fedora: dnf install postgresql-server; "
           "macOS: brew install postgresql")

#: The superuser `initdb` makes (the URLs' user).
USER = "jongg"


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True,
                         key=lambda f: int(Path(f).parent.name) if Path(f).parent.name.isdigit()
                         else 0):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url(url: str, database: str) -> str:
    """`url` (a `postgresql://` URL) naming `database` instead of its own."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


async def create_database(url: str, name: str, *, template: str | None = None) -> str:
    """Create database `name` (a copy of `template`, or empty) on the server of `url`, as
    the user of `url` (who needs the CREATEDB right); returns its URL. `DatabaseUnavailable`
    (with asyncpg's reason) if the server can't be reached or refuses."""
    try:
        conn = await asyncpg.connect(url)
        try:
            copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
            await conn.execute(f"CREATE DATABASE {name}{copy}")
        finally:
            await conn.close()
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise DatabaseUnavailable(str(error)) from error
    return database_url(url, name)


async def drop_database(url: str, name: str) -> None:
    """Drop database `name` on the server of `url` (closing its connections)."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()


class ThrowawayServer:
    """One server of our own, started by `start` (or `with`), gone after `stop`; `url(name)`
    names a database on it."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="jongg-pg-"))
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0
        self._names = itertools.count(1)
        if self._as_postgres:
            shutil.chown(self.folder, "postgres", "postgres")

    def _run(self, *args: str) -> None:
        command = [str(self.binaries / args[0]), *args[1:]]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, text=True)

    def start(self) -> None:
        """initdb and start the server; returns once it accepts connections."""
        self._run("initdb", "-D", str(self.folder / "data"), "-U", USER, "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")
        self.resume()

    def halt(self) -> None:
        """Stop the server as an administrator would (`pg_ctl stop -m fast`: its clients'
        connections are cut), keeping its data for `resume`."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Start the server (again) on its port; returns once it accepts connections."""
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"),
                  "-o", options, "-w", "start")

    def stop(self) -> None:
        """Stop the server at once and remove its folder."""
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> ThrowawayServer:
        try:
            self.start()
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def pid(self) -> int:
        """The server's main process (the postmaster), from its data folder."""
        return int((self.folder / "data" / "postmaster.pid").read_text().split()[0])

    def url(self, database: str) -> str:
        """The URL of `database` on this server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def create_database(self, *, template: str | None = None,
                              prefix: str = "test") -> str:
        """A new database (a copy of `template`, or empty), named from `prefix`, the process
        and a count; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        return await create_database(self.url("postgres"), name, template=template)
