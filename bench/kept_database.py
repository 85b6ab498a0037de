"""The database `bench/pages.py --keep` left, opened for the scripts that measure on it
(bench/page_instructions.py, bench/i18n_render.py)."""

from pathlib import Path


def open_kept(pages) -> dict | None:
    """Django as `bench/pages.py` measures it (a test environment, DEBUG off), on the test_
    database a `--keep` run left; what `pages.built()` finds there (None: nothing built yet).
    `pages` is the module of the checkout measured, which may be another checkout's."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.DEBUG = False
    name = Path(connection.settings_dict["NAME"])
    connection.settings_dict["TEST"]["NAME"] = str(name.with_name(f"test_{name.name}"))
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True)
    return pages.built()
