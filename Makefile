# Blackjack Trivia — the two set-up commands are `make run` and `make test`.
# Both are idempotent: the virtualenv is (re)installed only when a lock file changes.
# requirements/*.txt pin every Python package with its hashes; they are compiled from the
# ranges in pyproject.toml by `make lock` (uv pip compile) and installed by plain pip.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: run test lint format coverage bench accelerated clean-venv lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files remember what was installed from which lock file. The project itself is run
# in place (manage.py, pytest's rootdir), so it is not pip-installed.
$(VENV)/.installed-app: requirements/app.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/app.txt
	@touch $@

$(VENV)/.installed-test: requirements/test.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/test.txt
	@touch $(VENV)/.installed-app $@

# Re-pin after changing a range in pyproject.toml (needs the test install for uv).
LOCK := $(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes -q
lock: $(VENV)/.installed-test
	$(LOCK) -o requirements/app.txt
	$(LOCK) --extra test --extra dev -o requirements/test.txt

# axe-core for the accessibility scans; skipped quietly where npm is absent (the browser
# tests then skip the scan outside CI and fail it under CI=true).
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --no-audit --no-fund --silent && touch $@; \
	else echo "npm not found: accessibility scans will be skipped"; fi

run: $(VENV)/.installed-app
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_default_questions
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The whole suite, browser tests included, with the rules engine's coverage gate; on every
# core (pytest-xdist). "worksteal" gives each worker a run of consecutive tests (a file's
# module fixtures are mostly made once) and rebalances at the end; when a worker dies it
# hands the dead worker's tests on, where xdist 3.8's per-file scheduling can wait for ever.
TEST_WORKERS ?= auto
test: $(VENV)/.installed-test node_modules/.installed
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --cov=game/rules --cov-report=term:skip-covered \
		--cov-fail-under=95 $(PYTEST_ARGS)

# Style, the import contracts of pyproject.toml's [tool.importlinter] (the layers only point
# down, no cycles), and types ([tool.mypy]: the rules engine and the apps strict).
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The optional mypyc build of the engine's hot modules (game/rules/accelerated.py), rebuilt
# only when their sources changed; the simulator uses it with --accelerated.
accelerated: $(VENV)/.installed-test
	$(BIN)/python bench/build_accelerated.py --if-needed

bench: accelerated
	@for script in bench/*_bench.py; do echo "== $$script"; $(BIN)/python $$script || exit 1; done
	@echo "== bench/tables_bench.py flat out, 50 players (the stress figure; the goals are the default run's, above: 500 players and 100 watchers at human pace)"
	@$(BIN)/python bench/tables_bench.py --players 50 --tables 10 --watchers 10 --think 0 --seconds 30 --idle-seconds 5 --arrive-seconds 5

clean-venv:
	rm -rf $(VENV)
