"""`NormalPlayer`: the Normal bot, a steady player that weighs its hands by their odds.

It looks at the card hands its tiles are nearest to (`CardMatcher.nearest`) and turns them
into *plans*: a card hand (two, one per rack, with two live racks: the pairs its tiles come
nearest to when no tile serves both racks, `bot.engine.rack_split`), how many tiles away it
is, its value, and which of the seat's concealed tiles it keeps. A plan's weight is its
expected value: the chance of finishing it (`bot.bots.odds`: the tiles it lacks against
the live copies the seat cannot see, over the draws it has left; a concealed hand can't call)
times its value, counting the jokerless doubling by the chance of finishing without a joker.
Plans that need a natural tile the table has already used up are dropped. Then:

* it passes and discards the tile whose loss hurts the least weight of plans (a tile hurts a
  plan when the plan keeps every copy the seat holds), preferring, among equally useless
  tiles, the ones most visible on the table (the safest to throw); a joker goes only when
  nothing else can. In the Charleston it weighs more hands (`charleston_nearest`), so it
  passes by elimination: the tiles that serve the fewest of its candidate hands;
* it calls a discard only when the exposure leaves a good hand: at most `call_away` tiles
  away and worth more (by weight) than its best plan without the call; never a call the
  engine flags as killing its own hand;
* it exchanges a natural for a joker when that leaves it no further from a hand, and swaps a
  blank (house rule) for a discard that brings it closer;
* it always declares Mah Jongg when offered (in the Siamese-style game the best-paying layout,
  a first Mah Jongg as soon as it can, then plays on with the other rack);
* it votes to stop the Charleston when already close, offers the tiles no plan wants as
  courtesy, and passes blind only when it would otherwise have to give up tiles its best plan
  keeps;
* it declares another hand dead only when the engine offers the declaration and the hand is
  certainly dead judged from the visible tiles exactly as the engine judges it.

Everything it uses comes from its `View`; the only randomness (breaking exact ties) is seeded.
The Easy and Strong bots are subclasses that override the knobs and methods they change.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.bots.base import (
    live_racks,
    rack_exposures,
    seen_counts,
    visible_counts,
)
from bot.bots.odds import Supply, plan_odds
from bot.engine.cards.model import Card
from bot.engine.game.actions import (
    Action,
    Call,
    CallMahjong,
    DeclareDead,
    Discard,
    Exchange,
    Give,
    Mahjong,
    Offer,
    Option,
    Pass,
    SwapBlank,
    TileChoice,
    Vote,
)
from bot.engine.game.state import Phase
from bot.engine.game.view import View
from bot.engine.matcher import CardMatcher, Exposure, NearHand, PlayerHand, matcher_for
from bot.engine.rack_split import split_racks
from bot.engine.records import make
from bot.engine.tiles import BLANK, JOKER, NUM_KINDS

#: Nearest card hands weighed for each decision (one-rack games).
NEAREST = 6
#: Nearest card hands weighed in the Charleston, where elimination wants a wider view.
CHARLESTON_NEAREST = 12
#: Ways of making one card hand (its variations: suits, numbers) a one-rack plan may be
#: among the nearest: one, its nearest, for the Normal bot.
WAYS_PER_HAND = 1
#: Pairs of hands (one per rack) weighed with two live racks.
SIAMESE_PAIRS = 6
#: Pairs of ways a two-rack split counts at most for one decision (it keeps the best found;
#: nearly every holding is settled far sooner).
SPLIT_PAIRS = 5000
#: How many more looks at a kind calling gives a joker-able place (see `bot.bots.odds`).
CALL_FACTOR = 2.0
#: Call only when the exposure leaves a hand at most this many tiles away.
CALL_AWAY = 3
#: Vote to stop the Charleston when the best hand is at most this many tiles away.
STOP_AWAY = 4
#: A tile is spare (courtesy-worthy) when losing it costs under this share of all weight.
SPARE_SHARE = 0.02
#: Far enough to mean "no hand at all".
FAR = 99
#: The phases of the Charleston (passes, the vote, courtesy).
_CHARLESTON = frozenset((Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER,
                         Phase.COURTESY_PASS))


@dataclass(frozen=True)
class Plan:
    """One way to finish: the card hand(s), tiles still lacking, value, weight, and `keep`,
    how many of each kind of the seat's concealed tiles the plan uses; `candidate` is what
    it was weighed from (one of several ways to one card hand, when a level weighs them)."""

    hands: tuple[str, ...]
    away: int
    value: int
    weight: float
    keep: tuple[int, ...]
    candidate: Candidate


@dataclass(frozen=True)
class Analysis:
    """The seat's plans, heaviest first; `held` counts its concealed tiles per kind.
    `costs` keeps each `cost` asked for (choosing three tiles to pass asks about every kind
    again after each pick)."""

    held: tuple[int, ...]
    plans: tuple[Plan, ...]
    costs: dict[tuple[int, int], float] = field(default_factory=dict, compare=False,
                                                repr=False)

    @property
    def best_away(self) -> int:
        """Tiles the closest plan lacks (`FAR` with no plan)."""
        return min((p.away for p in self.plans), default=FAR)

    @property
    def total_weight(self) -> float:
        """The weight of every plan together."""
        return sum(p.weight for p in self.plans)

    def cost(self, kind: int, held: int | None = None) -> float:
        """The weight of plans hurt by giving up one tile of `kind` when `held` are held."""
        count = self.held[kind] if held is None else held
        found = self.costs.get((kind, count))
        if found is None:
            found = self.costs[kind, count] = sum(p.weight for p in self.plans
                                                  if p.keep[kind] >= count)
        return found


def _counts(kinds: Sequence[int]) -> list[int]:
    row = [0] * NUM_KINDS
    for kind in kinds:
        row[kind] += 1
    return row


def _without(kinds: Sequence[int], gone: Sequence[int]) -> tuple[int, ...]:
    rest = list(kinds)
    for kind in gone:
        rest.remove(kind)
    return tuple(rest)


class NormalPlayer:
    """The Normal bot (see the module docstring). One object per seat and game.

    The tuning knobs are class attributes (defaults from the module constants), so another
    level is a subclass that overrides them and the methods it plays differently."""

    nearest = NEAREST
    charleston_nearest = CHARLESTON_NEAREST
    ways_per_hand = WAYS_PER_HAND
    siamese_pairs = SIAMESE_PAIRS
    split_pairs = SPLIT_PAIRS
    call_factor = CALL_FACTOR
    call_away = CALL_AWAY
    stop_away = STOP_AWAY
    spare_share = SPARE_SHARE
    #: Whether it declares other hands dead (when they certainly are).
    declares_dead = True

    def __init__(self, card: Card, counts: Sequence[int], seed: int = 0,
                 matcher: CardMatcher | None = None) -> None:
        self.card = card
        self.matcher = matcher if matcher is not None else matcher_for(card, counts)
        self.counts = tuple(counts)
        self.values = {hand.id: hand.value for hand in card.hands}
        self.rng = random.Random(seed)
        self._cache: dict[tuple[object, ...], _Candidates] = {}
        self._last: tuple[_Candidates, tuple[int, ...], int, Analysis] | None = None
        self._seen_in: tuple[View, tuple[int, ...]] | None = None

    def _seen(self, view: View) -> tuple[int, ...]:
        """`seen_counts` of a view, counted once for the view being decided on (a decision
        asks for it several times)."""
        if self._seen_in is None or self._seen_in[0] is not view:
            self._seen_in = (view, tuple(seen_counts(view)))
        return self._seen_in[1]

    def target(self, view: View) -> tuple[str, ...]:
        """The card hand(s) the bot plays toward now (its heaviest plan; one per rack in the
        Siamese-style game), or none when no hand is left: for logs and reports."""
        plans = self._analysis(view).plans
        return plans[0].hands if plans else ()

    def _weight(self, candidate: Candidate, table: Supply) -> float:
        """A plan's weight: its expected value, the chance of finishing it times its value,
        the jokerless doubling counted by the chance of finishing without a joker."""
        odds = plan_odds(candidate.need_natural, candidate.need_any, candidate.jokers, table,
                         calls=not candidate.concealed, call_factor=self.call_factor)
        bonus = odds.jokerless if candidate.doubles else 0.0
        return candidate.value * (odds.complete + bonus)

    def _weights(self, candidates: Sequence[Candidate], table: Supply) -> list[float]:
        """The weights of several plans at one table (one by one here; a subclass may weigh
        them together)."""
        return [self._weight(candidate, table) for candidate in candidates]

    def _viable(self, candidate: Candidate, live: Sequence[int]) -> bool:
        """Whether the plan can still be made: the naturals it needs are not used up."""
        return all(need <= live[kind] for kind, need in candidate.need_natural)

    # -- the decision ----------------------------------------------------------------------

    def choose(self, view: View, options: Sequence[Option]) -> Action:
        """The bot's action for this view, always one its options allow."""
        if not options:
            raise ValueError("A player is asked to choose only when it has options.")
        wins = [o.action for o in options if isinstance(o.action, Mahjong | CallMahjong)]
        if wins:
            return self._best_win(wins)
        for option in options:
            if option.choice is not None and isinstance(option.action, Give):
                return self._give(view, option.choice)
        first = options[0].action
        if isinstance(first, Vote):
            return Vote(view.seat, stop=self._analysis(view).best_away <= self.stop_away)
        if isinstance(first, Offer):
            return self._offer(view, options)
        if view.claim is not None:
            return self._claim(view, options)
        return self._turn(view, options)

    def _best_win(self, wins: Sequence[Action]) -> Action:
        """Both racks at once if possible, then the best-paying layout."""
        def worth(action: Action) -> tuple[bool, int]:
            assert isinstance(action, Mahjong | CallMahjong)
            return action.both, sum(self.values.get(h, 0) for h in action.hands)
        return max(wins, key=worth)

    # -- the Charleston --------------------------------------------------------------------

    def _picks(self, view: View, analysis: Analysis, kinds: Sequence[int],
               count: int) -> list[int]:
        """`count` tiles from `kinds`, the least useful first (costs updated as copies go)."""
        held = list(analysis.held)
        pool = _counts(kinds)
        seen = self._seen(view)
        picked: list[int] = []
        for _ in range(count):
            options = [k for k in range(NUM_KINDS) if pool[k] > 0 and k not in (JOKER, BLANK)]
            if not options:
                break
            kind = min(options, key=lambda k: (analysis.cost(k, held[k]), -seen[k],
                                               self.rng.random()))
            picked.append(kind)
            pool[kind] -= 1
            held[kind] -= 1
        return picked

    def _give(self, view: View, choice: TileChoice) -> Give:
        """Pass the least useful tiles; on a blind pass, forward unseen instead of giving up
        tiles the best plan keeps."""
        analysis = self._analysis(view)
        picked = self._picks(view, analysis, choice.kinds, choice.count)
        blind = 0
        if choice.blind_max and analysis.plans:
            best = analysis.plans[0]
            held = list(analysis.held)
            useful: list[int] = []
            for kind in picked:
                if best.keep[kind] >= held[kind]:
                    useful.append(kind)
                held[kind] -= 1
            blind = min(len(useful), choice.blind_max)
            for kind in reversed(useful[len(useful) - blind:]):
                picked.remove(kind)
        return Give(view.seat, tuple(sorted(picked)), blind)

    def _offer(self, view: View, options: Sequence[Option]) -> Action:
        """Offer as many courtesy tiles as are spare (no plan worth mentioning keeps them)."""
        analysis = self._analysis(view)
        most = max(o.action.count for o in options if isinstance(o.action, Offer))
        passable = [k for k in view.concealed if k not in (JOKER, BLANK)]
        limit = self.spare_share * analysis.total_weight
        held = list(analysis.held)
        spare = 0
        for kind in self._picks(view, analysis, passable, most):
            if analysis.cost(kind, held[kind]) > limit:
                break
            held[kind] -= 1
            spare += 1
        return Offer(view.seat, spare)

    # -- claims ----------------------------------------------------------------------------

    def _claim(self, view: View, options: Sequence[Option]) -> Action:
        """Call when the exposure leaves a good hand: close enough, and worth more than the
        best plan without the call; otherwise pass."""
        assert view.claim is not None
        calls = [o.action for o in options
                 if isinstance(o.action, Call) and not o.deadens]
        if (not calls or view.claim.kind not in self._candidates(view).call_kinds
                or not self._willing_to_call(view)):
            return Pass(view.seat)
        analysis = self._analysis(view)
        before = max((p.weight for p in analysis.plans), default=0.0)
        table = self._table(view)
        racks = {r: rack_exposures(view, view.seat, r) for r in live_racks(view)}
        best: tuple[float, int, int] | None = None
        chosen: Call | None = None
        for call in calls:
            after = self._plans_after(view, call, racks, table)
            worth = max(self._weights(after, table), default=0.0)
            if worth <= before:
                continue
            key = (-worth, call.jokers, -call.size)
            if best is None or key < best:
                best, chosen = key, call
        return chosen if chosen is not None else Pass(view.seat)

    def _plans_after(self, view: View, call: Call,
                     racks: dict[int, tuple[Exposure, ...]], table: Supply) -> list[Candidate]:
        """The plans close enough to keep after making `call` (its tiles off the rack, its
        exposure on its rack), that the live tiles can still finish."""
        own = (call.kind,) * (call.size - 1 - call.jokers) + (JOKER,) * call.jokers
        concealed = _without(view.concealed, own)
        exposures = dict(racks)
        exposures[call.rack] = (*racks[call.rack], Exposure(call.kind, call.size, call.jokers))
        return [c for c in self._find_candidates(concealed, exposures, self.nearest).plans
                if c.away <= self.call_away and self._viable(c, table.live)]

    def _willing_to_call(self, view: View) -> bool:
        """Whether it makes exposures at all now (always, for the Normal bot)."""
        return True

    # -- the turn --------------------------------------------------------------------------

    def _turn(self, view: View, options: Sequence[Option]) -> Action:
        """Exchange, swap a blank, declare a dead hand, or discard, in that order."""
        discards = [o.action.kind for o in options if isinstance(o.action, Discard)]
        if not live_racks(view):
            return self._safe_discard(view, discards)
        analysis = self._analysis(view)
        for choice in (self._exchange(view, options, analysis),
                       self._swap_blank(view, options, analysis),
                       self._declare_dead(view, options)):
            if choice is not None:
                return choice
        return self._discard(view, analysis, discards)

    def _safe_discard(self, view: View, discards: Sequence[int]) -> Action:
        """A dead hand throws what nobody can call: a joker, else the most visible tile."""
        if JOKER in discards:
            return Discard(view.seat, JOKER)
        seen = self._seen(view)
        return Discard(view.seat, max(discards, key=lambda k: (seen[k], -k)))

    def _discard(self, view: View, analysis: Analysis, discards: Sequence[int]) -> Action:
        """The tile whose loss hurts the least plan weight; ties go to the most visible
        (safest) tile; a joker only when there is nothing else."""
        naturals = [k for k in discards if k != JOKER]
        if not naturals:
            return Discard(view.seat, discards[0])
        seen = self._seen(view)
        scale = analysis.total_weight or 1.0
        kind = min(naturals, key=lambda k: (round(analysis.cost(k) / scale, 9), -seen[k],
                                            self.rng.random()))
        return Discard(view.seat, kind)

    def _exchange(self, view: View, options: Sequence[Option],
                  analysis: Analysis) -> Action | None:
        """A joker exchange that leaves the seat no further from a hand (the closest)."""
        exchanges = [o.action for o in options if isinstance(o.action, Exchange)]
        if not exchanges:
            return None
        before = analysis.best_away
        best: tuple[int, int] | None = None
        chosen: Exchange | None = None
        for number, swap in enumerate(exchanges):
            concealed = (*_without(view.concealed, (swap.kind,)), JOKER)
            exposures = {r: rack_exposures(view, view.seat, r) for r in live_racks(view)}
            if swap.owner == view.seat:
                own = view.seats[view.seat].exposures
                rack = own[swap.group].rack
                if rack in exposures:
                    index = [i for i, e in enumerate(own) if e.rack == rack].index(swap.group)
                    shown = list(exposures[rack])
                    old = shown[index]
                    shown[index] = Exposure(old.kind, old.size, old.jokers - 1)
                    exposures[rack] = tuple(shown)
            after = self._best_away(concealed, exposures)
            if after <= before and (best is None or (after, number) < best):
                best, chosen = (after, number), swap
        return chosen

    def _swap_blank(self, view: View, options: Sequence[Option],
                    analysis: Analysis) -> Action | None:
        """House rule: swap a blank for a discard that brings the seat closer."""
        swaps = [o.action for o in options if isinstance(o.action, SwapBlank)]
        if not swaps:
            return None
        before = analysis.best_away
        exposures = {r: rack_exposures(view, view.seat, r) for r in live_racks(view)}
        best: tuple[int, int] | None = None
        chosen: SwapBlank | None = None
        for swap in swaps:
            if analysis.cost(swap.kind, analysis.held[swap.kind] + 1) <= 0:
                continue  # no plan wants another of these
            concealed = (*_without(view.concealed, (BLANK,)), swap.kind)
            after = self._best_away(concealed, exposures)
            if after < before and (best is None or (after, swap.kind) < best):
                best, chosen = (after, swap.kind), swap
        return chosen

    def _declare_dead(self, view: View, options: Sequence[Option]) -> Action | None:
        """Declare a hand dead only when it certainly is: judged, as the engine does, from the
        visible tiles alone (never the seat's own concealed tiles)."""
        declarations = [o.action for o in options if isinstance(o.action, DeclareDead)]
        if not declarations or not self.declares_dead:
            return None
        visible: list[int] | None = None
        for declaration in declarations:
            exposures = rack_exposures(view, declaration.target, declaration.rack)
            if not exposures:
                continue  # a concealed hand is almost never provably dead; skip the work
            if visible is None:
                visible = visible_counts(view)
            if self.matcher.is_dead(exposures, visible):
                return declaration
        return None

    # -- analysis --------------------------------------------------------------------------

    def _table(self, view: View) -> Supply:
        """The live copies of each kind the seat cannot see, how many tiles it cannot see
        (the wall and the other racks), and about how many draws it has left."""
        seen = self._seen(view)
        held = _counts(view.concealed)
        live = tuple(max(0, self.counts[k] - seen[k] - held[k]) for k in range(NUM_KINDS))
        seats = sum(1 for seat in view.seats if seat.live) or 1
        return Supply(live, sum(live), view.wall_count / seats)

    def _analysis(self, view: View) -> Analysis:
        """The seat's plans for its tiles and the table as it stands."""
        candidates = self._candidates(view)
        seen = self._seen(view)
        last = self._last
        if (last is not None and last[0] is candidates and last[1] == seen
                and last[2] == view.wall_count):
            return last[3]
        table = self._table(view)
        viable = [c for c in candidates.plans if self._viable(c, table.live)]
        plans = [Plan(c.hands, c.away, c.value, weight, c.keep, c)
                 for c, weight in zip(viable, self._weights(viable, table), strict=True)]
        plans.sort(key=lambda p: -p.weight)
        analysis = Analysis(tuple(_counts(view.concealed)), tuple(plans))
        self._last = (candidates, seen, view.wall_count, analysis)
        return analysis

    def _candidates(self, view: View) -> _Candidates:
        """The nearest hands for the seat's tiles (cached: the claim windows between two of
        the seat's turns all ask about the same tiles); more of them in the Charleston."""
        racks = live_racks(view) or (0,)
        exposures = {r: rack_exposures(view, view.seat, r) for r in racks}
        count = self.charleston_nearest if view.phase in _CHARLESTON else self.nearest
        key = (view.concealed, tuple(exposures.items()), count)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > 16:
                self._cache.clear()
            found = self._find_candidates(view.concealed, exposures, count)
            self._cache[key] = found
        return found

    def _find_candidates(self, concealed: tuple[int, ...],
                         exposures: dict[int, tuple[Exposure, ...]],
                         count: int) -> _Candidates:
        """Candidate plans: the `count` nearest ways to a hand (one-rack games; up to
        `ways_per_hand` variations of one card hand), or the `siamese_pairs` best pairs of
        hands for two live racks, the tiles split between them."""
        plans: list[Candidate] = []
        call_kinds: set[int] = set()
        racks = sorted(exposures)
        if len(racks) == 1:
            held = (_counts(concealed),)
            for near in self.matcher.nearest(PlayerHand(concealed, exposures[racks[0]]),
                                             count, self.ways_per_hand):
                plans.append(_candidate((near,), held, call_kinds, self.call_away))
        else:
            for split in split_racks(self.matcher, concealed, exposures, self.siamese_pairs,
                                     most=self.split_pairs):
                plans.append(_candidate(tuple(plan.near for plan in split.plans),
                                        tuple(_counts(plan.keep) for plan in split.plans),
                                        call_kinds, self.call_away))
        return _Candidates(tuple(plans), frozenset(call_kinds))

    def _best_away(self, concealed: tuple[int, ...],
                   exposures: dict[int, tuple[Exposure, ...]]) -> int:
        """Tiles the closest hand (pair of hands, with two live racks) lacks."""
        racks = sorted(exposures)
        if len(racks) == 1:
            found = self.matcher.nearest(PlayerHand(concealed, exposures[racks[0]]), 1)
            return found[0].away if found else FAR
        splits = split_racks(self.matcher, concealed, exposures, most=self.split_pairs)
        return splits[0].away if splits else FAR


