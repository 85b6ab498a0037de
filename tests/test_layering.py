"""Dependencies run one way: games <- analysis <- ratings <- tournaments, config below the apps'
pages, tests and benches apart. Read from the source with `ast` (every import, also one inside a
function), so an arrow that runs the wrong way fails here before anyone relies on it."""

import ast
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]

ORDER = ["games", "analysis", "ratings", "tournaments"]
"""Each app may import those before it, never those after it."""


def imported(path: Path) -> set[str]:
    """The top-level names of the modules `path` imports (relative imports are its own package)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def sources(folder: str):
    return sorted((PROJECT / folder).rglob("*.py"))


def wrong_way(folder: str, forbidden: set[str]) -> list[str]:
    return [f"{path.relative_to(PROJECT)} imports {name}"
            for path in sources(folder) for name in sorted(imported(path))
            if name.split(".")[0] in forbidden]


@pytest.mark.parametrize("app", ORDER)
def test_an_app_never_imports_the_apps_built_on_it(app):
    later = set(ORDER[ORDER.index(app) + 1:])
    assert wrong_way(app, later) == []


def test_games_and_ratings_never_import_tournaments():
    assert wrong_way("games", {"tournaments"}) + wrong_way("ratings", {"tournaments"}) == []


def test_the_api_wide_behaviour_imports_no_app():
    assert {name.split(".")[0] for name in imported(PROJECT / "config" / "api.py")} & set(ORDER) == set()


def test_the_tests_support_imports_no_bench():
    assert [name for name in imported(PROJECT / "tests" / "support.py") if name.split(".")[0] == "bench"] == []


def test_only_the_tests_of_a_bench_import_bench():
    """The shared data's folder is config/shared_data.py's; a test reaches into bench/ only to test
    a bench (`test_*_bench.py`)."""
    assert [path for path in wrong_way("tests", {"bench"}) if not path.split(" ")[0].endswith("_bench.py")] == []


def test_the_match_pages_of_games_read_no_event_through_the_orm():
    """games/views.py shows the event of a match through the tournaments' template tag; it names no
    relation of theirs in a query either."""
    text = (PROJECT / "games" / "views.py").read_text()
    assert "pairing__" not in text and ".pairing" not in text


def test_the_removed_match_signal_and_context_variable_stay_removed():
    """Game entry on a pairing's match goes through the tournaments' score-sheet service, which
    locks and writes explicitly; no signal asks the tournaments to lock, nor a flag mutes them."""
    signals = {node.targets[0].id for node in ast.parse((PROJECT / "games" / "signals.py").read_text()).body
               if isinstance(node, ast.Assign)}
    # What the ratings count (a match's result, imported results): no signal asks anyone to lock.
    assert signals == {"match_result_changed", "results_imported", "results_import_finished"}
    for path in sources("tournaments"):
        assert "contextvars" not in imported(path), path


LOAD = __import__("re").compile(r"{%\s*load\s+([^%]*?)\s*%}")


def tag_libraries() -> dict[str, str]:
    """Each template tag library of the apps, by the name `{% load %}` gives it: its app."""
    return {path.stem: path.parts[len(PROJECT.parts)] for app in ORDER
            for path in (PROJECT / app / "templatetags").glob("*.py") if path.stem != "__init__"}


def loaded(text: str) -> set[str]:
    """The libraries a template loads (`{% load a b %}`, `{% load tag from a %}`)."""
    names = set()
    for found in LOAD.findall(text):
        words = found.split()
        names.update(words[words.index("from") + 1:] if "from" in words else words)
    return names


def test_templates_load_no_tags_of_the_apps_built_on_theirs():
    """A template under templates/<app>/ loads the tags of its app and of those before it, never
    of an app built on it (games' match pages show events, ratings and the analysis through
    `games.pages`); the site's own templates load no app's tags but the ones its base names."""
    libraries = tag_libraries()
    assert set(libraries.values()) >= {"games", "analysis", "tournaments"}
    wrong = []
    for path in sorted((PROJECT / "templates").rglob("*.html")):
        folder = path.relative_to(PROJECT / "templates").parts[0]
        allowed = set(ORDER[:ORDER.index(folder) + 1]) if folder in ORDER else set()
        for name in sorted(loaded(path.read_text())):
            if name in libraries and libraries[name] not in allowed:
                wrong.append(f"{path.relative_to(PROJECT)} loads {name} ({libraries[name]})")
    assert wrong == []
