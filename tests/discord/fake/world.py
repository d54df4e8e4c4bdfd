"""A small standard world for tests: one guild, two text channels, four players.

`build_world(fake)` creates it on a fresh fake (before the bot connects); `World` names its
parts. The `fake_discord` fixture builds it; the `world` fixture hands it to tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Channel, Guild, User
from .server import FakeDiscord


@dataclass(frozen=True)
class World:
    guild: Guild
    general: Channel
    tables: Channel
    alice: User
    bob: User
    carol: User
    dave: User

    @property
    def players(self) -> tuple[User, User, User, User]:
        return (self.alice, self.bob, self.carol, self.dave)


def build_world(fake: FakeDiscord, *, shard: int | None = None) -> World:
    """The standard world; `shard`: its guild is on that shard of `fake.shards`."""
    guild = fake.add_guild("Jongg Test Hall", shard=shard)
    general = fake.add_channel(guild, "general")
    tables = fake.add_channel(guild, "mahjong-tables")
    players = [fake.add_user(name, global_name=name.title())
               for name in ("alice", "bob", "carol", "dave")]
    for player in players:
        fake.add_member(guild, player)
    alice, bob, carol, dave = players
    return World(guild, general, tables, alice, bob, carol, dave)