@dataclass(frozen=True)
class Candidate:
    """A plan before the table is looked at: the nearest hand(s); what it still lacks per
    kind, naturals (a plan is dropped when the table has used those up) and joker-able
    places; the jokers it already places; whether a hand is concealed (no calls) and whether
    a jokerless finish doubles it (not singles and pairs)."""

    hands: tuple[str, ...]
    away: int
    value: int
    keep: tuple[int, ...]
    need_natural: tuple[tuple[int, int], ...]
    need_any: tuple[tuple[int, int], ...]
    jokers: int
    concealed: bool
    doubles: bool


@dataclass(frozen=True)
class _Candidates:
    """Every candidate plan for some tiles, and the kinds a call could help with."""

    plans: tuple[Candidate, ...]
    call_kinds: frozenset[int]


def _candidate(nears: Sequence[NearHand], pools: Sequence[Sequence[int]],
               call_kinds: set[int], call_away: int) -> Candidate:
    """A candidate plan from nearest hands (one per live rack) and the tiles each was
    matched against, counted per kind; adds the kinds a call could help with to
    `call_kinds`."""
    keep = list(pools[0]) if len(pools) == 1 else [sum(n) for n in zip(*pools, strict=True)]
    need: dict[int, int] = {}
    need_any: dict[int, int] = {}
    for near in nears:
        for kind in near.unused:
            keep[kind] -= 1
        for kind in near.need_natural:
            need[kind] = need.get(kind, 0) + 1
        for kind in near.need_any:
            need_any[kind] = need_any.get(kind, 0) + 1
    away = sum([near.away for near in nears])
    if away <= call_away + 1:
        for near in nears:
            for target, have in zip(near.target, near.groups, strict=True):
                if len(target) >= 3 and len(have) < len(target) and len(set(target)) == 1:
                    call_kinds.add(target[0])
    hands = [near.hand for near in nears]
    return make(Candidate, {
        "hands": tuple([hand.id for hand in hands]), "away": away,
        "value": sum([hand.value for hand in hands]), "keep": tuple(keep),
        "need_natural": tuple(sorted(need.items())),
        "need_any": tuple(sorted(need_any.items())), "jokers": keep[JOKER],
        "concealed": any(hand.concealed for hand in hands),
        "doubles": not any(hand.singles_and_pairs for hand in hands)})
