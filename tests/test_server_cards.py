"""Cards for the bot: checked and compiled off the event loop, once, shared by every caller;
a stored card over the compile budget refused with what to do."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.engine.cards.cost import MAX_CARD_COMBINATIONS, costliest_card_text
from bot.engine.errors import CardError, InvalidInput
from bot.engine.matcher import matcher_for
from bot.server_cards import (
    _Cached,
    load_card_async,
    matcher_async,
    parse_card,
    playable_matcher,
    usable_card,
)

SMALL = "card: Small\n[S]\nh1 FF 1111a 2222a 3333a = 25 X\n"


async def test_callers_asking_together_share_one_computation_in_a_worker() -> None:
    started = threading.Event()
    release = threading.Event()
    threads: list[int] = []

    def compute(key: str) -> list[str]:
        threads.append(threading.get_ident())
        started.set()
        release.wait(5)
        return [key]

    cached: _Cached[str, list[str]] = _Cached(compute, keep=2)
    waiting = [asyncio.create_task(cached.wait("a")) for _ in range(5)]
    await asyncio.to_thread(started.wait, 5)
    release.set()
    results = await asyncio.gather(*waiting)
    assert len(threads) == 1 and threads[0] != threading.get_ident()
    assert all(result is results[0] for result in results)
    assert await cached.wait("a") is results[0] and cached("a") is results[0]
    assert len(threads) == 1, "a cached result is not computed again"


async def test_a_caller_giving_up_does_not_cancel_the_others() -> None:
    release = threading.Event()
    cached: _Cached[str, str] = _Cached(lambda key: release.wait(5) and key, keep=2)
    impatient = asyncio.create_task(cached.wait("a"))
    patient = asyncio.create_task(cached.wait("a"))
    await asyncio.sleep(0)
    impatient.cancel()
    release.set()
    assert await patient == "a"


async def test_errors_reach_every_caller_and_are_not_kept() -> None:
    calls: list[str] = []

    def refuse(key: str) -> str:
        calls.append(key)
        raise CardError("The card has 1 problem.")

    cached: _Cached[str, str] = _Cached(refuse, keep=2)
    results = await asyncio.gather(cached.wait("a"), cached.wait("a"), return_exceptions=True)
    assert all(isinstance(result, CardError) for result in results)
    with pytest.raises(CardError):
        await cached.wait("a")
    assert calls == ["a", "a"]


async def test_the_matcher_and_the_card_are_the_ones_the_engine_and_threads_use() -> None:
    matcher = await matcher_async(SMALL)
    assert matcher.card is await load_card_async(SMALL) is parse_card(SMALL)
    assert matcher_for(matcher.card) is matcher, "new_game and bots find it, compile nothing"
    assert await asyncio.to_thread(parse_card, SMALL) is matcher.card


async def test_a_stored_card_over_budget_is_refused_with_what_to_do() -> None:
    too_costly = costliest_card_text(MAX_CARD_COMBINATIONS + 1)
    for attempt in (usable_card("house 2026", too_costly),
                    playable_matcher("house 2026", too_costly)):
        with pytest.raises(InvalidInput) as info:
            await attempt
        message = info.value.message
        assert not isinstance(info.value, CardError)
        assert message.startswith("The card `house 2026` can't be used: line 4: the card "
                                  f"spans {MAX_CARD_COMBINATIONS + 1:,} combinations")
        assert "`c1` on line 4" in message and "/card upload" in message
        assert len(message) < 2000
