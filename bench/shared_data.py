"""Prints where the shared test data is (and whether it is there): `config/shared_data.py`,
which the benches and the tests both read, decides.

    .venv/bin/python bench/shared_data.py
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from config.shared_data import SHARED_DATA  # noqa: E402

if __name__ == "__main__":
    print(f"shared data: {SHARED_DATA} ({'found' if SHARED_DATA.is_dir() else 'missing'})")
