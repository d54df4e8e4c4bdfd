"""A server's settings in one place, as `/mj config` shows and changes them, and the defaults
they give a new table.

Every setting has a default, so a new server needs none: the default card (Jongg's), the
pace and its clocks (`DEFAULT_PACE`), the stand-in bot level (`bot.tables.levels`), the delay
before automatic answers (the table service's own, `DEFAULT_AUTO_DELAY` on Discord), whether
teaching tables are allowed (yes) and the main league's channel (none). A server manager
changes any of them, several at once; everything asked is checked before anything is stored,
so a bad value changes nothing, and the store keeps each change in the server's audit log
with who made it. A table takes the server's settings when it opens and keeps them (the
delay too: a change mid-game would tell the players something about the seats).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.engine.errors import IllegalAction, InvalidInput, echo
from bot.engine.game import RuleSet
from bot.server_cards import ResolvedCard, default_card, resolve_card, with_default_card
from bot.store import Database, GuildAuditEntry, GuildSettings, Pace
from bot.tables.levels import read_level, server_level
from bot.tables.options import PACES, TableOptions, Timeout
from bot.tables.standins import DEFAULT_STAND_IN_AFTER
from bot.tables.timekeeping import CLAIM_BOUNDS, TURN_BOUNDS, check_clock, format_duration

#: The pace of a server's new tables until a manager chooses one.
DEFAULT_PACE = "live"

#: The bounds of the delay before automatic answers a manager may set, in seconds: none, to
#: half a minute (longer would slow every claim window for nothing, since it must be the same
#: for every seat). The clocks' bounds are a table's own (`bot.tables.timekeeping`).
AUTO_DELAY_SECONDS = (0.0, 30.0)

REFUSED = ("Only server managers (the Manage Server permission) can change this server's "
           "settings. Ask one of them.")


@dataclass(frozen=True)
class ConfigChange:
    """What a manager asked to change; None leaves a setting as it is. `turn_seconds` and
    `claim_seconds` change the clocks of the default pace (of `pace`, when it is given too:
    choosing a pace starts from its own clocks). `reset` (a name of `SETTINGS`) puts that
    setting back to its default first."""

    card: str | None = None
    pace: str | None = None
    turn_seconds: int | None = None
    claim_seconds: int | None = None
    bot_level: str | None = None
    auto_delay: float | None = None
    teaching: bool | None = None
    league_channel_id: int | None = None
    reset: str | None = None

    @property
    def empty(self) -> bool:
        """Whether nothing was asked (the command then only shows the settings)."""
        return self == ConfigChange()

    @property
    def names(self) -> list[str]:
        """The settings asked to change, by their names in `SETTINGS`."""
        asked = {"card": self.card, "pace": self.pace or self.turn_seconds
                 or self.claim_seconds, "bot_level": self.bot_level,
                 "auto_delay": self.auto_delay, "teaching": self.teaching,
                 "league_channel": self.league_channel_id}
        return [name for name in SETTINGS if asked[name] is not None or name == self.reset]


@dataclass(frozen=True)
class ServerConfig:
    """A server's settings as its tables use them (each one's default where none is set),
    with, in `changes`, the audit entry that last set each one that is set (by the names of
    `SETTINGS`)."""

    card: str
    pace: Pace
    bot_level: str
    auto_delay: float
    teaching: bool
    league_channel_id: int | None
    changes: dict[str, GuildAuditEntry]


#: The settings `/mj config` shows, by name, with the fields of `GuildSettings` that hold
#: each one (the audit log's keys too; a reset clears them).
SETTINGS: dict[str, tuple[str, ...]] = {
    "card": ("shipped_card", "server_card_id"),
    "pace": ("pace",),
    "bot_level": ("bot_level",),
    "auto_delay": ("auto_delay",),
    "teaching": ("teaching",),
    "league_channel": ("league_channel_id",),
}


def read_pace(text: str) -> str:
    """The pace `text` names (case and spaces do not matter); `InvalidInput` naming the
    paces for anything else."""
    wanted = text.strip().lower()
    if wanted in PACES:
        return wanted
    raise InvalidInput(f"There is no pace `{echo(text)}`. Choose one of: {', '.join(PACES)}.")


def duration(seconds: float) -> str:
    """Seconds as clocks are written everywhere (`1m 30s`, `2h`, `bot.tables.timekeeping`);
    a fraction of a second as it is (`2.5s`, for the automatic answers' delay)."""
    return format_duration(seconds) if float(seconds).is_integer() else f"{seconds:g}s"


def pace_text(pace: Pace) -> str:
    """A pace and its clocks: `async (turns 24 h, claims 2 h)`; `untimed`."""
    clocks = [f"{what} {duration(seconds)}" for what, seconds in
              (("turns", pace.turn_seconds), ("claims", pace.claim_seconds)) if seconds]
    return f"{pace.name} ({', '.join(clocks)})" if clocks else pace.name


def _bounded(value: float, bounds: tuple[float, float], what: str) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise InvalidInput(f"{what} can be {duration(low)} to {duration(high)}; "
                           f"{value:g} seconds is out of range.")


def _pace(current: Pace, change: ConfigChange) -> Pace:
    """The default pace `change` makes of `current`, checked."""
    pace = current if change.pace is None else PACES[read_pace(change.pace)][0]
    for seconds, kind, bounds, what in (
            (change.turn_seconds, "turn", TURN_BOUNDS, "turn clock"),
            (change.claim_seconds, "claim", CLAIM_BOUNDS, "claim window")):
        if seconds is None:
            continue
        if pace.turn_seconds is None:
            raise InvalidInput(f"The {pace.name} pace has no clocks, so it takes no {kind} "
                               "seconds. Choose a timed pace with `pace:` first.")
        check_clock(seconds, bounds, what)
        pace = (replace(pace, turn_seconds=seconds) if kind == "turn"
                else replace(pace, claim_seconds=seconds))
    return pace


def server_pace(settings: GuildSettings) -> Pace:
    """The pace (with its clocks) of a server's new tables."""
    return settings.pace or PACES[DEFAULT_PACE][0]


async def change_settings(db: Database, guild_id: int, change: ConfigChange, by_user: int,
                          *, manager: bool) -> GuildSettings:
    """A server manager changes the settings `change` names, all at once and only if every
    one is good (`InvalidInput` saying what is wrong otherwise, and nothing changes); the
    store keeps the change in the server's audit log. Anyone else is refused."""
    if not manager:
        raise IllegalAction(REFUSED)
    settings = await db.guilds.settings(guild_id)
    if change.reset is not None:
        if change.reset not in SETTINGS:
            raise InvalidInput(f"There is no setting `{echo(change.reset)}`. Choose one of: "
                               f"{', '.join(SETTINGS)}.")
        settings = replace(settings, **dict.fromkeys(SETTINGS[change.reset]))
    if change.card is not None:
        settings = with_default_card(settings, await resolve_card(db, guild_id, change.card))
    if change.pace is not None or change.turn_seconds is not None \
            or change.claim_seconds is not None:
        settings = replace(settings, pace=_pace(server_pace(settings), change))
    if change.bot_level is not None:
        settings = replace(settings, bot_level=read_level(change.bot_level))
    if change.auto_delay is not None:
        _bounded(change.auto_delay, AUTO_DELAY_SECONDS, "The automatic answers' delay")
        settings = replace(settings, auto_delay=float(change.auto_delay))
    if change.teaching is not None:
        settings = replace(settings, teaching=change.teaching)
    if change.league_channel_id is not None:
        settings = replace(settings, league_channel_id=change.league_channel_id)
    return await db.guilds.set_settings(guild_id, settings, by_user=by_user)


def changed_settings(before: GuildSettings, after: GuildSettings) -> list[str]:
    """The settings (names of `SETTINGS`) whose stored values differ between `before` and
    `after`: what a change really changed, which may be less than it asked (a value set to
    what it already was)."""
    return [name for name, keys in SETTINGS.items()
            if any(getattr(before, key) != getattr(after, key) for key in keys)]


async def server_config(db: Database, guild_id: int, auto_delay: float) -> ServerConfig:
    """The server's settings as its new tables use them (`auto_delay`: the delay of a server
    that has set none), and who last set each one that is set."""
    settings = await db.guilds.settings(guild_id)
    latest = await db.guilds.latest_changes(guild_id)
    card = await default_card(db, guild_id)
    changes = {}
    for name, keys in SETTINGS.items():
        is_set = any(getattr(settings, key) is not None for key in keys)
        entries = [latest[key] for key in keys if key in latest]
        if is_set and entries:
            changes[name] = max(entries, key=lambda entry: entry.id)
    return ServerConfig(
        card=card.name, pace=server_pace(settings), bot_level=server_level(settings),
        auto_delay=auto_delay if settings.auto_delay is None else settings.auto_delay,
        teaching=teaching_allowed(settings), league_channel_id=settings.league_channel_id,
        changes=changes)


def teaching_allowed(settings: GuildSettings) -> bool:
    """Whether the server allows teaching tables (it does until a manager says no)."""
    return settings.teaching is not False


def new_table_options(settings: GuildSettings, rules: RuleSet, card: ResolvedCard, *,
                      pace: str | None = None, hints: bool = True,
                      timeout: Timeout = Timeout.PASS, teaching: bool = False,
                      turn: str | None = None, claim: str | None = None,
                      quiet_hours: bool | None = None, vacations: bool = False,
                      stand_in_after: int = DEFAULT_STAND_IN_AFTER) -> TableOptions:
    """How a table opened on this server plays: what the command said, and the server's
    settings for what it did not (its pace with that pace's clocks, its delay before
    automatic answers). A pace the command names plays at that pace's own clocks; `turn`
    and `claim` (as typed, checked by `TableOptions.clocks`) set the table's own."""
    if pace is None:
        chosen = server_pace(settings)
        clocks: Pace | None = chosen
    else:
        chosen, clocks = PACES[read_pace(pace)][0], None
    return TableOptions(rules, card.name, card.text, pace=chosen.name, hints=hints,
                        timeout=timeout, server_card_id=card.card_id, base_clocks=clocks,
                        auto_delay=settings.auto_delay, teaching=teaching, turn=turn,
                        claim=claim, quiet_hours=quiet_hours, vacations=vacations,
                        stand_in_after=stand_in_after)
