# Every target sets up what it needs from a fresh clone: a .venv in the repo, uv inside it,
# then the locked dependencies (uv.lock) and the project itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV_VERSION := 0.13.9
STAMP := $(VENV)/.synced
# The compiled engine (native_build.py): mypyc extensions of these sources, loaded while they are unchanged
NATIVE := src/merchantry/_native/manifest.json
NATIVE_SOURCES := src/merchantry/engine.py $(addprefix src/merchantry/rl/,encoding.py episode.py table.py) \
	$(wildcard $(addprefix src/merchantry/games/*/,rules.py actions.py components.py game.py scoring.py \
	encoding.py native.txt)) \
	$(foreach game,$(wildcard src/merchantry/games/*/native.txt),$(patsubst %,$(dir $(game))%.py,$(shell sed -e 's/\#.*//' $(game))))
# The tests run on both builds: everything on pure Python, the games' courses also on the compiled one, and
# the compiled RL observers against the views' encodings and OpenSpiel's checks (cloned tables and episodes)
COURSE_TESTS := tests/conformance tests/test_golden.py tests/test_course_fingerprints.py tests/test_build.py \
	tests/test_api_promise.py tests/rl/test_observers.py tests/rl/test_openspiel.py

.PHONY: setup compiled extras baselines run play test lint typecheck check bench simulate clean

setup: $(STAMP) $(NATIVE)

$(STAMP): pyproject.toml uv.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	test -x $(BIN)/uv || $(BIN)/python -m pip install --quiet uv==$(UV_VERSION)
	$(BIN)/uv sync --locked --quiet
	touch $(STAMP)

## Build the compiled engine (mypyc; skipped with a notice where there is no C compiler or Python headers).
compiled: $(NATIVE)

$(NATIVE): $(STAMP) $(NATIVE_SOURCES) native_build.py
	$(BIN)/python native_build.py

## Serve the web platform at http://127.0.0.1:8000/ (lobby, tables, live play; SQLite in merchantry.db).
run: setup
	$(BIN)/merchantry serve

## Play Money in the terminal against three medium bots (you are seat 1 of 4).
play: setup
	$(BIN)/merchantry play money --players 4

## Lint, type-check, then the whole test suite on both cores, with the optional extras (Ray, the RL
## adapters) installed: they are tested for real. The suite runs on pure Python, then the conformance
## suite (on 50 of its 200 seeds), golden playthroughs, course fingerprints and the RL observers and
## OpenSpiel checks again on the compiled build (where it can be built).
test: setup extras lint typecheck
	MERCHANTRY_PURE=1 $(BIN)/pytest -n 2 --durations=15
	MERCHANTRY_EXPECT_COMPILED=1 MERCHANTRY_CONFORMANCE_SEEDS=50 $(BIN)/pytest -n 2 $(COURSE_TESTS)

extras: setup
	$(BIN)/uv sync --locked --quiet --all-extras --no-extra baselines
	# axe-core for the browser tests' accessibility check, from npm (skipped where npm is missing)
	if command -v npm >/dev/null 2>&1; then npm ci --prefix tests/accessibility --no-audit --no-fund --silent; fi

## The extras plus sb3-contrib and PyTorch (a few GB) for the RL baselines (docs/rl.md, "Baselines").
baselines: setup
	$(BIN)/uv sync --locked --quiet --all-extras

lint: setup
	$(BIN)/ruff check src tests benchmarks examples tools native_build.py hatch_build.py
	$(BIN)/ruff format --check src tests benchmarks examples tools native_build.py hatch_build.py

typecheck: setup
	$(BIN)/mypy

## Engine speed (compiled, pure Python and main before issue 30, side by side), then the RL adapters'
## steps/s on each build. Long: several minutes.
bench: extras
	nice -n 10 $(BIN)/python benchmarks/bench_engine.py
	nice -n 10 $(BIN)/python benchmarks/bench_rl.py --seconds 1
	MERCHANTRY_PURE=1 nice -n 10 $(BIN)/python benchmarks/bench_rl.py --seconds 1

simulate: setup
	$(BIN)/merchantry simulate money --players 4 --games 1000 --bots greedy,random,random,random --seed 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache src/merchantry/_native
