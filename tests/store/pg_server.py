"""A throw-away PostgreSQL server for the tests: `initdb` in a temporary folder, a free port
on 127.0.0.1, stopped and removed at the end.

The server binaries are looked for on PATH, then in /usr/lib/postgresql/*/bin (Debian's
place). PostgreSQL refuses to run as root, so when the tests run as root the folder is
given to the `postgres` user and the binaries run as that user (`runuser`). Durability is
switched off (fsync, synchronous_commit): the data dies with the run anyway.

Each test gets a database of its own, copied from a template migrated once per run, so a
test costs a `CREATE DATABASE` instead of the whole schema.
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

import asyncpg

#: What a run says when the PostgreSQL cases cannot run.
MISSING = ("PostgreSQL server binaries (initdb, pg_ctl) not found on PATH or in "
           "/usr/lib/postgresql/*/bin, so the store tests ran on SQLite only. Install them "
           "to run them on PostgreSQL too (Debian/Ubuntu: apt install postgresql; Fedora: "
           "dnf install postgresql-server; macOS: brew install postgresql).")

USER = "jongg"
TEMPLATE = "jongg_template"


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


class PgServer:
    """One running server; `url(name)` names a database on it."""

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
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")
        options = (f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run("pg_ctl", "-D", str(data), "-l", str(self.folder / "log"), "-o", options,
                  "-w", "start")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    async def create_database(self, *, template: str | None = TEMPLATE) -> str:
        """A new database (a copy of the migrated template, or empty); returns its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            copy = f" TEMPLATE {template} STRATEGY FILE_COPY" if template else ""
            await conn.execute(f"CREATE DATABASE {name}{copy}")
        finally:
            await conn.close()
        return self.url(name)
