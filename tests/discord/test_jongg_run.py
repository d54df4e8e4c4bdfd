"""`jongg run` without a token explains how to get one and exits 1, with no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("dotenv", [None, "DISCORD_TOKEN=\n"], ids=["no .env", "empty token"])
def test_run_without_a_token_prints_guidance(tmp_path: Path, dotenv: str | None) -> None:
    if dotenv is not None:
        (tmp_path / ".env").write_text(dotenv)
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run([sys.executable, "-m", "bot", "run"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert "needs a Discord bot token" in result.stderr
    assert "DISCORD_TOKEN=" in result.stderr and "jongg play" in result.stderr
    assert not (tmp_path / "jongg.sqlite3").exists()  # nothing was created
