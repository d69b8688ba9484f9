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

# requirements.txt is the one list: the lines before its first "# [extra]" heading are the
# engine's, the rest the extras' (setup.py reads it the same way).
$(VENV)/.installed: requirements.txt
	@echo "setting up $(VENV) (once)" >&2
	@$(PYTHON) -m venv $(VENV) >&2
	@awk '/^# \[/{exit} NF && !/^#/' requirements.txt > $(VENV)/engine-requirements.txt
	@$(PY) -m pip install --quiet -r $(VENV)/engine-requirements.txt >&2
	@touch $@

# The test and cluster extras: pytest, and Ray for the RL stage's tests.
$(VENV)/.extras: $(VENV)/.built requirements.txt
	@$(PY) -m pip install --quiet --no-build-isolation -e '.[test,cluster]' >&2
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

test: setup $(VENV)/.extras test-deps
	$(PY) -m pytest -q -rs -n auto --durations=15 $(PYTEST_ARGS)

test-slow: setup $(VENV)/.extras test-deps
	$(PY) -m pytest -q -rs -m slow $(PYTEST_ARGS)

bench: setup
	$(PY) tools/bench/bench_board.py
	$(PY) tools/bench/bench_nets.py

clean:
	rm -rf build goengine/*.so goengine/_*.c goengine/*/*.so goengine/*/_*.c *.egg-info $(VENV)/.built
