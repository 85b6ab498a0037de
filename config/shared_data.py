"""Where the shared test data lives (GNU Backgammon's answers, real match files, the bot league,
real results): the folder CRAWFORD_SHARED_DATA names, or else `../shared/data` beside the
checkout. The tests and the benches both read it here, so that neither imports the other; those
that need it skip, or say so, when it is not there.

Standard library only; the running site never imports it.

    .venv/bin/python -m config.shared_data     # prints the folder, and whether it is there
"""

import os
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("CRAWFORD_SHARED_DATA") or PROJECT.parent / "shared" / "data")

if __name__ == "__main__":
    print(f"shared data: {SHARED_DATA} ({'found' if SHARED_DATA.is_dir() else 'missing'})")
