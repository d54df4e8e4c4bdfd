"""Server cards and guild settings: private to their server, snapshotted into games."""

from __future__ import annotations

import pytest
from store_helpers import RULES, FakeClock

from bot.store import (
    BadCardUpload,
    CardNameTaken,
    CardNotFound,
    CardSource,
    Database,
    GuildSettings,
    Pace,
    ServerCardChoice,
)

CARD_A = "# server A's card\nhand 1: FFFF 2026 222 222\n"
CARD_B = "# server B's card\nhand 1: 11 22 333 444 5555\n"


async def server_game(db: Database, guild_id: int, card_id: int) -> int:
    game = await db.games.create_game(
        guild_id=guild_id, channel_id=1, host_user_id=1, rules=RULES,
        card=ServerCardChoice(card_id), seed=1, pace=Pace("relaxed"), hints=False)
    return game.id


async def test_card_crud(db: Database, clock: FakeClock) -> None:
    saved = await db.cards.save_card(1, "House 2026", CARD_A, uploaded_by=77)
    assert (saved.guild_id, saved.name, saved.text, saved.uploaded_by) == (
        1, "House 2026", CARD_A, 77)
    assert await db.cards.card(1, "house 2026") == saved  # names ignore case
    assert await db.cards.card_by_id(1, saved.id) == saved
    with pytest.raises(CardNameTaken):
        await db.cards.save_card(1, "HOUSE 2026", CARD_B, uploaded_by=78)
    clock.advance(10)
    replaced = await db.cards.save_card(1, "house 2026", CARD_B, uploaded_by=78, replace=True)
    assert replaced.id == saved.id and replaced.text == CARD_B
    assert replaced.uploaded_by == 78 and replaced.uploaded_at == clock.now
    await db.cards.save_card(1, "alpha", CARD_A, uploaded_by=77)
    assert [c.name for c in await db.cards.cards(1)] == ["alpha", "house 2026"]
    assert (await db.cards.delete_card(1, "ALPHA")).name == "alpha"
    with pytest.raises(CardNotFound):
        await db.cards.card(1, "alpha")
    with pytest.raises(CardNotFound):
        await db.cards.delete_card(1, "alpha")


@pytest.mark.parametrize("name", ["", " ", "x" * 33, "-dash-first", "new\nline", "semi;colon"])
async def test_bad_card_names(db: Database, name: str) -> None:
    with pytest.raises(BadCardUpload):
        await db.cards.save_card(1, name, CARD_A, uploaded_by=1)


async def test_empty_or_huge_card_files(db: Database) -> None:
    with pytest.raises(BadCardUpload, match="empty"):
        await db.cards.save_card(1, "empty", "  \n", uploaded_by=1)
    with pytest.raises(BadCardUpload, match="too long"):
        await db.cards.save_card(1, "huge", "x" * 200_001, uploaded_by=1)


async def test_cards_never_cross_guilds(db: Database) -> None:
    mine = await db.cards.save_card(1, "secret", CARD_A, uploaded_by=1)
    theirs = await db.cards.save_card(2, "secret", CARD_B, uploaded_by=2)  # same name is fine
    assert mine.id != theirs.id
    assert (await db.cards.card(2, "secret")).text == CARD_B
    assert [c.id for c in await db.cards.cards(2)] == [theirs.id]
    assert await db.cards.cards(3) == []
    with pytest.raises(CardNotFound):
        await db.cards.card_by_id(2, mine.id)
    with pytest.raises(CardNotFound):
        await db.cards.card(3, "secret")
    with pytest.raises(CardNotFound):
        await server_game(db, 2, mine.id)  # a game cannot borrow another server's card
    with pytest.raises(CardNotFound):
        await db.guilds.set_settings(2, GuildSettings(server_card_id=mine.id), by_user=1)
    with pytest.raises(CardNotFound):
        await db.cards.delete_card(3, "secret")
    await db.cards.delete_card(2, "secret")  # deletes only server 2's card
    assert (await db.cards.card(1, "secret")).text == CARD_A


async def test_a_game_keeps_the_card_text_it_was_played_with(db: Database) -> None:
    card = await db.cards.save_card(1, "house", CARD_A, uploaded_by=1)
    game_id = await server_game(db, 1, card.id)
    game = await db.games.game(game_id)
    assert game.card.source is CardSource.SERVER
    assert (game.card.name, game.card.server_card_id, game.card.text) == (
        "house", card.id, CARD_A)
    await db.cards.save_card(1, "house", CARD_B, uploaded_by=1, replace=True)
    assert (await db.games.game(game_id)).card.text == CARD_A
    await db.cards.delete_card(1, "house")
    after = (await db.games.game(game_id)).card
    assert (after.server_card_id, after.text, after.name) == (None, CARD_A, "house")


async def test_guild_settings(db: Database) -> None:
    assert await db.guilds.settings(1) == GuildSettings()
    card = await db.cards.save_card(1, "house", CARD_A, uploaded_by=1)
    settings = GuildSettings(rules="standard", server_card_id=card.id,
                             pace=Pace("fast", turn_seconds=45, claim_seconds=8), hints=False)
    assert await db.guilds.set_settings(1, settings, by_user=1) == settings
    assert await db.guilds.settings(1) == settings
    assert await db.guilds.settings(2) == GuildSettings()
    shipped = GuildSettings(shipped_card="sample-2026", pace=Pace("untimed"))
    assert await db.guilds.set_settings(1, shipped, by_user=1) == shipped
    assert await db.guilds.set_settings(1, settings, by_user=1) == settings
    await db.cards.delete_card(1, "house")  # the default falls away with the card
    assert await db.guilds.settings(1) == GuildSettings(
        rules="standard", pace=settings.pace, hints=False)
    with pytest.raises(ValueError):
        GuildSettings(shipped_card="a", server_card_id=1)
    with pytest.raises(ValueError):
        Pace("fast", turn_seconds=0)
