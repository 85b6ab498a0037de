# Crawford: `make run` serves a demo on http://127.0.0.1:8000, `make test` runs every test.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast venv migrate demo bench clean

# A .venv made by an older Python (Debian 12's 3.11, say) cannot run Django 6.1: remove it, so the
# rules below build it again with the Python scripts/find-python picks.
ifeq ($(shell [ -x $(PY) ] && ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && echo old),old)
$(info $(VENV) was made with a Python older than 3.12: rebuilding it.)
$(shell rm -rf $(VENV))
endif

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

venv: $(VENV)/.installed

# Local runs use DEBUG=1 (and with it a local secret key); production sets SECRET_KEY instead.
migrate: venv
	DEBUG=1 $(PY) manage.py migrate --noinput

demo: migrate
	DEBUG=1 $(PY) manage.py seed_demo

run: demo
	@echo "Crawford is at http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, user demo / demo-password)"
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# The whole suite on every core (one test database, and one Redis database, per test process).
TEST_PROCESSES ?= auto
test: venv
	$(PY) -m pytest -n $(TEST_PROCESSES) $(PYTEST_ARGS)

# The edit-test loop: the rules engine, the formats, the rating systems and the core services,
# without a browser, a worker or GNU Backgammon.
FAST_TESTS := tests/games/engine tests/tournaments/formats tests/ratings/systems tests/games/test_match_update.py \
	tests/games/test_outcome_record.py tests/games/test_api.py tests/tournaments/test_services.py \
	tests/ratings/test_recompute.py tests/ratings/test_incremental.py
test-fast: venv
	$(PY) -m pytest -n $(TEST_PROCESSES) -m "not e2e and not worker and not gnubg and not analysis" $(FAST_TESTS) $(PYTEST_ARGS)

bench: venv
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .local-secret-key .pytest_cache .hypothesis
