"""Cards written for the engine tests (inline, so the tests need no files)."""

from __future__ import annotations

from functools import cache

from bot.engine.cards import Card, load_card

ENGINE_CARD = """
card: Engine Test Card
year: 2026

[Pungs]
p1  111a 222a 333a 444a 55a        = 25 X  shift=any -- Four consecutive pungs and a pair
p2  111a 222b 333c NNN EE          = 25 X  shift=any -- Pungs in three suits, winds

[Kongs]
k1  1111a 2222a 3333a 44a          = 30 X  shift=any -- Three consecutive kongs and a pair

[Winds]
w1  NNN EEEE WWWW SSS              = 25 X  -- All winds

[Quints]
q1  11111a 22222a 3333a            = 40 X  shift=any -- Two quints and a kong

[Concealed]
c1  NN EE WW SS 11a 22a 33a        = 50 C  shift=any -- Winds and a run, pairs only

[Singles and Pairs]
s1  FF 11a 22a 33a 44a 55a 66a     = 35 X  shift=any -- Flowers and six pairs in one suit
"""

SEXTET_CARD = """
card: Sextet Test Card

[Sextets]
x1  111111a 222222a 33a            = 60 X  shift=any -- Two sextets and a pair
x2  111a 222a 333a 444a 55a        = 25 X  shift=any -- Four consecutive pungs and a pair
"""

DEAD_CARD = """
card: Dead Hands Test Card

[Winds]
f1  NNN EEE 111@B 222@B SS         = 25 X  -- The South pair must be natural
[Runs]
f2  FF 1111@C 2222@C 3333@C        = 30 X
f3  111@D 222@D 333@D 444@D 55@D   = 25 X
"""


@cache
def engine_card() -> Card:
    """The card most engine tests play with."""
    return load_card(ENGINE_CARD)


@cache
def sextet_card() -> Card:
    """A card with sextets (so sextets may be called)."""
    return load_card(SEXTET_CARD)


@cache
def dead_card() -> Card:
    """A small card where exposures and visible tiles decide quickly whether a hand is dead."""
    return load_card(DEAD_CARD)
