"""Rule sets: every difference between tables is a value here, never a fork of the code.

A `RuleSet` is frozen data. The named presets are the official four-player game (NMJL rules,
`nmjl` payments), the three-player game, the two-player Siamese-style game and the tournament
game. Each option documents which rules source it follows and what the alternatives mean.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from bot.engine.errors import InvalidInput, echo
from bot.engine.tiles import standard_counts

HAND_TILES = 14
MAX_COURTESY = 3
#: The largest ante (`pot_ante`, `ante`): far above any table's (the default is 25), and
#: far below what a database column holds over any series of games. Unbounded, a typed
#: `pot_ante=10**23` made results no column holds: the table's first wall game could not be
#: kept.
MAX_ANTE = 1_000_000
PASS_SIZE = 3


class Charleston(Enum):
    """Which Charleston a table plays.

    `STANDARD`: the compulsory first Charleston (right, across, left), a vote any seat may stop,
    the second Charleston (left, across, right), then the courtesy pass with the seat across
    (NMJL; needs four players). `NONE`: straight from the deal to play (three and two players;
    at four, the house option of the standard rules' "casual groups allow passing jokers or
    skip the Charleston entirely for speed", the online client's "No Charleston").
    """

    STANDARD = "standard"
    NONE = "none"


class BlindOrder(Enum):
    """The order blind passes are resolved in when several seats blind-pass at once.

    `FEWEST_FIRST` (NMJL, "Mah Jongg Made Easy"): the seat forwarding the fewest unseen tiles goes
    first. `EAST_FIRST` (the online-client notes): seats go in turn order starting from East.
    Ties under `FEWEST_FIRST` also go in turn order from East.
    """

    FEWEST_FIRST = "fewest-first"
    EAST_FIRST = "east-first"


class ClaimWindow(Enum):
    """Who must answer the claim window after a discard.

    `EVERY_SEAT` (default): every other live seat answers (claim or pass), so the window's length
    never tells anyone who could have called. `ABLE_SEATS` (the online-client notes): only seats
    holding some legal claim are asked; faster, but the wait reveals that someone could call.
    """

    EVERY_SEAT = "every-seat"
    ABLE_SEATS = "able-seats"


class DeadHands(Enum):
    """Whether seats may declare other hands dead.

    `DECLARED` (NMJL): on its turn a seat may declare another hand dead; the engine judges it
    from what is visible and a wrong declaration kills the declarer's hand. `OFF` (a common
    house choice): nobody calls hands dead and everyone plays on.
    """

    DECLARED = "declared"
    OFF = "off"


class DeadJokers(Enum):
    """Which jokers in a dead hand's exposures may still be exchanged.

    `VALID_EXPOSURES` (NMJL and tournament rules, Siamese rule 15): every exposure except the one
    that made the hand unable to match the card and any made after it went dead, judged from
    what was visible when each was made (discards included). `ALL_EXPOSURES` (the
    online-client notes): every exposure stays open.
    """

    VALID_EXPOSURES = "valid-exposures"
    ALL_EXPOSURES = "all-exposures"


class ExchangeSelfPick(Enum):
    """When a Mah Jongg declared after calling a discard counts as self-picked because of a
    joker exchange made after the call.

    `COMPLETING` (standard rules: "If it completes your hand, the win pays as self-picked";
    tournament sheet: "If a Joker is exchanged and gives a player their MJ it is
    self-picked"): only an exchange that turns a hand that was not a Mah Jongg into one. A
    hand already complete with the called tile stays a win on that discard. `ANY` (the
    online-client notes): any exchange between the call and the Mah Jongg.
    """

    COMPLETING = "completing"
    ANY = "any"


class WallEnd(Enum):
    """A house rule for the last part of the wall (the last `RuleSet.wall_end_tiles` tiles
    left to pick), named in the online-client notes' list of planned options.

    `NORMAL` (default, the standard): the end of the wall is like the rest. `HOT`: "If a
    player deals in with a previously-undiscarded tile during the last portion of the wall,
    they pay for the table": a discard that wins, of a kind nobody had discarded before in
    the game, makes its thrower pay every player's share. `COLD`: "During the last portion
    of the wall, players may only win by self-draw": nobody may win on a discard (a call for
    an exposure is still allowed, and a joker exchange that completes the hand after it
    counts as the pick, see `ExchangeSelfPick`).
    """

    NORMAL = "normal"
    HOT = "hot"
    COLD = "cold"


class Walls(Enum):
    """Whether the tiles are built into walls.

    `BUILT` (standard): walls, broken where the dice say. `NONE` (Siamese rule 3, "AN EASY
    OPTION for social play: Don't build any walls. Merely leave the shuffled unpicked tiles
    on one side of the table"): the tiles lie face down in a pool and are picked from there,
    with no dice. The seed orders the pool as it orders a wall, so the game replays exactly;
    only the telling differs. Tournaments require walls ("WALLS ARE REQUIRED FOR TOURNAMENT
    PLAY"), so tournament scoring refuses it.
    """

    BUILT = "built"
    NONE = "none"


class ClaimPriority(Enum):
    """Which claim on a discard wins when several seats claim it (two-rack games at three or
    four players: at two, only one other seat can claim).

    `NEAREST` (the design of every table here; Siamese rule 10D, "the discarded tile may be
    claimed by the player CLOSEST in succession to the discarder... regardless if it is for a
    1st or 2nd Mah Jongg", generalised to three and four players): Mah Jongg over exposures,
    then the seat nearest after the discarder. `SECOND_MAHJONG_FIRST` (the online client's
    choice for the Royale-style game): a call that completes a player's second Mah Jongg (or
    two at once) comes before every other call; otherwise as `NEAREST`.
    """

    NEAREST = "nearest"
    SECOND_MAHJONG_FIRST = "second-mahjong-first"


class GameEnd(Enum):
    """When a two-rack game at three or four players ends, besides an empty wall.

    `SECOND_MAHJONG` (Siamese rule 14, "GAME CEASES when 1 player has declared 2 MAH
    JONGGS"): the first player to lay out a second Mah Jongg ends the game. `ALL_DONE`: play
    goes on after a player's second Mah Jongg until no player is live (each has two Mah
    Jonggs or dead racks) or the wall runs out.
    """

    SECOND_MAHJONG = "second-mahjong"
    ALL_DONE = "all-done"


class Payment(Enum):
    """How the points of a two-rack game at three or four players change hands.

    `PAIRWISE` (Siamese rule 17, "the player with the lesser score will pay the winner the
    difference", for every pair of players): each player pays every player with a higher
    score the difference, so a seat settles the sum of its differences with the others.
    `POT`: every player antes `RuleSet.ante` into a pot that the players who laid out Mah
    Jonggs share in proportion to their Mah Jongg points (see `bot.engine.game.scoring`).
    """

    PAIRWISE = "pairwise"
    POT = "pot"


class Scoring(Enum):
    """How a finished game is scored; see `bot.engine.game.scoring`."""

    NMJL = "nmjl"
    TOURNAMENT = "tournament"
    SIAMESE = "siamese"


@dataclass(frozen=True)
class RuleSet:
    """Everything that differs between the tables the engine runs.

    `players` seats play with `racks` racks each (two in the Siamese-style game at two players
    and the Royale-style game at three or four, where each player builds two hands). `sets`
    full sets of tiles are shuffled together (two in the Royale-style game: 304 tiles, eight
    of each kind). East is dealt `dealer_tiles`, every other seat `other_tiles`;
    with `dealer_draws_first` East starts its first turn by drawing (Siamese rule 8), otherwise
    East starts by discarding. `dice` dice break the wall (two, or one for Siamese rule 4);
    none (0) is the house option Siamese rule 4 allows ("It is an OPTION to use the dice to
    arbitrarily break the wall (EXCEPT in SIAMESE TOURNAMENTS)"): the wall is not broken and
    dealing starts at the right end of East's wall. `walls` may be `Walls.NONE` (see there).
    Tile counts follow the set: 8 jokers and 8 flowers per set by default; `blanks` above zero
    turns on the house rule where, on its turn, a seat may swap a blank from its rack for any
    natural tile in the discards (never legal under NMJL rules).

    The house payments (all off by default; `nmjl` money payments only) follow the standard
    rules' note "At some tables, quarters games ante into a pot on wall games for the next
    winner, and some make a player who feeds an opponent with three exposures pay for the
    whole table":

    * `quarters_pot`: a game without a winner costs every seat `pot_ante` (dead hands too: a
      dead player "still pays the winner"), paid into a pot the next winner takes. The
      source names neither amount nor payers: the ante defaults to 25, a quarter on a card
      whose values are cents, and everybody antes, since nobody won. The pot a game starts
      with is given to `new_game`; its result says what the pot holds after it.
    * `pay_for_table`: the thrower of a winning discard pays every player's share (its own
      double and the others' single payments) when the winner had `pay_for_table_exposures`
      or more exposures before calling it (default 3, counted as the tournament sheet counts
      the exposures of the hand a tile was thrown to). The source's "three exposures" does
      not say whether four count too; here they do.
    * `wall_end`: the hot or cold wall (see `WallEnd`) over the last `wall_end_tiles` tiles
      left to pick, judged when the tile is thrown. No source says how long the last part
      is; the default, 20, is about five rounds of four players.

    The Royale-style options (two racks at three or four players; the sources name this game
    without giving its rules, so each unknown is an option whose default follows the public
    descriptions and the two-player rules): `claim_priority` (see `ClaimPriority`),
    `game_end` (see `GameEnd`), `payment` and its `ante` (see `Payment`), and
    `natural_quints`: whether a quint or sextet may be all natural tiles, possible with eight
    of a kind (default yes: no rule we hold restricts it; off, every quint and sextet, exposed
    or laid out, must hold a joker).
    """

    name: str
    players: int = 4
    racks: int = 1
    dealer_tiles: int = 14
    other_tiles: int = 13
    dealer_draws_first: bool = False
    dice: int = 2
    walls: Walls = Walls.BUILT
    charleston: Charleston = Charleston.STANDARD
    blind_order: BlindOrder = BlindOrder.FEWEST_FIRST
    jokers: int = 8
    flowers: int = 8
    blanks: int = 0
    claim_window: ClaimWindow = ClaimWindow.EVERY_SEAT
    dead_hands: DeadHands = DeadHands.DECLARED
    dead_jokers: DeadJokers = DeadJokers.VALID_EXPOSURES
    exchange_self_pick: ExchangeSelfPick = ExchangeSelfPick.COMPLETING
    scoring: Scoring = Scoring.NMJL
    quarters_pot: bool = False
    pot_ante: int = 25
    pay_for_table: bool = False
    pay_for_table_exposures: int = 3
    wall_end: WallEnd = WallEnd.NORMAL
    wall_end_tiles: int = 20
    sets: int = 1
    claim_priority: ClaimPriority = ClaimPriority.NEAREST
    game_end: GameEnd = GameEnd.SECOND_MAHJONG
    payment: Payment = Payment.PAIRWISE
    ante: int = 25
    natural_quints: bool = True

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not 2 <= self.players <= 4:
            problems.append("a table has 2, 3 or 4 players")
        if self.racks not in (1, 2):
            problems.append("each player has 1 or 2 racks")
        if self.sets not in (1, 2):
            problems.append("a game uses 1 or 2 sets of tiles")
        if self.sets == 2 and not self.royale:
            problems.append("two sets are for the Royale-style game (3-4 players, two racks)")
        royale_only = {"another claim priority": self.claim_priority is not ClaimPriority.NEAREST,
                       "playing on after a second Mah Jongg": self.game_end is not
                       GameEnd.SECOND_MAHJONG,
                       "a pot": self.payment is not Payment.PAIRWISE,
                       "jokers required in quints": not self.natural_quints}
        chosen_royale = [name for name, on in royale_only.items() if on]
        if chosen_royale and not self.royale:
            problems.append(f"{' and '.join(chosen_royale)} only work in the Royale-style "
                            "game (3-4 players, two racks)")
        if self.ante < 1:
            problems.append("the ante is at least 1")
        if self.ante > MAX_ANTE:
            problems.append(f"the ante is at most {MAX_ANTE}")
        if self.racks == 1 and self.players == 2:
            problems.append("two players need two racks each (the Siamese-style game)")
        if self.scoring is Scoring.SIAMESE and self.racks != 2:
            problems.append("Siamese scoring needs two racks per player")
        if self.racks == 2 and self.scoring is not Scoring.SIAMESE:
            problems.append("a two-rack game is scored with the Siamese profile")
        if self.charleston is Charleston.STANDARD and self.players != 4:
            problems.append("the standard Charleston needs four players (it passes across)")
        hand = self.racks * HAND_TILES
        if self.dealer_draws_first:
            if not self.dealer_tiles == self.other_tiles == hand - 1:
                problems.append(f"when East draws first, every seat is dealt {hand - 1} tiles")
        elif self.dealer_tiles != hand or self.other_tiles != hand - 1:
            problems.append(f"East is dealt {hand} tiles and the others {hand - 1}")
        if not 0 <= self.dice <= 3:
            problems.append("the wall is broken with 1 to 3 dice, or none")
        if self.walls is Walls.NONE and self.dice:
            problems.append("without walls there is nothing to break: use no dice")
        if self.scoring is Scoring.TOURNAMENT and (self.walls is Walls.NONE or not self.dice):
            problems.append("tournament play builds walls and breaks them with the dice")
        money_only = {"the quarters pot": self.quarters_pot,
                      "paying for the table": self.pay_for_table,
                      "the hot wall": self.wall_end is WallEnd.HOT}
        chosen = [name for name, on in money_only.items() if on]
        if chosen and self.scoring is not Scoring.NMJL:
            problems.append(f"{' and '.join(chosen)} only work with nmjl (money) payments")
        if self.pot_ante < 1:
            problems.append("the pot's ante is at least 1")
        if self.pot_ante > MAX_ANTE:
            problems.append(f"the pot's ante is at most {MAX_ANTE}")
        if not 1 <= self.pay_for_table_exposures <= 4:
            problems.append("paying for the table starts at 1 to 4 exposures")
        if not 1 <= self.wall_end_tiles <= self.wall_size():
            problems.append("the last part of the wall is at least 1 tile, at most the set")
        if not 0 <= self.jokers <= 16 or not 0 <= self.flowers <= 16 or not 0 <= self.blanks <= 8:
            problems.append("a set holds 0-16 jokers, 0-16 flowers and 0-8 blanks")
        if self.jokers + self.blanks > 10:
            problems.append("with more than 10 jokers and blanks in a set a seat could be dealt "
                            "fewer than three tiles it may pass")
        if self.wall_size() < sum(self.deal_sizes()):
            problems.append("the set is too small to deal")
        if problems:
            raise InvalidInput("These rules don't fit together: " + "; ".join(problems) + ".")

    @property
    def royale(self) -> bool:
        """The Royale-style game: two racks each at three or four players."""
        return self.racks == 2 and self.players > 2

    @property
    def counts(self) -> tuple[int, ...]:
        """How many of each tile kind the game's tiles hold (every set together)."""
        one = standard_counts(jokers=self.jokers, flowers=self.flowers, blanks=self.blanks)
        return tuple(count * self.sets for count in one)

    def wall_size(self) -> int:
        """Tiles in the whole game (every set)."""
        return sum(self.counts)

    def deal_sizes(self) -> tuple[int, ...]:
        """Tiles dealt to each seat, East first."""
        return (self.dealer_tiles,) + (self.other_tiles,) * (self.players - 1)

    @property
    def hand_tiles(self) -> int:
        """Tiles a seat holds off its turn (13 per rack; 27 in the Siamese game)."""
        return self.racks * HAND_TILES - 1


STANDARD = RuleSet(name="American Mah Jongg (NMJL)")
TOURNAMENT = replace(STANDARD, name="Tournament", scoring=Scoring.TOURNAMENT)
THREE_PLAYER = RuleSet(name="3-player", players=3, charleston=Charleston.NONE)
SIAMESE = RuleSet(
    name="2-player (Siamese-style)", players=2, racks=2, dealer_tiles=27, other_tiles=27,
    dealer_draws_first=True, dice=1, charleston=Charleston.NONE, scoring=Scoring.SIAMESE,
)
ROYALE = RuleSet(
    name="4-player Royale-style", players=4, racks=2, sets=2, dealer_tiles=28,
    other_tiles=27, charleston=Charleston.NONE, scoring=Scoring.SIAMESE,
)
ROYALE_3 = replace(ROYALE, name="3-player Royale-style", players=3)

PRESETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    "tournament": TOURNAMENT,
    "3-player": THREE_PLAYER,
    "siamese": SIAMESE,
    "royale": ROYALE,
    "royale-3": ROYALE_3,
}


def preset(name: str) -> RuleSet:
    """A named rule set: `standard`, `tournament`, `3-player`, `siamese`, `royale` or
    `royale-3`."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        known = ", ".join(PRESETS)
        raise InvalidInput(
            f"I don't know the rules `{echo(name)}`. Choose one of: {known}.") from None


_WINDS_BY_PLAYERS = {
    4: ("East", "South", "West", "North"),
    3: ("East", "South", "West"),
    2: ("East", "West"),
}


def seat_names(players: int) -> tuple[str, ...]:
    """The wind each seat sits at, East (the dealer) first, in turn order.

    Play passes to the right; the two-player game seats the players facing each other.
    """
    return _WINDS_BY_PLAYERS[players]


#: The preset for each table size and number of racks per player.
_BY_TABLE = {(4, 1): "standard", (3, 1): "3-player", (2, 2): "siamese", (4, 2): "royale",
             (3, 2): "royale-3"}


def table_rules(players: int, scoring: Scoring | str | None = None,
                racks: int | None = None) -> RuleSet:
    """The rules for a table of `players` with `racks` racks each (by default one, and two
    at two players), with another scoring profile if one is named; a combination that cannot
    be played (Siamese scoring at four with one rack) raises `InvalidInput`."""
    if players not in (2, 3, 4):
        raise InvalidInput("A table has 2, 3 or 4 players.")
    racks = racks if racks is not None else (2 if players == 2 else 1)
    if (players, racks) not in _BY_TABLE:
        raise InvalidInput("Two players play with two racks each; three or four with one "
                           "rack, or two (Royale-style).")
    rules = PRESETS[_BY_TABLE[players, racks]]
    if scoring is None:
        return rules
    try:
        profile = Scoring(scoring)
    except ValueError:
        known = ", ".join(s.value for s in Scoring)
        raise InvalidInput(
            f"Scoring `{echo(str(scoring))}` doesn't exist; choose {known}.") from None
    named = next((r for r in PRESETS.values()
                  if r.players == players and r.racks == racks and r.scoring is profile), None)
    return named if named is not None else replace(rules, scoring=profile)


def rules_to_json(rules: RuleSet) -> str:
    """The rule set as JSON text (enums by value), for storing with a game."""
    data = {f.name: getattr(rules, f.name) for f in fields(rules)}
    return json.dumps({k: v.value if isinstance(v, Enum) else v for k, v in data.items()},
                      sort_keys=True)


def rules_from_json(text: str) -> RuleSet:
    """Read `rules_to_json` back; unknown or mistyped options raise `InvalidInput`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise InvalidInput("The stored rules are not valid JSON.") from None
    if not isinstance(data, dict):
        raise InvalidInput("The stored rules must be a JSON object.")
    known = {f.name: f for f in fields(RuleSet)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in known:
            raise InvalidInput(f"Unknown rule option `{echo(key)}`.")
        enum_type = _ENUM_FIELDS.get(key)
        plain_type = type(getattr(STANDARD, key))
        try:
            if enum_type is not None:
                values[key] = enum_type(value)
            elif isinstance(value, plain_type) and isinstance(value, bool) == (plain_type is bool):
                values[key] = value
            else:
                raise ValueError(value)
        except ValueError:
            raise InvalidInput(
                f"Rule option `{echo(key)}` can't be `{echo(str(value))}`.") from None
    return replace(STANDARD, **values)


_ENUM_FIELDS: dict[str, type[Enum]] = {
    "walls": Walls, "charleston": Charleston, "blind_order": BlindOrder,
    "claim_window": ClaimWindow, "dead_hands": DeadHands, "dead_jokers": DeadJokers,
    "exchange_self_pick": ExchangeSelfPick, "scoring": Scoring, "wall_end": WallEnd,
    "claim_priority": ClaimPriority, "game_end": GameEnd, "payment": Payment,
}


#: Options set by the table's size and preset, never by a house option.
_SIZE_FIELDS = ("name", "players", "racks")
#: Words that turn a yes/no option on or off (`quarters_pot=on`, `natural_quints=no`).
_YES = ("on", "yes", "true")
_NO = ("off", "no", "false")
#: Discord's limit on the choices an autocomplete may offer, and on each choice's length.
MAX_SUGGESTIONS = 25
MAX_SUGGESTION_LENGTH = 100


def house_option_names() -> tuple[str, ...]:
    """The options a table may set with `with_options`, in the order `RuleSet` lists them."""
    return tuple(f.name for f in fields(RuleSet) if f.name not in _SIZE_FIELDS)


def _allowed(key: str) -> str:
    """The values option `key` takes, as a person would type them."""
    enum_type = _ENUM_FIELDS.get(key)
    if enum_type is not None:
        return ", ".join(e.value for e in enum_type)
    if type(getattr(STANDARD, key)) is bool:
        return (f"`{key}` alone or {', '.join(_YES)} to turn it on; `no_{key}` or "
                f"{', '.join(_NO)} to turn it off")
    return "a whole number"


def _option_value(key: str, text: str) -> Any:
    """Option `key`'s value from its typed `text` (enum values, yes/no, whole numbers)."""
    wanted = text.strip().lower().replace("_", "-")
    enum_type = _ENUM_FIELDS.get(key)
    if enum_type is not None:
        by_value = {e.value: e for e in enum_type}
        if wanted in by_value:
            return by_value[wanted]
    elif type(getattr(STANDARD, key)) is bool:
        if wanted in _YES or wanted in _NO:
            return wanted in _YES
    elif re.fullmatch(r"-?[0-9]{1,18}", wanted):  # more digits than any option's value (and
        return int(wanted)                         # int() reads at most 4,300)
    raise InvalidInput(f"The house option `{key}` can't be `{echo(text)}`; it takes "
                       f"{_allowed(key)}.")


def _option_key(text: str) -> str:
    """The option a typed name stands for (hyphens and underscores alike, any case); a name
    that is not an option is refused with the closest ones."""
    key = text.strip().lower().replace("-", "_")
    names = house_option_names()
    if key in names:
        return key
    if key in _SIZE_FIELDS:
        raise InvalidInput(f"`{key}` is not a house option: the table's size (players, "
                           "racks) and its preset set it.")
    close = difflib.get_close_matches(key, names, n=3)
    hint = (f" Did you mean {' or '.join(f'`{n}`' for n in close)}?" if close else
            f" The options are: {', '.join(names)}.")
    raise InvalidInput(f"There is no house option `{echo(text)}`.{hint}")


def _option_words(text: str) -> list[str]:
    """The words of an option text: separated by spaces or commas, `name = value` read as
    one word."""
    return [w for w in re.split(r"[\s,]+", re.sub(r"\s*=\s*", "=", text.strip())) if w]


def with_options(rules: RuleSet, text: str) -> RuleSet:
    """`rules` with the house options typed in `text`, e.g. `quarters_pot pot_ante=50
    wall_end=cold walls=none dice=0 charleston=none` (see `house_option_names`).

    Words are separated by spaces or commas. A yes/no option is turned on by its name alone
    or `name=on|yes|true` and off by `no_name` or `name=off|no|false`; other options are
    `name=value`, enums by their value and counts as whole numbers; hyphens and underscores
    are alike and case does not matter. `walls=none` without a `dice` option also means no
    dice: without walls there is nothing for dice to break, so nobody should have to say so
    twice. Each mistake is one `InvalidInput` saying what was wrong and what is allowed; a
    combination the rule set refuses keeps its own message.
    """
    values: dict[str, Any] = {}
    for word in _option_words(text):
        name, has_value, value = word.partition("=")
        if not has_value:
            bare = name.lower().replace("-", "_")
            turned_off = bare.startswith("no_") and bare[3:] in house_option_names()
            key = _option_key(bare[3:] if turned_off else name)
            if type(getattr(STANDARD, key)) is not bool:
                raise InvalidInput(f"The house option `{key}` needs a value (`{key}=…`); it "
                                   f"takes {_allowed(key)}.")
            chosen: Any = not turned_off
        else:
            key = _option_key(name)
            chosen = _option_value(key, value)
        if key in values:
            raise InvalidInput(f"The house option `{key}` is given twice.")
        values[key] = chosen
    if values.get("walls") is Walls.NONE:
        values.setdefault("dice", 0)
    return replace(rules, **values)


def _option_text(key: str, value: Any) -> str:
    """One option as `with_options` reads it."""
    if isinstance(value, bool):
        return key if value else f"no_{key}"
    return f"{key}={value.value if isinstance(value, Enum) else value}"


def format_options(rules: RuleSet, base: RuleSet) -> str:
    """The options in which `rules` differs from `base`, as `with_options` reads them:
    `with_options(base, format_options(rules, base))` is `rules` again (but for its name)."""
    return " ".join(_option_text(key, getattr(rules, key)) for key in house_option_names()
                    if getattr(rules, key) != getattr(base, key))


def preset_of(rules: RuleSet) -> RuleSet | None:
    """The preset `rules` was made from (house options keep its name and table size), or
    None for a rule set made from no preset."""
    return next((value for value in PRESETS.values() if value.name == rules.name
                 and (value.players, value.racks) == (rules.players, rules.racks)), None)


def house_options(rules: RuleSet) -> str:
    """The options in which `rules` differs from its preset (`format_options`), as a lobby
    or a report shows them; empty for a preset itself or a rule set made from none."""
    base = preset_of(rules)
    return format_options(rules, base) if base is not None else ""


def suggest_options(text: str) -> list[str]:
    """Completions of an option text being typed: the text with its last word completed to
    an option (yes/no options on and off, every value of an enum option, a count option with
    the standard's value), at most `MAX_SUGGESTIONS`, none longer than Discord allows."""
    words = _option_words(text)
    last = "" if not words or text[-1:].isspace() or text.endswith(",") else words.pop()
    wanted = last.lower().replace("-", "_")
    done = "".join(f"{w} " for w in words)
    candidates: list[str] = []
    for key in house_option_names():
        value = getattr(STANDARD, key)
        enum_type = _ENUM_FIELDS.get(key)
        if isinstance(value, bool):
            candidates += [key, f"no_{key}"]
        elif enum_type is not None:
            candidates += [f"{key}={e.value}" for e in enum_type]
        else:
            candidates.append(f"{key}={value}")
    return [done + c for c in candidates
            if wanted in c.replace("-", "_") and len(done + c) <= MAX_SUGGESTION_LENGTH
            ][:MAX_SUGGESTIONS]
