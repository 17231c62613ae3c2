# tablelog — set-up and everyday commands. Each target creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The demo's log: a fresh folder of its own per run (two `make demo` at once never share one),
# or the path given as DEMO_LOG=…
DEMO_LOG ?=
DEMO_DIRS := $${TMPDIR:-/tmp}/tablelog-demo-$(shell id -u)-*
LOCALE := tablelog/lang/locale
# What tablelog supports (pyproject.toml: requires-python); exit status 0 when it holds.
SUPPORTED := import sys; sys.exit(sys.version_info < (3, 11))

.PHONY: demo test test-slow bench bench-server bench-store lint clean compile catalogues docs screenshots new-system frozen FORCE

# What the demo runs: tablelog alone, as `pip install tablelog` gives it (every file-store
# command; the editable install compiles the catalogues). The server, PostgreSQL, signatures and
# the report's charts are extras (pyproject.toml); the demo needs none.
$(BIN)/tablelog: pyproject.toml $(VENV)/python-version
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(BIN)/tablelog

# What the checks run: tablelog with every extra, the test tools and the pinned linters.
TESTED := $(VENV)/tests-installed
$(TESTED): pyproject.toml $(VENV)/python-version
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	$(MAKE) --no-print-directory compile
	touch $@

## compile: the message catalogues the package ships (tablelog/lang/locale/*/LC_MESSAGES/*.mo),
## compiled from their .po sources by Babel (never by hand; the wheel's build compiles them too)
compile:
	$(BIN)/pybabel compile -D tablelog -d $(LOCALE) --statistics 2>&1 | grep -v '^compiling' || true
	@test -f $(LOCALE)/ja/LC_MESSAGES/tablelog.mo && test -f $(LOCALE)/ko/LC_MESSAGES/tablelog.mo

## catalogues: extract every sentence (the code's msg() templates, the commands' help, the rule
## reference, click's own messages: babel.cfg) into tablelog.pot and update the ja and ko
## catalogues from it (new entries empty, removed ones dropped); then translate and `make compile`
catalogues: $(TESTED)
	$(BIN)/pybabel extract -F babel.cfg -k msg:1c,2 -k msgn:1c,2,3 --no-location --sort-output \
	  --no-wrap --omit-header -o $(LOCALE)/tablelog.pot tablelog \
	  "$$($(BIN)/python -c 'import click, os; print(os.path.dirname(click.__file__))')"
	$(BIN)/pybabel update -D tablelog -i $(LOCALE)/tablelog.pot -d $(LOCALE) --no-wrap \
	  --no-fuzzy-matching --ignore-obsolete
	$(MAKE) --no-print-directory compile

## The interpreter .venv was made by. A .venv made by an unsupported Python (or one whose
## Python no longer runs) is removed and made again with $(PYTHON), never reused; the file
## changes only when the interpreter does, so the install above reruns only then.
$(VENV)/python-version: FORCE
	@if ! $(BIN)/python -c '$(SUPPORTED)' 2>/dev/null; then \
	  if [ -e $(VENV) ]; then \
	    echo "$(VENV) was made by an unsupported Python ($$($(BIN)/python -V 2>&1 || echo 'it no longer runs')): making it again"; \
	    rm -rf $(VENV); \
	  fi; \
	  $(PYTHON) -c '$(SUPPORTED)' || { echo "tablelog needs Python >= 3.11; $(PYTHON) is $$($(PYTHON) -V 2>&1): run make PYTHON=python3.12 …"; exit 1; }; \
	  $(PYTHON) -m venv $(VENV); \
	fi
	@$(BIN)/python -V > $@.new 2>&1; if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

FORCE:

## demo: run the real Pathfinder 2e downtime session on a fresh log and print its final state
demo: $(BIN)/tablelog
	@set -e; log='$(DEMO_LOG)'; \
	if [ -z "$$log" ]; then \
	  log="$$(mktemp -d "$${TMPDIR:-/tmp}/tablelog-demo-$$(id -u)-XXXXXX")/demo.tlog"; \
	else rm -f "$$log" "$$log.lock" "$$log.snap"; fi; \
	echo "$(BIN)/tablelog --log $$log run examples/pf2e-downtime.txt"; \
	$(BIN)/tablelog --log "$$log" run examples/pf2e-downtime.txt; \
	$(BIN)/tablelog --log "$$log" state; \
	echo "tablelog is in $(BIN): run $(BIN)/tablelog --log $$log shell, or: source $(BIN)/activate"

