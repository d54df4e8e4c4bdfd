"""The bettor: a fifth person at a four-player table who backs one of the four seats.

The standard rules name the bettor ("a fifth player who may wager on one of the four hands
before the Charleston and win or lose with it") and say nothing more, so Jongg decides: the
bettor chooses a seat before the deal, seeing no tile, and the choice is an input of the game
(`new_game(..., bet=seat)`) like the seed and the pot. The bet is public. How it pays is in
`bot.engine.game.scoring`; it is a money bet, so only `nmjl` payments take one.
"""

from __future__ import annotations

from bot.engine.errors import InvalidInput
from bot.engine.game.rules import RuleSet, Scoring, seat_names


def bettor_refusal(rules: RuleSet) -> str | None:
    """Why a table with these rules takes no bettor (a message for a player), or None."""
    if rules.players != 4 or rules.racks != 1:
        return "A bettor sits only at a four-player table."
    if rules.scoring is not Scoring.NMJL:
        return (f"A bettor wins or loses money, so only `nmjl` payments take one, not "
                f"`{rules.scoring.value}` scoring.")
    return None


def check_bet(rules: RuleSet, seat: int) -> None:
    """`InvalidInput` unless a bettor may back `seat` at a table with these rules."""
    refusal = bettor_refusal(rules)
    if refusal is not None:
        raise InvalidInput(refusal)
    if not 0 <= seat < rules.players:
        raise InvalidInput(f"The bettor backs one of the seats {', '.join(seat_names(4))}.")
