"""Every game a person plays, and which of them wait on them (`/mj games`, and "My games" on
every DM prompt; Lichess's list of correspondence games is the model).

Someone who plays several slow games at once, on several servers, needs one place that says
where they are expected: first the games waiting on them (their turn, their Charleston pass
or vote, a claim window in which they are asked: one they must answer and their own settings
don't answer for them), the soonest deadline first, games without a clock last; then the
others, with whose move it is. Each game says where it is (server, channel, thread) and, for
a game waiting on them, where their latest prompt is when the outbox recorded it: their DM,
or in a claim window the table's post with Claim and Pass.

Nothing is told that the person could not see at the table: each game is described from
their own view (`narrate.moment_words`), and a claim window the same way to everyone (the
discard open for calls, never who is asked). Whether the person is asked is theirs to know:
it comes from their own options and tiles.

Cost: the games are the table service's copies (`TableService.visit`: a game held and
unchanged since is not rebuilt; one this process does not hold is loaded, as a click on it
would), the deadlines are the clocks those copies hold as the store has them, and the links
come from one read of the outbox's recorded sends (`Outbox.newest_sent`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.game import Phase, View
from bot.store import DeliveryKind, OutboxEntry
from bot.tables.errors import NotRunning, NotSeated
from bot.tables.narrate import moment_words
from bot.tables.notifier import Table

if TYPE_CHECKING:
    from bot.tables.service import TableService


@dataclass(frozen=True)
class SeatMoment:
    """A person's seat in a game in play, now (`TableService.seat_moment`)."""

    table: Table
    #: What the person sees (their own view).
    view: View
    #: They must act, and neither a bot nor their own options answer for them.
    asked: bool
    #: When the move they are asked for falls due (None: not asked, or no clock).
    due_at: float | None
    #: The action count since which the seat's options have been what they are: a prompt
    #: made at this count or later still shows them.
    since: int
    #: A bot keeps the seat (its person missed too many moves in a row).
    stood_in: bool
    #: The person refuses DMs: what was sent for the seat went to the table's thread.
    dm_closed: bool


@dataclass(frozen=True)
class Posted:
    """A message: in a server's channel or thread, or (`guild_id` None) in the person's DMs."""

    guild_id: int | None
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class Standing:
    """One of a person's games, as they may see it."""

    game_id: int
    guild_id: int
    #: The channel the table was opened in, and its thread.
    channel_id: int
    thread_id: int | None
    #: The game waits on the person.
    yours: bool
    #: What the person is asked to do, or whose move it is (`narrate.moment_words`).
    words: str
    #: When the person's move falls due (None: not theirs, or no clock).
    due_at: float | None
    #: Their latest prompt that still shows their options, when one is known.
    prompt: Posted | None
    #: A bot keeps the person's seat until they reclaim it.
    stood_in: bool


@dataclass(frozen=True)
class MyGames:
    """A person's games in play: those waiting on them, the soonest deadline first (those
    without a clock last), then the others, by table number."""

    yours: tuple[Standing, ...]
    others: tuple[Standing, ...]


async def my_games(service: TableService, user_id: int) -> MyGames:
    """Every game in play in which `user_id` holds a seat, on every server, as they may see
    it (see the module docstring)."""
    moments: list[SeatMoment] = []
    for game_id in await service.db.seats.games_in_play(user_id):
        try:
            await service.visit(game_id)
            moments.append(service.seat_moment(game_id, user_id))
        except (NotRunning, NotSeated):
            continue  # over, or the seat handed on, since the store was read
    sent: dict[int, list[OutboxEntry]] = {}
    for entry in await service.db.outbox.newest_sent([m.table.game_id for m in moments]):
        sent.setdefault(entry.game_id, []).append(entry)
    dm_channel = await service.db.players.dm_channel(user_id)
    standings = [_standing(m, user_id, sent.get(m.table.game_id, []), dm_channel)
                 for m in moments]
    return MyGames(
        tuple(sorted((s for s in standings if s.yours),
                     key=lambda s: (s.due_at is None, s.due_at or 0.0, s.game_id))),
        tuple(s for s in standings if not s.yours))


def _standing(moment: SeatMoment, user_id: int, sent: list[OutboxEntry],
              dm_channel: int | None) -> Standing:
    table = moment.table
    return Standing(table.game_id, table.guild_id, table.channel_id, table.thread_id,
                    moment.asked, moment_words(moment.view, table.names, asked=moment.asked),
                    moment.due_at,
                    _prompt(moment, user_id, sent, dm_channel) if moment.asked else None,
                    moment.stood_in)


def _prompt(moment: SeatMoment, user_id: int, sent: Iterable[OutboxEntry],
            dm_channel: int | None) -> Posted | None:
    """Where the person's latest prompt that still shows their options is (the game's
    newest sent entries, `sent`): the DM sent for their seat, if it went to their DMs; else,
    in a claim window, the table's post with Claim and Pass. None when neither is current
    (the newest is still on its way, say)."""
    table = moment.table
    current = [entry for entry in sent if entry.at_seq >= moment.since]
    for entry in current:
        if (entry.kind is DeliveryKind.SEAT and entry.seat == moment.view.seat
                and dm_channel is not None and not moment.dm_closed
                and json.loads(entry.body).get("user") == user_id):
            return Posted(None, dm_channel, entry.message_ids[0])
    if moment.view.phase is not Phase.CLAIM:
        return None
    for entry in current:
        if entry.kind is DeliveryKind.TABLE and json.loads(entry.body).get("new_turn"):
            # The picture with the buttons is the entry's last message.
            return Posted(table.guild_id, table.thread_id or table.channel_id,
                          entry.message_ids[-1])
    return None
