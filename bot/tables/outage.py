"""Riding out a database that can't be reached for a while.

What must keep going through an outage (each game's sender, the clock loop) meets the
store's `DatabaseUnavailable`, waits and tries again until the database answers. They share
one `Outage` per table service, which says how long to wait before each try (the service's
backoff, up to `OUTAGE_CAP`) and tells the log once when the database goes and once when it
is back, however many of them retry meanwhile: a long outage is two lines, not one a retry.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from bot.store import DatabaseUnavailable

if TYPE_CHECKING:
    from bot.tables.delivery import Backoff

log = logging.getLogger(__name__)

#: Longest wait between two tries at a database that can't be reached: once it is back,
#: what waited goes on within this many seconds.
OUTAGE_CAP = 5.0


class Outage:
    """Whether the database is out of reach, as the service's retrying work last found it
    (see the module's docstring)."""

    def __init__(self, backoff: Backoff) -> None:
        self.backoff = backoff
        #: When (`time.monotonic`) the outage began; None while the database answers.
        self.since: float | None = None

    def delay(self, tries: int) -> float:
        """The wait before trying again after `tries` failed tries in a row."""
        return min(OUTAGE_CAP, self.backoff.delay(tries, None))

    @property
    def down(self) -> bool:
        """Whether the last try found the database out of reach."""
        return self.since is not None

    def failed(self, error: DatabaseUnavailable) -> None:
        """A try met `error`; the first since the database last answered is logged."""
        if self.since is None:
            self.since = time.monotonic()
            log.warning("database unavailable, retrying until it is back: %s", error.message)

    def answered(self) -> None:
        """A try went through; the first after an outage is logged."""
        if self.since is not None:
            log.info("database back after %.1f s; carrying on",
                     time.monotonic() - self.since)
            self.since = None
