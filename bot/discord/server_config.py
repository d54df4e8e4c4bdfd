"""`/mj config` as people read it: the server's settings, each with its value and where it
comes from (who set it and when, or that it is the default), and the recent changes from the
audit log. The settings themselves are `bot.tables.server_config`; this module only words
them. Mentions in these texts name people without pinging them (`NO_MENTIONS`)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.tables.levels import level_label
from bot.tables.options import Pace
from bot.tables.server_config import ServerConfig, duration, pace_text
from bot.tables.servers import GuildAuditEntry

#: The names of the settings as shown, by `bot.tables.server_config.SETTINGS` name, with the
#: option of `/mj config` that changes each.
LABELS: dict[str, tuple[str, str]] = {
    "card": ("Default card", "card"),
    "pace": ("Default pace", "pace, turn_seconds, claim_seconds"),
    "bot_level": ("Stand-in bot level", "bot_level"),
    "auto_delay": ("Automatic answers wait", "auto_delay"),
    "teaching": ("Teaching tables", "teaching"),
    "league_channel": ("League channel", "league_channel"),
}

#: How many audit entries `history:True` shows, at most, and the length they must fit in
#: (room left under Discord's 2000-character message limit).
HISTORY_ENTRIES = 10
MESSAGE_LIMIT = 1900


def _when(at: float) -> str:
    return f"<t:{int(at)}:f>"


def _source(entry: GuildAuditEntry | None) -> str:
    if entry is None:
        return "default"
    return f"set by <@{entry.actor_user_id}> on {_when(entry.at)}"


def config_text(config: ServerConfig, *, changed: Sequence[str] | None = None) -> str:
    """Every setting with its value and its source; `changed` (setting names, None when no
    change was asked) are the ones the command just changed, said first, or that it changed
    nothing (every value asked was the setting's already)."""
    channel = config.league_channel_id
    values = {
        "card": config.card,
        "pace": pace_text(config.pace),
        "bot_level": level_label(config.bot_level),
        "auto_delay": duration(config.auto_delay),
        "teaching": "allowed" if config.teaching else "not allowed",
        "league_channel": "none" if channel is None else f"<#{channel}>",
    }
    lines = []
    if changed:
        lines.append("Changed: " + ", ".join(LABELS[name][0].lower() for name in changed)
                     + ". A table keeps the settings it opened with.")
    elif changed is not None:
        lines.append("Nothing changed: those were the settings already.")
    lines.append("**This server's settings** (server managers change them with the options "
                 "of `/mj config`; `history:True` shows the changes):")
    for name, (label, option) in LABELS.items():
        lines.append(f"• {label}: **{values[name]}** ({_source(config.changes.get(name))}; "
                     f"`{option}`)")
    return "\n".join(lines)


def _value(key: str, value: object) -> str:
    """One audited setting's value, as people read it."""
    if value is None:
        return "default"
    if key == "pace" and isinstance(value, dict):
        return pace_text(Pace(str(value["name"]), value.get("turn_seconds"),
                              value.get("claim_seconds")))
    if key == "league_channel_id":
        return f"<#{value}>"
    if key == "server_card_id":
        return f"server card #{value}"
    if key == "auto_delay" and isinstance(value, int | float):
        return duration(float(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def history_text(entries: Sequence[GuildAuditEntry]) -> str:
    """The newest changes of the server's settings: when, who, and each setting's value
    before and after."""
    if not entries:
        return "Nobody has changed this server's settings yet: each is at its default."
    lines = ["**The latest changes of this server's settings**, newest first:"]
    for entry in entries:
        before, after = json.loads(entry.before), json.loads(entry.after)
        what = "; ".join(f"{key.replace('_', ' ')}: {_value(key, before.get(key))} → "
                         f"{_value(key, after[key])}" for key in after)
        line = f"• {_when(entry.at)} <@{entry.actor_user_id}>: {what}"
        if sum(len(kept) + 1 for kept in lines) + len(line) > MESSAGE_LIMIT:
            break
        lines.append(line)
    return "\n".join(lines)
