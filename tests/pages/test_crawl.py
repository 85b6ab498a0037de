"""A crawl of every form and query the pages offer, sent again with malformed values one field at a
time (`²`, which passes `str.isdigit()` but not `int()`, nothing, -1, 10**20, words, an impossible
date, text with a NUL character, a very long text): every answer is a page or a refusal, never a server error.

Each form is read from the page a person of that role sees (a visitor, a player with a login, the
TD at his desk, staff); forms that differ only in the ids they carry are sent once. The API's
query parameters get the same values. The run takes a few seconds and runs in CI.
"""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urljoin, urlsplit

import html5lib
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.models import Player
from tournaments import services as events
from tournaments.models import Flight, Pairing, PlayerAccount, PlayerClaim
from tournaments.services import registration

from .conftest import build_knockout, build_replay_match, make_players

pytestmark = pytest.mark.django_db

BAD_VALUES = ["²", "", "-1", str(10**20), "abc", "2026-02-30T25:61"]
"""Sent in each field in turn."""
TYPED_VALUES = ["N\x00L"]
"""Sent in each field of a form too: text with a NUL character, which PostgreSQL cannot store."""
WHOLE_FORM_VALUES = ["2026-02-30", "9" * 40, "x" * 3000]
"""Sent in every field at once."""

SKIPPED_FIELDS = {"csrfmiddlewaretoken"}


def _forms(html: str, page: str) -> list[dict]:
    """Every form of a page: its method, its absolute path, and each way of sending it (one per
    named submit button) with the values the page filled in."""
    root = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False)
    found = []
    for form in root.iter("form"):
        action = urljoin(page, form.get("action") or page)
        if urlsplit(action).netloc not in ("", "testserver"):
            continue
        method = (form.get("method") or "get").lower()
        data, buttons = {}, []
        for element in form.iter():
            name = element.get("name")
            if not name:
                continue
            kind = (element.get("type") or "").lower()
            if element.tag == "input" and kind in ("submit", "image") or element.tag == "button":
                buttons.append((name, element.get("value", "")))
            elif element.tag == "input" and kind in ("checkbox", "radio"):
                if element.get("checked") is not None or name not in data:
                    data[name] = element.get("value", "on")
            elif element.tag == "input":
                data[name] = element.get("value", "")
            elif element.tag == "textarea":
                data[name] = element.text or ""
            elif element.tag == "select":
                options = list(element.iter("option"))
                chosen = next((o for o in options if o.get("selected") is not None), options[0] if options else None)
                data[name] = "" if chosen is None else chosen.get("value", chosen.text or "")
        for button in buttons or [None]:
            sent = dict(data)
            if button is not None:
                sent[button[0]] = button[1]
            found.append({"method": method, "action": urlsplit(action).path, "data": sent})
    return found


def _shape(form: dict) -> tuple:
    """What a form is without its ids: the desk's forty score forms are one form."""
    digits = re.compile(r"\d+")
    return (form["method"], digits.sub("N", form["action"]),
            tuple(sorted(digits.sub("N", name) for name in form["data"])),
            form["data"].get("action", ""))


def _send(client: Client, method: str, path: str, data: dict, errors: list, label: str) -> None:
    response = client.post(path, data) if method == "post" else client.get(path, data)
    if response.status_code >= 500:
        errors.append(f"{label}: {method.upper()} {path} {data if len(str(data)) < 300 else '…'} "
                      f"answered {response.status_code}")


@pytest.fixture
def cast(td):
    return build_cast(td)


def build_cast(td) -> dict:
    """A knockout with a flight open for registration, a reported result, a claim waiting for the
    TD and a recorded match; the logins of each role (tests/e2e/test_accessibility_desk.py too)."""
    staff = get_user_model().objects.create_user("office", password="pw-office-1", is_staff=True, is_superuser=True,
                                                 email="office@example.org")
    players = make_players(4, prefix="Crawl")
    tournament = build_knockout(td, players, name="Crawl Open", staff=staff)
    # A flight not yet drawn, open for registration and check-in from the phone.
    draft = events.flight_create(tournament=tournament, name="Side", format="single_elimination", lengths=[3, 3],
                                 by=td)
    registration.registration_open(flight=draft, by=td, closes=timezone.now() + timedelta(days=2), cap=16)
    registration.check_in_window_open(flight=draft, by=td, minutes=60)
    # Two checked in (the draw has a preview) and one still to check in.
    for player in players[:2]:
        events.entry_check_in(entry=events.entry_add(flight=draft, player=player, by=td), by=td)
    events.entry_add(flight=draft, player=players[2], by=td)
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="pending",
                                     player_b__isnull=False).order_by("pk").first()
    player_user = get_user_model().objects.create_user("crawler", password="pw-crawler-1", email="c@example.org")
    PlayerAccount.objects.update_or_create(player=pairing.player_a, defaults={"user": player_user})
    events.result_report(pairing=pairing, by=player_user, score_a=pairing.round.length, score_b=1)
    # A claim waiting for the TD, and a login still looking for its player.
    waiting = get_user_model().objects.create_user("waiting", password="pw-waiting-1")
    unlinked = Player.objects.exclude(account__isnull=False).filter(tournament_entries__tournament=tournament).first()
    PlayerClaim.objects.create(user=waiting, player=unlinked)
    claimer = get_user_model().objects.create_user("claimer", password="pw-claimer-1")
    match = build_replay_match(make_players(2, prefix="Replay"))
    return {"tournament": tournament, "pairing": pairing, "staff": staff, "player": player_user,
            "claimer": claimer, "td": td, "match": match, "draft": draft}


