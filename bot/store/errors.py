"""The store's errors.

Two kinds, told apart by their base classes:

* Problems for the person running the bot (`SchemaTooNew`, `MigrationFailed`, `StoreClosed`,
  `ConstraintViolation`, `DatabaseUnavailable`)
  derive only from `StoreError`. Their messages name the file and what to do, but they are not
  for players: the bot logs them and apologises.
* Refusals a player can cause (a stale button, a taken seat, a card name in use) also derive
  from `MahjongError`, so the Discord layer's single rule — show the message of a
  `MahjongError`, apologise for anything else — covers them with no translation.

Every class has a stable `code`, like the engine's errors.
"""

from __future__ import annotations

from bot.engine.errors import MahjongError, echo


class StoreError(Exception):
    """Base of every error the store raises on purpose."""

    code = "store_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- for whoever runs the bot -------------------------------------------------------------------


class StoreClosed(StoreError):
    """The database was used before `connect()` or after `close()`."""

    code = "store_closed"


class SchemaTooNew(StoreError):
    """The database file was written by a newer Jongg than this one."""

    code = "schema_too_new"

    def __init__(self, path: str, found: int, known: int) -> None:
        super().__init__(
            f"The database {path} has schema version {found}, but this Jongg only knows "
            f"versions up to {known}. Upgrade Jongg, or point it at a copy made by this version."
        )
        self.found = found
        self.known = known


class NotAJonggDatabase(StoreError):
    """The file is an SQLite database that some other program owns."""

    code = "not_jongg_database"


class MigrationFailed(StoreError):
    """A schema migration raised; the database is left as it was before that migration."""

    code = "migration_failed"

    def __init__(self, version: int, name: str, reason: str) -> None:
        super().__init__(
            f"Schema migration {version:04d} ({name}) failed and was rolled back, so the "
            f"database is unchanged by it: {reason}"
        )
        self.version = version
        self.name = name


class MigrationChanged(StoreError):
    """A migration the database recorded is not the one this Jongg ships (its checksum
    differs): the database's schema may not be what the code expects."""

    code = "migration_changed"

    def __init__(self, target: str, version: int, name: str) -> None:
        super().__init__(
            f"The database {target} applied schema migration {version:04d} ({name}) from a "
            "different text than this Jongg ships. Use the Jongg version that made it, or "
            "restore the shipped migration files."
        )
        self.version = version
        self.name = name


class ConstraintViolation(StoreError):
    """A statement broke a rule of the schema (a foreign key, a CHECK, a unique key, an
    append-only log): a bug or a race, never a player's doing. The message is the
    database's own."""

    code = "constraint_violation"


class DatabaseUnavailable(StoreError):
    """The database can't be reached right now: the server refused or dropped the
    connection, is shutting down or starting up, or the file is locked by another program
    or can't be read or written. Raised when connecting and by any statement after, never
    for a statement's own fault (a constraint, a bug), so whoever meets it may wait and try
    again. The failed transaction was rolled back, unless the connection broke during its
    commit: then the server alone knows whether it was written."""

    code = "database_unavailable"


# -- refusals a player may see ------------------------------------------------------------------


class StoreRefusal(StoreError, MahjongError):
    """Something a player asked for that the stored state does not allow; safe to show."""

    code = "store_refusal"


class BadTarget(StoreRefusal):
    """A database target that is neither a file path nor a well-formed PostgreSQL URL (a
    typo in JONGG_DB, another database's URL): refused before anything connects."""

    code = "bad_target"


class CopyRefused(StoreRefusal):
    """`jongg db copy` will not copy these databases (the target holds data, they are one
    database, the source's schema is not this version's, …); nothing was written. The
    message says why and what to do."""

    code = "copy_refused"


class NotFound(StoreRefusal):
    """A game, seat or card that does not exist (or belongs to another server)."""

    code = "not_found"


class GameNotFound(NotFound):
    """No such game (or not on this server)."""

    code = "game_not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"I can't find game #{game_id}. It may have been on another server.")
        self.game_id = game_id


class CardNotFound(NotFound):
    """No server card by that name or id on this server."""

    code = "card_not_found"

    def __init__(self, name: str | None) -> None:
        what = "such card" if name is None else f"card called `{echo(name)}`"
        super().__init__(f"This server has no {what}. Check the name against the server's cards.")
        self.name = name


class SeqConflict(StoreRefusal):
    """An action was appended for a position in the log that is already taken (or not yet
    reached): someone else acted first, or the button was from an older moment of the game."""

    code = "seq_conflict"

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            "The table moved on before that went through, so I didn't apply it. "
            "Use the buttons on the latest table message."
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class WrongStatus(StoreRefusal):
    """The game is not in a state that allows this (joining a started game, playing a
    finished one)."""

    code = "wrong_status"


class SeatTaken(StoreRefusal):
    """Somebody already holds that seat."""

    code = "seat_taken"


class AlreadySeated(StoreRefusal):
    """That person already holds another seat at this table."""

    code = "already_seated"


class SeatEmpty(StoreRefusal):
    """Nobody holds that seat."""

    code = "seat_empty"


class TableFull(StoreRefusal):
    """Every seat of the table is taken."""

    code = "table_full"


class TableNotFull(StoreRefusal):
    """A game cannot start until every seat is held."""

    code = "table_not_full"


class CardNameTaken(StoreRefusal):
    """The server already has a card by that name."""

    code = "card_name_taken"

    def __init__(self, name: str) -> None:
        super().__init__(
            f"This server already has a card called `{name}`. Pick another name, or choose "
            "to replace it."
        )
        self.name = name


class BadCardUpload(StoreRefusal):
    """A card name or file that the store will not keep (too long, empty, odd characters)."""

    code = "bad_card_upload"
