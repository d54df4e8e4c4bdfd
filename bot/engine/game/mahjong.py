"""Declaring Mah Jongg: which layouts a seat can declare, checking a request, laying it out.

Every decision goes through the matcher. In one-rack games the seat's 14 tiles are matched
whole and the best-paying card hand is the one scored. In the Siamese-style game a request
names the rack (or both racks) and may name the card hand(s) and the concealed tiles; left
out, the engine picks the best layout (see `bot.engine.game.siamese`).
"""

from __future__ import annotations

from collections import Counter

from bot.engine.errors import IllegalAction
from bot.engine.game.actions import CallMahjong, Mahjong
from bot.engine.game.events import MahjongShown
from bot.engine.game.rules import WallEnd
from bot.engine.game.siamese import (
    RackWin,
    both_wins,
    exact_win,
    leftover,
    rack_wins,
    with_jokered_quints,
)
from bot.engine.game.state import (
    Declared,
    GameState,
    evolve,
    kept_memo,
    memo,
    remove_ids,
    with_seat,
)
from bot.engine.matcher import CARD_KINDS
from bot.engine.tiles import format_tiles, tile_name

Plan = tuple[RackWin, ...]
Request = Mahjong | CallMahjong

NOT_YET = "Your tiles don't make a hand on the card yet."


def _quint_note(state: GameState) -> str:
    """What a refusal adds where quints and sextets must hold a joker."""
    if state.rules.natural_quints:
        return ""
    return " At this table every quint and sextet must hold a joker."


def _pool(state: GameState, seat: int, claimed: int | None) -> tuple[int, ...]:
    extra = () if claimed is None else (claimed,)
    return tuple(sorted(state.concealed_kinds(seat) + extra))


def _uses(win: RackWin, claimed: int | None) -> bool:
    return claimed is None or claimed in win.concealed


def _keeps_a_discard(state: GameState, seat: int, plan: Plan, pool: tuple[int, ...]) -> bool:
    """A first Mah Jongg with another live rack must leave a tile to discard."""
    still_live = set(state.live_racks(seat)) - {win.rack for win in plan}
    if not still_live:
        return True
    used: list[int] = [kind for win in plan for kind in win.concealed]
    return len(leftover(pool, used)) >= 1


def _quints_allowed(state: GameState, seat: int, found: list[Plan],
                    pool: tuple[int, ...], claimed: int | None) -> list[Plan]:
    """The plans as the table allows them: unchanged, or (quints and sextets must hold a
    joker, see `RuleSet.natural_quints`) laid out again with jokers where the pool has them,
    dropping those it cannot."""
    if state.rules.natural_quints:
        return found
    exposures = (state.rack_exposures(seat, 0), state.rack_exposures(seat, 1))
    kept: list[Plan] = []
    for plan in found:
        laid = with_jokered_quints(state.matcher, plan, pool, exposures)
        if laid is not None and (claimed is None or claimed in [
                kind for win in laid for kind in win.concealed]):
            kept.append(laid)
    return kept


def plans(state: GameState, seat: int, claimed: int | None = None) -> list[Plan]:
    """Every Mah Jongg the seat can declare now (with the claimed tile, when claiming), best
    first: one plan per rack and card hand, and per pair of hands for both racks at once."""
    if not state.is_live(seat):
        return []
    if claimed is not None and not may_complete(state, seat, claimed):
        return []
    if claimed is None and memo(state.seats[seat], _DREW_BLANK, bool):
        return []
    pool = _pool(state, seat, claimed)
    if state.rules.racks == 1:
        win = exact_win(state.matcher, 0, pool, state.rack_exposures(seat, 0))
        return [] if win is None else [(win,)]
    return _quints_allowed(state, seat, _two_rack_plans(state, seat, pool, claimed), pool,
                           claimed)


#: Noted on a seat's record by `note_draw`: the tile it drew completes none of its racks.
_DREW_BLANK = "drew no winning tile"


def note_draw(before: GameState, after: GameState, seat: int, kind: int) -> None:
    """After a seat draws a tile of `kind`: when no discard of that kind could have completed
    a rack of the hand before the draw (the kinds its claim windows look up, see
    `may_complete`), the hand after it makes no Mah Jongg either, so the turn's options
    need not match it again. Noted on the new record, as what it is: a fact about its tiles."""
    if not may_complete(before, seat, kind):
        memo(after.seats[seat], _DREW_BLANK, lambda: True)


