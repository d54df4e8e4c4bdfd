"""Stand-ins: counting a seat's timeouts in a row, and when the bot keeps the seat.

When a person's clock runs out the server's bot plays that one move for them (or the seat
passes a claim). After `after` timeouts in a row for the same seat (a table setting, 0 for
never) the bot keeps the seat: it plays every move and the person's clocks stop, until the
person takes the seat back (Reclaim). A move the person makes themselves, a reclaim and a new
holder of the seat start the count again; what the person's own options play for them
(passing what they can't call, auto-discard) neither counts nor starts it again, since it
says nothing about whether they are there.

The count is never stored: the action log marks every move the table made for a person
(`PlayedFor`), and the store keeps when each seat was taken back, so a restart counts the
same from the log (`count_from_log`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.store import PlayedFor

#: Timeouts in a row after which the bot keeps a seat, unless a table says otherwise: one
#: missed move is a phone call, three in a row is someone who has gone.
DEFAULT_STAND_IN_AFTER = 3

#: Longest count a table may set (more would never be reached in a game).
MOST_STAND_IN_AFTER = 20


def stand_in_text(after: int) -> str:
    """What a table's setting means, for its lobby."""
    if not after:
        return "a bot never keeps a seat"
    return f"a bot keeps a seat after {after} timeouts in a row (Reclaim takes it back)"


def reclaim_hint(game_id: int) -> str:
    """How a person takes their seat back, in the words every notice uses."""
    return f"press **Reclaim** on your rack or use `/mj reclaim game:{game_id}`"


@dataclass(frozen=True)
class StandIns:
    """Each seat's timeouts in a row, and after how many the bot keeps a seat (0: never)."""

    after: int
    timeouts: tuple[int, ...]

    @classmethod
    def fresh(cls, after: int, players: int) -> StandIns:
        """No seat has timed out."""
        return cls(after, (0,) * players)

    def stood_in(self, seat: int) -> bool:
        """Whether the bot keeps `seat` (its person timed out `after` times in a row)."""
        return self.after > 0 and self.timeouts[seat] >= self.after

    @property
    def seats(self) -> frozenset[int]:
        """The seats the bot keeps."""
        return frozenset(s for s in range(len(self.timeouts)) if self.stood_in(s))

    def timed_out(self, seat: int) -> StandIns:
        """`seat`'s clock ran out once more (a seat already kept counts no further)."""
        if self.stood_in(seat):
            return self
        return self._with(seat, self.timeouts[seat] + 1)

    def back(self, seat: int) -> StandIns:
        """`seat`'s person moved, took the seat back, or handed it on: count from 0."""
        return self if not self.timeouts[seat] else self._with(seat, 0)

    def after_move(self, seat: int, actor: int | None,
                   played_for: PlayedFor | None) -> StandIns:
        """The counts after one logged move of `seat`'s: the table playing it when the clock
        ran out counts, the person playing it (`actor`) starts the count again, anything
        else (their own options, a bot's seat) leaves it."""
        if played_for is PlayedFor.TIMEOUT:
            return self.timed_out(seat)
        if actor is not None:
            return self.back(seat)
        return self

    def _with(self, seat: int, count: int) -> StandIns:
        counts = list(self.timeouts)
        counts[seat] = count
        return StandIns(self.after, tuple(counts))


def count_from_log(after: int, players: int,
                   moves: Iterable[tuple[int, int, int | None, PlayedFor | None]],
                   starts: Mapping[int, int]) -> StandIns:
    """The counts as the log leaves them. `moves` are (seq, seat, actor, played_for) in log
    order; `starts` is, by seat, the log length from which its count runs (a reclaim, or
    when its holder took the seat over)."""
    counts = StandIns.fresh(after, players)
    for seq, seat, actor, played_for in moves:
        if seq >= starts.get(seat, 0):
            counts = counts.after_move(seat, actor, played_for)
    return counts
