# One entry point for a fresh machine: `make engine` sets everything up and
# starts the GTP engine; `make test` sets everything up and runs the tests.
# Each step runs only when its inputs changed (stamp files in .venv), and
# every line of the setup goes to stderr: on stdout `make engine` speaks GTP only.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
ENGINE_FLAGS ?=
PYTEST_ARGS ?=
SOURCES := setup.py $(wildcard goengine/*.pyx goengine/*.pxd goengine/*/*.pyx goengine/*/*.pxd)

.PHONY: setup build engine test test-deps test-slow bench clean

$(VENV)/.installed: requirements.txt
	@echo "setting up $(VENV) (once)" >&2
	@$(PYTHON) -m venv $(VENV) >&2
	@$(PY) -m pip install --quiet -r requirements.txt >&2
	@touch $@

$(VENV)/.built: $(VENV)/.installed $(SOURCES)
	@echo "building the Cython core" >&2
	@$(PY) setup.py --quiet build_ext --inplace >&2
	@$(PY) -m pip install --quiet --no-build-isolation --no-deps -e . >&2
	@touch $@

setup: $(VENV)/.built

build: $(VENV)/.built

engine: setup
	@$(PY) gtp_main.py $(ENGINE_FLAGS)

test-deps:
	@tools/setup_test_deps.sh >&2

test: setup test-deps
	$(PY) -m pytest -q -rs --durations=15 $(PYTEST_ARGS)

test-slow: setup test-deps
	$(PY) -m pytest -q -rs -m slow $(PYTEST_ARGS)

bench: setup
	$(PY) tools/bench/bench_board.py
	$(PY) tools/bench/bench_nets.py

clean:
	rm -rf build goengine/*.so goengine/_*.c goengine/*/*.so goengine/*/_*.c *.egg-info $(VENV)/.built
