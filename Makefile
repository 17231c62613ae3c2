# tablelog — set-up and everyday commands. Each target creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEMO_LOG ?= /tmp/tablelog-demo-$(shell id -u).tlog

.PHONY: demo test bench bench-server bench-store lint clean

$(BIN)/tablelog: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(BIN)/tablelog

## demo: run the real Pathfinder 2e downtime session on a fresh log and print its final state
demo: $(BIN)/tablelog
	rm -f $(DEMO_LOG) $(DEMO_LOG).lock $(DEMO_LOG).snap
	$(BIN)/tablelog --log $(DEMO_LOG) run examples/pf2e-downtime.txt
	$(BIN)/tablelog --log $(DEMO_LOG) state

## test: the whole test suite
test: $(BIN)/tablelog
	$(BIN)/python -m pytest

## bench: the benchmarks (not part of test); prints a table, writes bench/results.json.
## It byte-compiles first, as an ordinary install does: timings must not include compiling
## sources (where PYTHONDONTWRITEBYTECODE is set, nothing else writes .pyc files).
bench: $(BIN)/tablelog
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q tablelog tests/support bench $(VENV)/lib > /dev/null
	$(BIN)/python bench/run.py

## bench-server: the table server over HTTP on loopback (not part of test); writes bench/results-server.json
bench-server: $(BIN)/tablelog
	$(BIN)/python bench/server.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

## bench-store: the PostgreSQL store's benchmarks (not part of test): appends/s beside pgbench and
## eventsourcing's PostgreSQL recorder, replay from PostgreSQL beside a file, copy's peak RSS.
## Uses $TABLELOG_TEST_PG, else a throwaway pgserver; writes bench/store-results.json.
bench-store: $(BIN)/tablelog
	$(BIN)/python -m pip install --quiet -e '.[test,bench]'
	$(BIN)/python -m compileall -q tablelog tests/support bench $(VENV)/lib > /dev/null
	$(BIN)/python bench/store.py