## test: the checks (make lint), then the test suite but its slow tests, on every core
## (pytest-xdist); test-slow: the slow ones (marked slow: crashes, fuzzing, the browser tests);
## CI and the README run both: make test test-slow
test: lint
	$(BIN)/python -m pytest -n auto -m "not slow"

test-slow: $(TESTED)
	$(BIN)/python -m pytest -n auto -m slow

## lint: the format check, ruff's rules (pyproject.toml), mypy --strict on the package, and the
## import contracts (pyproject.toml [tool.importlinter]: the layers, no cycles)
lint: $(TESTED)
	$(BIN)/ruff format --check tablelog tests bench tools
	$(BIN)/ruff check tablelog tests bench tools
	$(BIN)/mypy --strict tablelog tools
	$(BIN)/lint-imports --no-cache

## bench: the benchmarks (not part of test); prints a table, writes bench/results.json.
## It byte-compiles first, as an ordinary install does: timings must not include compiling
## sources (where PYTHONDONTWRITEBYTECODE is set, nothing else writes .pyc files).
bench: $(BIN)/tablelog
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q tablelog tests/support bench $(VENV)/lib > /dev/null
	$(BIN)/python bench/run.py

## bench-server: the table server over HTTP on loopback, file store and PostgreSQL, beside
## eventsourcing's PostgreSQL recorder and pgbench (not part of test); uses $TABLELOG_TEST_PG,
## else a throwaway pgserver; writes bench/results-server.json
bench-server: $(BIN)/tablelog
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q tablelog tests/support bench $(VENV)/lib > /dev/null
	$(BIN)/python bench/server.py

## docs: regenerate the command references in docs/ (docs/COMMANDS.md and each system's doc) from
## the commands' own --help, in English at a fixed width (tools/helpdoc.py); a test
## (tests/contract/test_docs.py) fails while one is stale
docs: $(TESTED)
	$(BIN)/python -m tools.helpdoc

## new-system: a fifth system's working stubs in every layer, its registry line, doc, rules.toml
## block, README line, import contracts and campaign script (tools/new_system.py): make
## new-system NAME=zeta; then make frozen SYSTEM=zeta and docs/ARCHITECTURE.md's checklist
new-system: $(BIN)/tablelog
	@test -n "$(NAME)" || { echo "usage: make new-system NAME=<system>"; exit 2; }
	$(BIN)/python -m tools.new_system $(NAME)

## frozen: record a system's frozen log: its campaign script (tests/data/campaigns/SYSTEM.txt)
## played on a new log in tests/data/frozen/format-N/, its state --json and its SHA256SUMS line
## (tools/frozen.py; it never replaces a frozen log): make frozen SYSTEM=zeta
frozen: $(BIN)/tablelog
	@test -n "$(SYSTEM)" || { echo "usage: make frozen SYSTEM=<system>"; exit 2; }
	$(BIN)/python -m tools.frozen $(SYSTEM)

## screenshots: docs/img's pages, each system's example served and seen by its GM on a desktop
## and by a player on a phone, in headless Chromium (apt-get install chromium)
screenshots: $(TESTED)
	$(BIN)/python -m tools.screenshots docs/img

## clean: remove the virtual environment, build files, caches and the demo log
clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis .ruff_cache .mypy_cache
	$(if $(DEMO_LOG),rm -f $(DEMO_LOG) $(DEMO_LOG).lock $(DEMO_LOG).snap)
	rm -rf $(DEMO_DIRS)
	find tablelog tests bench -name __pycache__ -type d -prune -exec rm -rf {} +

## bench-store: the PostgreSQL store's benchmarks (not part of test): appends/s beside pgbench and
## eventsourcing's PostgreSQL recorder, replay from PostgreSQL beside a file, copy's peak RSS.
## Uses $TABLELOG_TEST_PG, else a throwaway pgserver; writes bench/results-store.json.
bench-store: $(BIN)/tablelog
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q tablelog tests/support bench $(VENV)/lib > /dev/null
	$(BIN)/python bench/store.py
