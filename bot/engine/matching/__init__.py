"""The parts of the hand matcher: `bot.engine.matcher` is its public face.

`rows` holds the counting core (a card's variations as count rows, and what a hand lacks of
each), `exposures` the rows a set of exposures leaves open and what the rest of the set can
still fill, `layout` the laying out of a hand's tiles into one variation's groups (a Mah
Jongg's groups, a near hand's needs).
"""
