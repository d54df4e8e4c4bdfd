"""Property test: whatever the interleaving of appends, stale appends and reads across games,
each game's log stays contiguous and holds exactly what was appended, in the order the
appends succeeded; every read sees a prefix of the final log."""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_helpers import FakeClock, new_game

from bot.store import Database, SeqConflict

GAMES = 3

operation = st.tuples(
    st.sampled_from(["append", "stale", "read"]),
    st.integers(0, GAMES - 1),   # which game
    st.integers(0, 3),           # yields before acting
    st.integers(0, 2),           # yields between reading the seq and appending
)


@dataclass
class Seen:
    appended: dict[int, dict[int, str]] = field(default_factory=dict)
    reads: list[tuple[int, list[tuple[int, str]]]] = field(default_factory=list)


async def run(ops: list[tuple[str, int, int, int]], folder: Path) -> None:
    async with Database(folder / "prop.db", clock=FakeClock()) as db:
        games = [(await new_game(db, first_user=10 * n)).id for n in range(GAMES)]
        seen = Seen({game: {} for game in games})

        async def perform(index: int, kind: str, which: int, before: int, gap: int) -> None:
            game = games[which]
            for _ in range(before):
                await asyncio.sleep(0)
            if kind == "read":
                log = await db.actions.actions(game)
                seen.reads.append((game, [(a.seq, a.text) for a in log]))
                return
            text = f"op {index}"
            while True:
                seq = await db.actions.next_seq(game)
                for _ in range(gap):
                    await asyncio.sleep(0)
                if kind == "stale":
                    if seq == 0:
                        return
                    try:
                        await db.actions.append_action(game, seq - 1, text, None)
                    except SeqConflict as conflict:
                        assert conflict.actual >= seq
                        return
                    raise AssertionError("a stale append went through")
                try:
                    got = await db.actions.append_action(game, seq, text, index)
                except SeqConflict:
                    continue
                assert got == seq and seq not in seen.appended[game]
                seen.appended[game][seq] = text
                return

        await asyncio.gather(*(perform(i, *op) for i, op in enumerate(ops)))

        final = {}
        for game in games:
            log = await db.actions.actions(game)
            assert [a.seq for a in log] == list(range(len(log)))
            assert {a.seq: a.text for a in log} == seen.appended[game]
            final[game] = [(a.seq, a.text) for a in log]
        for game, snapshot in seen.reads:
            assert snapshot == final[game][: len(snapshot)]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=30))
def test_any_interleaving_keeps_logs_contiguous(ops: list[tuple[str, int, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(ops, Path(folder)))
