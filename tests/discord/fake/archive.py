"""Threads that archive after their quiet period, on the fake's clock (`clock.Clock`).

What Discord documents (Threads, "Active & Archived Threads"), and what the fake does:

* A thread archives once it has been inactive for its `auto_archive_duration` (60, 1440, 4320
  or 10080 minutes). Activity is a message sent in it, unarchiving it, or changing the
  duration. Archiving is announced as THREAD_UPDATE with `thread_metadata.archived` true
  (discord.py then drops the thread from its cache, and takes it back on the THREAD_UPDATE
  that unarchives it).
* Sending a message unarchives the thread (THREAD_UPDATE again), unless a moderator locked it:
  then the message is refused with 400, code 50083 "Thread is archived".
* Nobody can edit messages, add reactions, use application commands or join an archived
  thread: the bot's edits, reactions and new thread members answer 50083, and the fake's
  users cannot run commands there. Deleting messages still works.
* Components on messages in an archived thread still send interactions (the documentation
  forbids application commands there, not components). An answer the whole thread would see
  (a message, a "thinking…" message, an update of a visible message) follows the rules
  above; an ephemeral answer is the clicker's alone and changes nothing about the thread
  (Discord neither counts it as activity nor unarchives for it).

A thread archives when the fake's clock is moved past its quiet period (`FakeDiscord.advance`)
or, lazily, when something is about to happen in it (a post, an edit, a user's message).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .gateway import Intent
from .models import Channel

if TYPE_CHECKING:
    from .server import FakeDiscord

#: Discord's error code for a change refused because the thread is archived.
THREAD_ARCHIVED = 50083


class Archiver:
    """When each thread was last active, on the fake's clock, and the archiving that follows."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        #: Thread id -> the fake's clock when it was last active.
        self.last_active: dict[int, float] = {}

    def active(self, thread: Channel) -> None:
        """Something happened in `thread` that starts its quiet period again."""
        self.last_active[thread.id] = self.fake.clock.now()

    def quiet_too_long(self, thread: Channel) -> bool:
        """An open thread whose quiet period is over (it archives when next looked at)."""
        since = self.last_active.get(thread.id)
        if since is None or thread.archived or thread.deleted:
            return False
        return self.fake.clock.now() - since >= thread.auto_archive_duration * 60

    def archived(self, channel: Channel) -> bool:
        """Whether `channel` is an archived thread, or one that archives when next looked at."""
        return channel.is_thread and (channel.archived or self.quiet_too_long(channel))

    async def settle(self, channel: Channel) -> None:
        """Archive `channel` now if it is a thread whose quiet period is over."""
        if self.quiet_too_long(channel):
            await self._set(channel, archived=True)

    async def sweep(self) -> None:
        """Archive every thread whose quiet period is over (after the clock moved)."""
        for channel in list(self.fake.channels.values()):
            await self.settle(channel)

    async def before_post(self, channel: Channel) -> bool:
        """A message the thread will show is about to be sent to `channel`: an archived
        thread is unarchived first. False if it must be refused (archived and locked)."""
        await self.settle(channel)
        if not (channel.is_thread and channel.archived):
            return True
        if channel.locked:
            return False
        await self._set(channel, archived=False)
        return True

    async def before_change(self, channel: Channel) -> bool:
        """Something in `channel` is about to be changed (an edit, a reaction, a member):
        False if it must be refused (it is an archived thread)."""
        await self.settle(channel)
        return not (channel.is_thread and channel.archived)

    async def _set(self, thread: Channel, *, archived: bool) -> None:
        thread.archived = archived
        if not archived:
            self.active(thread)
        self.fake.notify()
        await self.fake.gateway.dispatch(
            "THREAD_UPDATE", thread.payload(member_id=self.fake.bot.id), guild=thread.guild,
            intent=Intent.GUILDS)
