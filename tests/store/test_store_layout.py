"""The store's pieces are in the files their names say: each part of `Database` (`db.clocks`,
`db.outbox`, …) in the module of its name, the SQL of a table in the module that owns it,
and the values of the store's enums (a game's status, an outbox entry's state) passed as
parameters from the enums rather than spelled out in SQL."""

from __future__ import annotations

import ast
import re
from enum import Enum
from pathlib import Path

from bot.store import Database, league_models, models
from bot.store.rows import Part

STORE = Path(__file__).resolve().parents[2] / "bot" / "store"
#: The tables whose SQL belongs to one module each, by table.
OWNERS = {
    "actions": "actions",
    "clocks": "clocks",
    "outbox": "outbox",
    "outbox_claims": "outbox",
    "server_cards": "cards",
    "dm_channels": "players",
    "vacations": "vacations",
    "request_budgets": "budgets",
    "guild_audit": "guilds",
}
#: The modules about the database itself (connections, migrations, copying), whose SQL
#: reads the database's own catalogue.
MACHINERY = {"sqlite_backend", "pg_backend", "migrate", "copy", "throwaway"}
_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)")


def _strings() -> list[tuple[str, int, str]]:
    """Every string constant in the store's modules: module, line, text."""
    found = []
    for path in sorted(STORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((path.stem, node.lineno, node.value))
    return found


def test_each_part_of_the_database_lives_in_the_module_its_name_says(tmp_path: Path) -> None:
    parts = {name: part for name, part in vars(Database(tmp_path / "jongg.db")).items()
             if isinstance(part, Part)}
    assert {"actions", "clocks", "outbox", "games"} <= parts.keys()
    assert {name: type(part).__module__ for name, part in parts.items()} == {
        name: f"bot.store.{name}" for name in parts}


def test_the_sql_of_each_table_is_in_the_module_that_owns_it() -> None:
    named = {(module, line, table) for module, line, text in _strings()
             for table in _TABLE.findall(text) if table in OWNERS}
    assert {table for _, _, table in named} == OWNERS.keys()
    assert sorted(f"{module}.py:{line} names {table}" for module, line, table in named
                  if module != OWNERS[table]) == []


def test_the_sql_takes_the_values_of_the_stores_enums_from_the_enums() -> None:
    values = {f"'{member.value}'" for module in (models, league_models)
              for kind in vars(module).values()
              if isinstance(kind, type) and issubclass(kind, Enum) and kind is not Enum
              for member in kind if isinstance(member.value, str)}
    assert "'sent'" in values and "'playing'" in values
    assert sorted(f"{module}.py:{line} spells {value}" for module, line, text in _strings()
                  if module not in MACHINERY for value in values if value in text) == []
