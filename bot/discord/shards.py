"""Which of the bot's Discord shards a process runs, and so which servers are its own.

Discord splits a bot's servers into shards: a server's events (its slash commands and clicks
among them) go to shard `(guild_id >> 22) % shard_count`, and DMs to shard 0. A process that
runs some of the shards hears only from their servers, so it is the one to resume their games
and fire their clocks at start-up: `ShardPlan.owns` is the one test of "is this server mine".

One shard (the default) is the bot as it always ran: one process, every server. Nothing here
imports discord: the table service takes `owns` as a plain function.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.errors import InvalidInput


def shard_of(guild_id: int, count: int) -> int:
    """The shard of `count` that Discord sends this server's events to."""
    return (guild_id >> 22) % count


@dataclass(frozen=True)
class ShardPlan:
    """This process runs shards `ids` of `count` (ids in increasing order)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    @property
    def sharded(self) -> bool:
        """Whether the bot has more than one shard (then discord.py's AutoShardedClient
        connects them; with one, the plain client, exactly as before shards)."""
        return self.count > 1

    @property
    def shares(self) -> bool:
        """Whether other processes run some of the bot's shards (then this one counts its
        requests against the bot token's limits with theirs, `bot.discord.pacing`)."""
        return len(self.ids) < self.count

    @property
    def syncs_commands(self) -> bool:
        """Whether this process registers the slash commands: the one with shard 0 (DMs'
        shard), so a bot of several processes registers them once, not once a process."""
        return 0 in self.ids

    def owns(self, guild_id: int) -> bool:
        """Whether this server's events come to this process (its games are this
        process's to resume and to time)."""
        return shard_of(guild_id, self.count) in self.ids

    def share(self, limit: int) -> int:
        """This process's part of a budget the bot's processes share (Discord's global
        rate limit) when they cannot count it together (no database server between them),
        in proportion to its shards: the parts of every shard's process add up to at most
        `limit`. At least 1, so a process can always make a request."""
        return max(1, limit * len(self.ids) // self.count)

    def describe(self) -> str:
        """The plan in a log line's words."""
        if not self.sharded:
            return "one shard"
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"


#: The default: one process with the bot's one shard.
ONE_SHARD = ShardPlan()


def parse_shard_plan(count: int | None, ids: str | None) -> ShardPlan:
    """The plan `jongg run --shards COUNT --shard-ids IDS` asks for (None: not given), or
    `InvalidInput` saying what is wrong before anything connects."""
    if count is None:
        if ids is not None:
            raise InvalidInput("--shard-ids needs --shards: say how many shards the bot has "
                               "in all, e.g. --shards 4 --shard-ids 0,1.")
        return ONE_SHARD
    if count < 1:
        raise InvalidInput(f"--shards must be at least 1 (got {count}).")
    if ids is None:
        return ShardPlan(count, tuple(range(count)))
    chosen: list[int] = []
    for part in ids.split(","):
        text = part.strip()
        if not text.isdigit():
            raise InvalidInput(f"--shard-ids takes shard numbers separated by commas, such as "
                               f"0,1 (got {ids!r}).")
        shard = int(text)
        if shard >= count:
            raise InvalidInput(f"there is no shard {shard} of {count}: with --shards {count} "
                               f"the shards are 0 to {count - 1}.")
        if shard in chosen:
            raise InvalidInput(f"shard {shard} is named twice in --shard-ids {ids}.")
        chosen.append(shard)
    return ShardPlan(count, tuple(sorted(chosen)))


def split_shards(count: int, processes: int) -> list[ShardPlan]:
    """`count` shards dealt out to `processes` processes as evenly as can be (the first
    ones get one more when it does not divide), each process a run of consecutive shards."""
    if processes < 1:
        raise InvalidInput(f"--processes must be at least 1 (got {processes}).")
    if processes > count:
        raise InvalidInput(f"{processes} processes need at least {processes} shards (each "
                           f"process runs at least one); --shards is {count}.")
    plans = []
    start = 0
    for index in range(processes):
        size = count // processes + (index < count % processes)
        plans.append(ShardPlan(count, tuple(range(start, start + size))))
        start += size
    return plans
