# Crawford: `make run` serves a demo on http://127.0.0.1:8000, `make test` runs every test.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
FIND_PYTHON ?= scripts/find-python
LOCAL_ENV ?= local.env

.PHONY: run test test-fast venv venv-dev migrate demo bench messages clean
.DEFAULT_GOAL := run

# A .venv made by an older Python (Debian 12's 3.11, say) cannot run Django 6.1: remove it, so the
# rules below build it again with the Python scripts/find-python picks.
ifeq ($(shell [ -x $(PY) ] && ! $(PY) -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1 && echo old),old)
$(info $(VENV) was made with a Python older than 3.12: rebuilding it.)
$(shell rm -rf $(VENV))
endif

# No .venv yet: find the Python to make it with now, and stop with the advice alone if there is none.
ifeq ($(wildcard $(PY)),)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),run)),)
NEW_VENV_PYTHON := $(shell PYTHON="$(PYTHON)" $(FIND_PYTHON) 2>/dev/null)
ifeq ($(NEW_VENV_PYTHON)$(PYTHON),)
$(error Crawford needs Python 3.12 or newer (with venv): install it, or name one with PYTHON=/path/to/python3.12 (README, "Try it"))
endif
endif
endif

# PYTHON named: that one or none. One that is missing or too old is said, never replaced by another.
ifneq ($(PYTHON),)
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),run)),)
ifeq ($(shell PYTHON="$(PYTHON)" $(FIND_PYTHON) 2>/dev/null),)
$(error PYTHON=$(PYTHON) is not a Python 3.12 or newer with venv (is it installed at that path?): name another one, or leave PYTHON out to use the one found)
endif
ifneq ($(wildcard $(PY)),)
$(info $(VENV) is there already and keeps the Python it was made with; PYTHON makes a new one after `make clean`.)
endif
endif
endif

# Running needs requirements.txt; the tests add requirements-dev.txt (pytest, Playwright, ...).
$(VENV)/.installed-run: requirements.txt
	@test -x $(PY) || "$(NEW_VENV_PYTHON)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed-run requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

venv: $(VENV)/.installed-run

venv-dev: $(VENV)/.installed-dev

# The settings of local runs, read by manage.py (so by every `.venv/bin/python manage.py ...`
# command of the README) whenever SECRET_KEY is not set. Production sets SECRET_KEY instead.
$(LOCAL_ENV):
	@printf '%s\n' "# Local runs: manage.py reads this file when SECRET_KEY is not set (gunicorn and Celery never do)." \
	  "# Add DATABASE_URL, CELERY_BROKER_URL and the like here; see the README's table of variables." \
	  "DEBUG=1" > $@
	@echo "Wrote $@ (DEBUG=1): every manage.py command in this folder now runs with the local settings."

migrate: venv $(LOCAL_ENV)
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

run: demo
	@echo "Crawford is at http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, user demo / demo-password)"
	$(PY) manage.py runserver $(HOST):$(PORT)

# The whole suite on every core (one test database, and one Redis database, per test process).
TEST_PROCESSES ?= auto
test: venv-dev
	$(PY) -m pytest -n $(TEST_PROCESSES) $(PYTEST_ARGS)

# The edit-test loop: the rules engine, the formats, the rating systems and the core services,
# without a browser, a worker or GNU Backgammon.
FAST_TESTS := tests/games/engine tests/tournaments/formats tests/ratings/systems tests/games/test_match_update.py \
	tests/games/test_outcome_record.py tests/games/test_api.py tests/tournaments/test_services.py \
	tests/ratings/test_recompute.py tests/ratings/test_incremental.py
test-fast: venv-dev
	$(PY) -m pytest -n $(TEST_PROCESSES) -m "not e2e and not worker and not gnubg and not analysis" $(FAST_TESTS) $(PYTEST_ARGS)

bench: venv-dev
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

# The catalogs of the languages Crawford speaks beside English (README, "Languages"): every string
# marked in the code and the templates gathered into locale/LANG/LC_MESSAGES/django.po (new ones
# empty, to be translated), then each compiled into the django.mo the site reads. Gathering needs
# GNU gettext (`apt-get install gettext`); compiling does not (scripts/compile-messages, polib).
# The .mo files are committed: `make run` and CI need neither.
MESSAGE_LANGUAGES ?= da el ja ar
messages: venv-dev
	DEBUG=1 $(PY) manage.py makemessages --no-obsolete --add-location=file -e html,txt,py \
	  $(addprefix -l ,$(MESSAGE_LANGUAGES)) --ignore='.venv/*' --ignore='tests/*' --ignore='bench/*' \
	  --ignore='staticfiles/*' --ignore='docs/*' --ignore='scripts/*'
	$(PY) scripts/compile-messages

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .local-secret-key local.env .pytest_cache .hypothesis