def may_complete(state: GameState, seat: int, claimed: int) -> bool:
    """Whether a discard of this kind could complete one of the seat's live racks (`plans`
    finds none when it could not): a set lookup kept on the seat's record (which changes
    only when its tiles do), where matching the whole hand again would be asked about every
    discard by every seat. A kind outside the set makes no Mah Jongg (see
    `CardMatcher.completing_kinds`)."""
    if claimed >= CARD_KINDS:
        return True
    known = kept_memo(state.seats[seat], "completing kinds")
    if isinstance(known, frozenset):
        return claimed in known

    def kinds() -> frozenset[int] | None:
        pool = state.concealed_kinds(seat)
        found: set[int] = set()
        for rack in state.live_racks(seat):
            some = state.matcher.completing_kinds(pool, state.rack_exposures(seat, rack))
            if some is None:
                return None
            found |= some
        return frozenset(found)

    wanted = memo(state.seats[seat], "completing kinds", kinds)
    return wanted is None or claimed in wanted


def _two_rack_plans(state: GameState, seat: int, pool: tuple[int, ...],
                    claimed: int | None) -> list[Plan]:
    found: list[Plan] = []
    live = state.live_racks(seat)
    for rack in live:
        for win in rack_wins(state.matcher, rack, pool, state.rack_exposures(seat, rack)):
            if _uses(win, claimed) and _keeps_a_discard(state, seat, (win,), pool):
                found.append((win,))
    if len(live) == 2:
        exposures = (state.rack_exposures(seat, 0), state.rack_exposures(seat, 1))
        for first, second in both_wins(state.matcher, pool, exposures):
            if claimed is None or claimed in first.concealed + second.concealed:
                found.append((first, second))
    return found


def plan_request(request: Request, plan: Plan, racks: int) -> Request:
    """The action that asks for exactly this plan, by rack and card hand ids (one-rack games
    need no details: the engine always lays out the best hand)."""
    if racks == 1:
        return request
    hands = tuple(win.match.hand.id for win in plan)
    if len(plan) == 2:
        return evolve(request, both=True, rack=0, hands=hands)
    return evolve(request, rack=plan[0].rack, hands=hands)


def check(state: GameState, request: Request, claimed: int | None = None) -> Plan:
    """The layout a Mah Jongg request asks for; `IllegalAction` when it is not a Mah Jongg."""
    seat = request.seat
    if state.rules.racks == 1:
        if request.rack or request.both or request.hands or request.tiles:
            raise IllegalAction("Just declare `mahjong`: the engine lays out your 14 tiles as "
                                "the best-paying hand on the card.")
        found = plans(state, seat, claimed)
        if not found:
            raise IllegalAction(_not_a_win(None, claimed, ""))
        return found[0]
    live = state.live_racks(seat)
    pool = _pool(state, seat, claimed)
    if request.both:
        if len(live) != 2:
            raise IllegalAction("Only one of your racks can still go Mah Jongg.")
        return _check_both(state, request, pool, claimed)
    if request.rack not in live:
        raise IllegalAction(f"Rack {request.rack + 1} can't go Mah Jongg: it is dead or "
                            "already shows a Mah Jongg.")
    if len(request.hands) > 1:
        raise IllegalAction("Name one card hand for one rack, or declare `both`.")
    hand_id = request.hands[0] if request.hands else None
    exposures = state.rack_exposures(seat, request.rack)
    win: RackWin | None
    if request.tiles:
        _require_in_pool(request.tiles, pool)
        win = exact_win(state.matcher, request.rack, request.tiles, exposures, hand_id)
        wins = [] if win is None else [win]
    else:
        wins = [w for w in rack_wins(state.matcher, request.rack, pool, exposures)
                if hand_id is None or w.match.hand.id == hand_id]
    allowed = _quints_allowed(state, seat, [
        (w,) for w in wins if _uses(w, claimed) and _keeps_a_discard(state, seat, (w,), pool)],
        pool, claimed)
    if not allowed:
        raise IllegalAction(_not_a_win(hand_id, claimed, " on that rack")
                            + _quint_note(state))
    return allowed[0]


def _check_both(state: GameState, request: Request, pool: tuple[int, ...],
                claimed: int | None) -> Plan:
    seat = request.seat
    wanted = request.hands + (None,) * (2 - len(request.hands))
    if len(request.hands) > 2:
        raise IllegalAction("Name at most two card hands, one per rack.")
    exposures = (state.rack_exposures(seat, 0), state.rack_exposures(seat, 1))
    pairs: list[tuple[RackWin, RackWin]]
    if request.tiles:
        _require_in_pool(request.tiles, pool)
        first = exact_win(state.matcher, 0, request.tiles, exposures[0], wanted[0])
        second = exact_win(state.matcher, 1, leftover(pool, request.tiles), exposures[1],
                           wanted[1])
        pairs = [] if first is None or second is None else [(first, second)]
    else:
        pairs = [p for p in both_wins(state.matcher, pool, exposures)
                 if all(w is None or w == win.match.hand.id
                        for w, win in zip(wanted, p, strict=True))]
    pairs = [p for p in pairs if claimed is None or claimed in p[0].concealed + p[1].concealed]
    allowed = _quints_allowed(state, seat, list(pairs), pool, claimed)
    if not allowed:
        raise IllegalAction("Your tiles don't make two hands on the card at once."
                            + _quint_note(state))
    return allowed[0]


