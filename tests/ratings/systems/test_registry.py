import subprocess
import sys
from pathlib import Path

import pytest

from ratings.systems import SYSTEMS, CrawfordRating, FibsRating, SkillRating, UnknownRatingSystemError, get_system

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def test_the_systems_are_called_fibs_crawford_and_skill():
    assert set(SYSTEMS) == {"fibs", "crawford", "skill"}
    assert isinstance(get_system("fibs"), FibsRating)
    assert isinstance(get_system("crawford"), CrawfordRating)
    assert isinstance(get_system("skill"), SkillRating)
    assert get_system("fibs").name == "fibs" and get_system("crawford").name == "crawford"
    assert get_system("skill").name == "skill"


def test_a_system_is_built_with_its_options():
    assert get_system("fibs", experience_includes_current=True).experience_includes_current


def test_an_unknown_system_is_a_value_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="crawford, fibs, skill"):
        get_system("elo")
    with pytest.raises(UnknownRatingSystemError):
        get_system("glicko")


def test_the_rating_systems_import_nothing_from_django():
    probe = (
        "import sys, ratings.systems, ratings.systems.fibs, ratings.systems.crawford, ratings.systems.skill, "
        "ratings.systems.glicko, ratings.systems.history, ratings.systems.params; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'}))"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"


def test_without_numpy_the_systems_rate_with_the_scalar_engines():
    probe = (
        "import sys; sys.modules['numpy'] = None\n"
        "from datetime import date\n"
        "from ratings.systems import CrawfordRating, FibsRating, MatchRecord\n"
        "history = [MatchRecord(1, date(2025, 1, 1), 'ann', 'bob', 5, 'a')]\n"
        "for system in (FibsRating(), CrawfordRating()):\n"
        "    assert system.run(history) == system.run_sequential(history)\n"
        "print('scalar')"
    )
    output = subprocess.run(
        [sys.executable, "-c", probe], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "scalar"
