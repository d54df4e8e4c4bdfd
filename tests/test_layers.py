"""The layer rules, checked by reading every module's imports with `ast`.

* `bot/engine` is pure: the standard library (minus discord-era I/O: sqlite3, asyncio), numpy
  and `bot.engine` itself. Never discord, PIL, aiosqlite, or any other package.
* `renderer/` depends on nothing of `bot`.
* Each package of `bot` imports only packages of lower layers (`LAYERS`), and the Discord layer
  never reaches the store: it asks the table service and the league service.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "bot" / "engine"
RENDERER = ROOT / "renderer"

#: Never in the engine, even though some are in the standard library.
FORBIDDEN_IN_ENGINE = frozenset({"discord", "PIL", "sqlite3", "aiosqlite", "asyncio"})
ALLOWED_PACKAGES = frozenset({"numpy"})
DYNAMIC_IMPORTS = frozenset({"__import__", "import_module"})


def imported_modules(source: str) -> list[str]:
    """Every absolute module a source file imports (`from bot import engine` counts as
    `bot.engine`); relative imports are left out, as they stay inside the package. A dynamic
    import shows up as `<dynamic import>`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == "bot":
                found.extend(f"bot.{alias.name}" for alias in node.names)
            else:
                found.append(node.module)
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in DYNAMIC_IMPORTS:
                found.append("<dynamic import>")
    return found


def engine_violations(source: str) -> list[str]:
    """Imports a module of `bot/engine` may not make."""
    bad = []
    for module in imported_modules(source):
        top = module.split(".")[0]
        inside = module == "bot.engine" or module.startswith("bot.engine.")
        allowed = top in sys.stdlib_module_names or top in ALLOWED_PACKAGES
        if top in FORBIDDEN_IN_ENGINE or not (inside or allowed):
            bad.append(module)
    return bad


def renderer_violations(source: str) -> list[str]:
    """Imports a module of `renderer/` may not make."""
    return [m for m in imported_modules(source) if m == "bot" or m.startswith("bot.")
            or m == "<dynamic import>"]


def modules_under(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


# -- the checker itself can fail ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("import discord", ["discord"]),
        ("from discord.ext import commands", ["discord.ext"]),
        ("from PIL import Image", ["PIL"]),
        ("import sqlite3", ["sqlite3"]),
        ("import aiosqlite", ["aiosqlite"]),
        ("import asyncio.locks", ["asyncio.locks"]),
        ("def f():\n    import asyncio\n", ["asyncio"]),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import discord\n",
         ["discord"]),
        ("import requests", ["requests"]),
        ("from bot.tables import service", ["bot.tables"]),
        ("from bot import store", ["bot.store"]),
        ("import renderer", ["renderer"]),
        ("import importlib\nimportlib.import_module('discord')", ["<dynamic import>"]),
        ("import json, re\nimport numpy as np\nfrom numpy import typing\n"
         "from bot.engine.tiles import JOKER\nfrom bot.engine import matcher\n"
         "from . import tiles\nfrom __future__ import annotations\n", []),
    ],
)
def test_engine_checker(source: str, bad: list[str]) -> None:
    assert engine_violations(source) == bad


@pytest.mark.parametrize(
    ("source", "bad"),
    [
        ("from bot.engine.tiles import parse_tiles", ["bot.engine.tiles"]),
        ("import bot", ["bot"]),
        ("from bot import engine", ["bot.engine"]),
        ("from PIL import Image\nfrom .text import draw\nimport botany", []),
    ],
)
def test_renderer_checker(source: str, bad: list[str]) -> None:
    assert renderer_violations(source) == bad


# -- the real tree -----------------------------------------------------------------------------


def test_the_walk_finds_the_modules() -> None:
    engine = {p.relative_to(ENGINE).as_posix() for p in modules_under(ENGINE)}
    assert {"tiles.py", "matcher.py", "errors.py", "cards/parser.py"} <= engine
    assert modules_under(RENDERER)


