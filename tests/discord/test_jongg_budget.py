"""The requests a move costs, by kind, against Discord's global rate limit (issue 12).

Discord allows a bot 50 requests a second in all, except those made with an interaction's
token (callbacks, follow-ups, edits of answers). A live table makes a move every few seconds,
so what one bot token carries (`jongg bench discord`) is set by what a move costs. Whole
games are played here through the fake Discord, and the requests the bot made for each move
are sorted by kind as the bench sorts them (`people.request_kind`):

* a move that leaves its moment waiting for others (a pass while the claim window stays
  open, a Charleston pass or vote before everyone has chosen) costs no global-limited
  request;
* any other move in play costs at most one (the table post after a discard, or the DM with
  the next player's drawn tile), except the game's last, which also posts the result;
* a Charleston pass, vote or courtesy that completes costs a table post and a DM per person;
* a Pass under the table post that leads straight to a new picture posts nothing: the post
  moves on in place as the click's answer;
* on average a move costs at most `REQUESTS_PER_MOVE_GOAL` global-limited requests, and in
  play, with four people clicking, at most `LIVE_REQUESTS_PER_MOVE_GOAL`: the posts and
  prompts ride on their clicks' tokens.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from fake import CallbackType, FakeDiscord, World
from jongg_table import JonggTable, assert_clean, jongg_client
from people import request_kind, tokens

from bot.bench.discord import LIVE_REQUESTS_PER_MOVE_GOAL, REQUESTS_PER_MOVE_GOAL
from bot.bench.discord_wire import Kind
from bot.engine.game import Phase

#: The phases of the Charleston, where every person passes (or votes, or offers) at once.
CHARLESTON = frozenset({Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER,
                        Phase.COURTESY_PASS})


@dataclass(frozen=True)
class Move:
    """One move and what the bot sent for it: the phase it was made in, whether it left
    the moment waiting for others, the requests by kind, and whether it was a Pass under
    the table post that the post's moving on answered."""

    phase: Phase
    waiting: bool
    kinds: Counter[Kind]
    carried: bool

    @property
    def global_limited(self) -> int:
        return sum(n for kind, n in self.kinds.items() if kind.global_limited)


async def play_counting(table: JonggTable) -> list[Move]:
    """Play the game to its end (everyone their first option), noting each move's cost."""
    fake = table.fake
    requests, clicks = len(fake.requests), set(fake.interactions)
    moves: list[Move] = []
    while not table.over:
        user = table.to_move()[0]
        before = table.view(user)
        await table.step(user, before)
        waiting = table.spectator().phase is before.phase and not table.view(user).legal
        made = fake.requests[requests:]
        requests += len(made)
        answering = tokens(fake)
        kinds = Counter(request_kind(fake, request, answering)[0] for request in made)
        new = [handle for key, handle in fake.interactions.items() if key not in clicks]
        clicks.update(handle.id for handle in new)
        carried = any(str(handle.payload["data"].get("custom_id", "")).startswith("jg:p:")
                      and handle.callback is not None
                      and handle.callback.type is CallbackType.UPDATE_MESSAGE
                      for handle in new)
        moves.append(Move(before.phase, waiting, kinds, carried))
    return moves


def check_budget(moves: list[Move], people: int) -> None:
    """The budget of the module docstring, for a table of `people` people."""
    assert moves and not moves[-1].waiting
    for number, move in enumerate(moves, 1):
        said = f"move {number} of {len(moves)} ({move.phase.value}): {dict(move.kinds)}"
        if move.waiting:
            assert move.global_limited == 0, said
        elif move.phase in CHARLESTON:
            assert move.kinds[Kind.POST] <= 1 and move.global_limited <= 1 + people, said
        else:
            assert move.global_limited <= (2 if number == len(moves) else 1), said
        if move.carried:
            assert move.kinds[Kind.POST] == 0, said
    average = sum(move.global_limited for move in moves) / len(moves)
    assert average <= REQUESTS_PER_MOVE_GOAL, f"{average:.2f} global-limited per move"


async def test_four_people_keep_the_request_budget(fake_discord: FakeDiscord, world: World,
                                                   tmp_path: Path,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, world.players)
        moves = await play_counting(table)
    check_budget(moves, people=4)
    # Most passes leave the window open for the others; none of them costs anything.
    assert sum(move.waiting for move in moves) > len(moves) / 3
    # In play everyone clicks every few seconds, so the table's posts and the prompts ride
    # on their clicks (`bot.discord.tokens`): a move costs next to nothing globally.
    in_play = [move for move in moves if move.phase not in CHARLESTON]
    live = sum(move.global_limited for move in in_play) / len(in_play)
    assert live <= LIVE_REQUESTS_PER_MOVE_GOAL, f"{live:.3f} global-limited per move in play"
    assert_clean(fake_discord, caplog)


async def test_one_person_and_three_bots_keep_the_request_budget(
        fake_discord: FakeDiscord, world: World, tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    async with fake_discord.run(jongg_client(tmp_path / "j.db")) as client:
        table = await JonggTable.open(fake_discord, world, client, [world.alice], bots=3)
        moves = await play_counting(table)
    check_budget(moves, people=1)
    # The bots answer at once, so every pass leads on: most of them move the post on.
    passes = [move for move in moves if move.phase is Phase.CLAIM]
    assert sum(move.carried for move in passes) > len(passes) / 2
    assert_clean(fake_discord, caplog)