def refuse_cold_wall(state: GameState, next_step: str) -> None:
    """`IllegalAction` (ending with `next_step`) when a Mah Jongg paid on a discard is asked
    for under the cold wall, where only self-picked wins count (see `WallEnd`)."""
    if state.wall_end() is WallEnd.COLD:
        raise IllegalAction(f"Cold wall: with {state.rules.wall_end_tiles} or fewer tiles "
                            f"left to pick, only a self-picked Mah Jongg wins. {next_step}")


def _require_in_pool(tiles: tuple[int, ...], pool: tuple[int, ...]) -> None:
    missing = Counter(tiles) - Counter(pool)
    if missing:
        raise IllegalAction(f"You don't hold {format_tiles(missing.elements())} to lay out.")


def _not_a_win(hand_id: str | None, claimed: int | None, where: str) -> str:
    as_hand = f" as hand {hand_id}" if hand_id else ""
    if claimed is not None:
        return f"The {tile_name(claimed)} doesn't complete a Mah Jongg for you{where}{as_hand}."
    if hand_id:
        return f"Your tiles don't make hand {hand_id}{where}."
    return NOT_YET


def lay_out(state: GameState, seat: int, plan: Plan, *, claimed_id: int | None,
            self_picked: bool, discarder: int | None,
            won_on: int | None,
            winning_id: int | None) -> tuple[GameState, list[MahjongShown]]:
    """Move the tiles of each rack's Mah Jongg onto the table as a `Declared` record: the
    rack's exposures and the concealed tiles used (the claimed discard first of its kind).
    `winning_id` is the tile that completed the hand, when one did.

    `won_on` is the discard a win off a discard is paid on. The exposure a call for it made
    does not count among the exposures the winner had: the tournament sheet charges "a
    player who THROWS Mah Jongg to a hand with NO exposures or ONE exposure" by the hand the
    tile was thrown to, so calling the winning tile for a pung, then declaring, costs the
    thrower what calling it for Mah Jongg would. Under the hot wall a win on a discard is
    marked `hot_wall` when the discard came in the last part of the wall and its kind had
    not been thrown before in the game (`thrown` holds it once, this time)."""
    if claimed_id is not None:
        discards = list(state.discards)
        discards.pop()
        state = evolve(state, discards=tuple(discards))
    hot_wall = (won_on is not None and state.wall_end() is WallEnd.HOT
                and state.thrown.count(state.tiles[won_on]) == 1)
    available = ([claimed_id] if claimed_id is not None else []) + list(
        state.seats[seat].concealed)
    ordinal = 0 if len(plan) == 2 else len(state.seats[seat].declared) + 1
    events: list[MahjongShown] = []
    declared = list(state.seats[seat].declared)
    exposures = list(state.seats[seat].exposures)
    for win in plan:
        rack_exposures = [e for e in exposures if e.rack == win.rack]
        groups: list[tuple[int, ...]] = []
        for group, exposed in zip(win.match.groups, win.match.exposed, strict=True):
            if exposed:
                table = next(e for e in rack_exposures
                             if Counter(state.kinds(e.tile_ids)) == Counter(group))
                rack_exposures.remove(table)
                groups.append(table.tile_ids)
                continue
            ids: list[int] = []
            for kind in group:
                tile_id = next(t for t in available if state.tiles[t] == kind)
                available.remove(tile_id)
                ids.append(tile_id)
            groups.append(tuple(ids))
        hand = win.match.hand
        declared.append(Declared(
            seat=seat, rack=win.rack, hand_id=hand.id, value=hand.value,
            jokerless=win.match.jokerless, singles_and_pairs=hand.singles_and_pairs,
            groups=tuple(groups), self_picked=self_picked, discarder=discarder,
            exposures_before=sum(1 for e in exposures
                                 if e.rack == win.rack and e.tile_ids[0] != won_on),
            ordinal=ordinal, winning_id=winning_id, hot_wall=hot_wall))
        exposures = [e for e in exposures if e.rack != win.rack]
        events.append(MahjongShown(seat, win.rack, hand.id,
                                   tuple(state.kinds(g) for g in groups), self_picked,
                                   discarder))
    used = [t for d in declared[len(state.seats[seat].declared):] for g in d.groups for t in g]
    concealed = remove_ids(state.seats[seat].concealed,
                           [t for t in used if t in state.seats[seat].concealed])
    state = with_seat(state, seat, concealed=concealed, exposures=tuple(exposures),
                      declared=tuple(declared))
    return state, events