@pytest.mark.parametrize("path", modules_under(ENGINE),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_engine_modules_are_pure(path: Path) -> None:
    bad = engine_violations(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}; bot/engine is pure"


@pytest.mark.parametrize("path", modules_under(RENDERER),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_renderer_imports_nothing_from_bot(path: Path) -> None:
    bad = renderer_violations(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}; renderer must not use bot"


# -- sizes -------------------------------------------------------------------------------------

BOT = ROOT / "bot"
#: Lines a source file under bot/ may have (DESIGN.md: split a module that holds two ideas).
MAX_FILE_LINES = 700
#: Lines one class may span.
MAX_CLASS_LINES = 400


def oversize(source: str, name: str) -> dict[str, int]:
    """The file (`name`) and the classes in `source` over the limits, with their lengths in
    lines (a class from its `class` line to its last)."""
    found: dict[str, int] = {}
    lines = len(source.splitlines())
    if lines > MAX_FILE_LINES:
        found[name] = lines
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
            span = node.end_lineno - node.lineno + 1
            if span > MAX_CLASS_LINES:
                found[f"{name}::{node.name}"] = span
    return found


def test_the_size_checker_finds_long_files_and_classes() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    assert oversize(f"class Big:\n{body}\n", "big.py") == {"big.py::Big": MAX_CLASS_LINES + 1}
    long = "\n".join("x = 1" for _ in range(MAX_FILE_LINES + 1))
    assert oversize(long, "long.py") == {"long.py": MAX_FILE_LINES + 1}
    assert oversize("class Small:\n    pass\n", "small.py") == {}


def test_no_file_or_class_under_bot_is_over_the_size_limits() -> None:
    found: dict[str, int] = {}
    for path in modules_under(BOT):
        name = path.relative_to(ROOT).as_posix()
        found.update(oversize(path.read_text(encoding="utf-8"), name))
    offenders = sorted(f"{name}: {lines} lines" for name, lines in found.items())
    assert not offenders, (f"over {MAX_FILE_LINES} lines a file or {MAX_CLASS_LINES} a class: "
                           f"{offenders}")


# -- packages ----------------------------------------------------------------------------------

#: Each package of `bot` (a folder, or a module directly in bot/) by its layer, lowest first,
#: as docs/architecture.md draws them: a package may import packages of lower layers only.
LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer.split()) for layer in (
    "engine loopwatch progress",                      # pure rules; tools with no bot inside
    "renderer",                                       # pictures from plain data
    "files",                                          # reading people's files, bounded
    "library",                                        # the data Jongg ships
    "rules bots analysis card_reading",               # knowledge of the game
    "store",                                          # every SQL statement
    "server_cards",                                   # a server's own cards, kept in the store
    "league",                                         # seasons, standings, ratings
    "tables",                                         # the table service
    "scenes",                                         # a seat's view made into scenes
    "discord terminal",                               # the two front ends
    "demo supervisor",                                # what the command line builds on
    "bench",                                          # jongg bench
    "cli",                                            # the jongg command line
    "__main__",                                       # python -m bot
))


def package_of(module: str) -> str | None:
    """The package of `bot` (or `renderer`) a module belongs to, None for others."""
    parts = module.split(".")
    if parts[0] == "renderer":
        return "renderer"
    return parts[1] if parts[0] == "bot" and len(parts) > 1 else None


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def layer_of(package: str) -> int:
    return next(rank for rank, layer in enumerate(LAYERS) if package in layer)


def package_imports() -> dict[tuple[str, str], list[str]]:
    """(importing package, imported package) -> the modules making such an import."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in modules_under(BOT) + modules_under(RENDERER):
        name = module_name(path)
        source = package_of(name)
        for imported in imported_modules(path.read_text(encoding="utf-8")):
            target = package_of(imported)
            if source is not None and target is not None and target != source:
                found.setdefault((source, target), []).append(name)
    return found


def test_every_package_has_a_layer() -> None:
    packages = {package_of(module_name(p)) for p in modules_under(BOT) + modules_under(RENDERER)}
    placed = set().union(*LAYERS)
    assert packages - {None, "__init__"} <= placed, f"not in LAYERS: {packages - placed}"


def test_packages_import_only_lower_layers_so_no_two_import_each_other() -> None:
    upward = {f"{source} -> {target} ({', '.join(sorted(set(modules)))})"
              for (source, target), modules in package_imports().items()
              if layer_of(target) >= layer_of(source)}
    assert not upward, f"imports of a package of the same or a higher layer: {sorted(upward)}"


def store_handles(source: str) -> list[str]:
    """Every expression of a source that reads a `db` attribute (`client.db`,
    `service.db.games`): the store's handle, wherever it was found."""
    return [ast.unparse(node) for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and node.attr == "db"]


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("game = await client.db.games.game(1)", ["client.db"]),
        ("x = interaction.client.service.db", ["interaction.client.service.db"]),
        ("db = 1\nclient.dbs\nf(db)", []),
    ],
)
def test_store_handle_checker(source: str, found: list[str]) -> None:
    assert store_handles(source) == found


def test_the_discord_layer_never_reaches_the_store() -> None:
    """The Discord layer translates between Discord and the services (the table service, the
    league service): the store is theirs. No module of bot/discord imports it or holds it."""
    importing = sorted(set(package_imports().get(("discord", "store"), [])))
    assert not importing, (f"Discord modules importing the store: {importing}; ask the table "
                           "service or the league service instead")
    holding = {module_name(path): handles for path in modules_under(BOT / "discord")
               if (handles := store_handles(path.read_text(encoding="utf-8")))}
    assert not holding, f"Discord modules reading the store's handle: {holding}"


def test_packages_are_named_and_ranked_as_the_architecture_draws_them() -> None:
    assert package_of("bot.tables.moves") == "tables"
    assert package_of("renderer.tiles") == "renderer" and package_of("discord.ui") is None
    assert layer_of("tables") > layer_of("league") > layer_of("store") > layer_of("engine")
    assert layer_of("discord") == layer_of("terminal") > layer_of("scenes")
