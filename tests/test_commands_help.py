"""Every command of Crawford's own apps answers --help, in English and in a reader's language."""

import pytest
from django.core.management import get_commands, load_command_class
from django.utils import translation

OURS = {"config", "games", "tournaments", "ratings", "analysis"}
COMMANDS = sorted((name, app) for name, app in get_commands().items() if app.split(".")[-1] in OURS)


def test_crawford_has_its_commands():
    assert {"seed_demo", "export_results", "import_results", "import_ratings"} <= {name for name, _ in COMMANDS}


@pytest.mark.parametrize("language", ["en", "da"])
@pytest.mark.parametrize(("name", "app"), COMMANDS)
def test_every_command_answers_help(name, app, language):
    with translation.override(language):
        text = load_command_class(app, name).create_parser("manage.py", name).format_help()
    assert text.startswith(f"usage: manage.py {name}")


def test_a_translated_help_reads_in_the_reader_s_language():
    with translation.override("da"):
        text = load_command_class("tournaments", "export_results").create_parser("manage.py", "export_results").format_help()
    with translation.override("en"):
        english = load_command_class("tournaments", "export_results").create_parser("manage.py", "export_results").format_help()
    assert "Write the finished matches of an event" in english
    assert "Write the finished matches of an event" not in text
