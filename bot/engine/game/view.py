"""What one seat may see: the only thing later layers show to a player or a channel.

A view holds the seat's own concealed tiles, everything face up (exposures, laid-out Mah
Jonggs with their winning tile, discards, the discard just called), counts (tiles in each
rack, the wall), whose turn it is, the phase and the seat's own legal options. It never
holds another seat's concealed tiles, the wall's order, or another seat's hidden choices
(its pass, vote, offer or claim before the window closes).
Tiles are kinds, never physical ids.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.game.actions import Claim, Give, Option
from bot.engine.game.charleston import current_pass
from bot.engine.game.events import EndReason, PassName, ScoreLine
from bot.engine.game.legal import legal_options
from bot.engine.game.rules import Scoring
from bot.engine.game.state import (
    Declared,
    GameState,
    Phase,
    TableExposure,
    Took,
    carried,
    discard_piles,
    kept_memo,
    memo,
)
from bot.engine.records import make


@dataclass(frozen=True)
class ExposureView:
    """An exposure as the table sees it: its tiles (called tile first) and whether its jokers
    are locked (it made its dead hand unable to match the card)."""

    rack: int
    kind: int
    tiles: tuple[int, ...]
    jokers: int
    locked: bool
    discarder: int


@dataclass(frozen=True)
class MahjongView:
    """A Mah Jongg laid out on a rack, group by group. `winning` is where the tile that
    completed it lies: (group index, place in the group); None for a dealt hand, or for a
    second rack declared at the same moment that the winning tile is not on."""

    seat: int
    rack: int
    hand_id: str
    value: int
    groups: tuple[tuple[int, ...], ...]
    self_picked: bool
    discarder: int | None
    ordinal: int
    winning: tuple[int, int] | None = None


@dataclass(frozen=True)
class SeatView:
    """One seat as everyone sees it."""

    seat: int
    wind: str
    player: str
    concealed_count: int
    exposures: tuple[ExposureView, ...]
    mahjongs: tuple[MahjongView, ...]
    dead: tuple[bool, ...]
    live: bool
    discards: tuple[int, ...]


@dataclass(frozen=True)
class CharlestonView:
    """The Charleston as one seat sees it: which pass (None during the vote and courtesy
    offers), who is ready, and this seat's own choices."""

    pass_name: PassName | None
    blind_allowed: bool
    ready: tuple[bool, ...]
    my_give: Give | None
    my_vote: bool | None
    my_offer: int | None
    agreed: tuple[int, ...]


@dataclass(frozen=True)
class ClaimView:
    """The open claim window: the discard, who must answer, who has, and this seat's answer."""

    discarder: int
    kind: int
    waiting: tuple[int, ...]
    answered: tuple[int, ...]
    my_answer: Claim | None


@dataclass(frozen=True)
class CalledView:
    """The discard the seat on turn has just called: it now lies on that seat's rack."""

    seat: int
    discarder: int
    kind: int


@dataclass(frozen=True)
class ResultView:
    """How the game ended and the score breakdown."""

    reason: EndReason
    mahjongs: tuple[MahjongView, ...]
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]
    settlement: tuple[int, ...]
    #: What the bettor won or lost; None at a table without a bettor.
    bettor: int | None = None


@dataclass(frozen=True)
class View:
    """Everything `seat` may see now."""

    seat: int
    rules: str
    #: How the game will be scored (public: a house option may change it under the rules'
    #: name, and a player weighs what feeding or a self-pick costs by it).
    scoring: Scoring
    card: str
    phase: Phase
    concealed: tuple[int, ...]
    seats: tuple[SeatView, ...]
    discards: tuple[tuple[int, int], ...]
    wall_count: int
    dice: tuple[int, ...]
    turn: int | None
    charleston: CharlestonView | None
    claim: ClaimView | None
    result: ResultView | None
    legal: tuple[Option, ...]
    action_count: int
    called: CalledView | None = None
    #: The seat the bettor backs (public); None at a table without a bettor.
    bet: int | None = None


def _mahjong_view(state: GameState, declared: Declared) -> MahjongView:
    winning = next(((index, group.index(declared.winning_id))
                    for index, group in enumerate(declared.groups)
                    if declared.winning_id in group), None)
    return MahjongView(declared.seat, declared.rack, declared.hand_id, declared.value,
                       tuple(state.kinds(g) for g in declared.groups), declared.self_picked,
                       declared.discarder, declared.ordinal, winning)


def _called_view(state: GameState) -> CalledView | None:
    """The discard the seat on turn called, while that turn lasts."""
    turn = state.turn
    if (state.phase is not Phase.TURN or turn is None or turn.took is not Took.CALL
            or turn.called_from is None or turn.tile is None):
        return None
    return CalledView(turn.seat, turn.called_from, state.tiles[turn.tile])


def _exposure_view(state: GameState, exposure: TableExposure) -> ExposureView:
    """An exposure as the table sees it, kept on the exposure's record (it outlives many
    changes of its seat's)."""
    return memo(exposure, "view", lambda: ExposureView(
        exposure.rack, exposure.kind, state.kinds(exposure.tile_ids),
        state.as_exposure(exposure).jokers, exposure.locked, exposure.discarder))


