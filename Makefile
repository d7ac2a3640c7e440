# Everything a fresh Debian / Raspberry Pi OS machine with python3 and make needs.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml setup.py requirements-dev.lock | cksum | cut -d' ' -f1)

.PHONY: all demo test check bench clean venv pi-check

all: test

# Exact versions (requirements-dev.lock): a new numpy or OpenCV upstream cannot change a test.
$(STAMP): pyproject.toml setup.py requirements-dev.lock
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || { \
	  echo "python3-venv is missing; installing it with apt-get" >&2; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq python3-venv; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq python3-venv; fi; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -q --disable-pip-version-check --constraint requirements-dev.lock -e '.[test]'
	@rm -f $(VENV)/.installed-*
	@touch $@

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/farmbox demo

# The installed names (farmbox.firmware, .vision, .hw) as a folder tree for the checkers.
SRC := .farmbox-src
$(SRC)/farmbox/__init__.py:
	@mkdir -p $(SRC)/farmbox
	@for d in firmware vision hw; do ln -sfn ../../$$d $(SRC)/farmbox/$$d; done
	@touch $@

# Layering contracts, lint and types, then the tests.
check: $(STAMP) $(SRC)/farmbox/__init__.py
	$(VENV)/bin/ruff check --quiet .
	PYTHONPATH=$(SRC) $(VENV)/bin/lint-imports --no-cache
	PYTHONPATH=$(SRC) $(VENV)/bin/mypy $(SRC)/farmbox

# Debian's packages the table view's and the league's tests drive (a real broker, a real browser),
# the installer's script checker and systemd's unit checker.
SYSPKG := $(VENV)/.system-packages
$(SYSPKG):
	@missing=""; \
	{ command -v mosquitto || test -x /usr/sbin/mosquitto; } >/dev/null || missing="$$missing mosquitto"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	command -v shellcheck >/dev/null || missing="$$missing shellcheck"; \
	command -v systemd-analyze >/dev/null || missing="$$missing systemd"; \
	if [ -n "$$missing" ]; then echo "installing$$missing with apt-get" >&2; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$missing; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq $$missing; fi; fi
	@mkdir -p $(VENV) && touch $@

# Two workers, each test file on one of them: a file's module fixtures (an enrolled deck, a
# rendered box) are made once, not once per worker.  OpenBLAS's own threads, one set per
# worker on two cores, wait for each other: two dice enrollments at once took 22.8 s each
# with them and 9.7 s without (one alone: 9.5 s).  OpenCV's and OpenMP's likewise: two files
# of card tests took 147 s on two workers with them, 141 s without (257 and 240 CPU s).
test: check $(SYSPKG)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENCV_FOR_THREADS_NUM=1 $(PY) -m pytest -q -n 2 --dist loadfile -p no:cacheprovider

bench: $(STAMP)
	$(PY) bench/run_all.py $(BENCH_ARGS)

# Before a release (minutes, as root): farmbox on an emulated arm64 Debian 12; see docs/hardware.md.
pi-check: $(STAMP)
	$(PY) bench/pi_check.py $(PI_CHECK_ARGS)

clean:
	rm -rf $(VENV) $(SRC) build *.egg-info
