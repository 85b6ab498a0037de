"""A result arrives once, however often it is sent: the desk's Saves and a player's report carry a
key made when they were typed (`Idempotency-Key`), and every try gets the first answer."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments import services as events
from tournaments import tasks
from tournaments.models import Pairing, ResultReport, SaveKey

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db

JSON = {"Accept": "application/json"}


@pytest.fixture
def event(td):
    return build_knockout(td, make_players(8, "Offline"), name="Basement Open", results_rounds=0)


def first_round(event) -> list[Pairing]:
    return list(Pairing.objects.filter(flight__tournament=event, flight__name="Main", round__number=1)
                .select_related("player_a", "player_b", "round", "flight").order_by("id"))


def save(client, event, pairing, a, b, *, key, version=None, headers=None):
    """A Save as the desk's offline queue sends it: the row's fields, the key, JSON asked for."""
    data = {"action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version if version is None
            else version, f"p{pairing.pk}-score_a": a, f"p{pairing.pk}-score_b": b}
    return client.post(f"/desk/{event.slug}/", data, headers={**JSON, "Idempotency-Key": key, **(headers or {})})


def test_the_same_save_sent_twice_stores_one_result_and_answers_the_same(td_client, event):
    pairing = first_round(event)[0]
    key = str(uuid.uuid4())
    first = save(td_client, event, pairing, 5, 2, key=key)
    again = save(td_client, event, pairing, 5, 2, key=key)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {
        "result": "recorded", "pairing": pairing.pk, "slot": pairing.slot, "score_a": 5, "score_b": 2,
        "report_status": "confirmed"}
    assert "Idempotent-Replayed" not in first and again["Idempotent-Replayed"] == "true"
    assert ResultReport.objects.filter(pairing=pairing).count() == 1
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 5, 2)
    assert SaveKey.objects.get(key=key).pairing_id == pairing.pk


def test_an_htmx_save_and_its_queued_retry_with_one_key_store_one_result(td_client, event):
    """The desk's Save timed out in the browser after it reached the server: the queue sends it
    again with the key it was typed with."""
    pairing = first_round(event)[1]
    key = "typed-" + uuid.uuid4().hex
    data = {"action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
            f"p{pairing.pk}-score_a": 1, f"p{pairing.pk}-score_b": 5, "idempotency_key": key}
    online = td_client.post(f"/desk/{event.slug}/", data, headers={"HX-Request": "true"})
    assert online.status_code == 200 and "1–5" in online.content.decode()
    retry = save(td_client, event, pairing, 1, 5, key=key)
    assert retry.status_code == 200 and retry.json()["result"] == "recorded"
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_a_key_used_for_another_match_is_refused_and_changes_nothing(td_client, event):
    one, two = first_round(event)[:2]
    key = str(uuid.uuid4())
    assert save(td_client, event, one, 5, 0, key=key).status_code == 200
    reused = save(td_client, event, two, 5, 0, key=key)
    assert reused.status_code == 409
    assert reused.json() == {"error": "key_reused", "message": (
        "This Idempotency-Key was already used for another match: a new result needs a new key.")}
    two.refresh_from_db()
    assert two.status == "pending" and not ResultReport.objects.filter(pairing=two).exists()


def test_a_result_that_meets_another_score_answers_409_with_both(td_client, td, event):
    pairing = first_round(event)[2]
    events.result_report(pairing=pairing, by=td, score_a=5, score_b=3)  # entered online meanwhile
    typed_offline = save(td_client, event, pairing, 2, 5, key=str(uuid.uuid4()), version=0)
    assert typed_offline.status_code == 409
    body = typed_offline.json()
    assert body["error"] == "result_conflict" and body["state"] == "finished"
    assert body["stored"] == {"score_a": 5, "score_b": 3} and body["sent"] == {"score_a": 2, "score_b": 5}
    assert body["message"] == f"{pairing.slot} was recorded meanwhile as 5–3; you typed 2–5."
    pairing.refresh_from_db()
    assert (pairing.score_a, pairing.score_b) == (5, 3)
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_a_result_that_meets_the_same_score_is_already_there(td_client, td, event):
    pairing = first_round(event)[3]
    events.result_report(pairing=pairing, by=td, score_a=4, score_b=5)
    late = save(td_client, event, pairing, 4, 5, key=str(uuid.uuid4()), version=0)
    assert late.status_code == 200 and late.json()["result"] == "already"
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_a_player_s_open_report_of_another_score_is_a_conflict_for_the_td(td_client, td, event):
    pairing = first_round(event)[0]
    codes = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td)
    events.result_report(pairing=pairing, code=codes[(pairing.pk, pairing.player_a_id)], score_a=5, score_b=4)
    answer = save(td_client, event, pairing, 4, 5, key=str(uuid.uuid4()), version=0)
    assert answer.status_code == 409
    assert answer.json()["state"] == "reported" and answer.json()["stored"] == {"score_a": 5, "score_b": 4}


def test_a_save_typed_before_a_table_call_is_stored_the_version_is_not_what_counts(td_client, td, event):
    pairing = first_round(event)[1]
    typed_at = pairing.version
    events.tables_set(tournament=event, count=8, by=td)
    events.pairing_table_set(pairing=pairing, table="3", by=td)
    answer = save(td_client, event, pairing, 5, 1, key=str(uuid.uuid4()), version=typed_at)
    assert answer.status_code == 200 and answer.json()["result"] == "recorded"


def test_a_refused_save_keeps_its_first_answer(td_client, event):
    pairing = first_round(event)[0]
    key = str(uuid.uuid4())
    tie = save(td_client, event, pairing, 3, 3, key=key)
    assert tie.status_code == 400 and tie.json()["error"] == "invalid"
    assert save(td_client, event, pairing, 3, 3, key=key).json() == tie.json()
    assert not ResultReport.objects.filter(pairing=pairing).exists()


@pytest.mark.parametrize("key", ["has space", "x" * 65, "ünï"])
def test_a_malformed_key_is_a_400_and_changes_nothing(td_client, event, key):
    pairing = first_round(event)[0]
    answer = save(td_client, event, pairing, 5, 0, key=key)
    assert answer.status_code == 400
    assert answer.json()["fields"] == {"idempotency_key": ["An Idempotency-Key is 1 to 64 letters, digits, '-' or '_'."]}
    assert not ResultReport.objects.exists() and not SaveKey.objects.exists()


def test_a_save_sent_this_way_needs_a_key_and_only_a_save_is(td_client, event):
    pairing = first_round(event)[0]
    no_key = td_client.post(f"/desk/{event.slug}/", {"action": "score", "pairing": pairing.pk,
                                                     f"p{pairing.pk}-score_a": 5, f"p{pairing.pk}-score_b": 0},
                            headers=JSON)
    assert no_key.status_code == 400 and no_key.json()["message"] == "A Save sent this way carries an Idempotency-Key."
    draw = td_client.post(f"/desk/{event.slug}/", {"action": "start_round", "flight": pairing.flight_id},
                          headers={**JSON, "Idempotency-Key": "k1"})
    assert draw.status_code == 400
    assert not ResultReport.objects.exists()


def test_old_keys_are_forgotten_after_save_key_days(td_client, event, settings):
    settings.SAVE_KEY_DAYS = 30
    one, two = first_round(event)[:2]
    save(td_client, event, one, 5, 0, key="old-key")
    save(td_client, event, two, 5, 0, key="new-key")
    SaveKey.objects.filter(key="old-key").update(created_at=timezone.now() - timedelta(days=31))
    SaveKey.objects.filter(key="new-key").update(created_at=timezone.now() - timedelta(days=29))
    assert tasks.save_keys_prune() == 1
    assert list(SaveKey.objects.values_list("key", flat=True)) == ["new-key"]
    assert "save-keys-prune" in settings.CELERY_BEAT_SCHEDULE


def test_a_player_s_report_from_his_phone_is_stored_once(client, td, event):
    pairing = first_round(event)[0]
    codes = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td)
    code = codes[(pairing.pk, pairing.player_b_id)]
    key = str(uuid.uuid4())
    data = {"action": "report", "report-code": code, "report-score_a": 2, "report-score_b": 5}
    url = f"/events/{event.slug}/m/{pairing.pk}/"
    first = client.post(url, data, headers={**JSON, "Idempotency-Key": key})
    again = client.post(url, data, headers={**JSON, "Idempotency-Key": key})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {"result": "recorded", "pairing": pairing.pk, "slot": pairing.slot,
                                            "score_a": 2, "score_b": 5, "report_status": "pending"}
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_a_wrong_code_is_not_kept_with_the_key(client, td, event):
    pairing = first_round(event)[1]
    codes = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td)
    key = str(uuid.uuid4())
    url = f"/events/{event.slug}/m/{pairing.pk}/"
    data = {"action": "report", "report-code": "AAA-AAA", "report-score_a": 5, "report-score_b": 1}
    wrong = client.post(url, data, headers={**JSON, "Idempotency-Key": key})
    assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_code"
    data["report-code"] = codes[(pairing.pk, pairing.player_a_id)]
    right = client.post(url, data, headers={**JSON, "Idempotency-Key": key})
    assert right.status_code == 200 and right.json()["report_status"] == "pending"


def test_a_player_s_report_on_the_page_with_a_key_is_stored_once(client, td, event):
    pairing = first_round(event)[2]
    codes = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td)
    data = {"action": "report", "report-version": pairing.version, "report-code": codes[(pairing.pk, pairing.player_a_id)],
            "report-score_a": 5, "report-score_b": 0, "idempotency_key": "page-key-1"}
    url = f"/events/{event.slug}/m/{pairing.pk}/"
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_the_api_answers_every_try_of_a_key_with_the_first_answer(td, event):
    api = APIClient()
    api.force_authenticate(td)
    pairing = first_round(event)[0]
    body = {"score_a": 5, "score_b": 1, "version": pairing.version}
    first = api.post(f"/api/v1/pairings/{pairing.pk}/reports/", body, format="json", headers={"Idempotency-Key": "api-1"})
    again = api.post(f"/api/v1/pairings/{pairing.pk}/reports/", body, format="json", headers={"Idempotency-Key": "api-1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json() and again["Idempotent-Replayed"] == "true"
    assert ResultReport.objects.filter(pairing=pairing).count() == 1
    other = first_round(event)[1]
    reused = api.post(f"/api/v1/pairings/{other.pk}/reports/", {"score_a": 5, "score_b": 1, "version": other.version},
                      format="json", headers={"Idempotency-Key": "api-1"})
    assert reused.status_code == 409
    bad = api.post(f"/api/v1/pairings/{other.pk}/reports/", body, format="json", headers={"Idempotency-Key": "a b"})
    assert bad.status_code == 400 and "idempotency_key" in bad.json()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks and concurrent "
                    "writers (SQLite takes one writer at a time; CI runs it on PostgreSQL)")
def test_twenty_requests_at_once_with_one_key_store_one_result(td):
    event = build_knockout(td, make_players(8, "Race"), name="Race Open", results_rounds=0)
    pairing = first_round(event)[0]
    key = str(uuid.uuid4())
    barrier = threading.Barrier(20)
    answers = []

    def send():
        client = Client()
        client.force_login(td)
        barrier.wait()
        try:
            response = save(client, event, pairing, 5, 3, key=key)
            answers.append((response.status_code, response.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 20
    assert {status for status, _ in answers} == {200}
    assert all(body == answers[0][1] for _, body in answers) and answers[0][1]["result"] == "recorded"
    assert ResultReport.objects.filter(pairing=pairing).count() == 1
    assert SaveKey.objects.filter(key=key).count() == 1


def test_a_save_with_a_key_costs_a_fixed_few_queries_more_than_one_without(td_client, event):
    """The key is looked for and stored in the Save's own transaction, whose locks the report
    itself then uses (the match is locked once): the key read, a savepoint and its release, the
    match's open reports asked for (a result that arrives is judged on what the match holds), the
    key stored; on PostgreSQL the event's row is locked first too (SQLite's writer holds the whole
    database already). The page, the bracket and the draw that follow are the same either way."""
    pairings = first_round(event)

    def desk_save(pairing, key=None):
        data = {"action": "score", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version,
                f"p{pairing.pk}-score_a": 5, f"p{pairing.pk}-score_b": 1}
        if key:
            data["idempotency_key"] = key
        with CaptureQueriesContext(connection) as queries:
            answer = td_client.post(f"/desk/{event.slug}/", data, headers={"HX-Request": "true"})
        assert answer.status_code == 200
        return len(queries)

    # R1-1 and R1-3 each finish a match whose neighbour is still playing: nothing is drawn after either.
    without = desk_save(pairings[0])
    keyed = desk_save(pairings[2], key=str(uuid.uuid4()))
    assert keyed - without == (6 if connection.features.has_select_for_update else 5)
    assert ResultReport.objects.filter(pairing__in=[pairings[0], pairings[2]]).count() == 2
    assert SaveKey.objects.count() == 1
