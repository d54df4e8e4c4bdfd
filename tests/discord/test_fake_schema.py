"""The fake judges every request by Discord's OpenAPI document: a body Discord would refuse is
answered 400, code 50035 "Invalid Form Body", with the errors by field, and discord.py raises
them as `HTTPException` with one line per field; the same request made right passes.

Through discord.py where it would send the mistake (a long content, a long custom_id, a file
upload, an interaction answer), through its raw HTTP client or aiohttp where it would not
(wrong types, missing fields, unknown enum values, a bad `payload_json`, a bad query string).
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from discord.http import Route
from fake import FakeDiscord, World, png
from fake.schema import Override, RequestSchema, apply

pytestmark = pytest.mark.filterwarnings("error")

MakeBot = Callable[..., commands.Bot]
StartBot = Callable[[commands.Bot], Awaitable[commands.Bot]]
CREATE = "/channels/{channel_id}/messages"


def leaf(code: str, message: str) -> dict[str, Any]:
    """One field's entry in Discord's `errors` object."""
    return {"_errors": [{"code": code, "message": message}]}


def refused_errors(fake: FakeDiscord) -> Any:
    """The `errors` of the last refused request, after checking it is Discord's 50035."""
    refused = fake.failed_requests[-1]
    assert refused.status == 400
    assert refused.response["code"] == 50035
    assert refused.response["message"] == "Invalid Form Body"
    return refused.response["errors"]


@pytest.fixture
async def bot(fake_discord: FakeDiscord, make_bot: MakeBot, start_bot: StartBot
              ) -> AsyncIterator[commands.Bot]:
    """A bot with one command, /offer, whose first answer is malformed (a custom_id of 101
    characters): it keeps the error discord.py raises and answers again, correctly."""
    client = make_bot()
    client.errors = []  # type: ignore[attr-defined]

    @client.tree.command(description="Offer a trade")
    async def offer(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(discord.ui.Button(label="Take it", custom_id="t" * 101))
        try:
            await interaction.response.send_message("A trade?", view=view)
        except discord.HTTPException as error:
            client.errors.append(error)  # type: ignore[attr-defined]
            await interaction.response.send_message("No trade today", ephemeral=True)

    async def setup_hook() -> None:
        await client.tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    yield await start_bot(client)


def general(bot: commands.Bot, world: World) -> discord.TextChannel:
    channel = bot.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_message_discord_would_refuse_raises_50035_by_field_in_discord_py(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    channel = general(bot, world)
    with pytest.raises(discord.HTTPException) as too_long:
        await channel.send("x" * 2001)
    assert (too_long.value.status, too_long.value.code) == (400, 50035)
    assert str(too_long.value) == ("400 Bad Request (error code: 50035): Invalid Form Body\n"
                                   "In content: Must be 2000 or fewer in length.")
    assert refused_errors(fake_discord) == {
        "content": leaf("BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")}

    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Join", custom_id="j" * 101))
    with pytest.raises(discord.HTTPException) as long_id:
        await channel.send("Table 7 is open", view=view)
    assert long_id.value.code == 50035
    assert long_id.value.text.splitlines()[1:] == [
        "In components.0.components.0.custom_id: Must be between 1 and 100 in length."]

    # With a file, discord.py sends multipart: the body is `payload_json`, judged the same.
    with pytest.raises(discord.HTTPException) as upload:
        await channel.send("x" * 2001, file=discord.File(io.BytesIO(png(2, 2)), "rack.png"))
    assert upload.value.code == 50035 and "In content:" in upload.value.text
    assert [u.filename for u in fake_discord.failed_requests[-1].files] == ["rack.png"]

    assert fake_discord.messages_in(world.general) == []
    sent = await channel.send("x" * 2000, file=discord.File(io.BytesIO(png(2, 2)), "rack.png"))
    [posted] = fake_discord.messages_in(world.general)
    assert len(posted.content) == 2000 and list(posted.files) == ["rack.png"]
    with pytest.raises(discord.HTTPException) as edit:
        await sent.edit(content="y" * 2001)
    assert edit.value.text.splitlines()[1:] == ["In content: Must be 2000 or fewer in length."]
    assert posted.content == "x" * 2000 and posted.edits == []


async def test_bodies_discord_py_would_not_build_are_refused_field_by_field(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    route = Route("POST", CREATE, channel_id=world.general.id)
    body = {"content": "Pick a seat", "tts": "yes", "components": [
        {"type": 1, "components": [{"type": 2, "label": "East", "custom_id": "e"}]},
        {"type": 1, "components": [{"type": 2, "style": 9, "label": "West",
                                    "custom_id": "w"}]},
        {"type": 99}]}
    with pytest.raises(discord.HTTPException) as refused:
        await bot.http.request(route, json=body)
    assert refused.value.code == 50035
    assert refused_errors(fake_discord) == {
        "tts": leaf("BOOLEAN_TYPE_COERCE", 'Value "yes" is not bool.'),
        "components": {
            "0": {"components": {"0": {"style": leaf(
                "BASE_TYPE_REQUIRED", "This field is required")}}},
            "1": {"components": {"0": {"style": leaf(
                "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")}}},
            "2": {"type": leaf("UNION_TYPE_CHOICES", 'Value of field "type" must be one of '
                                                     "(1, 17, 13, 12, 9, 14, 10).")}}}
    assert refused.value.text.splitlines()[1:] == [
        "In components.0.components.0.style: This field is required",
        "In components.1.components.0.style: Value must be one of (1, 2, 3, 4, 5, 6).",
        'In components.2.type: Value of field "type" must be one of (1, 17, 13, 12, 9, 14, 10).',
        'In tts: Value "yes" is not bool.']
    # A message reference names its message by snowflake.
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"content": "Re:", "message_reference": {
            "message_id": "the last one"}})
    assert refused_errors(fake_discord) == {"message_reference": {"message_id": leaf(
        "NUMBER_TYPE_COERCE", 'Value "the last one" is not snowflake.')}}

    assert fake_discord.messages_in(world.general) == []
    body["tts"] = False
    body["components"] = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "East", "custom_id": "e"},
        {"type": 2, "style": 2, "label": "West", "custom_id": "w"}]}]
    await bot.http.request(route, json=body)
    [posted] = fake_discord.messages_in(world.general)
    assert posted.custom_ids() == ["e", "w"]


