"""Players that choose from the legal options seeing only their seat's `View`.

    player = BaselinePlayer(card, rules.counts, seed=7)
    action = player.choose(view(state, seat), legal_actions(state, seat))

`Player` is the protocol; `RandomPlayer` picks uniformly among its options that kill no hand
(full random games, for benchmarks), `ChaosPlayer` among all of them (for stress tests);
`BaselinePlayer` plays sensibly from the matcher's nearest hands. `PLAYERS` is the registry of
player kinds by name (a new bot is one entry there), `make_player` builds one by kind name,
and `bot.players.simulate` and `bot.players.arena` play whole games with them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.engine.cards.model import Card
from bot.engine.errors import InvalidInput, echo
from bot.players.base import Player
from bot.players.baseline import BaselinePlayer
from bot.players.random_player import ChaosPlayer, RandomPlayer

#: Builds a player for a game on a card with a set of tile counts, from a seed.
PlayerFactory = Callable[[Card, Sequence[int], int], Player]

#: Every kind of player by name: what `make_player`, `jongg simulate` and `jongg arena` offer.
PLAYERS: dict[str, PlayerFactory] = {
    "baseline": BaselinePlayer,
    "random": lambda card, counts, seed: RandomPlayer(seed),
    "chaos": lambda card, counts, seed: ChaosPlayer(seed),
    "easy": BaselinePlayer,
    "normal": BaselinePlayer,
    "strong": BaselinePlayer,
}

#: The bot levels offered to people (Add bot, stand-ins, `jongg play --bots`), weakest first;
#: each is a kind in `PLAYERS`. Until the ladder's bots land every level is the baseline.
LEVELS = ("easy", "normal", "strong")

#: The level a bot has when nobody chose one (a new server's stand-in level).
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


__all__ = ["DEFAULT_LEVEL", "LEVELS", "PLAYERS", "PLAYER_KINDS", "BaselinePlayer", "ChaosPlayer",
           "Player", "PlayerFactory", "RandomPlayer", "make_player"]
