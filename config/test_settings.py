"""The test suite's settings: `config/settings.py` as every other process reads it, with what a
test run needs that no other run may have. pytest reads this module (pyproject.toml); manage.py,
gunicorn, Celery and the benches read `config/settings.py`, which knows nothing of tests.

- A fresh SECRET_KEY and SITE_URL (the test client's host), put in the environment so that the processes a test
  starts (a Celery worker, manage.py) inherit them and run as production would.
- Plain http (no HTTPS redirect or secure cookies) and rating runs inside the request, for this
  process only (test_production.py checks production's own in a fresh process).
- With `pytest -n`, each test process, and the workers it starts, gets a Redis database of its
  own, so no worker takes another test's tasks.
"""

import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
# The host Django's test client calls the site by: the links of e-mails (all on SITE_URL) open there.
os.environ.setdefault("SITE_URL", "http://testserver")

_THIS_PROCESS_ONLY = {"SECURE_HTTPS": "0", "RATINGS_AFTER_RESPONSE": "0"}
_added = [name for name in _THIS_PROCESS_ONLY if name not in os.environ]
os.environ.update({name: _THIS_PROCESS_ONLY[name] for name in _added})
try:
    from .settings import *  # noqa: F403
    from .settings import CELERY_BROKER_URL
finally:
    for _name in _added:
        del os.environ[_name]

_test_process = os.environ.get("PYTEST_XDIST_WORKER", "")
if CELERY_BROKER_URL.startswith("redis") and _test_process[2:].isdigit() and "CRAWFORD_TEST_BROKER" not in os.environ:
    _base, _, _number = CELERY_BROKER_URL.rpartition("/")
    if _number.isdigit():
        CELERY_BROKER_URL = f"{_base}/{(int(_number) - 1 - int(_test_process[2:])) % 16}"
        # Celery reads the variable before its settings; a process a test starts (reading this
        # module too, as it inherits DJANGO_SETTINGS_MODULE) finds it moved already.
        os.environ["CELERY_BROKER_URL"] = os.environ["CRAWFORD_TEST_BROKER"] = CELERY_BROKER_URL
