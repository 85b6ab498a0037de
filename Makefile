# Crawford: `make run` serves a demo on http://127.0.0.1:8000, `make test` runs every test.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv migrate demo bench clean

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

test: venv
	$(PY) -m pytest $(PYTEST_ARGS)

bench: venv
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .local-secret-key .pytest_cache .hypothesis
