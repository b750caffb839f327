# Two commands for a fresh machine: `make serve` and `make test`.
# Prefer the distribution's CPython: built with PGO and LTO, it runs the engine about twice
# as fast as an unoptimised source build (docs/performance.md, "The machine, and how to compare").
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
	command -v $$p >/dev/null && $$p -c 'import sys, venv; assert sys.version_info >= (3, 11)' \
	2>/dev/null && { echo $$p; break; }; done)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Browser tests drive Debian's Chromium (never a downloaded one).
CHROMIUM := /usr/bin/chromium
# The browser tests' accessibility audit: axe-core from the npm registry, in the venv.
AXE    := $(VENV)/node/node_modules/axe-core/axe.min.js
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: install serve test lint bench smoke mutation trump-model clean

# The solver's C inner loop is built by the editable install: a changed source reinstalls.
$(STAMP): pyproject.toml engine/_solver.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) $(AXE)

$(AXE):
	npm install --prefix $(VENV)/node --no-audit --no-fund --loglevel=error axe-core@4

$(CHROMIUM):
	DEBIAN_FRONTEND=noninteractive apt-get install -y chromium \
		|| { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

serve: $(STAMP)
	$(BIN)/klaverjas serve

test: $(STAMP) $(CHROMIUM) $(AXE)
	$(BIN)/ruff check .
	PYTHONASYNCIODEBUG=1 $(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

bench: $(STAMP)
	$(BIN)/python bench/engine.py

# Every bench in bench/ for a few seconds (bench/smoke.py; CI runs it after the tests):
# fails on an error, a traceback, a bench that did no work, or one that has no entry.
smoke: $(STAMP)
	$(BIN)/python bench/smoke.py

# Mutation score of the engine and of the server's folds (bench/mutation.py; targets in
# pyproject.toml).  Long: `make mutation TARGETS=engine` runs one.
mutation: $(STAMP)
	nice $(BIN)/python bench/mutation.py $(TARGETS)

# The strong player's trump choice, both models, each step resumable (its deals are kept in
# the .jsonl file, and a new run makes only those missing): the evaluator
# (engine/policies/trump_weights.py) from the exact solver, 6,000 deals solved eight times
# each, about 13 minutes on two cores; then when to name in the bidding
# (engine/policies/bid_weights.py) from play, with that evaluator: 3,000 deals played
# twice, about 40 minutes.
trump-model: $(STAMP)
	$(BIN)/klaverjas trump-model --deals 6000 --seed 1 --data trump-data.jsonl
	$(BIN)/klaverjas bid-model --deals 3000 --seed 2 --data bid-data.jsonl

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis .mutation
