"""Every sentence a person reads is translated: the site rendered in a pseudo-locale.

The pseudo-locale is made in the test's set-up from the English messages (the msgids of our catalog
and of Django's own): each translation is its English wrapped in ⟦ ⟧, placeholders kept. It is not a
language of the site (no catalog of it is committed; the menu never offers it). Every page and form
of the crawl of every form (tests/pages/test_crawl.py, tests/test_every_write_by_every_role.py) is
rendered in it, as a visitor, a player, a TD and a site admin, and each form is sent back with bad
values so its errors show too. Any visible text (text, title, placeholder, aria-label, alt, a
button's value) left outside the markers that is not data (a name, an event, a club, a number, a
date's digits) fails the test, naming the page and the templates that hold the text.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import django
import html5lib
import polib
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.utils import translation

from tournaments import slipcodes

from .test_crawl import SKIPPED_FIELDS, _forms, _pages, _shape, cast  # noqa: F401 (cast is a fixture)

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

PSEUDO = "en-xa"
"""The pseudo-locale's code (as Android names its own): English formats, every message wrapped."""
OPEN, CLOSE = "⟦", "⟧"

PROJECT = Path(__file__).resolve().parent.parent.parent
ENGLISH = [PROJECT / "locale" / "da" / "LC_MESSAGES" / "django.po",  # its msgids are the English messages
           Path(django.__file__).parent / "conf" / "locale" / "en" / "LC_MESSAGES" / "django.po",
           Path(django.__file__).parent / "contrib" / "auth" / "locale" / "en" / "LC_MESSAGES" / "django.po"]

KNOWN_GAPS: dict[str, str] = {
    # The pages whose text is still partly English, each to leave this list when it speaks every
    # language (path patterns; a page listed here is rendered and sent its forms all the same, only
    # its untranslated text is let pass). The games, ratings and analysis pages, the error pages and
    # the frame of every page are never listed. Every page speaks every language now.
}

PROPER_NOUNS = {"Crawford", "API", "GNU Backgammon", "FIBS"}
"""Names that are the same in every language (the program, its API, the analysis program, the
backgammon server whose rating formula is the one players know)."""
NOTATION = re.compile(r"(?<!\w)(?:bar|off|\d+)(?:/(?:bar|off|\d+)\*?)+(?:\(\d\))?(?!\w)")
"""A play as backgammon notation writes it ("bar/22", "13/10*/8", "6/off(2)"): data, the same in every language."""
SLIP_CODE = re.compile(rf"(?<!\w)[{slipcodes.ALPHABET}]{{3}}-[{slipcodes.ALPHABET}]{{3}}(?!\w)")
"""A match slip's code as printed ("KPT-3NY", `tournaments.slipcodes`): drawn at random, only its digest kept."""
ADDRESS = re.compile(r"https?://\S+")
"""An address (a slip's QR code says where it leads): the same in every language."""

VISIBLE_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
HIDDEN_TAGS = {"script", "style", "template", "noscript"}
LETTER = re.compile(r"[^\W\d_]")
INNERMOST = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")


def _wrapped(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


@pytest.fixture
def pseudo_locale(tmp_path, settings):
    """The pseudo-locale's catalog, compiled into a folder of its own ahead of the others."""
    catalog = polib.POFile()
    catalog.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": PSEUDO,
                        "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    seen = set()
    for source in ENGLISH:
        for entry in polib.pofile(str(source)):
            key = (entry.msgctxt, entry.msgid)
            if not entry.msgid or entry.obsolete or key in seen:
                continue
            seen.add(key)
            wrapped = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid)
            if entry.msgid_plural:
                wrapped.msgid_plural = entry.msgid_plural
                wrapped.msgstr_plural = {0: _wrapped(entry.msgid), 1: _wrapped(entry.msgid_plural)}
            else:
                wrapped.msgstr = _wrapped(entry.msgid)
            catalog.append(wrapped)
    folder = tmp_path / "locale" / "en_XA" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog.save_as_mofile(str(folder / "django.mo"))
    settings.LOCALE_PATHS = [tmp_path / "locale", *settings.LOCALE_PATHS]
    settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
    return len(catalog)


