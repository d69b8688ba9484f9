# One entry point for a fresh machine: `make engine` sets everything up and
# starts the GTP engine; `make test` sets everything up and runs the tests.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
WEIGHTS ?= weights/sl.pt
PYTEST_ARGS ?=

.PHONY: setup build engine test test-deps test-slow bench clean

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

setup: $(VENV)/.installed build

build: $(VENV)/.installed
	$(PY) setup.py --quiet build_ext --inplace
	$(PY) -m pip install --quiet --no-build-isolation --no-deps -e .

engine: setup
	$(PY) gtp_main.py --weights $(WEIGHTS)

test-deps:
	tools/setup_test_deps.sh

test: setup test-deps
	$(PY) -m pytest -q $(PYTEST_ARGS)

test-slow: setup test-deps
	$(PY) -m pytest -q -m slow $(PYTEST_ARGS)

bench: setup
	$(PY) tools/bench_board.py
	$(PY) tools/bench_nets.py

clean:
	rm -rf build goengine/*.so goengine/_*.c *.egg-info
