# Crawford: `make run` serves a demo on http://127.0.0.1:8000, `make test` runs every test.
SHELL := /bin/bash
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test venv migrate demo bench clean

$(VENV)/.installed: requirements.txt requirements-dev.txt
	@test -x $(PY) || "$$(scripts/find-python)" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

venv: $(VENV)/.installed

migrate: venv
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

run: demo
	@echo "Crawford is at http://$(HOST):$(PORT)/  (admin: http://$(HOST):$(PORT)/admin/, user demo / demo-password)"
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

test: venv
	$(PY) -m pytest $(PYTEST_ARGS)

bench: venv
	@for script in bench/*.py; do echo "== $$script"; $(PY) $$script || exit 1; done

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .hypothesis