def _data() -> list[str]:
    """Every text the database holds (names, events, venues, clubs, logins, notes): data, shown as typed."""
    found = set(get_user_model().objects.values_list("username", flat=True))
    found |= set(get_user_model().objects.values_list("email", flat=True))
    for model in apps.get_models():
        fields = [f.attname for f in model._meta.concrete_fields
                  if isinstance(f, (models.CharField, models.TextField)) and not f.choices]
        if not fields:
            continue
        for row in model.objects.values_list(*fields):
            # A name, a title, a note: typed by a person, so with a capital or a digit (a code word
            # a row keeps, such as "mat" or "match", is not shown as typed).
            found.update(value for value in row if isinstance(value, str) and re.search(r"[A-Z0-9]", value))
    languages = {translation.get_language_info(code)["name_local"] for code, _name in settings.LANGUAGES}
    return sorted({value.strip() for value in found if len(value.strip()) > 1} | PROPER_NOUNS | languages,
                  key=len, reverse=True)


BLOCKS = {"p", "div", "li", "td", "th", "tr", "h1", "h2", "h3", "h4", "title", "option", "label", "button", "dt",
          "dd", "caption", "summary", "legend", "section", "article", "header", "footer", "nav", "ul", "ol", "table",
          "form", "details", "figcaption", "main", "body", "select", "br"}


def _visible_texts(html: str) -> list[str]:
    """The page's text in reading order (a translated sentence may hold a link: its markers then
    open in one text node and close in another), a line break at each block; then each attribute
    a person reads, on its own."""
    root = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    stream, attributes = [], []

    def walk(element, hidden=False):
        tag = element.tag if isinstance(element.tag, str) else ""
        hidden = hidden or tag in HIDDEN_TAGS
        if not hidden:
            # Each element's text stands apart (a bracket box's seed, name and score are spans the
            # style sheet sets apart): a name beside a seed is still the name.
            stream.append("\n" if tag in BLOCKS else " ")
            stream.append(element.text or "")
            attributes.extend(element.get(name) for name in VISIBLE_ATTRIBUTES if element.get(name))
            if tag == "input" and (element.get("type") or "").lower() in ("submit", "button", "reset"):
                attributes.append(element.get("value") or "")
        for child in element:
            walk(child, hidden)
            if child.tail and not hidden:
                stream.append(child.tail)
        if not hidden:
            stream.append("\n" if tag in BLOCKS else " ")

    walk(root)
    text = "".join(stream)
    while True:  # the markers of a sentence that holds tags, across the lines of its blocks
        inner = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", text)
        if inner == text:
            break
        text = inner
    return [line for line in text.split("\n") if line.strip()] + attributes


def _outside_markers(text: str, data: list[str]) -> str:
    """What of `text` is neither translated (inside the markers) nor data; '' when all is."""
    while True:
        inner = INNERMOST.sub(" ", text)
        if inner == text:
            break
        text = inner
    text = ADDRESS.sub(" ", SLIP_CODE.sub(" ", NOTATION.sub(" ", text)))
    for value in data:
        if value in text:
            text = re.sub(rf"(?<!\w){re.escape(value)}(?!\w)", " ", text)
    return " ".join(text.split()) if LETTER.search(text) else ""


def _templates_holding(response, text: str) -> list[str]:
    names = []
    words = [w for w in re.split(r"[\s{}%()]+", text) if LETTER.search(w)]
    probe = max(words, key=len) if words else text
    for template in getattr(response, "templates", []) or []:
        with warnings.catch_warnings():  # a partial's source is there only with template debugging on
            warnings.simplefilter("ignore")
            source = getattr(template, "source", "") or ""
        if template.name and probe in source and template.name not in names:
            names.append(template.name)
    return names or [f"not a template's text (the code behind {response.wsgi_request.path})"]


def _leftovers(response, page: str, data: list[str]) -> list[tuple[str, str, str]]:
    """(page, templates, text) for each visible text outside the markers."""
    found = []
    for text in _visible_texts(response.content.decode()):
        left = _outside_markers(text, data)
        if left:
            found.append((page, ", ".join(_templates_holding(response, left)), left))
    return found


