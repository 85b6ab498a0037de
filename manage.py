#!/usr/bin/env python
"""Django's command line for Crawford.

On your own machine every `manage.py` command uses the settings `make run` uses: `make run` writes
them to `local.env` (DEBUG=1 to begin with; add DATABASE_URL and the like there), and this script
reads that file when no SECRET_KEY is set. A production server sets SECRET_KEY (its environment
file, README "Production"), and then `local.env` is never read; gunicorn and Celery never read it.
"""

import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent


def local_environment() -> None:
    """Add the variables of `local.env` (or the file CRAWFORD_LOCAL_ENV names) that the
    environment does not set, unless SECRET_KEY is set: that is a production shell."""
    if os.environ.get("SECRET_KEY"):
        return
    path = Path(os.environ.get("CRAWFORD_LOCAL_ENV") or PROJECT / "local.env")
    if not path.is_file():
        return
    from dotenv import dotenv_values

    for name, value in dotenv_values(path).items():
        if value is not None:
            os.environ.setdefault(name, value)


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    local_environment()
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
