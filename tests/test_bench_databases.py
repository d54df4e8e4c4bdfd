"""`jongg bench store|league --quick` run on each database `--database` names: SQLite files,
a throw-away PostgreSQL server, both side by side, or a server given by URL (whose scratch
databases are dropped after); and `--database`'s refusals, one line and exit 2 each. The
PostgreSQL cases are skipped where the server binaries are absent."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest

from bot.bench import databases
from bot.cli.main import EXIT_BAD_INPUT, main
from bot.store.throwaway import INSTALL, NOT_FOUND, ThrowawayServer, find_binaries

needs_postgres = pytest.mark.skipif(
    find_binaries() is None,
    reason=f"{NOT_FOUND}, so the benches ran on SQLite only ({INSTALL}).")
OPERATIONS = ("create + start a game", "append one move (clocks, outbox)", "claim due clocks",
              "outbox claim + mark sent", "load a game of 300 actions",
              "league standings, 100 games")
STATISTICS = ("p50", "p95", "mean", "ops/s")


def _bench(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["bench", *args, "--quick", "--json"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def _values(report: dict[str, object]) -> dict[str, float]:
    figures = report["figures"]
    assert isinstance(figures, list)
    return {figure["name"]: figure["value"] for figure in figures}


def _check_store(values: dict[str, float], label: str = "") -> None:
    for operation in OPERATIONS:
        found = [values[f"{operation}: {name}{label}"] for name in STATISTICS]
        assert all(value > 0 for value in found), (operation, found)
        p50, p95, mean, per_second = found
        assert p50 <= p95 and per_second == pytest.approx(1000 / mean)


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql",
                                                             marks=needs_postgres)])
def test_store_bench_times_every_operation(capsys: pytest.CaptureFixture[str],
                                           database: str) -> None:
    report = _bench(capsys, "store", "--database", database)
    assert report["target"] == "store"
    info = report["info"]
    assert isinstance(info, dict)
    assert info["database"].startswith("SQLite" if database == "sqlite" else "PostgreSQL")
    _check_store(_values(report))


@needs_postgres
def test_both_puts_the_backends_side_by_side_with_their_ratio(
        capsys: pytest.CaptureFixture[str]) -> None:
    values = _values(_bench(capsys, "store", "--database", "both"))
    _check_store(values, " [SQLite]")
    _check_store(values, " [PostgreSQL]")
    for operation in OPERATIONS:
        for name in STATISTICS:
            figure = f"{operation}: {name}"
            assert values[f"{figure} [PostgreSQL / SQLite]"] == pytest.approx(
                values[f"{figure} [PostgreSQL]"] / values[f"{figure} [SQLite]"])
    assert main(["bench", "store", "--quick", "--database", "both"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("jongg bench store: SQLite and PostgreSQL")
    assert "SQLite: database: SQLite" in text and "PostgreSQL: database: PostgreSQL" in text


@pytest.mark.parametrize("database", ["sqlite", pytest.param("postgresql",
                                                             marks=needs_postgres)])
def test_league_bench_runs_on_each_backend(capsys: pytest.CaptureFixture[str],
                                           database: str) -> None:
    report = _bench(capsys, "league", "--database", database)
    values = _values(report)
    assert list(values) == ["standings, 1,000 games / 100 players",
                            "player stats (with head-to-head)", "CSV export",
                            "record one game (+ ratings)", "rebuild the season's ratings"]
    assert all(value > 0 for value in values.values())
    info = report["info"]
    assert isinstance(info, dict)
    assert info["standings_rows"] == info["rated_players"] == 100


async def _databases(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        return [row["datname"] for row in await conn.fetch("SELECT datname FROM pg_database")]
    finally:
        await conn.close()


def test_a_url_gets_databases_of_its_own_dropped_after(
        capsys: pytest.CaptureFixture[str], pg_server: ThrowawayServer) -> None:
    url = pg_server.url("postgres")
    before = asyncio.run(_databases(url))
    report = _bench(capsys, "store", "--database", url)
    _check_store(_values(report))
    info = report["info"]
    assert isinstance(info, dict)
    assert info["database"] == f"PostgreSQL: new databases on {url}"
    assert asyncio.run(_databases(url)) == before


def test_postgresql_without_its_binaries_says_how_to_install_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(databases, "find_binaries", lambda: None)
    assert main(["bench", "store", "--quick", "--database", "postgresql"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "initdb, pg_ctl" in err and "apt install postgresql" in err
    assert "--database postgresql://" in err and "Traceback" not in err


@pytest.mark.parametrize(("args", "says"), [
    (["store", "--database", "mysql"], "--database takes sqlite, postgresql, both or a "
                                       "postgresql:// URL; got `mysql`."),
    (["cards", "--database", "sqlite"], "--database is for `jongg bench "
                                        "discord|league|store` only."),
])
def test_database_choices_it_cannot_use_are_refused(
        capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    assert main(["bench", *args, "--quick"]) == EXIT_BAD_INPUT
    assert capsys.readouterr().err == f"jongg: {says}\n"


def test_a_server_it_cannot_reach_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://nobody:secret@127.0.0.1:1/jongg"
    assert main(["bench", "store", "--quick", "--database", url]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith("jongg: can't create a database for the bench on "
                          "postgresql://nobody@127.0.0.1:1/jongg: ")  # no password shown
    assert err.count("\n") == 1 and "Check that the server runs" in err
