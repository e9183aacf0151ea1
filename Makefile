# Every target sets up what it needs from a fresh clone: a .venv in the repo, uv inside it,
# then the locked dependencies (uv.lock) and the project itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.9
STAMP := $(VENV)/.synced

.PHONY: setup extras baselines run play test lint typecheck check bench simulate clean

setup: $(STAMP)

$(STAMP): pyproject.toml uv.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv sync --locked --quiet
	touch $(STAMP)

## Serve the web platform at http://127.0.0.1:8000/ (lobby, tables, live play; SQLite in merchantry.db).
run: setup
	$(BIN)/merchantry serve

## Play Money in the terminal against three medium bots (you are seat 1 of 4).
play: setup
	$(BIN)/merchantry play money --players 4

## Lint, type-check, then the whole test suite on both cores, with the optional extras (Ray, the RL
## adapters) installed: they are tested for real.
test: setup extras lint typecheck
	$(BIN)/pytest -n 2

extras: setup
	$(BIN)/uv sync --locked --quiet --all-extras --no-extra baselines
	# axe-core for the browser tests' accessibility check, from npm (skipped where npm is missing)
	if command -v npm >/dev/null 2>&1; then npm ci --prefix tests/accessibility --no-audit --no-fund --silent; fi

## The extras plus sb3-contrib and PyTorch (a few GB) for the RL baselines (docs/rl.md, "Baselines").
baselines: setup
	$(BIN)/uv sync --locked --quiet --all-extras

lint: setup
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: setup
	$(BIN)/mypy

bench: setup
	$(BIN)/python benchmarks/bench_engine.py

simulate: setup
	$(BIN)/merchantry simulate money --players 4 --games 1000 --bots greedy,random,random,random --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
