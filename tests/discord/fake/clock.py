"""The fake's clock: real time plus whatever the test has skipped.

Some of Discord's rules play out over minutes or days (an interaction token lasts 15 minutes,
a quiet thread archives after an hour to a week); a test cannot wait that long. So the fake
keeps one clock for them, which runs with real time and which a test moves forward at once:

    await fake.advance(24 * 3600)        # a day passes for the fake's tokens and threads

Only what is measured in minutes reads it, and the rate limits' windows (`ratelimits`): a
skip can only end those early, as the time would have. The 3-second answer to an interaction
keeps real time (`time.monotonic`): the bot must still meet it as it runs, so a test that
skips a day cannot make an answer the bot gave on time late. Message ids and timestamps keep
real time too: the bot's own clocks are not the fake's to move.
"""

from __future__ import annotations

import time


class Clock:
    """Seconds, like `time.monotonic()`, plus every `advance` so far."""

    def __init__(self) -> None:
        #: Seconds skipped by `advance`, in all.
        self.skipped = 0.0

    def now(self) -> float:
        """The fake's time now (a monotonic reading: compare it only with its own)."""
        return time.monotonic() + self.skipped

    def advance(self, seconds: float) -> None:
        """Move the clock `seconds` forward at once."""
        if seconds < 0:
            raise ValueError("the fake's clock only goes forward")
        self.skipped += seconds