def _seat_view(state: GameState, seat: int, discards: tuple[int, ...]) -> SeatView:
    """A seat as everyone sees it. Kept on the seat's record per discard pile: a seat's
    record changes far less often than the game moves (its pile can shrink under it when a
    discard is called); what its exposures and Mah Jonggs show goes along while they stay."""
    seat_state = state.seats[seat]
    kept: dict[tuple[int, tuple[int, ...]], SeatView] | None = kept_memo(  # type: ignore[assignment]
        seat_state, "seat views")
    if kept is None:
        kept = memo(seat_state, "seat views", dict)
    found = kept.get((seat, discards))
    if found is None:
        exposures, mahjongs = carried(seat_state, "shown", _SHOWN_FROM, lambda: (
            tuple(_exposure_view(state, e) for e in seat_state.exposures),
            tuple(_mahjong_view(state, d) for d in seat_state.declared)))
        found = kept[seat, discards] = make(SeatView, {
            "seat": seat, "wind": state.name(seat), "player": state.players[seat],
            "concealed_count": len(seat_state.concealed), "exposures": exposures,
            "mahjongs": mahjongs, "dead": seat_state.dead, "live": state.is_live(seat),
            "discards": discards})
    return found


#: The fields of a seat's record its exposures and Mah Jonggs as shown come from.
_SHOWN_FROM = frozenset({"exposures", "declared"})


#: The fields of the state the table's public parts of a view are made from.
_SEATS_FROM = frozenset({"discards", "tiles", "seats", "players", "rules"})


def _seat_views(state: GameState) -> tuple[SeatView, ...]:
    """Every seat as the table sees it, the same for every viewer: made once per change of
    the seats or the discards."""
    return carried(state, "seat views", _SEATS_FROM, lambda: tuple(
        _seat_view(state, seat, pile) for seat, pile in enumerate(discard_piles(state)[1])))


def _charleston_view(state: GameState, seat: int) -> CharlestonView | None:
    charleston = state.charleston
    if charleston is None or state.phase not in (
            Phase.CHARLESTON, Phase.VOTE, Phase.COURTESY_OFFER, Phase.COURTESY_PASS):
        return None
    if state.phase is Phase.VOTE:
        ready = tuple(v is not None for v in charleston.votes)
    elif state.phase is Phase.COURTESY_OFFER:
        ready = tuple(o is not None for o in charleston.offers)
    else:
        ready = tuple(g is not None for g in charleston.gives)
    step = current_pass(state) if state.phase is Phase.CHARLESTON else None
    return CharlestonView(
        pass_name=step.name if step else (
            PassName.COURTESY if state.phase is Phase.COURTESY_PASS else None),
        blind_allowed=bool(step and step.blind),
        ready=ready,
        my_give=charleston.gives[seat] if charleston.gives else None,
        my_vote=charleston.votes[seat] if charleston.votes else None,
        my_offer=charleston.offers[seat] if charleston.offers else None,
        agreed=charleston.agreed if state.phase is Phase.COURTESY_PASS else ())


def _claim_view(state: GameState, seat: int) -> ClaimView | None:
    claim = state.claim
    if claim is None or state.phase is not Phase.CLAIM:
        return None
    return ClaimView(claim.discarder, state.tiles[claim.tile_id], claim.waiting,
                     tuple(s for s in claim.waiting if claim.answers[s] is not None),
                     claim.answers[seat])


def _result_view(state: GameState) -> ResultView | None:
    result = state.result
    if result is None:
        return None
    return ResultView(result.reason, tuple(_mahjong_view(state, d) for d in result.declared),
                      result.lines, result.totals, result.settlement, result.bettor)


def build_view(state: GameState, seat: int) -> View:
    """Everything `seat` may see now, with its legal options. Made at every step of every
    game, so it is put together from parts kept on the state's records (see `make`)."""
    turn = state.turn
    return make(View, {
        "seat": seat, "rules": state.rules.name, "scoring": state.rules.scoring,
        "card": state.card.name,
        "phase": state.phase, "concealed": state.concealed_kinds(seat),
        "seats": _seat_views(state), "discards": discard_piles(state)[0],
        "wall_count": len(state.wall), "dice": state.deal.dice,
        "turn": turn.seat if turn is not None else None,
        "charleston": None if state.charleston is None else _charleston_view(state, seat),
        "claim": None if state.claim is None else _claim_view(state, seat),
        "result": _result_view(state), "legal": legal_options(state, seat),
        "action_count": len(state.actions),
        "called": None if turn is None else _called_view(state), "bet": state.bet})


def spectator_view(state: GameState) -> View:
    """What anyone at the table may see: every face-up tile and count, no seat's concealed
    tiles, options or hidden choices. `seat` is -1. The table's public picture is built
    from this."""
    seen = build_view(state, 0)
    charleston = seen.charleston
    if charleston is not None:
        charleston = replace(charleston, my_give=None, my_vote=None, my_offer=None)
    claim = seen.claim
    if claim is not None:
        claim = replace(claim, my_answer=None)
    return replace(seen, seat=-1, concealed=(), legal=(), charleston=charleston, claim=claim)
