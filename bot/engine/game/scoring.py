"""Scoring profiles: a finished game in, a breakdown a player can read line by line out.

* `nmjl` (NMJL payments): off a discard the discarder pays twice the hand's value and the
  others once; self-picked (a joker exchange included), everyone pays twice; a jokerless hand
  doubles its value first, except singles and pairs; a wall game pays nothing. The house
  payments (see `RuleSet`): a thrower who pays for the table pays the others' shares too;
  under the quarters pot a game without a winner costs everyone the ante, and the next
  winner takes the pot. A bettor (a fifth person backing one seat, `nmjl` only) wins
  with that seat what each other seat paid it, or pays a winner what that seat paid; a game
  without a winner costs the bettor nothing.
* `tournament` (tournament scoring sheet): the card value, +10 self-picked, +20 jokerless (not
  singles and pairs); the discarder -10, -20 or -25 when the winner had 0-1, 2 or 3+
  exposures before calling the tile; a wall game gives +10 to every hand that is not dead; a
  dead hand scores 0.
* `siamese` (Siamese rule 17): a first Mah Jongg scores its value (doubled if jokerless, not
  singles and pairs); a second is doubled, and doubled again if jokerless; two at once are
  both doubled; the discarder of the tile claimed for a second Mah Jongg loses 20; a wall game
  gives each player +10; a player whose two hands are both dead pays the opponent 4 times the
  value of the opponent's Mah Jongg (or of the lowest hand on the card). At the end the lower
  score pays the difference.
* The Royale-style game (two racks at three or four players) scores each player as `siamese`
  does. A player whose two hands are both dead just stops (the others play on) and pays
  nothing beyond the scores: rule 12's 4 times is for a two-player game that it ends. Under
  the default `PAIRWISE` payment every pair of players settles the difference of their
  scores, so a seat gains the sum of its differences with the others. Under `POT` every
  player antes `ante`, the Mah Jongg points alone count (no -20 to a thrower, no +10 on a
  wall game), and the pot is shared by the players with Mah Jongg points in proportion to
  them (whole units; what rounding leaves goes to the largest remainders, ties to the seat
  nearest East); with no Mah Jongg every ante goes back.

A one-rack game that ends because fewer than two hands are still live is scored like a wall
game. The Siamese dead-hands payment uses the printed card value of the opponent's first Mah
Jongg (not doubled), and replaces the usual Mah Jongg lines for that game.

Each `ScoreLine` adds its points to the seats' totals; lines with no points explain.
`settlement` is what changes hands: the totals themselves for `nmjl` (money) and `tournament`
(points), the differences (or the pot's shares) for `siamese`. It always sums to zero when no
quarters pot is carried.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.engine.cards.model import Card
from bot.engine.game.events import EndReason, ScoreLine
from bot.engine.game.rules import Payment, RuleSet, Scoring, seat_names
from bot.engine.game.state import Declared

SELF_PICK_BONUS = 10
JOKERLESS_BONUS = 20
WALL_BONUS = 10
SECOND_MAHJONG_PENALTY = 20
DEAD_HANDS_MULTIPLE = 4


def tournament_throw_penalty(exposures: int) -> int:
    """Points the discarder loses, by how many exposures the winner had."""
    if exposures <= 1:
        return 10
    return 20 if exposures == 2 else 25


@dataclass(frozen=True)
class Scoresheet:
    """The breakdown, the sum of its points per seat, what changes hands, and what the
    quarters pot holds after the game."""

    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    settlement: tuple[int, ...]
    pot: int
    bettor: int | None = None


@dataclass
class _Sheet:
    names: tuple[str, ...]
    lines: list[ScoreLine] = field(default_factory=list)

    def note(self, text: str) -> None:
        self.lines.append(ScoreLine((0,) * len(self.names), text))

    def add(self, text: str, changes: dict[int, int], bettor: int = 0) -> None:
        points = [0] * len(self.names)
        for seat, amount in changes.items():
            points[seat] += amount
        self.lines.append(ScoreLine(tuple(points), text, bettor))

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(line.points[s] for line in self.lines) for s in range(len(self.names)))


def _doubled_for_jokerless(win: Declared) -> bool:
    return win.jokerless and not win.singles_and_pairs


def _how(sheet: _Sheet, win: Declared) -> str:
    if win.self_picked:
        return "self-picked"
    assert win.discarder is not None
    return f"on {sheet.names[win.discarder]}'s discard"


def _nmjl(sheet: _Sheet, rules: RuleSet, reason: EndReason, wins: Sequence[Declared],
          pot: int, bet: int | None) -> int:
    """NMJL payments with the table's house payments and the bettor (backing seat `bet`);
    returns what the pot holds after."""
    if not wins:
        if not rules.quarters_pot:
            sheet.note(_no_winner(reason) + " Nobody pays.")
        else:
            ante = rules.pot_ante
            pot += ante * len(sheet.names)
            sheet.add(f"{_no_winner(reason)} Everyone puts {ante} into the pot for the next "
                      f"winner; it holds {pot} now.",
                      dict.fromkeys(range(len(sheet.names)), -ante))
        if bet is not None:
            sheet.note(f"The bettor backed {sheet.names[bet]}: with no winner the bet costs "
                       "nothing.")
        return pot
    win = wins[0]
    winner = sheet.names[win.seat]
    sheet.note(f"{winner} goes Mah Jongg with {win.hand_id} ({win.value}), {_how(sheet, win)}.")
    value = win.value
    if _doubled_for_jokerless(win):
        value *= 2
        sheet.note(f"Jokerless: the value doubles to {value}.")
    payers = [(win.seat + offset) % len(sheet.names) for offset in range(1, len(sheet.names))]
    paid: dict[int, int] = {}
    why_table = _pays_for_table(rules, win)
    if why_table is not None:
        assert win.discarder is not None
        spared = [p for p in payers if p != win.discarder]
        paid[win.discarder] = _table_pays(sheet, win, value, why_table, spared)
        paid.update(dict.fromkeys(spared, 0))
        payers = []
    for payer in payers:
        if win.self_picked or payer == win.discarder:
            why = "self-picked" if win.self_picked else "threw the winning tile"
            amount = 2 * value
            text = f"{sheet.names[payer]} pays {winner} 2 x {value} = {amount} ({why})."
        else:
            amount = value
            text = f"{sheet.names[payer]} pays {winner} {amount}."
        sheet.add(text, {win.seat: amount, payer: -amount})
        paid[payer] = amount
    if bet is not None:
        _bettor(sheet, win.seat, bet, paid)
    if pot:
        sheet.add(f"{winner} takes the pot: {pot}.", {win.seat: pot})
    return 0


def _pays_for_table(rules: RuleSet, win: Declared) -> str | None:
    """Why the thrower of the winning tile pays for the table, or None when it does not."""
    if win.self_picked or win.discarder is None:
        return None
    reasons = []
    if rules.pay_for_table and win.exposures_before >= rules.pay_for_table_exposures:
        reasons.append(f"threw the winning tile to a hand showing {win.exposures_before} "
                       "exposures")
    if win.hot_wall:
        reasons.append(f"hot wall: threw a tile nobody had discarded, in the last "
                       f"{rules.wall_end_tiles} tiles")
    return "; ".join(reasons) or None


def _bettor(sheet: _Sheet, winner: int, bet: int, paid: dict[int, int]) -> None:
    """The bettor wins or loses with the seat it backed (`bet`): backing the winner, each
    seat that paid the winner pays the bettor as much again; backing another seat, the
    bettor pays the winner what that seat paid (nothing, if it was spared)."""
    backed = sheet.names[bet]
    if bet == winner:
        sheet.note(f"The bettor backed {backed} and wins with {backed}.")
        for payer, amount in paid.items():
            if amount:
                sheet.add(f"{sheet.names[payer]} pays the bettor {amount} (as much as it "
                          f"paid {backed}).", {payer: -amount}, bettor=amount)
        return
    amount = paid[bet]
    if not amount:
        sheet.note(f"The bettor backed {backed}, who paid nothing: the bettor pays nothing.")
        return
    sheet.add(f"The bettor backed {backed} and pays {sheet.names[winner]} what {backed} "
              f"paid: {amount}.", {winner: amount}, bettor=-amount)


def _table_pays(sheet: _Sheet, win: Declared, value: int, why: str,
                spared: Sequence[int]) -> int:
    """The thrower pays its own double share and the single share of every other payer;
    returns what it paid."""
    assert win.discarder is not None
    thrower = sheet.names[win.discarder]
    shares = " + ".join([f"2 x {value}", *(str(value) for _ in spared)])
    amount = value * (2 + len(spared))
    sheet.add(f"{thrower} pays {sheet.names[win.seat]} for the table: {shares} = {amount} "
              f"({why}).", {win.seat: amount, win.discarder: -amount})
    names = " and ".join(sheet.names[seat] for seat in spared)
    sheet.note(f"{names} {'pay' if len(spared) > 1 else 'pays'} nothing: {thrower} paid "
               "for the table.")
    return amount


def _tournament(sheet: _Sheet, reason: EndReason, wins: Sequence[Declared],
                dead: Sequence[bool]) -> None:
    if not wins:
        bonus = {s: WALL_BONUS for s in range(len(sheet.names)) if not dead[s]}
        skipped = [sheet.names[s] for s in range(len(sheet.names)) if dead[s]]
        text = f"{_no_winner(reason)} +{WALL_BONUS} to every hand that is not dead"
        text += f" ({', '.join(skipped)} dead: 0)." if skipped else "."
        sheet.add(text, bonus)
        return
    win = wins[0]
    winner = sheet.names[win.seat]
    sheet.add(f"{winner}: {win.value} for Mah Jongg with {win.hand_id}.", {win.seat: win.value})
    if _doubled_for_jokerless(win):
        sheet.add(f"{winner}: +{JOKERLESS_BONUS} jokerless.", {win.seat: JOKERLESS_BONUS})
    if win.self_picked:
        sheet.add(f"{winner}: +{SELF_PICK_BONUS} self-picked.", {win.seat: SELF_PICK_BONUS})
    elif win.discarder is not None:
        penalty = tournament_throw_penalty(win.exposures_before)
        count = win.exposures_before
        sheet.add(f"{sheet.names[win.discarder]} threw Mah Jongg to a hand with {count} "
                  f"exposure{'s' if count != 1 else ''}: -{penalty}.",
                  {win.discarder: -penalty})


def _siamese_value(win: Declared) -> tuple[int, str]:
    value = win.value
    parts = [str(value)]
    if win.ordinal == 1:
        if _doubled_for_jokerless(win):
            value *= 2
            parts.append(f"doubled for jokerless = {value}")
        return value, ", ".join(parts)
    value *= 2
    parts.append(f"doubled = {value}")
    if _doubled_for_jokerless(win):
        value *= 2
        parts.append(f"doubled again for jokerless = {value}")
    return value, ", ".join(parts)


_ORDINAL_NAMES = {1: "first Mah Jongg", 2: "second Mah Jongg", 0: "two Mah Jonggs at once"}


def _siamese(sheet: _Sheet, rules: RuleSet, card: Card, reason: EndReason,
             wins: Sequence[Declared], all_dead: Sequence[bool]) -> None:
    dead_players = [s for s in range(len(sheet.names)) if all_dead[s]]
    if dead_players and not rules.royale:
        _both_dead(sheet, card, dead_players[0], wins)
        return
    for seat in dead_players:
        sheet.note(f"{sheet.names[seat]}'s two hands are both dead: no payment beyond the "
                   "scores (Royale-style).")
    for win in wins:
        value, working = _siamese_value(win)
        sheet.add(f"{sheet.names[win.seat]}: {_ORDINAL_NAMES[win.ordinal]}, hand "
                  f"{win.hand_id}: {working}.", {win.seat: value})
    if rules.payment is Payment.POT:
        return
    penalized: set[tuple[int, int]] = set()
    for win in wins:
        if win.ordinal != 1 and win.discarder is not None and (
                (win.seat, win.ordinal) not in penalized):
            penalized.add((win.seat, win.ordinal))
            sheet.add(f"{sheet.names[win.discarder]} threw the tile for "
                      f"{sheet.names[win.seat]}'s {_ORDINAL_NAMES[win.ordinal]}: "
                      f"-{SECOND_MAHJONG_PENALTY}.",
                      {win.discarder: -SECOND_MAHJONG_PENALTY})
    if not wins:
        sheet.add(f"{_no_winner(reason)} +{WALL_BONUS} to each player.",
                  dict.fromkeys(range(len(sheet.names)), WALL_BONUS))


def _both_dead(sheet: _Sheet, card: Card, payer: int, wins: Sequence[Declared]) -> None:
    """Siamese rule 12 (two players): both hands dead ends the game, and the opponent scores
    4 times its Mah Jongg (or the card's lowest hand) instead of the usual lines."""
    opponent = 1 - payer
    theirs = [w for w in wins if w.seat == opponent]
    base = theirs[0].value if theirs else card.lowest_value
    what = (f"{sheet.names[opponent]}'s Mah Jongg {theirs[0].hand_id}" if theirs
            else "the lowest hand on the card")
    amount = DEAD_HANDS_MULTIPLE * base
    sheet.add(f"{sheet.names[payer]}'s two hands are both dead: {sheet.names[opponent]} "
              f"scores {DEAD_HANDS_MULTIPLE} x {base} ({what}) = {amount}.",
              {opponent: amount})


def _pairwise(sheet: _Sheet, totals: Sequence[int]) -> tuple[int, ...]:
    """Every pair of players settles the difference of their scores (Siamese rule 17, pair
    by pair): a seat gains the sum of its score minus each other seat's."""
    seats = range(len(totals))
    paid = False
    for first in seats:
        for second in seats[first + 1:]:
            difference = abs(totals[first] - totals[second])
            if difference:
                payer, payee = (first, second) if totals[first] < totals[second] else (
                    second, first)
                sheet.note(f"{sheet.names[payer]} pays {sheet.names[payee]} the difference: "
                           f"{difference}.")
                paid = True
    if not paid:
        sheet.note("The scores are equal: nobody pays.")
    return tuple(sum(totals[seat] - totals[other] for other in seats) for seat in seats)


def _pot_shares(sheet: _Sheet, ante: int, totals: Sequence[int]) -> tuple[int, ...]:
    """Every player antes; the Mah Jonggs share the pot in proportion to their points.

    Shares are whole: each seat first takes the whole part of its proportional share, and
    the units left go one each to the largest remainders (ties to the seat nearest East), so
    the pot is paid out exactly and the settlements sum to zero."""
    size = len(totals)
    pot = ante * size
    points = sum(totals)
    sheet.note(f"Each player antes {ante}: the pot holds {pot}.")
    if points <= 0:
        sheet.note("Nobody laid out a Mah Jongg: every ante goes back.")
        return (0,) * size
    shares = [pot * total // points for total in totals]
    by_remainder = sorted(range(size), key=lambda s: (-(pot * totals[s] % points), s))
    for seat in by_remainder[:pot - sum(shares)]:
        shares[seat] += 1
    for seat in range(size):
        if shares[seat]:
            sheet.note(f"{sheet.names[seat]} takes {shares[seat]} of the pot "
                       f"({totals[seat]} of {points} points).")
    return tuple(share - ante for share in shares)


def _no_winner(reason: EndReason) -> str:
    if reason is EndReason.WALL:
        return "Wall game: the tiles ran out with no Mah Jongg."
    return "No Mah Jongg: too few hands are still live to play on."


def score(rules: RuleSet, card: Card, reason: EndReason, wins: Sequence[Declared],
          dead: Sequence[Sequence[bool]], pot: int = 0, bet: int | None = None) -> Scoresheet:
    """Score a finished game. `wins` are the Mah Jonggs laid out (in the order made), `dead`
    each seat's dead flags per rack, `pot` what the quarters pot held before the game, `bet`
    the seat the bettor backed (None: no bettor; `nmjl` payments only)."""
    sheet = _Sheet(seat_names(rules.players))
    any_dead = [any(flags) for flags in dead]
    all_dead = [all(flags) for flags in dead]
    if bet is not None and rules.scoring is not Scoring.NMJL:
        raise ValueError("a bettor plays only with nmjl payments")
    if rules.scoring is Scoring.NMJL:
        pot = _nmjl(sheet, rules, reason, wins, pot, bet)
    elif rules.scoring is Scoring.TOURNAMENT:
        _tournament(sheet, reason, wins, any_dead)
    else:
        _siamese(sheet, rules, card, reason, wins, all_dead)
    totals = sheet.totals()
    settlement = totals
    if rules.scoring is Scoring.SIAMESE:
        if rules.payment is Payment.POT:
            settlement = _pot_shares(sheet, rules.ante, totals)
        else:
            settlement = _pairwise(sheet, totals)
    bettor = None if bet is None else sum(line.bettor for line in sheet.lines)
    return Scoresheet(tuple(sheet.lines), totals, settlement, pot, bettor)
