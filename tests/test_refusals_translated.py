"""Every refusal a person reads is marked for translation where it is written.

Read from the apps' source with `ast`: a literal with words in it that is raised (`raise ...`) or
given to ValidationError, PermissionDenied, CommandError and their kin fails here, naming its file
and line, unless it is marked (gettext, gettext_lazy, ngettext, the engine's gettext_noop, ...),
is a value put into a marked message (`_("... %(name)s") % {"name": "..."}`, or a marked
refusal's keyword values), or is on the allow-list below: the errors that only a programmer or
the operator starting the site reads, each with its reason."""

import ast
import re
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
APPS = ["analysis", "config", "games", "ratings", "tournaments"]

MARKING = {"_", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "pgettext_lazy", "npgettext",
           "npgettext_lazy", "gettext_noop", "_lazy", "in_site_language", "format_lazy"}
"""Calls that mark a message (or put an already marked one in the site's language)."""

NOT_READ = {"debug", "info", "warning", "error", "exception", "critical", "log", "getLogger", "execute", "raw",
            "RawSQL", "extra", "format_html"}
"""Calls whose text no person reads as a message: logging, SQL."""

REFUSALS = {"ValidationError", "PermissionDenied", "CommandError", "ParseError", "Http404", "HttpResponseBadRequest",
            "NotFound", "Throttled", "AuthenticationFailed", "NotAuthenticated"}
"""Errors whose message a person reads even when they are not raised where they are made."""

PROGRAMMERS = {"ValueError", "TypeError", "NotImplementedError", "KeyError", "IndexError", "LookupError"}
"""Python's own errors for a caller's mistake, read by a programmer (a ValueError a person reads is
marked all the same; the engine's and the formats' refusals are marked ValueErrors)."""

PROSE = re.compile(r"[A-Za-z]{2,}[ ,][a-z]{2,}")

ALLOWED = {
    ("config/processes.py", "the Celery worker stopped"): "the operator's process runner, logged for the operator",
    ("config/processes.py", "gave up after"): "the operator's process runner, logged for the operator",
    ("config/settings.py", "SECRET_KEY is not set"): "a start-up error for the operator, before any language is set",
    ("config/settings.py", "SITE_URL is not set"): "a start-up error for the operator, before any language is set",
    ("games/demo.py", "the game did not end"): "an impossible state of the demo's self-play: a programmer's bug",
    ("ratings/services/execute.py", "was superseded before it could publish"):
        "an internal signal between rating runs, caught and logged, never shown",
    ("ratings/services/writing.py", "was superseded while it worked"):
        "an internal signal between rating runs, caught and logged, never shown",
    ("ratings/services/writing.py", "was superseded before it could publish"):
        "an internal signal between rating runs, caught and logged, never shown",
    ("ratings/systems/__init__.py", "no rating system is called"): "a programmer's or settings' misnamed system",
    ("ratings/systems/__init__.py", "; known systems:"): "a programmer's or settings' misnamed system",
    ("ratings/systems/batches.py", ""): "the rating systems check their input from the services, a programmer's bug",
    ("ratings/systems/history.py", ""): "the rating systems check their input from the services, a programmer's bug",
    ("ratings/systems/engine.py", ""): "the rating systems' engines: a programmer's choice of engine",
    ("tournaments/services/rounds.py", "advancement did not settle"): "an impossible loop in the draw: a bug",
}
"""(file, the start of the literal; "" for the whole file) -> why no person reads it."""


def _name(function) -> str:
    if isinstance(function, ast.Name):
        return function.id
    if isinstance(function, ast.Attribute):
        return function.attr
    return ""


def _marked(node) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) in MARKING


def unmarked(path: Path) -> list[tuple[int, str]]:
    """(line, literal) of each prose literal in a refusal of `path` that is not marked."""
    tree = ast.parse(path.read_text(), filename=str(path))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and PROSE.search(node.value)):
            continue
        refusal, skip, below = False, False, node
        current = node
        while current in parents and not skip:
            current, below = parents[current], current
            if isinstance(current, ast.Call):
                name = _name(current.func)
                if name in MARKING or name in NOT_READ:
                    skip = True
                elif name in PROGRAMMERS and not refusal:
                    skip = True
                elif name in REFUSALS:
                    refusal = True
                # A value given to a marked refusal (`Error(gettext_noop("... %(x)s"), x="...")`).
                elif current.args and _marked(current.args[0]) and any(k is below for k in current.keywords):
                    skip = True
            elif isinstance(current, ast.BinOp) and isinstance(current.op, ast.Mod) and below is current.right:
                skip = _marked(current.left)  # a value put into a marked message
            elif isinstance(current, ast.Raise):
                refusal = True
            elif isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                break
        if refusal and not skip:
            found.append((node.lineno, node.value))
    return found


def _allowed(relative: str, literal: str) -> bool:
    return any(file == relative and literal.lstrip().startswith(start) for file, start in ALLOWED)


def test_every_refusal_a_person_reads_is_marked_for_translation():
    missing = []
    for app in APPS:
        for path in sorted((PROJECT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            relative = str(path.relative_to(PROJECT))
            missing += [f"{relative}:{line}: {literal[:80]!r}" for line, literal in unmarked(path)
                        if not _allowed(relative, literal)]
    assert missing == []


def test_the_check_finds_an_unmarked_refusal_and_passes_a_marked_one(tmp_path):
    source = tmp_path / "refusals.py"
    source.write_text(
        "def f(name, error):\n"
        "    raise PermissionDenied(f'Only a TD of {name} may do this.')\n"
        "    raise ValidationError({'file': ['The match file holds no game.']})\n"
        "    raise CommandError('No such file: ' + name)\n"
        "    raise Refused('the header lacks a column')\n"
        "    raise PermissionDenied(_('Only a TD of %(event)s may do this.') % {'event': 'the open event'})\n"
        "    raise InvalidNotationError(gettext_noop('%(play)s is not legal.'), play='no move here')\n"
        "    raise ValueError('a programmer passed the wrong thing')\n"
        "    logger.warning('the worker went quiet for a while')\n"
    )
    assert sorted({line for line, _literal in unmarked(source)}) == [2, 3, 4, 5]


def test_every_allowed_refusal_is_still_there():
    """An allow-list entry whose literal is gone (marked, or removed) is taken off the list."""
    seen = set()
    for file, start in ALLOWED:
        literals = [literal for _line, literal in unmarked(PROJECT / file)]
        if any(literal.lstrip().startswith(start) for literal in literals):
            seen.add((file, start))
    assert set(ALLOWED) - seen == set()