def _pages(cast) -> dict[str, list[str]]:
    slug = cast["tournament"].slug
    pairing, match = cast["pairing"], cast["match"]
    public = ["/", "/events/", f"/events/{slug}/", f"/players/{pairing.player_a_id}/", f"/matches/{match.pk}/",
              "/ratings/", "/ratings/chances/", "/ratings/formula/", "/signup/", "/password/reset/", "/login/"]
    return {
        "visitor": public,
        "player": public + ["/me/", "/account/", "/password/change/"],
        "claimer": ["/account/?q=Crawl"],
        "td": public + ["/desk/", f"/desk/{slug}/", f"/desk/{slug}/slips/", f"/desk/{slug}/pairings/{pairing.pk}/",
                        f"/desk/{slug}/pairings/{pairing.pk}/more/",
                        f"/desk/{slug}/flights/{cast['draft'].pk}/entries/",
                        f"/desk/{slug}/flights/{cast['draft'].pk}/draw/", f"/desk/{slug}/projector/",
                        f"/matches/{match.pk}/enter/", "/account/claims/"],
        "staff": ["/desk/", "/account/claims/", "/ratings/", f"/matches/{match.pk}/enter/"],
    }


def _client(cast, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if role != "visitor":
        client.force_login(cast[role] if role != "td" else cast["td"])
    return client


@pytest.mark.slow
def test_no_form_or_query_of_any_page_answers_a_server_error(cast):
    errors: list[str] = []
    sent_shapes: set = set()
    forms_sent = 0
    for role, pages in _pages(cast).items():
        client = _client(cast, role)
        for page in pages:
            if role != "visitor":
                client.force_login(cast[role])  # a form sent before may have ended the session
            response = client.get(page)
            assert response.status_code < 500, f"{role}: GET {page} answered {response.status_code}"
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            for form in _forms(response.content.decode(), "http://testserver" + page):
                if form["action"] == "/logout/":
                    continue
                shape = _shape(form) if not form["action"].startswith(("/desk/", "/account/", "/me/")) \
                    else (role, *_shape(form))
                if shape in sent_shapes:
                    continue
                sent_shapes.add(shape)
                forms_sent += 1
                for name in form["data"]:
                    if name in SKIPPED_FIELDS:
                        continue
                    for value in BAD_VALUES + TYPED_VALUES:
                        _send(client, form["method"], form["action"], {**form["data"], name: value}, errors, role)
                for value in WHOLE_FORM_VALUES:
                    _send(client, form["method"], form["action"],
                          {name: value if name not in SKIPPED_FIELDS else sent for name, sent in form["data"].items()},
                          errors, role)
                # The fields a page might read that the form does not carry (a forged form).
                for name in ("entry", "flight", "pairing", "report", "player", "claim", "minutes", "cap", "closes"):
                    if name not in form["data"]:
                        for value in ("²", "", "abc", str(10**20)):
                            _send(client, form["method"], form["action"], {**form["data"], name: value}, errors, role)
    assert forms_sent >= 25  # the crawl reached the desk, the player's page and the accounts
    assert errors == []


QUERIES = {
    "/api/v1/ratings/predict/": ["a", "b", "length", "system"],
    "/api/v1/matches/": ["played_after", "played_before", "player", "tournament", "length", "page", "ordering"],
    "/api/v1/players/": ["search", "page", "country", "ordering"],
    "/api/v1/ratings/": ["system", "page", "as_of", "player"],
    "/api/v1/tournaments/": ["page", "status", "search"],
    "/api/v1/pairings/": ["flight", "round", "status", "page", "player"],
    "/api/v1/entries/": ["flight", "tournament", "status", "page", "player"],
    "/ratings/": ["system", "page", "as_of", "q", "country"],
    "/ratings/chances/": ["a", "b", "length", "system"],
    "/ratings/players/": ["q"],
    "/events/": ["page", "q", "status"],
    "/": ["page"],
}


def test_no_query_parameter_answers_a_server_error(cast):
    client = _client(cast, "visitor")
    errors: list[str] = []
    extra = ["²", "2026-11-20 23:59", "2026-11-20+23:59", "2026-11-20T23:59:60", "1e3", "0x10"]
    for path, names in QUERIES.items():
        for name in names:
            for value in BAD_VALUES + extra:
                _send(client, "get", path, {name: value}, errors, "visitor")
    assert errors == []
