"""An app's Interactions Endpoint URL: interactions sent as signed HTTP POSTs.

What Discord documents ("Receiving and Responding", "Security and Authorization"):

* Saving the URL (`await fake.set_interactions_endpoint(url, ...)`) sends it a PING; the URL
  is refused (`EndpointRefused`) unless it answers 200 with `{"type": 1}`, and unless it
  refuses a request whose signature is wrong with 401 (Discord checks that too).
* Once a URL is set, interactions are no longer sent over the gateway ("mutually
  exclusive"): each is POSTed to the URL with `X-Signature-Ed25519` (hex Ed25519 signature
  of the timestamp followed by the body) and `X-Signature-Timestamp`, signed with the
  fake's key; `fake.public_key` is the key's public half, hex, for the bot's
  `DISCORD_PUBLIC_KEY`. Several URLs take the POSTs in turn, as a reverse proxy in front
  of several workers would (the Developer Portal takes one URL).
* The response to the POST is the first answer. It is checked as the callback endpoint
  checks one (schema, type, permissions), and the callback endpoint refuses an interaction
  sent over HTTP ("only valid for Interactions received over the gateway"). No answer
  within 3 seconds, a status other than 200 or an answer Discord refuses: the interaction
  failed, as the user sees it ("This interaction failed"; `InteractionFailed`).

Every POST is recorded in `fake.endpoint.posts` (`EndpointPost`).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
from nacl.signing import SigningKey

from .interactions import FakeInteraction
from .models import JSON
from .rest import DiscordHTTPError
from .schema import RequestSchema

if TYPE_CHECKING:
    from .server import FakeDiscord

SIGNATURE = "X-Signature-Ed25519"
TIMESTAMP = "X-Signature-Timestamp"
CALLBACK_ROUTE = "/interactions/{interaction_id}/{token}/callback"


class EndpointRefused(ValueError):
    """The Developer Portal would not save this Interactions Endpoint URL."""


@dataclass(eq=False)
class EndpointPost:
    """One POST to an Interactions Endpoint URL and what came back."""

    url: str
    #: The interaction posted (None: one of the checks made when the URL was set).
    interaction: FakeInteraction | None
    #: The HTTP status (None: no answer in time, or no connection).
    status: int | None = None
    answer: JSON | None = None
    #: Why the answer did not count (None: it did).
    problem: str | None = None
    at: float = field(default_factory=time.monotonic)


class Endpoint:
    """The app's Interactions Endpoint URL(s), the key that signs the POSTs, and the POSTs."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.key = SigningKey.generate()
        self.urls: list[str] = []
        self.posts: list[EndpointPost] = []
        self._turn = 0
        self._session: aiohttp.ClientSession | None = None
        self._deliveries: set[asyncio.Task[None]] = set()

    @property
    def public_key(self) -> str:
        """The app's public key as the Developer Portal shows it (64 hex characters)."""
        return bytes(self.key.verify_key).hex()

    @property
    def url(self) -> str | None:
        """The URL the application's record shows (the first, if several take turns)."""
        return self.urls[0] if self.urls else None

    def sign(self, timestamp: str, body: bytes) -> str:
        """The signature Discord puts in `X-Signature-Ed25519`."""
        return self.key.sign(timestamp.encode() + body).signature.hex()

    async def post(self, url: str, payload: JSON, *, timeout: float,
                   interaction: FakeInteraction | None = None,
                   forged: bool = False) -> EndpointPost:
        """POST `payload` to `url`, signed (with a wrong signature if `forged`), and wait
        up to `timeout` seconds for the answer."""
        body = json.dumps(payload).encode()
        timestamp = str(int(time.time()))
        signature = self.sign(timestamp, body)
        if forged:
            signature = self.sign(timestamp, body + b" ")
        post = EndpointPost(url, interaction)
        self.posts.append(post)
        if self._session is None:
            self._session = aiohttp.ClientSession()
        try:
            async with self._session.post(
                    url, data=body, timeout=aiohttp.ClientTimeout(total=max(timeout, 0.0)),
                    headers={"Content-Type": "application/json", SIGNATURE: signature,
                             TIMESTAMP: timestamp}) as response:
                post.status = response.status
                text = await response.text()
                if response.status == 200:
                    post.answer = json.loads(text)
        except TimeoutError:
            post.problem = f"no answer within {timeout:.1f} s"
        except (aiohttp.ClientError, ValueError) as error:
            post.problem = f"{type(error).__name__}: {error}"
        self.fake.notify()
        return post

    async def set(self, urls: tuple[str, ...]) -> None:
        """Save `urls` as the app's Interactions Endpoint URL, after Discord's checks."""
        for url in urls:
            ping = {"id": str(self.fake.ids.next()), "type": 1, "version": 1,
                    "application_id": str(self.fake.application_id), "token": "ping"}
            answered = await self.post(url, ping, timeout=self.fake.interaction_ack_timeout)
            if answered.status != 200 or answered.answer != {"type": 1}:
                raise EndpointRefused(f"{url} did not answer a PING with a PONG: "
                                      f"{answered.status} {answered.answer} "
                                      f"{answered.problem or ''}")
            forged = await self.post(url, ping, timeout=self.fake.interaction_ack_timeout,
                                     forged=True)
            if forged.status != 401:
                raise EndpointRefused(f"{url} did not refuse a bad signature with 401 (it "
                                      f"answered {forged.status} {forged.answer})")
        self.urls = list(urls)

    def deliver(self, interaction: FakeInteraction) -> None:
        """POST `interaction` to the next URL; its answer takes effect when it comes."""
        url = self.urls[self._turn % len(self.urls)]
        self._turn += 1
        interaction.endpoint = url
        task = asyncio.create_task(self._deliver(url, interaction), name="fake: endpoint")
        interaction.posting = task
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _deliver(self, url: str, interaction: FakeInteraction) -> None:
        post = await self.post(url, interaction.payload, interaction=interaction,
                               timeout=interaction.deadline - time.monotonic())
        if post.answer is None:
            post.problem = post.problem or f"answered {post.status}"
            return
        problems = RequestSchema.of("POST", CALLBACK_ROUTE).problems(post.answer, {})
        if problems:
            post.problem = f"refused: {problems}"
            return
        try:
            await self.fake.rest.respond(interaction, post.answer, [])
        except DiscordHTTPError as error:
            post.problem = f"refused: {error}"

    async def close(self) -> None:
        """Stop the POSTs under way and close the HTTP client."""
        for task in list(self._deliveries):
            task.cancel()
        await asyncio.gather(*self._deliveries, return_exceptions=True)
        if self._session is not None:
            await self._session.close()
            self._session = None
