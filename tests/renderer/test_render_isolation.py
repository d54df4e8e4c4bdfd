"""The renderer stands alone: it imports Pillow and the standard library, never `bot`."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import renderer

PACKAGE = Path(renderer.__file__).parent


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return names


def test_renderer_modules_import_nothing_of_bot() -> None:
    allowed_roots = {"renderer", "PIL", "__future__", *sys.stdlib_module_names}
    for path in sorted(PACKAGE.glob("*.py")):
        for name in _imports(path):
            assert name.split(".")[0] in allowed_roots, f"{path.name} imports {name}"


def test_importing_the_renderer_loads_no_bot_module() -> None:
    code = ("import sys, renderer; "
            "sys.exit(any(m == 'bot' or m.startswith('bot.') for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
