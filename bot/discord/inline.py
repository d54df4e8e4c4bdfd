"""Answering an interaction Discord posted over HTTP in the HTTP response itself.

For an interaction that reaches the bot's Interactions Endpoint URL, Discord takes the first
answer (the interaction callback) only as the response to its POST: the callback endpoint
(`POST /interactions/{id}/{token}/callback`) is for interactions received over the gateway.
discord.py posts every callback through the webhook adapter in the `async_context` context
variable; `InlineAnswer` is that adapter for the tasks handling one interaction, and hands
the callback body to the endpoint (`first_answer`) instead of posting it.

Discord waits 3 seconds for the answer. A handler that has not answered by `first_answer`'s
deadline is answered for with a deferral (a "thinking" message for a command, a silent
acknowledgement for a component), and its own late answer is then carried by the
interaction's webhook: an edit of the original response, or a follow-up. A private answer
never lands in a message everyone sees: a late private answer to a command whose public
"thinking" message went out replaces it (the loading message is deleted, the answer follows
privately). Follow-ups, edits and requests for other interactions pass through unchanged.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any

from discord.webhook.async_ import AsyncWebhookAdapter, async_context

log = logging.getLogger(__name__)

#: Interaction and callback types (Discord's numbers).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
EPHEMERAL = 1 << 6

#: Message fields an interaction callback may carry that an edit of a message may not.
_CALLBACK_ONLY = ("flags", "tts")


def deferral_for(interaction_type: int) -> dict[str, Any]:
    """The callback that acknowledges an interaction of this type when its handler is slow:
    a public "thinking" message for commands (its answer may be public: a private answer
    replaces it), a silent acknowledgement for components and modals (the answer edits the
    message or follows), no choices for autocomplete (it cannot be deferred)."""
    if interaction_type in (MESSAGE_COMPONENT, MODAL_SUBMIT):
        return {"type": DEFERRED_UPDATE_MESSAGE}
    if interaction_type == AUTOCOMPLETE:
        return {"type": AUTOCOMPLETE_RESULT, "data": {"choices": []}}
    return {"type": DEFERRED_CHANNEL_MESSAGE}


def _flags(data: Mapping[str, Any] | None) -> int:
    return int((data or {}).get("flags") or 0)


def _as_edit(data: Mapping[str, Any] | None) -> dict[str, Any]:
    """A callback's message as the body of an edit or a follow-up's fields."""
    return {key: value for key, value in (data or {}).items() if key not in _CALLBACK_ONLY}


class InlineAnswer(AsyncWebhookAdapter):
    """discord.py's webhook adapter for the tasks handling one interaction received over
    HTTP: its first callback becomes the HTTP response (`first_answer`), later ones ride on
    the interaction's token (see the module's docstring)."""

    def __init__(self, payload: Mapping[str, Any]) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # (discord.py's is untyped)
        # One webhook's requests wait for each other whichever interaction's tasks send
        # them: the per-webhook locks are the ones discord.py's own adapter keeps.
        self._locks = async_context.get()._locks
        self.interaction_id = int(payload["id"])
        self.interaction_type = int(payload["type"])
        self.application_id = int(payload["application_id"])
        self.token = str(payload["token"])
        self._first: asyncio.Future[dict[str, Any]] = (
            asyncio.get_running_loop().create_future())
        #: Set once the HTTP response has gone out: only then do the webhook's follow-ups
        #: and edits find the interaction answered.
        self.answered = asyncio.Event()
        #: The callback type this endpoint deferred with for a slow handler (None: the
        #: handler's own first answer went out).
        self.deferred: int | None = None
        #: Whether the "thinking" message this endpoint deferred with is private.
        self._loading_private = False
        #: A private answer is to replace the message the user sees as the original
        #: response (the handler deferred privately after a public or silent deferral went
        #: out): the flags of the follow-up that replaces it, until it is sent.
        self._replace_with: int | None = None
        #: The follow-up that now stands for the original response, once sent.
        self._stand_in: int | None = None

    async def first_answer(self, within: float) -> dict[str, Any]:
        """The body of the HTTP response: the handler's first callback if it comes within
        `within` seconds, else a deferral (`deferral_for`)."""
        with contextlib.suppress(TimeoutError):
            return await asyncio.wait_for(asyncio.shield(self._first), within)
        if self._first.done():
            return self._first.result()
        answer = self._defer()
        log.info("interaction %s was deferred: its handler had not answered in %.1f s",
                 self.interaction_id, within)
        return answer

    def _synthetic(self, kind: int, data: Mapping[str, Any] | None) -> dict[str, Any]:
        """What discord.py reads from a callback's answer (no message resource: the HTTP
        response carries none)."""
        return {"interaction": {"id": str(self.interaction_id), "type": self.interaction_type,
                                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                                "response_message_ephemeral": bool(_flags(data) & EPHEMERAL)}}

    async def create_interaction_response(self, interaction_id: int, token: str, *,
                                          session: Any, proxy: Any = None,
                                          proxy_auth: Any = None, params: Any) -> Any:
        """The interaction's callback: the HTTP response if it is the first in time, its
        late equivalent on the webhook otherwise; another interaction's goes to Discord."""
        if interaction_id != self.interaction_id:
            return await super().create_interaction_response(
                interaction_id, token, session=session, proxy=proxy, proxy_auth=proxy_auth,
                params=params)
        body = (params.payload if params.payload is not None
                else json.loads(params.multipart[0]["value"]))
        kind, data = int(body["type"]), body.get("data")
        if not self._first.done():
            if not params.files:
                self._first.set_result(body)
                await self.answered.wait()
                return self._synthetic(kind, data)
            # Files cannot ride in the HTTP response: acknowledge as for a slow handler
            # (privately if the message is private), then send the message with its files
            # on the webhook.
            self._defer(private=bool(_flags(data) & EPHEMERAL))
        await self.answered.wait()
        await self._late(kind, data, params, session)
        return self._synthetic(kind, data)

    def _defer(self, *, private: bool = False) -> dict[str, Any]:
        """Answer with the deferral for this interaction (`deferral_for`; its "thinking"
        message private with `private`), and return it."""
        answer = deferral_for(self.interaction_type)
        if private and answer["type"] == DEFERRED_CHANNEL_MESSAGE:
            answer["data"] = {"flags": EPHEMERAL}
        self.deferred = int(answer["type"])
        self._loading_private = private
        self._first.set_result(answer)
        return answer

    async def _late(self, kind: int, data: Mapping[str, Any] | None, params: Any,
                    session: Any) -> None:
        """Carry a callback that came after the HTTP response on the interaction's
        webhook, as the user would have seen it had it been in time."""
        # The message the user sees as the original response does not fit the answer: a
        # new message after a silent deferral, a private one after a public "thinking".
        misfit = (self.deferred == DEFERRED_UPDATE_MESSAGE
                  or (bool(_flags(data) & EPHEMERAL) and not self._loading_private))
        if kind == DEFERRED_CHANNEL_MESSAGE:
            if misfit:
                self._replace_with = _flags(data)
            return
        if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
            if kind == CHANNEL_MESSAGE and misfit:
                self._replace_with = _flags(data)
            await self.edit_original_interaction_response(
                self.application_id, self.token, session=session,
                **self._message(params, data))
            return
        if kind != DEFERRED_UPDATE_MESSAGE:
            log.warning("interaction %s: a late callback of type %s cannot be carried "
                        "(Discord takes it only as the first answer)", self.interaction_id,
                        kind)

    @staticmethod
    def _message(params: Any, data: Mapping[str, Any] | None) -> dict[str, Any]:
        """A callback's message as the keyword arguments of a webhook request (its files
        too)."""
        fields = _as_edit(data)
        if not params.files:
            return {"payload": fields}
        multipart = [{"name": "payload_json", "value": json.dumps(fields)},
                     *params.multipart[1:]]
        return {"multipart": multipart, "files": params.files}

    async def edit_original_interaction_response(self, application_id: int, token: str,
                                                 **kwargs: Any) -> Any:
        """An edit of the original response, or of the follow-up that stands for it (a
        private answer replacing a public or silent deferral)."""
        if token != self.token or (self._replace_with is None and self._stand_in is None):
            return await super().edit_original_interaction_response(application_id, token,
                                                                    **kwargs)
        if self._stand_in is not None:
            return await self.edit_webhook_message(application_id, token, self._stand_in,
                                                   **kwargs)
        return await self._replace(application_id, token, kwargs)

    async def execute_webhook(self, webhook_id: int, token: str, **kwargs: Any) -> Any:
        """A follow-up; the first after a private deferral this endpoint could not give
        replaces the message the user sees as the original response."""
        if token != self.token or self._replace_with is None:
            return await super().execute_webhook(webhook_id, token, **kwargs)
        return await self._replace(webhook_id, token, kwargs)

    async def _replace(self, application_id: int, token: str, kwargs: dict[str, Any]) -> Any:
        """Send `kwargs`' message as the follow-up that stands for the original response,
        with the flags the handler deferred with; a public "thinking" message this endpoint
        sent is deleted first (it stays empty otherwise)."""
        flags = self._replace_with or 0
        self._replace_with = None
        if self.deferred == DEFERRED_CHANNEL_MESSAGE:
            await self.delete_original_interaction_response(application_id, token,
                                                            session=kwargs["session"])
        kwargs = dict(kwargs)
        if kwargs.get("multipart"):
            fields = json.loads(kwargs["multipart"][0]["value"])
            fields["flags"] = _flags(fields) | flags
            kwargs["multipart"] = [{"name": "payload_json", "value": json.dumps(fields)},
                                   *kwargs["multipart"][1:]]
        else:
            fields = dict(kwargs.get("payload") or {})
            fields["flags"] = _flags(fields) | flags
            kwargs["payload"] = fields
        kwargs["wait"] = True
        kwargs.pop("thread_id", None)
        message: Any = await super().execute_webhook(application_id, token, **kwargs)
        self._stand_in = int(message["id"])
        return message
