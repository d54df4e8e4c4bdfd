"""The rule sets the whole-game tests play, shared so they cover the same tables: every
table size's preset and a house-option variant of each family (the options that change the
deal, the claim window, the wall's end, the payments and the Royale-style game's ending).

The Hypothesis walk (`tests/engine/game/test_game_walk.py`) checks the engine's invariants on
each of them, and the pins (`tests/bots/test_bots_pins.py`) pin whole bot games on each,
so a table added here is walked and pinned at once."""

from __future__ import annotations

from dataclasses import replace

from bot.engine.game.rules import (
    ROYALE,
    ROYALE_3,
    SIAMESE,
    STANDARD,
    THREE_PLAYER,
    BlindOrder,
    Charleston,
    ClaimPriority,
    ClaimWindow,
    ExchangeSelfPick,
    GameEnd,
    Payment,
    RuleSet,
    WallEnd,
    Walls,
)

TABLES: dict[str, RuleSet] = {
    "standard": STANDARD,
    "standard-house": replace(STANDARD, blind_order=BlindOrder.EAST_FIRST,
                              claim_window=ClaimWindow.ABLE_SEATS, blanks=2,
                              exchange_self_pick=ExchangeSelfPick.ANY, quarters_pot=True,
                              pay_for_table=True, wall_end=WallEnd.HOT, wall_end_tiles=40),
    "no-charleston-house": replace(STANDARD, charleston=Charleston.NONE, walls=Walls.NONE,
                                   dice=0, wall_end=WallEnd.COLD, wall_end_tiles=40),
    "3-player": THREE_PLAYER,
    "siamese": SIAMESE,
    "royale": ROYALE,
    "royale-3": ROYALE_3,
    "royale-house": replace(ROYALE, claim_priority=ClaimPriority.SECOND_MAHJONG_FIRST,
                            game_end=GameEnd.ALL_DONE, payment=Payment.POT,
                            natural_quints=False, dealer_tiles=27, dealer_draws_first=True,
                            walls=Walls.NONE, dice=0),
    "royale-3-one-set": replace(ROYALE_3, sets=1, claim_window=ClaimWindow.ABLE_SEATS),
}
