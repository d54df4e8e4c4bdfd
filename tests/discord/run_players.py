"""People playing through the fake Discord against `jongg run` processes they can't see
into (`jongg_process.py`): each person acts only on what Discord shows them, and the store
(the one the processes share) says which of their moves went through."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from controls import custom_ids, first_choice
from fake import FakeDiscord, Message, Perm, User, World

from bot.store import Database
from tests.slowness import Deadline

#: Seconds the automatic answers wait on these servers: short, so the AUTO clocks (a
#: claim window passed for a seat that can't call) fire often during the test.
AUTO_DELAY = 0.3
#: How long a player may wait for their next move to be possible (a quiet machine's seconds:
#: see `tests/slowness.py`).
PATIENCE = 60.0


def _of_game(message: Message, prefix: str, game_id: int) -> bool:
    return any(c.startswith(f"{prefix}{game_id}:") or c == f"{prefix}{game_id}"
               for c in custom_ids(message, prefix))


class Player:
    """One person at one table, playing through what Discord shows them only (the processes
    are out of reach): their newest DM prompt's first option, else Pass on the table's
    newest claim post. Counts the moves that went through each way (the DM clicks reach
    shard 0's process, the table's posts their server's)."""

    def __init__(self, fake: FakeDiscord, db: Database, user: User, game_id: int,
                 thread_id: int) -> None:
        self.fake, self.db, self.user = fake, db, user
        self.game_id, self.thread_id = game_id, thread_id
        #: Moves made by a DM prompt the person was told went through ("You chose …").
        self.by_dm = 0
        #: Passes made on the table's claim posts that the store then had.
        self.by_post = 0

    async def moves(self) -> int:
        """The moves the store has from this person at this game."""
        return sum(1 for a in await self.db.actions.actions(self.game_id)
                   if a.actor_user_id == self.user.id)

    async def over(self) -> bool:
        return (await self.db.games.game(self.game_id)).status.is_over

    async def play(self, count: int, *, dm_only: bool = False) -> None:
        """Make `count` more moves (as the store counts them), or play until the game is
        over. `dm_only`: never click the table's posts (their server's process is down, or
        the claim windows are left to the clocks)."""
        goal = await self.moves() + count
        await self.play_until(lambda: self._reached(goal), dm_only=dm_only)

    async def _reached(self, goal: int) -> bool:
        return await self.moves() >= goal

    async def play_until(self, done: Callable[[], Awaitable[bool]], *,
                         dm_only: bool = False) -> None:
        """Play until `done` says so (or the game is over). Fails once the person has
        made no move for `PATIENCE` seconds: a long stretch of moves (claim windows left to
        their clocks) may take longer in all on a busy machine, and still be moving; and a
        busy machine stretches the patience itself."""
        deadline = Deadline(PATIENCE)
        made = await self.moves()
        while not await done() and not await self.over():
            if (now_made := await self.moves()) > made:
                made, deadline = now_made, Deadline(PATIENCE)
            assert not deadline.passed(), (
                f"{self.user.username} could not move for {deadline.describe()}\n"
                f"{self.fake.transcript()}")
            if not await self._try_prompt() and not dm_only:
                await self._try_pass()
            await asyncio.sleep(0.05)

    async def click_prompt(self) -> str | None:
        """Pick the first option of the newest DM prompt; returns what the bot answered
        (None: no prompt yet). A move that went through ("You chose …") is counted."""
        prompts = [m for m in self.fake.dms(self.user)
                   if m.author is self.fake.bot and (_of_game(m, "jg:a:", self.game_id)
                                                     or _of_game(m, "jg:d:", self.game_id)
                                                     or _of_game(m, "jg:g:", self.game_id))]
        if not prompts:
            return None
        prompt = prompts[-1]
        custom_id, values = first_choice(prompt)
        handle = await (self.fake.click(self.user, prompt, custom_id) if values is None
                        else self.fake.select(self.user, prompt, custom_id, values))
        answer = await handle.reply(timeout=20)
        if answer.content.startswith("You chose"):
            self.by_dm += 1
        return answer.content

    async def _try_prompt(self) -> bool:
        answer = await self.click_prompt()
        return answer is not None and answer.startswith("You chose")

    async def click_pass(self) -> str | None:
        """Press Pass on the table's newest claim post; returns what the bot answered (None:
        no such post). Not counted: `play` counts the passes the store then has."""
        posts = [m for m in self.fake.messages_in(self.fake.channels[self.thread_id])
                 if _of_game(m, "jg:p:", self.game_id)]
        if not posts:
            return None
        passing = custom_ids(posts[-1], f"jg:p:{self.game_id}:")[0]
        handle = await self.fake.click(self.user, posts[-1], passing)
        return (await handle.reply(timeout=20)).content

    async def _try_pass(self) -> None:
        posts = [m for m in self.fake.messages_in(self.fake.channels[self.thread_id])
                 if _of_game(m, "jg:p:", self.game_id)]
        if posts:
            passing = custom_ids(posts[-1], f"jg:p:{self.game_id}:")[0]
            before = await self.moves()
            await (await self.fake.click(self.user, posts[-1], passing)).acked(timeout=20)
            if await self.moves() > before:
                self.by_post += 1


async def quick_answers(fake: FakeDiscord, world: World, manager: User) -> None:
    """`manager` (given the right to) makes the server's automatic answers wait briefly."""
    role = fake.add_role(world.guild, "Managers", int(Perm.MANAGE_GUILD))
    world.guild.member(manager).roles.append(role)
    done = await fake.slash(manager, world.general, "mj config", {"auto_delay": AUTO_DELAY})
    assert (await done.reply(timeout=20)).content.startswith("Changed:")
