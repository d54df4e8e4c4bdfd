#!/usr/bin/env bash
# Install Jongg with its test tools into .venv, then run every check CI runs:
# lint, types (mypy --strict on the engine and renderer), the shipped cards, a quick
# benchmark smoke run, and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet -e ".[test]"
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/jongg card check data/cards/*.jongg
.venv/bin/jongg bench cards --quick
.venv/bin/pytest -n auto
