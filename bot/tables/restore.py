"""Rebuilding a game from the store: its inputs (rules, card, seed, first holders' names, pot
and bet), its log replayed move by move, its seats as they are held now, the bots that keep
seats for people, and the clocks of its moment.

A restart rebuilds each game this way, and so does a move in a process whose copy of a game is
older than the store's because someone changed its seats, their options or its status. When
other processes only made moves since (the store's setup revision is the copy's), the copy
catches up instead (`Restorer.catch_up`): the actions it missed applied in order and the
clocks read again, a few statements whatever the log's length, so workers taking a game's
clicks in turn do not each rebuild it on every move. What follows a rebuild (resuming the
undelivered messages, letting the bots answer) is a move's business: `Moves.restore`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from bot.engine.cards import Card
from bot.engine.game import Action, GameState, RuleSet, apply, new_game, parse_action
from bot.league.seasons import season_for_channel
from bot.server_cards import playable_matcher
from bot.store import OUTBOX_LEASE, DeliveryKind, Game, GameRecord, OutboxEntry
from bot.tables.clock_plan import MOVE_CLOCKS
from bot.tables.delivery import Mailbox
from bot.tables.levels import stored_levels
from bot.tables.live import LiveGame, PromptOptions, moment_of
from bot.tables.notifier import Table
from bot.tables.options import PACES, read_table_options
from bot.tables.registry import Registry
from bot.tables.seat_options import SeatOptions
from bot.tables.standins import count_from_log


@dataclass(frozen=True)
class CaughtUp:
    """A held copy brought up to the store's moves, with the entries to resume: those left
    pending longer than a sender's lease (the process that wrote them stopped before
    sending them), and the states they report, by action count."""

    orphans: tuple[OutboxEntry, ...]
    states: dict[int, GameState]


@dataclass(frozen=True)
class Rebuilt:
    """A game rebuilt from the store, with what resuming it needs: the game as stored, its
    undelivered outbox entries, and the states after the action counts they report."""

    live: LiveGame
    game: Game
    pending: tuple[OutboxEntry, ...]
    states: dict[int, GameState]


def replayed(rules: RuleSet, card: Card, seed: int, players: Sequence[str],
             actions: Sequence[Action], kept: Collection[int] = (), pot: int = 0,
             bet: int | None = None) -> tuple[GameState, PromptOptions, dict[int, GameState]]:
    """A game rebuilt from its inputs (seed, pot, bet) and its log, move by move, so each
    seat's prompts from before a restart stay as good as they were; with the states after
    the action counts in `kept` (and the first), which undelivered messages report. A long
    game takes tens of milliseconds: run it in a worker."""
    state = new_game(rules, card, seed, players, pot, bet)
    options = PromptOptions.of(state)
    states = {0: state}
    for action in actions:
        state, _ = apply(state, action)
        options.update(state)
        if len(state.actions) in kept:
            states[len(state.actions)] = state
    options.changed.clear()
    return state, options, states


class Restorer:
    """Rebuilds held games from the store."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    async def rebuild(self, game_id: int, *, into: LiveGame | None = None) -> Rebuilt:
        """Rebuild a game from the store (the caller holds the game's lock): rules, card,
        seed, first holders' names, then every logged action replayed. `into`: this
        process's older copy of the game, which becomes the store's (a move or the sender
        may hold it)."""
        registry = self.registry
        db = registry.db
        record = await db.games.load_game(game_id)
        pending = await db.outbox.pending(game_id)
        reported = {entry.at_seq for entry in pending}
        game = record.game
        stored = read_table_options(game.rules)
        rules = stored.rules
        # Checked and compiled in a worker. Held while the game is rebuilt, so the engine
        # finds it again from its card instead of compiling; the game holds it after.
        matcher = await playable_matcher(game.card.name, game.card.text, rules.counts)
        first: dict[int, str] = {}
        for holder in record.history:
            first.setdefault(holder.seat, holder.display_name)
        players = tuple(first[s] for s in range(rules.players))
        actions = [parse_action(a.text, rules.players) for a in record.actions]
        bettor = record.bettor
        state, options, states = await asyncio.to_thread(
            replayed, rules, matcher.card, game.seed, players, actions, reported, record.pot,
            None if bettor is None else bettor.seat)
        current = {seat.seat: seat for seat in record.seats}
        table = Table(game.id, game.guild_id, game.channel_id, game.thread_id,
                      tuple(current[s].display_name for s in range(rules.players)),
                      tuple(current[s].user_id for s in range(rules.players)),
                      rules, matcher.card, game.hints,
                      await self.seats_options(game_id, [current[s].user_id
                                                         for s in range(rules.players)]),
                      None if bettor is None else bettor.user_id,
                      None if bettor is None else bettor.display_name,
                      teaching=stored.teaching)
        levels = await stored_levels(db, game_id)
        bots = {s: registry.bot(level, table, game.seed, s) for s, level in levels.items()}
        season = await season_for_channel(db, game.guild_id, game.channel_id)
        delay = stored.auto_delay
        live = LiveGame(table, state, state, stored.timeout, game.pace,
                        PACES.get(stored.pace, (game.pace, None))[1],
                        registry.auto_delay if delay is None else delay, bots, levels,
                        options, Mailbox(game.host_user_id), quiet=stored.quiet,
                        season_id=None if season is None else season.id,
                        vacations=stored.vacations)
        if into is not None:
            into.become(live)
            live = into
        live.dm_closed.update(s for s in current if current[s].dm_closed)
        await self.restore_stand_ins(live, record, actions, stored.stand_in_after)
        live.mail.host_told = await db.outbox.has(game_id, DeliveryKind.HOST)
        await self._read_clocks(live)
        return Rebuilt(live, game, tuple(pending), states)

    async def catch_up(self, live: LiveGame) -> CaughtUp | None:
        """Bring a held copy that missed only other processes' moves (its setup revision is
        the store's; the caller holds the game's lock) up to the store: the actions it has
        not seen applied in order, as a rebuild would replay them (prompt options, stand-in
        counts), and the clocks read again. None, with the copy untouched, when a rebuild
        is needed instead: a missed move seated or unseated a stand-in bot, or an entry
        left pending reports a state the copy no longer holds."""
        db = self.registry.db
        game_id = live.table.game_id
        stored = await db.actions.actions(game_id, since=len(live.saved.actions))
        cutoff = db.now() - OUTBOX_LEASE
        queued = {waiting.entry.id for waiting in live.mail.queue}
        orphans = tuple(entry for entry in await db.outbox.pending(game_id)
                        if entry.created_at <= cutoff and entry.id not in queued)
        wanted = {entry.at_seq for entry in orphans}
        state, options, stand_ins = live.saved, live.options.copy(), live.saved_stand_ins
        states: dict[int, GameState] = {len(state.actions): state}
        for row in stored:
            action = parse_action(row.text, live.table.rules.players)
            state, _ = apply(state, action)
            options.update(state)
            stand_ins = stand_ins.after_move(action.seat, row.actor_user_id, row.played_for)
            if len(state.actions) in wanted:
                states[len(state.actions)] = state
        states[len(state.actions)] = state
        if stand_ins.seats != live.saved_stand_ins.seats or not wanted <= states.keys():
            return None
        options.changed.clear()
        live.state = live.saved = state
        live.options = options
        live.stand_ins = live.saved_stand_ins = stand_ins
        await self._read_clocks(live)
        return CaughtUp(orphans, states)

    async def _read_clocks(self, live: LiveGame) -> None:
        """The copy's move clocks as the store has them. They keep their deadlines across a
        restart or another process's move: they belong to the copy's moment if they are tied
        to its log's length."""
        count = len(live.state.actions)
        live.clocks = {(c.kind, c.seat): c.due_at
                       for c in await self.registry.db.clocks.clocks(live.table.game_id)
                       if c.kind in MOVE_CLOCKS and c.at_seq == count}
        live.clock_moment = moment_of(live.state)

    async def restore_stand_ins(self, live: LiveGame, record: GameRecord,
                                actions: Sequence[Action], after: int) -> None:
        """Count each seat's timeouts in a row (the bot keeps a seat `after` of them) from
        the log as a restart finds it (from when its holder took it, or last took it back),
        and seat the bots that keep seats."""
        registry = self.registry
        reclaims = await registry.db.seats.reclaims(record.game.id)
        starts = {seat.seat: max(seat.from_seq, reclaims.get(seat.seat, 0))
                  for seat in record.seats}
        live.stand_ins = live.saved_stand_ins = count_from_log(
            after, live.table.rules.players,
            ((stored.seq, action.seat, stored.actor_user_id, stored.played_for)
             for stored, action in zip(record.actions, actions, strict=True)), starts)
        if live.stand_ins.seats:
            level = await registry.server_level(live.table.guild_id)
            for seat in live.stand_ins.seats:
                live.stand_in_bots[seat] = registry.bot(level, live.table, live.state.seed,
                                                        seat)

    async def seats_options(self, game_id: int, holders: Sequence[int | None]
                            ) -> tuple[SeatOptions, ...]:
        """Each seat's options as a game resumes: the seat's own where it has them (set for
        this game, or kept by a game stored before people had options), otherwise its
        holder's (a bot's are the defaults)."""
        db = self.registry.db
        kept = await db.seats.options(game_id)
        people = await db.players.options_of({user for user in holders if user is not None})
        return tuple(SeatOptions.from_json(
            kept[seat] if seat in kept else people.get(user, "{}") if user is not None else "{}")
            for seat, user in enumerate(holders))
