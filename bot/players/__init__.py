"""Players that choose from the legal options seeing only their seat's `View`.

    player = BaselinePlayer(card, rules.counts, seed=7)
    action = player.choose(view(state, seat), legal_actions(state, seat))

`Player` is the protocol; `RandomPlayer` picks uniformly among its options (for stress tests);
`BaselinePlayer` plays sensibly from the matcher's nearest hands. `make_player` builds one by
kind name, and `bot.players.simulate` plays whole games with them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.cards.model import Card
from bot.engine.errors import InvalidInput, echo
from bot.players.base import Player
from bot.players.baseline import BaselinePlayer
from bot.players.random_player import RandomPlayer

#: The kinds of player `make_player` builds.
PLAYER_KINDS = ("baseline", "random")


def make_player(kind: str, card: Card, counts: Sequence[int], seed: int) -> Player:
    """A player of this kind for a game on `card` with a set of these tile `counts`."""
    if kind == "baseline":
        return BaselinePlayer(card, counts, seed)
    if kind == "random":
        return RandomPlayer(seed)
    raise InvalidInput(f"There is no bot called `{echo(kind)}`. Choose one of: "
                       f"{', '.join(PLAYER_KINDS)}.")


__all__ = ["PLAYER_KINDS", "BaselinePlayer", "Player", "RandomPlayer", "make_player"]
