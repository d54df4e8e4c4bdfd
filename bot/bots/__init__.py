"""Players that choose from the legal options seeing only their seat's `View`.

    player = NormalPlayer(card, rules.counts, seed=7)
    action = player.choose(view(state, seat), legal_actions(state, seat))

`Player` is the protocol; `RandomPlayer` picks uniformly among its options that kill no hand
(full random games, for benchmarks), `ChaosPlayer` among all of them (for stress tests). The
ladder of bots people play against, weakest first (`LEVELS`): `EasyPlayer` (a beginner),
`NormalPlayer` (weighs its hands by their odds; the default) and `StrongPlayer` (reads the
opponents, defends, samples its chances). `PLAYERS` is the registry of player kinds by name (a
new bot is one entry there), `make_player` builds one by kind name, and
`bot.bots.simulate` and `bot.bots.arena` play whole games with them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.bots.base import Player
from bot.bots.easy import EasyPlayer
from bot.bots.normal import NormalPlayer
from bot.bots.random_player import ChaosPlayer, RandomPlayer
from bot.bots.strong import StrongPlayer
from bot.engine.cards.model import Card
from bot.engine.errors import InvalidInput, echo

#: Builds a player for a game on a card with a set of tile counts, from a seed.
PlayerFactory = Callable[[Card, Sequence[int], int], Player]

#: Every kind of player by name: what `make_player`, `jongg simulate` and `jongg arena` offer.
PLAYERS: dict[str, PlayerFactory] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "strong": StrongPlayer,
    "random": lambda card, counts, seed: RandomPlayer(seed),
    "chaos": lambda card, counts, seed: ChaosPlayer(seed),
}

#: The bots' levels, weakest first (names in `PLAYERS`), and the one a table gets by default.
LEVELS: tuple[str, ...] = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"

#: The kinds of player `make_player` builds.
PLAYER_KINDS = tuple(PLAYERS)


def make_player(kind: str, card: Card, counts: Sequence[int], seed: int) -> Player:
    """A player of this kind for a game on `card` with a set of these tile `counts`."""
    factory = PLAYERS.get(kind)
    if factory is not None:
        return factory(card, counts, seed)
    raise InvalidInput(f"There is no bot called `{echo(kind)}`. Choose one of: "
                       f"{', '.join(PLAYER_KINDS)}.")


__all__ = ["DEFAULT_LEVEL", "LEVELS", "PLAYERS", "PLAYER_KINDS", "ChaosPlayer", "EasyPlayer",
           "NormalPlayer", "Player", "PlayerFactory", "RandomPlayer", "StrongPlayer", "make_player"]
