"""Pointing discord.py at a fake Discord, in this process or another one.

A `FakeDiscord` points discord.py at itself while it runs (`FakeDiscord.start`). A bot in
another process (the way `jongg bench discord` runs it: the fake and the simulated people in a
child process, the bot alone in its own) needs the same three class attributes pointed at the
fake's `Address`, which the fake's process hands over:

    address = fake.address                       # in the fake's process
    saved = point_discord(address)               # in the bot's process
    ...                                          # client.login(address.token), connect()
    point_discord(saved)                         # put back what was there
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Address:
    """Where discord.py finds Discord: the REST base, the gateway and the CDN, the bot
    token the fake accepts, and the app's public key (hex) that signs the interactions it
    posts to an Interactions Endpoint URL (for a worker in another process). Plain strings,
    so it crosses a process boundary."""

    api_base: str
    gateway_url: str
    cdn_base: str
    token: str = ""
    public_key: str = ""


def discord_address() -> Address:
    """Where discord.py in this process looks for Discord now."""
    from discord.asset import Asset
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    return Address(Route.BASE, str(DiscordWebSocket.DEFAULT_GATEWAY), Asset.BASE)


def point_discord(address: Address) -> Address:
    """Point discord.py's REST base, default gateway and CDN base (process-wide class
    attributes) at `address`; returns where they pointed before, to point them back."""
    import yarl
    from discord.asset import Asset
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    before = discord_address()
    Route.BASE = address.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(address.gateway_url)
    Asset.BASE = address.cdn_base
    return before