async def test_interaction_answers_are_judged_by_their_callback_type(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    handle = await fake_discord.slash(world.alice, world.general, "offer")
    reply = await handle.reply()
    assert reply.content == "No trade today"
    [error] = bot.errors  # type: ignore[attr-defined]
    assert isinstance(error, discord.HTTPException) and error.code == 50035
    assert error.text.splitlines()[1:] == [
        "In data.components.0.components.0.custom_id: Must be between 1 and 100 in length."]

    # Answers discord.py would not build, sent as a client that skips its checks would.
    url = f"{fake_discord.api_base}/interactions/{handle.id}/{handle.token}/callback"
    row = {"type": 1, "components": [{"type": 4, "custom_id": "name", "style": 1,
                                      "label": "Name"}]}
    answers = [
        ({"type": 9, "data": {"custom_id": "rename", "title": "T" * 46, "components": [row] * 6}},
         {"data": {"title": leaf("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length."),
                   "components": leaf("BASE_TYPE_BAD_LENGTH",
                                      "Must be between 1 and 5 in length.")}}),
        ({"type": 8, "data": {"choices": [{"name": "Joker", "value": "j" * 101}]}},
         {"data": {"choices": {"0": {"value": leaf("BASE_TYPE_MAX_LENGTH",
                                                   "Must be 100 or fewer in length.")}}}}),
        ({"type": 42},
         {"type": leaf("UNION_TYPE_CHOICES", 'Value of field "type" must be one of '
                                             "(8, 4, 5, 12, 9, 1, 13, 6, 7).")}),
    ]
    async with aiohttp.ClientSession() as session:
        for answer, errors in answers:
            async with session.post(url, json=answer) as response:
                assert response.status == 400
                assert await response.json() == {"code": 50035, "message": "Invalid Form Body",
                                                  "errors": errors}
    assert handle.modal_sent is None and handle.choices_sent is None


async def test_a_request_with_no_body_is_judged_as_an_empty_one(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    """A route whose body Discord requires refuses a request sent without one by the fields
    it lacks, as it refuses `{}` (not by skipping the check, which would hand the route a
    body it never got); a route that takes no body is not judged."""
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    assert RequestSchema.of("POST", callback).problems(None, {}) == RequestSchema.of(
        "POST", callback).problems({}, {}) != []
    handle = await fake_discord.slash(world.alice, world.general, "offer")
    await handle.reply()
    url = f"{fake_discord.api_base}/interactions/{handle.id}/{handle.token}/callback"
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    lacking = {url: "type", f"{fake_discord.api_base}/channels/{world.general.id}/threads":
               "name"}
    async with aiohttp.ClientSession(headers=headers) as session:
        for path, field in lacking.items():
            async with session.post(path) as response:
                assert response.status == 400, path
                assert (await response.json())["errors"] == {field: leaf(
                    "BASE_TYPE_REQUIRED", "This field is required")}
        async with session.post(f"{fake_discord.api_base}/channels/{world.general.id}/typing"
                                ) as response:
            assert response.status == 204


async def test_a_bad_payload_json_in_a_multipart_upload_is_refused(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    url = f"{fake_discord.api_base}/channels/{world.general.id}/messages"

    def upload(attachment_id: Any, payload: str | None = None) -> aiohttp.FormData:
        form = aiohttp.FormData()
        form.add_field("payload_json", payload or json.dumps({
            "content": "Your rack", "attachments": [{"id": attachment_id,
                                                      "filename": "rack.png"}]}),
            content_type="application/json")
        form.add_field("files[0]", png(2, 2), filename="rack.png", content_type="image/png")
        return form

    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, data=upload("first")) as response:
            assert response.status == 400
            assert (await response.json())["errors"] == {"attachments": {"0": {"id": leaf(
                "NUMBER_TYPE_COERCE", 'Value "first" is not snowflake.')}}}
        async with session.post(url, data=upload(0, '{"content": "Your rack"')) as response:
            assert response.status == 400
            assert await response.json() == {
                "code": 50109, "message": "The request body contains invalid JSON."}
        assert fake_discord.messages_in(world.general) == []
        # The upload's index as an integer, as Discord's own documentation sends it.
        async with session.post(url, data=upload(0)) as response:
            assert response.status == 200
    [posted] = fake_discord.messages_in(world.general)
    assert list(posted.files) == ["rack.png"]


async def test_query_strings_are_judged_too(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    url = f"{fake_discord.api_base}/channels/{world.general.id}/messages"
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.get(url, params={"limit": "500", "before": "yesterday"}) as response:
            assert response.status == 400
            assert (await response.json())["errors"] == {
                "limit": leaf("NUMBER_TYPE_MAX", "int value should be less than or equal to 100."),
                "before": leaf("NUMBER_TYPE_COERCE", 'Value "yesterday" is not snowflake.')}
        async with session.get(url, params={"limit": "100"}) as response:
            assert response.status == 200


async def test_limits_the_document_cannot_state_are_still_enforced(
        fake_discord: FakeDiscord, world: World, bot: commands.Bot) -> None:
    route = Route("POST", CREATE, channel_id=world.general.id)

    def row(custom_id: str) -> dict[str, Any]:
        return {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go",
                                           "custom_id": custom_id}]}

    # The document allows 40 top-level components (components v2); without the flag, 5 rows.
    with pytest.raises(discord.HTTPException) as rows:
        await bot.http.request(route, json={"components": [row(f"r{i}") for i in range(6)]})
    assert rows.value.code == 50035
    assert refused_errors(fake_discord) == {
        "components": leaf("BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")}
    with pytest.raises(discord.HTTPException):
        await bot.http.request(route, json={"components": [row("same"), row("same")]})
    assert refused_errors(fake_discord) == {"components": {"3": {"custom_id": leaf(
        "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")}}}
    assert fake_discord.messages_in(world.general) == []


def test_an_override_refuses_a_document_that_changed_under_it() -> None:
    spec: dict[str, Any] = {"components": {"schemas": {"Note": {"maxLength": 4000}}}}
    override = Override("/components/schemas/Note/maxLength", 4000, 2000, "notes are short")
    apply(spec, override)
    assert spec["components"]["schemas"]["Note"] == {"maxLength": 2000}
    with pytest.raises(RuntimeError, match="notes are short"):
        apply(spec, override)


def test_a_route_discord_does_not_have_is_refused_when_the_fake_is_built() -> None:
    assert RequestSchema.of("POST", "/webhooks/{application_id}/{token}").path == (
        "/webhooks/{webhook_id}/{webhook_token}")
    with pytest.raises(LookupError, match="not in Discord's OpenAPI document"):
        RequestSchema.of("POST", "/channels/{channel_id}/teleport")