def _is_html(response) -> bool:
    return response.status_code < 500 and "html" in response.get("Content-Type", "") and bool(response.content)


def _client(cast, role: str) -> Client:
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=PSEUDO)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
    if role != "visitor":
        client.force_login(cast[role])
    return client


def _known_gap(url: str) -> str | None:
    """The pattern of KNOWN_GAPS that lets `url`'s untranslated text pass, if any."""
    return next((pattern for pattern in KNOWN_GAPS if re.fullmatch(pattern, urlsplit(url).path)), None)


def test_the_pseudo_locale_wraps_what_it_translates(pseudo_locale, client):
    assert pseudo_locale > 800
    page = client.get("/ratings/formula/", HTTP_ACCEPT_LANGUAGE=PSEUDO)
    assert re.search(r'<a href="/events/"[^>]*>⟦Events⟧</a>', page.content.decode())
    assert _outside_markers("⟦Round ⟦Main⟧ 3⟧ Anna Berg, 12 Nov 2026", ["Anna Berg"]) == ", 12 Nov 2026"
    assert _outside_markers("⟦7 points⟧ · Anna: 3–1", ["Anna"]) == ""
    assert _outside_markers("51: bar/5 17/18* · 6/off(2)", []) == ""
    assert _outside_markers("⟦Move 3⟧: takes", []) == ": takes"
    assert _outside_markers("⟦Code⟧ KPT-3NY · https://club.example/events/open/m/3/", []) == ""
    assert _outside_markers("⟦Code⟧ not-a-code", []) == "not-a-code"


def test_every_page_and_form_of_the_crawl_is_translated(pseudo_locale, cast):
    data = _data()
    wrong, gaps_met, seen, pages_read, forms_sent = [], set(), set(), 0, 0
    pages = _pages(cast)
    pages["td"] = pages["td"] + _written_pages(cast)
    pages["staff"] = pages["staff"] + [f"/matches/{cast['match'].pk}/enter/", "/ratings/runs/"]
    for role, urls in pages.items():
        client = _client(cast, role)
        for page in urls:
            if role != "visitor":
                client.force_login(cast[role])
            response = client.get(page, follow=True)
            if not _is_html(response):
                continue
            pages_read += 1
            found = _leftovers(response, f"{role} GET {page}", data)
            gap = _known_gap(page)
            if gap and found:
                gaps_met.add(gap)
            elif found:
                wrong.extend(found)
            for form in _forms(response.content.decode(), "http://testserver" + page):
                if form["action"] in ("/logout/", "/language/"):
                    continue
                shape = (role, *_shape(form))
                if shape in seen:
                    continue
                seen.add(shape)
                forms_sent += 1
                for sent in (form["data"], {name: "abc" if name not in SKIPPED_FIELDS else value
                                            for name, value in form["data"].items()}):
                    if role != "visitor":
                        client.force_login(cast[role])
                    send = client.post if form["method"] == "post" else client.get
                    answer = send(form["action"], sent, follow=True)
                    if _is_html(answer):
                        found = _leftovers(answer, f"{role} {form['method'].upper()} {form['action']} from {page}",
                                           data)
                        gap = _known_gap(form["action"]) or _known_gap(page)
                        if gap and found:
                            gaps_met.add(gap)
                        elif found:
                            wrong.extend(found)
    assert pages_read >= 40 and forms_sent >= 25
    assert set(KNOWN_GAPS) - gaps_met == set(), "these pages speak every language now: take them off KNOWN_GAPS"
    report = sorted(set(wrong))
    assert not report, "text outside the pseudo-locale's markers:\n" + "\n".join(
        f"{page} [{where}]: {text!r}" for page, where, text in report)


def _written_pages(cast) -> list[str]:
    """The pages of the every-write test that the crawl's own list leaves out."""
    slug = cast["tournament"].slug
    pairing = cast["pairing"]
    return [f"/events/{slug}/m/{pairing.pk}/", f"/events/{slug}/check-in/", f"/events/{slug}/register/",
            "/ratings/lists/publish/", f"/matches/{cast['match'].pk}/games/1/",
            f"/desk/{slug}/flights/{cast['draft'].pk}/draw/"]
