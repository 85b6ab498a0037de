"""The two endpoints a phone or the desk sends kept Saves to as JSON (the desk's offline queue,
a match page's kept report) and the desk's own POST of every action, fed generated junk: each
answers with a refusal or a result, never a server error.

Generation is derandomized and the examples few, so a run is the same every time."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.models import Pairing
from tournaments.views.desk.events import ACTIONS

from .conftest import build_knockout, make_players

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

JSON = {"Accept": "application/json"}
EXAMPLES = 60

# Text a person or a script may send: numbers, words, ids of other things, NUL, very long, empty.
TEXT = st.one_of(st.text(max_size=12), st.integers(-2**70, 2**70).map(str), st.sampled_from(
    ["", "0", "-1", "1e3", "²", "5", "٣", "\x00", "null", "[]", "{}", "x" * 300, "999999999999999999999"]))
KEYS = st.one_of(st.none(), TEXT, st.uuids().map(str))


def _fields(pairing: Pairing, names) -> st.SearchStrategy:
    """A form of the named fields (each maybe missing) with generated values."""
    return st.fixed_dictionaries({}, optional={name: TEXT for name in names})


@pytest.fixture
def scene(td):
    event = build_knockout(td, make_players(8, "Fuzz"), name="Fuzz Cup", results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=event, status="pending", player_b__isnull=False
                                     ).order_by("id").first()
    return event, pairing


def _check(send):
    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=st.data())
    def run(case):
        response = send(case)
        assert response.status_code < 500, (response.status_code, response.content[:300])

    run()


def test_the_desks_json_save_never_answers_a_server_error(td, scene):
    event, pairing = scene
    client = Client(raise_request_exception=False)
    client.force_login(td)
    names = ["action", "pairing", f"p{pairing.pk}-score_a", f"p{pairing.pk}-score_b", f"p{pairing.pk}-version",
             f"p{pairing.pk}-note", "idempotency_key"]

    def send(case):
        data = case.draw(_fields(pairing, names))
        data.setdefault("action", case.draw(st.sampled_from(["score", "walkover", ""])))
        data.setdefault("pairing", case.draw(st.sampled_from([str(pairing.pk), "0", "abc"])))
        key = case.draw(KEYS)
        headers = {**JSON, **({"Idempotency-Key": key} if key is not None and "\x00" not in key else {})}
        return client.post(f"/desk/{event.slug}/", data, headers=headers)

    _check(send)


def test_a_match_pages_kept_report_never_answers_a_server_error(scene):
    event, pairing = scene
    client = Client(raise_request_exception=False)
    names = ["action", "report-code", "report-score_a", "report-score_b", "report-version", "idempotency_key"]

    def send(case):
        data = case.draw(_fields(pairing, names))
        data.setdefault("action", "report")
        key = case.draw(KEYS)
        headers = {**JSON, **({"Idempotency-Key": key} if key is not None and "\x00" not in key else {})}
        return client.post(f"/events/{event.slug}/m/{pairing.pk}/", data, headers=headers)

    _check(send)


def test_every_desk_action_posted_with_junk_never_answers_a_server_error(td, scene):
    event, pairing = scene
    client = Client(raise_request_exception=False)
    client.force_login(td)
    names = ["pairing", "entry", "flight", "winner", "table", "report", "from_report", "q", "anchor",
             f"p{pairing.pk}-score_a", f"p{pairing.pk}-score_b", f"p{pairing.pk}-version", f"p{pairing.pk}-reason",
             f"p{pairing.pk}-table", f"undo{pairing.pk}-version", "tables-count", "tables-reserved", "paste-text",
             "new-name", "minutes", "closes", "cap"]

    def send(case):
        data = case.draw(_fields(pairing, names))
        data["action"] = case.draw(st.sampled_from(sorted(ACTIONS)))
        return client.post(f"/desk/{event.slug}/", data, headers=case.draw(st.sampled_from([{}, {"HX-Request": "true"}])))

    _check(send)
