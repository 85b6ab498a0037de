"""Every refusal a person reads is marked for translation where it is written.

Read from the apps' source with `ast`: a literal with words in it that is raised (`raise ...`) or
given to ValidationError, PermissionDenied, CommandError and their kin fails here, naming its file
and line, unless it is marked (gettext, gettext_lazy, ngettext, the engine's gettext_noop, ...),
is a value put into a marked message (`_("... %(name)s") % {"name": "..."}`, or a marked
refusal's keyword values), or is on the allow-list below: the errors that only a programmer or
the operator starting the site reads, each with its reason."""

import ast
import re
from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.engine.errors import IllegalPlayError, InvalidNotationError
from games.engine.notation import parse_play, read_movements
from games.engine.position import Position
from tournaments import services as events

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


# -- read in the reader's language ------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "refusal"), [
    ("da", "Dette er ikke en matchfil, Crawford kan læse: linje 1: ventede header-tags eller 'N point match', "
           "fandt 'hello, this is a shopping list'"),
    ("ar", "هذا ليس ملف مباراة يستطيع Crawford قراءته: السطر 1: كان متوقعًا وسوم الترويسة أو 'N point match'، "
           "ووُجد 'hello, this is a shopping list'"),
    ("en", "This is not a match file Crawford can read: line 1: expected header tags or 'N point match', "
           "found 'hello, this is a shopping list'"),
])
def test_a_match_file_upload_is_refused_in_the_language_of_the_request(staff_api, code, refusal):
    upload = SimpleUploadedFile("list.mat", b"hello, this is a shopping list\n")
    response = staff_api.post("/api/v1/match-files/", {"file": upload}, format="multipart", HTTP_ACCEPT_LANGUAGE=code)
    assert (response.status_code, response.json()) == (400, {"file": [refusal]})


@pytest.mark.django_db
def test_a_match_file_that_continues_a_match_is_refused_in_danish(staff_api):
    later = (" 5 point match\n\n Game 1\n Alice : 2                             Bob : 1\n"
             "  1) 31: 8/5 6/5                       42: 8/4 6/4\n")
    upload = SimpleUploadedFile("later.mat", later.encode())
    response = staff_api.post("/api/v1/match-files/", {"file": upload}, format="multipart", HTTP_ACCEPT_LANGUAGE="da")
    assert response.status_code == 400
    assert response.json()["file"] == [
        "Denne fil fortsætter en match fra 2–1: importér filen, der begynder matchen."]


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "refusal"), [
    ("da", "Kun en turneringsleder for Aarhus Open må gøre dette."),
    ("ar", "لا يجوز هذا إلا لمدير بطولة Aarhus Open."),
    ("en", "Only a TD of Aarhus Open may do this."),
])
def test_a_td_of_another_event_is_refused_in_the_language_of_the_request(code, refusal, make_player):
    User = get_user_model()
    staff = User.objects.create_user("office", is_staff=True, is_superuser=True)
    td, stranger = User.objects.create_user("director"), User.objects.create_user("stranger")
    tournament = events.tournament_create(name="Aarhus Open", start_date=date(2026, 11, 29), organisers=[td], by=staff)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[7], by=td)
    client = APIClient()
    client.force_authenticate(stranger)
    response = client.post("/api/v1/entries/", {"flight": flight.pk, "player": make_player().pk}, format="json",
                           HTTP_ACCEPT_LANGUAGE=code)
    assert (response.status_code, response.json()) == (403, {"detail": refusal})


@pytest.mark.parametrize(("code", "dice", "unread", "illegal"), [
    ("da", (6, 5), "Kan ikke læse punktet 'x' i '8/x'.",
     "'24/12' er ikke et lovligt træk med 65; lovlige: 24/13, 24/18 13/8, 24/18 8/3, 13/8 13/7, 13/7 8/3, 13/2, "
     "8/3 8/2."),
    ("ar", (2, 1), "تتعذّر قراءة الخانة 'x' في '8/x'.",
     "'24/12' ليست نقلة مسموحة لرمية 21؛ المسموحة: 24/23 24/22, 24/21, 24/22 8/7, 24/22 6/5, 24/23 13/11, 13/10, "
     "13/11 8/7, 13/11 6/5, 24/23 8/6, 8/7 8/6 و5 نقلات أخرى."),
    ("en", (2, 1), "Cannot read the point 'x' in '8/x'.",
     "'24/12' is not a legal play of 21; legal: 24/23 24/22, 24/21, 24/22 8/7, 24/22 6/5, 24/23 13/11, 13/10, "
     "13/11 8/7, 13/11 6/5, 24/23 8/6, 8/7 8/6 and 5 more."),
])
def test_the_engine_refuses_a_play_in_the_active_language(code, dice, unread, illegal):
    from django.utils import translation

    with translation.override(code):
        with pytest.raises(InvalidNotationError) as refused:
            read_movements("13/7 8/x")
        with pytest.raises(IllegalPlayError) as wrong:
            parse_play("24/12", Position.initial(), dice)
        assert (str(refused.value), refused.value.message, str(wrong.value)) == (unread, unread, illegal)
    assert refused.value.args == ("Cannot read the point 'x' in '8/x'.",)  # the English kept as its argument
    assert len(wrong.value.legal) == {(6, 5): 7, (2, 1): 15}[dice]  # and the legal plays, whatever the language


@pytest.mark.django_db
@pytest.mark.parametrize(("code", "faults"), [
    ("da", ["spil 1, træk 1 (linje 5): ingen kan doble før åbningsslaget"]),
    ("ar", ["الشوط 1، النقلة 1 (السطر 5): لا يمكن لأحد أن يضاعف قبل الرمية الافتتاحية"]),
    ("en", ["game 1, move 1 (line 5): nobody can double before the opening roll"]),
])
def test_a_match_file_that_breaks_the_rules_lists_its_faults_in_the_language_of_the_request(staff_api, code, faults):
    text = " 5 point match\n\n Game 1\n Alice : 0                             Bob : 0\n  1)  Doubles => 2\n"
    upload = SimpleUploadedFile("early.mat", text.encode())
    response = staff_api.post("/api/v1/match-files/", {"file": upload}, format="multipart", HTTP_ACCEPT_LANGUAGE=code)
    assert response.status_code == 400
    assert response.json()["file"] == faults
    assert [error["text"] for error in response.json()["report"]["errors"]] == faults
