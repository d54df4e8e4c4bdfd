"""The leak watch: after every step of a game played through the fake Discord, everything the
bot has shown anyone since the last look is checked against what that person may know.

What a reader may know (the knowledge model), kept per physical tile from the watch's own
replay of the stored log (the engine, not the service, is the oracle):

* everyone (the thread, the channel, a server member at no seat): every tile that has been
  face up, per copy (discards, exposures, laid-out hands), and the groups it was seen in;
* a seated person, besides: every tile their rack holds or ever held (so the tiles passed to
  them too), and each of their racks as it was at every step;
* a person's own typing: the tiles they wrote into a command's tile options (`/analyze`,
  `/mj discard`); what they type into other options (a house rule `jokers=8`) is no tile.

What is checked, in every version of every message the bot sent (content, embeds, button
labels, placeholders, menu entries with their descriptions and values, file names, text
attachments decoded) and every autocomplete answer:

* tile names (`3 Bam`, `North`) and codes (`3B`, `1123B`, `NN`): a run of them naming a kind
  more often than the reader may know copies of it is a leak, and a run of two or more tiles
  must be a part of one group the reader knows (one of their racks, an exposure, a laid-out
  group, something they typed): a line saying which tiles another seat holds fails even
  when every one of those kinds has been face up somewhere; a word followed by `=` is the
  name of an option (`Jokers=8`, `from=East`), not a tile;
* menus of tiles (the discard and pass menus, the discard autocomplete) are such runs, and
  must come from the reader's rack;
* pictures: a table picture must be the spectator's, a result picture the spectator's
  result, a rack or hint picture the one drawn from the reader's own view (and the hint's
  text too), an analysis the one of the tiles the reader typed; any other picture fails;
  every picture carries alt text (its attachment description), and a game's picture the
  words said from that same scene, so they tell no more than the picture;
* `/mj replay` while the game is played: no seed, and every line an event in the form anyone
  at the table sees; once it is over, exactly the stored log with its seed.

Problems are collected over one look and raised together as one `AssertionError`; what was
looked at is not looked at again, so a test can plant a leak, see it fail, and play on.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import gzip
import io
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from fake import FakeInteraction, Message, User
from fake import walk_components as _walk

from bot.analysis import read_hand, typed_hand
from bot.discord.components import hint_reply
from bot.discord.lookups import analysis_reply
from bot.engine.errors import MahjongError
from bot.engine.game import GameState, Phase, View, apply, parse_action, parse_event, public
from bot.engine.game import view as seat_view
from bot.engine.game.view import spectator_view
from bot.engine.tiles import NUM_KINDS, parse_tiles, tile_name
from bot.scenes import result_scene, seat_rack_scene, table_scene
from bot.server_cards import playable_matcher, resolve_card
from bot.store import Game
from bot.tables.narrate import headline
from bot.tables.notifier import Table
from bot.tables.replay import replay_stored
from renderer import render_rack, render_result, render_table
from renderer.alt import describe_rack, describe_result, describe_table

if TYPE_CHECKING:
    from jongg_table import JonggTable

# -- tiles in text ------------------------------------------------------------------------

_WIND = r"(?:North|East|West|South)"
#: Winds that name seats, not tiles: "Alice (East)", "East: @Alice" in the lobby, the score
#: sheet's "East pays West …", "East's two hands …", "East threw …", and `from=East`.
_SEAT_WIND = re.compile(rf"\({_WIND}\)|^{_WIND}:|\b{_WIND}(?= pays| threw| scores|'s|=)"
                        rf"|(?<=pays ){_WIND}\b|(?<==){_WIND}\b", re.M)
_NAME = r"\b[1-9] (?:Bam|Crak|Dot)s?\b|\b(?:North|East|West|South|Red|Green|Soap|Flower" \
        r"|Joker|Blank)s?\b"
#: Codes as the notation writes them (`3B`, `1123B`, `2026B`, `N`, `NN`, `0`), standing
#: alone: not inside a word, a number (`+0`), or a Discord timestamp (`<t:…:R>`).
_CODE = r"(?<![\w+\-:<@#&.])(?:[0-9]*[1-9][0-9]*[BCD]|[NEWSRGFJX0]+)(?![\w>])"
#: A name or code followed by `=` names an option (a house rule `Jokers=8` as typed, a log
#: line's `from=East`), not a tile.
_MENTION = re.compile(rf"(?:(?P<name>{_NAME})|(?P<code>{_CODE}))(?!=)")
#: The command options whose text is tiles: `/mj discard tile:`, `/analyze tiles: exposed:`.
_TILE_OPTIONS = frozenset({"tile", "tiles", "exposed"})
#: What may stand between two tiles of one run: spaces, commas, slashes, "and".
_BETWEEN = re.compile(r"^(?:[\s,/]+|\s*,?\s+and\s+)$")
_BY_NAME = {tile_name(k): k for k in range(NUM_KINDS)}
_DREW = re.compile(r"You drew (.+?)\.")


def _mention_kinds(match: re.Match[str]) -> list[int]:
    name = match["name"]
    if name is not None:
        return [_BY_NAME[name if name in _BY_NAME else name[:-1]]]
    code = match["code"]
    if code.isdigit():  # "0" alone is a number more often than Soap
        return []
    return list(parse_tiles(code))


def tile_runs(text: str) -> list[Counter[int]]:
    """Every run of tiles a text names, as counts per kind: tile names and codes that follow
    one another with only spaces, commas, slashes or "and" between them make one run."""
    masked = _SEAT_WIND.sub(lambda m: "#" * len(m[0]), text)
    runs: list[Counter[int]] = []
    end = -1
    for match in _MENTION.finditer(masked):
        kinds = _mention_kinds(match)
        if not kinds:
            continue
        if runs and _BETWEEN.match(masked[end:match.start()]):
            runs[-1].update(kinds)
        else:
            runs.append(Counter(kinds))
        end = match.end()
    return runs


def _typed_runs(text: str) -> list[Counter[int]]:
    """What someone typed, read as the bot reads it (`3 bam`, `soap`) or as it is shown."""
    runs = [Counter(parse_tiles(part)) for part in text.split(",") if _parses(part)]
    return runs + tile_runs(text)


def _parses(text: str) -> bool:
    try:
        return bool(parse_tiles(text))
    except MahjongError:
        return False


def _within(run: Counter[int], group: Counter[int]) -> bool:
    return all(group[kind] >= count for kind, count in run.items())


# -- what a message shows ---------------------------------------------------------------

@dataclass
class Shown:
    """One version of a message as its reader saw it: its content, every other text, menus
    of tiles, files."""

    content: str
    texts: list[str] = field(default_factory=list)
    menus: list[Counter[int]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    alts: dict[str, str | None] = field(default_factory=dict)


_DISCARD_MENU = "Discard a tile…"


def shown(version: Any) -> Shown:
    """What a message version (a `Message` or one of its `edits`) shows in text: content,
    embeds, labels, placeholders, menu entries, file names; the discard and pass menus also
    as menus of tiles."""
    seen = Shown(version.content)
    for embed in version.embeds:
        seen.texts += [str(embed.get(key) or "") for key in ("title", "description")]
        seen.texts += [str((embed.get(key) or {}).get(part) or "")
                       for key, part in (("author", "name"), ("footer", "text"))]
        for item in embed.get("fields") or []:
            seen.texts += [str(item.get("name") or ""), str(item.get("value") or "")]
    for item in _walk(version.components):
        seen.texts += [str(item.get(key) or "") for key in ("label", "placeholder", "content")]
        custom_id = str(item.get("custom_id", ""))
        menu: Counter[int] = Counter()
        for option in item.get("options") or []:
            value = str(option.get("value", ""))
            seen.texts += [str(option.get("label") or ""), str(option.get("description") or "")]
            if custom_id.startswith("jg:g:") and ":" in value:  # the pass menu: index:kind
                menu[int(value.split(":")[1])] += 1
            else:
                seen.texts.append(value)
            if item.get("placeholder") == _DISCARD_MENU:
                for run in tile_runs(str(option.get("label") or "")):
                    menu.update(run)
        if menu:
            seen.menus.append(menu)
    for attachment in version.attachments:
        seen.texts.append(attachment.filename)
        seen.files[attachment.filename] = attachment.data
        seen.alts[attachment.filename] = attachment.description
    return seen


def _text_file(name: str, data: bytes) -> list[str] | None:
    """The texts of a text attachment (a CSV cell by cell), or None for other files."""
    if name.endswith(".gz"):
        data, name = gzip.decompress(data), name[:-3]
    if name.endswith(".csv"):
        return [cell for row in csv.reader(io.StringIO(data.decode())) for cell in row]
    if name.endswith(".txt"):
        return data.decode().splitlines()
    return None


def kinds_named(message: Message) -> set[int]:
    """Every tile kind a message names anywhere (its text, controls, menus, files)."""
    seen = shown(message)
    texts = [seen.content, *seen.texts]
    for name, data in seen.files.items():
        texts += _text_file(name, data) or []
    return {k for text in texts for run in tile_runs(text) for k in run} | {
        k for menu in seen.menus for k in menu}


# -- what each reader may know --------------------------------------------------------------

@dataclass
class Knowledge:
    """What one reader may know: copies per kind, and the groups of tiles they may see named
    together."""

    copies: Counter[int]
    groups: list[Counter[int]]

    def problems(self, run: Counter[int]) -> list[str]:
        """Why naming `run` to this reader leaks (empty when it does not)."""
        found = [f"{count} x {tile_name(kind)} (may know of {self.copies[kind]})"
                 for kind, count in sorted(run.items()) if count > self.copies[kind]]
        if not found and run.total() > 1 and not any(_within(run, g) for g in self.groups):
            found.append(f"{_names(run)} together, which it never saw together")
        return found


def _names(run: Counter[int]) -> str:
    return ", ".join(tile_name(k) for k in sorted(run.elements()))


@dataclass
class Moment:
    """The game at one look: the spectator's view and each seat's, as the watch's replay has
    them."""

    applied: int
    spectator: View
    seats: tuple[View, ...]


T = TypeVar("T")


class _Drawn:
    """Pictures drawn once per scene (scenes are frozen values), off the event loop."""

    def __init__(self) -> None:
        self._pictures: dict[Hashable, Any] = {}

    async def get(self, key: Hashable, draw: Callable[[], T]) -> T:
        if key not in self._pictures:
            self._pictures[key] = await asyncio.to_thread(draw)
        found: T = self._pictures[key]
        return found


class LeakWatch:
    """See the module docstring. `await LeakWatch.attach(table)` looks once at what was sent
    so far and then after every step of the table."""

    def __init__(self, table: JonggTable, game: Game, state: GameState) -> None:
        self.table = table
        self.game = game
        self.state = state
        self.live: Table = table.client.service.table(table.game_id)
        self.applied = 0
        self.face_up: set[int] = set()
        self.public_groups: list[Counter[int]] = []
        self.held: list[set[int]] = [set() for _ in range(state.size)]
        self.racks: list[list[Counter[int]]] = [[] for _ in range(state.size)]
        self.moments: list[Moment] = []
        self.drawn = _Drawn()
        self.checked: dict[int, int] = {}
        self.answered: set[int] = set()
        self.typed: dict[int, list[Counter[int]]] = {}
        self.read: set[int] = set()
        #: What the watch looked at: message versions, pictures compared, replays read, and
        #: versions that showed a seat tiles nobody else may see (its own).
        self.messages = 0
        self.pictures: Counter[str] = Counter()
        self.replays: Counter[str] = Counter()
        self.private = 0

    @classmethod
    async def attach(cls, table: JonggTable) -> LeakWatch:
        """A watch on `table`, having looked at everything sent so far."""
        game = await table.client.service.db.games.game(table.game_id)
        state, _ = replay_stored(game, [], table.client.service.table(game.id).names)
        watch = cls(table, game, state)
        await watch(table)
        table.watchers.append(watch)
        return watch

    @classmethod
    async def of(cls, table: JonggTable) -> LeakWatch:
        """A watch on `table` that has looked at nothing: for `unknown_in`, where the
        table's own messages are not the point (several tables in one test, whose watches
        would each read the others' racks as leaks)."""
        game = await table.client.service.db.games.game(table.game_id)
        state, _ = replay_stored(game, [], table.client.service.table(game.id).names)
        return cls(table, game, state)

    async def unknown_in(self, text: str, reader: User) -> list[str]:
        """What `text`, shown to `reader` about this game (a line of their list of games),
        names that they may not know of it now."""
        await self._follow()
        knows = self.knowledge(reader)
        return [problem for run in tile_runs(text) for problem in knows.problems(run)]

    # -- following the game ----------------------------------------------------------------

    async def _follow(self) -> None:
        """Apply the actions logged since the last look to the watch's own replay, noting
        after each what became face up and what each rack held."""
        db = self.table.client.service.db
        for logged in await db.actions.actions(self.game.id, since=self.applied):
            self.state, _ = apply(self.state, parse_action(logged.text, self.state.size))
            self.applied += 1
            self._note(self.state)
        if self.moments and self.moments[-1].applied == self.applied:
            return
        if not self.moments:
            self._note(self.state)
        self.moments.append(Moment(self.applied, spectator_view(self.state), tuple(
            seat_view(self.state, s) for s in range(self.state.size))))

    def _note(self, state: GameState) -> None:
        """Note what `state` shows: the tiles face up (each exposure and laid-out group also
        as a group), and each seat's rack."""
        up: list[tuple[int, ...]] = [tuple(t for _, t in state.discards)]
        if state.claim is not None:
            up.append((state.claim.tile_id,))
        declared = [d for s in state.seats for d in s.declared]
        declared += list(state.result.declared) if state.result else []
        for seat, held in enumerate(state.seats):
            self.held[seat].update(held.concealed)
            rack = Counter(state.kinds(held.concealed))
            if rack not in self.racks[seat]:
                self.racks[seat].append(rack)
            up += [e.tile_ids for e in held.exposures]
        for hand in declared:
            up += list(hand.groups)
            up.append(tuple(t for g in hand.groups for t in g))
        for tiles in up:
            self.face_up.update(tiles)
            group = Counter(state.kinds(tiles))
            if tiles is not up[0] and group not in self.public_groups:
                self.public_groups.append(group)

    def knowledge(self, reader: User | None) -> Knowledge:
        """What `reader` may know now (None: the thread or channel, anyone)."""
        tiles = self.state.tiles
        known = set(self.face_up)
        groups = list(self.public_groups)
        seat = self._seat(reader)
        if seat is not None:
            known |= self.held[seat]
            groups += self.racks[seat]
        copies = Counter(tiles[t] for t in known)
        for run in self.typed.get(reader.id, []) if reader is not None else []:
            groups.append(run)
            for kind, count in run.items():
                copies[kind] = max(copies[kind], count)
        return Knowledge(copies, groups)

    def _seat(self, reader: User | None) -> int | None:
        """The seat `reader` holds, if any."""
        return None if reader is None else self.live.seat_of(reader.id)

    def _read_typing(self) -> None:
        """Note the tiles people typed into commands (or autocompletes) since the last look."""
        for interaction in list(self.table.fake.interactions.values()):
            if interaction.id in self.read or interaction.name is None:
                continue
            self.read.add(interaction.id)
            runs = self.typed.setdefault(interaction.user.id, [])
            for name, value in _options(interaction.payload["data"]):
                if name in _TILE_OPTIONS and isinstance(value, str):
                    runs += _typed_runs(value)

    # -- looking ---------------------------------------------------------------------------

    async def __call__(self, table: JonggTable) -> None:
        """Look at everything sent since the last look; fail with every leak found."""
        await self._follow()
        self._read_typing()
        with contextlib.suppress(MahjongError):  # a finished game may have left the service
            self.live = self.table.client.service.table(self.game.id)
        problems: list[str] = []
        fake = table.fake
        knows: dict[int | None, Knowledge] = {}
        for message in list(fake.messages):
            versions: list[Any] = [*message.edits, message]
            done = self.checked.get(message.id, 0)
            if message.author is not fake.bot or done == len(versions):
                continue
            self.checked[message.id] = len(versions)
            reader = message.channel.recipient or message.visible_to
            key = reader.id if reader else None
            if key not in knows:
                knows[key] = self.knowledge(reader)
            where = reader.username if reader else f"#{message.channel.name}"
            for version in versions[done:]:
                self.messages += 1
                found = await self._look(message, shown(version), reader, knows[key])
                problems += [f"step {table.steps}: a message to {where}: {problem}\n"
                             f"    {version.content[:300]!r}" for problem in found]
        for interaction in list(fake.interactions.values()):
            if interaction.choices_sent is not None and interaction.id not in self.answered:
                self.answered.add(interaction.id)
                problems += [f"step {table.steps}: autocomplete for {interaction.user.username}"
                             f": {p}" for p in self._choices(interaction)]
        assert not problems, "\n".join(problems)

    async def _look(self, message: Message, seen: Shown, reader: User | None,
                    knows: Knowledge) -> list[str]:
        """What is wrong with one version of a message to `reader` (None: anyone)."""
        problems: list[str] = []
        texts = [seen.content, *seen.texts]
        for name, data in seen.files.items():
            if name.endswith(".png"):
                if not seen.alts.get(name):
                    problems.append(f"sent {name} without alt text")
                problem, with_text = await self._picture(message, name, data, seen, reader)
                problems += [problem] if problem else []
                if with_text:  # the content was compared whole with the reader's own
                    texts = seen.texts
            elif re.fullmatch(rf"table-{self.game.id}(-.+)?\.txt", name):
                problems += self._replay(data.decode())
            elif (lines := _text_file(name, data)) is not None:
                problems += [f"its file {name} names {p}" for line in lines
                             for run in tile_runs(line) for p in knows.problems(run)]
            else:
                problems.append(f"sent a file nobody checks: {name}")
        runs = [run for text in texts for run in tile_runs(text)]
        problems += [f"names {p}" for run in runs for p in knows.problems(run)]
        seat = self._seat(reader)
        for menu in seen.menus:
            if seat is None or not any(_within(menu, rack) for rack in self.racks[seat]):
                problems.append(f"offers a menu of {_names(menu)}, not from its reader's rack")
        face_up = {self.state.tiles[t] for t in self.face_up}
        self.private += seat is not None and any(set(run) - face_up for run in runs)
        return problems

    def _choices(self, interaction: FakeInteraction) -> list[str]:
        """What is wrong with an autocomplete answer: tiles its reader may not know, and for
        a tile option (the discard autocomplete) tiles offered that are not from their rack
        (other options' choices, a house rule's text, offer no tiles)."""
        knows = self.knowledge(interaction.user)
        choices = interaction.choices_sent or []
        kinds: Counter[int] = Counter()
        problems: list[str] = []
        for choice in choices:
            for text in (str(choice.get("name", "")), str(choice.get("value", ""))):
                runs = tile_runs(text)
                problems += [f"names {p}" for run in runs for p in knows.problems(run)]
            if _focused(interaction.payload["data"]) in _TILE_OPTIONS:
                kinds.update(next(iter(tile_runs(str(choice.get("value", "")))), Counter()))
        seat = self._seat(interaction.user)
        if kinds and not any(_within(kinds, rack)
                             for rack in (self.racks[seat] if seat is not None else [])):
            problems.append(f"offers {_names(kinds)}, not from the typist's rack")
        return problems

    # -- pictures --------------------------------------------------------------------------

    async def _picture(self, message: Message, name: str, data: bytes, seen: Shown,
                       reader: User | None) -> tuple[str | None, bool]:
        """A problem with a picture (None when it and its alt text are the ones its reader
        may see), and whether the message's text was checked with it (a hint's or an
        analysis's)."""
        self.pictures[name] += 1
        seat = self._seat(reader)
        alt = seen.alts.get(name)
        if name == "table.png":
            return await self._any_moment((data, alt), self._table_picture, recent=3), False
        if name == "result.png":
            return await self._any_moment((data, alt), self._result_picture, recent=3), False
        if name in ("rack.png", "hint.png") and seat is None:
            return f"shows {name} to someone at no seat", False
        if name == "rack.png":
            assert seat is not None
            drawn = _DREW.search(seen.content)
            kind = _BY_NAME.get(drawn[1]) if drawn else None
            return await self._any_moment(
                (data, alt), lambda m: self._rack_picture(m.seats[seat], kind)), False
        if name == "hint.png":
            assert seat is not None
            problem = await self._any_moment(
                (seen.content, data, alt), lambda m: self._hint(m.seats[seat]))
            return problem and "shows a hint that is not its reader's own", True
        if name == "analysis.png":
            if await self._analysis(message) != (seen.content, data, alt):
                return "shows an analysis of tiles its reader did not type", True
            return None, True
        return f"shows a picture nobody checks: {name}", False

    async def _any_moment(self, shown: object, draw: Callable[[Moment], Awaitable[object]], *,
                          recent: int | None = None) -> str | None:
        """None if `shown` is what `draw` makes of one of the moments so far (newest first;
        only the `recent` newest when given)."""
        moments = self.moments[::-1][:recent]
        for moment in moments:
            if await draw(moment) == shown:
                return None
        return "shows a picture that is not the one its reader may see"

    async def _table_picture(self, moment: Moment) -> tuple[bytes, str]:
        scene = table_scene(moment.spectator, bots=self.live.bots,
                            title=f"Table {self.game.id}")
        return await self.drawn.get(scene, lambda: (render_table(scene), describe_table(scene)))

    async def _result_picture(self, moment: Moment) -> tuple[bytes, str] | None:
        if moment.spectator.result is None:
            return None
        scene = result_scene(moment.spectator, self.live.card, bots=self.live.bots)
        return await self.drawn.get(scene,
                                    lambda: (render_result(scene), describe_result(scene)))

    async def _hint(self, seen: View) -> tuple[str, bytes, str]:
        return await self.drawn.get(("hint", seen), lambda: hint_reply(self.live, seen))

    async def _rack_picture(self, seen: View, drawn: int | None) -> tuple[bytes, str]:
        scene = seat_rack_scene(seen, self.live.options_of(seen.seat),
                                name=self.live.names[seen.seat], drawn=drawn,
                                said=headline(seen, self.live.names, drawn))
        return await self.drawn.get(scene, lambda: (render_rack(scene), describe_rack(scene)))

    async def _analysis(self, message: Message) -> tuple[str, bytes, str] | None:
        """What `/analyze` answers for what the reader typed."""
        interaction = self.table.fake.interactions.get(message.interaction_id or 0)
        if interaction is None:
            return None
        options = dict(_options(interaction.payload["data"]))
        client = self.table.client
        chosen = await resolve_card(client.service.db, self.game.guild_id, options.get("card"))
        tiles, exposed = str(options["tiles"]), str(options.get("exposed", ""))
        matcher = await playable_matcher(chosen.name, chosen.text)
        return await asyncio.to_thread(analysis_reply, matcher, read_hand(tiles, exposed),
                                       typed_hand(tiles, exposed), chosen)

    # -- the log -----------------------------------------------------------------------------

    def _replay(self, text: str) -> list[str]:
        """What is wrong with a `/mj replay` file sent now."""
        lines = text.splitlines()
        if self.state.phase is Phase.OVER:
            self.replays["full"] += 1
            logged = [parse_action(line.split(". ", 1)[-1], self.state.size)
                      for line in lines[1:]]
            if f"seed {self.game.seed}" not in lines[0] or logged != list(self.state.actions):
                return [f"the finished game's replay is not its log with its seed: {lines[0]!r}"]
            return []
        self.replays["public"] += 1
        problems = []
        if str(self.game.seed) in text or "seed" in text.lower():
            problems.append("the replay of a game in play shows its seed")
        for line in lines[1:]:
            try:
                event = parse_event(line, self.state.size)
            except MahjongError:
                problems.append(f"the replay of a game in play has a line that is not a "
                                f"public event: {line!r}")
                continue
            if event != public(event):
                problems.append(f"the replay of a game in play shows hidden tiles: {line!r}")
        return problems


def _options(data: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """Every option a command's payload carries, subcommands walked through."""
    for option in data.get("options") or []:
        if "value" in option:
            yield str(option["name"]), option["value"]
        yield from _options(option)


def _focused(data: dict[str, Any]) -> str | None:
    """The option an autocomplete is for (None: none is marked)."""
    for option in data.get("options") or []:
        if option.get("focused"):
            return str(option["name"])
        if (inner := _focused(option)) is not None:
            return inner
    return None


__all__ = ["Knowledge", "LeakWatch", "kinds_named", "shown", "tile_runs"]
