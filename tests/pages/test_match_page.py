"""A match's public page, reached from the QR code of its slip: anyone reads it; a player reports
from it with the code on his half of the slip (or his login), his opponent confirms with his own."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments import services as events
from tournaments.models import Pairing, PlayerAccount, ResultReport, SlipCode

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(td):
    return build_knockout(td, make_players(8, "Slip"), name="Harbour Cup", results_rounds=0)


def open_pairings(event):
    return list(Pairing.objects.filter(flight__tournament=event, flight__name="Main", round__number=1)
                .select_related("player_a", "player_b", "round", "flight").order_by("id"))


def codes_for(event, td, pairings):
    """The codes the slips print, as {(pairing id, player id): "ABCDEF"}."""
    return events.slip_codes_issue(tournament=event, pairing_ids=[p.pk for p in pairings], by=td)


def url(event, pairing):
    return f"/events/{event.slug}/m/{pairing.pk}/"


def report(client, event, pairing, code, a, b, **extra):
    return client.post(url(event, pairing), {"action": "report", "report-version": pairing.version,
                                             "report-code": code, "report-score_a": a, "report-score_b": b},
                       **extra)


def answer(client, event, pairing, code, report_pk, what="confirm", reason=""):
    return client.post(url(event, pairing), {"action": "answer", "answer-report": report_pk, "answer-code": code,
                                             "answer-answer": what, "answer-reason": reason})


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_anyone_sees_the_match_without_a_login(client, event, td):
    pairing = open_pairings(event)[0]
    events.tables_set(tournament=event, count=10, by=td)
    events.pairing_table_set(pairing=pairing, table="7", by=td)
    response = client.get(url(event, pairing))
    assert response.status_code == 200
    page = text(response)
    a, b = pairing.player_a.name, pairing.player_b.name
    assert f"Harbour Cup · Main {pairing.slot} {a} v {b} Table 7 Length 5 points Round 1" in page
    assert "Crawford rule · cube capped at 64 · clock 2 min + 12 s" in page
    assert "Result To play at table 7." in page
    assert f'href="/events/{event.slug}/"' in response.content.decode()
    assert "Your code" in page and "Report the result" in page
    assert "director" not in page  # no login name anywhere


def test_a_s_code_reports_for_a_and_b_s_code_confirms(client, event, td):
    pairing = open_pairings(event)[0]
    codes = codes_for(event, td, [pairing])
    a_code, b_code = codes[(pairing.pk, pairing.player_a_id)], codes[(pairing.pk, pairing.player_b_id)]
    response = report(client, event, pairing, f"{a_code[:3].lower()}-{a_code[3:]}", 5, 3)
    assert response.status_code == 302 and response["Location"] == f"{url(event, pairing)}#result"
    made = ResultReport.objects.get(pairing=pairing)
    assert (made.score_a, made.score_b, made.status, made.submitted_for_id, made.submitted_by_id,
            made.submitted_with_code) == (5, 3, "pending", pairing.player_a_id, None, True)
    page = text(client.get(url(event, pairing)))
    assert (f"{pairing.player_a.name} 5–3 {pairing.player_b.name} Reported by {pairing.player_a.name}; it counts "
            f"when {pairing.player_b.name} confirms it.") in page
    # A's code cannot confirm A's own report.
    assert answer(client, event, pairing, a_code, made.pk).status_code == 403
    assert answer(client, event, pairing, b_code, made.pk).status_code == 302
    pairing.refresh_from_db()
    made.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b, pairing.winner_id) == (
        "finished", 5, 3, pairing.player_a_id)
    assert (made.status, made.confirmed_by_id, made.confirmed_with_code) == ("confirmed", None, True)
    page = text(client.get(url(event, pairing)))
    assert f"{pairing.player_a.name} 5–3 {pairing.player_b.name} Finished {pairing.player_a.name} won." in page
    assert "Your code" not in page


def test_b_s_code_disputes_and_the_td_decides(client, event, td):
    pairing = open_pairings(event)[0]
    codes = codes_for(event, td, [pairing])
    report(client, event, pairing, codes[(pairing.pk, pairing.player_a_id)], 5, 3)
    made = ResultReport.objects.get(pairing=pairing)
    response = answer(client, event, pairing, codes[(pairing.pk, pairing.player_b_id)], made.pk, "dispute",
                      "It was 3-5")
    assert response.status_code == 302
    made.refresh_from_db()
    assert (made.status, made.dispute_reason, made.disputed_by_id) == ("disputed", "It was 3-5", None)
    assert "the TD will rule on it" in text(client.get(url(event, pairing)))


def test_a_code_of_another_match_is_refused_and_nothing_changes(client, event, td):
    first, second = open_pairings(event)[:2]
    codes = codes_for(event, td, [first, second])
    response = report(client, event, second, codes[(first.pk, first.player_a_id)], 5, 3)
    assert response.status_code == 403
    assert ("This is not the code on a slip of this match. Type the code printed on your own half of the slip "
            "(six letters and digits), or ask the TD.") in text(response)
    assert not ResultReport.objects.exists()


def test_a_code_no_longer_works_once_the_match_is_decided(client, event, td):
    pairing = open_pairings(event)[0]
    codes = codes_for(event, td, [pairing])
    events.result_report(pairing=pairing, by=td, score_a=5, score_b=1)
    pairing.refresh_from_db()
    response = report(client, event, pairing, codes[(pairing.pk, pairing.player_b_id)], 1, 5)
    # The page no longer offers the form; a form sent anyway is refused.
    assert response.status_code == 409
    assert (f"Main {pairing.slot} already has a result: the codes on its slip no longer work. If the result is "
            "wrong, ask a TD to correct it.") in text(response)
    assert ResultReport.objects.filter(pairing=pairing).count() == 1


def test_a_stranger_s_wrong_codes_hold_up_his_device_not_the_player_s_right_code(client, event, td):
    pairing = open_pairings(event)[0]
    right = codes_for(event, td, [pairing])[(pairing.pk, pairing.player_a_id)]
    wrong = "ACDEFG" if right != "ACDEFG" else "ACDEFH"
    stranger = [report(client, event, pairing, wrong, 5, 3, REMOTE_ADDR="10.0.0.66").status_code for _ in range(10)]
    crowd = [report(client, event, pairing, wrong, 5, 3, REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(10)]
    assert (stranger, crowd) == ([403] * 10, [403] * 10)
    # The stranger's device waits for this match, even with the right code ...
    response = report(client, event, pairing, right, 5, 3, REMOTE_ADDR="10.0.0.66")
    assert response.status_code == 429
    assert ("Too many wrong codes were typed for this match from your device: wait an hour, or ask the TD to "
            "enter the result.") in text(response)
    assert not ResultReport.objects.exists()
    # ... and the player's phone reports with his code.
    assert report(client, event, pairing, right, 5, 3, REMOTE_ADDR="10.0.1.1").status_code == 302
    made = ResultReport.objects.get(pairing=pairing)
    assert (made.score_a, made.score_b, made.status) == (5, 3, "pending")


def test_a_client_typing_twenty_wrong_codes_waits_on_every_match(client, event, td):
    pairings = open_pairings(event)
    codes = codes_for(event, td, pairings)
    for n in range(20):
        p = pairings[n % 4]
        assert report(client, event, p, "YYYYYY", 5, 3).status_code == 403
    p = pairings[0]
    response = report(client, event, p, codes[(p.pk, p.player_a_id)], 5, 3)
    assert response.status_code == 429
    assert "Too many wrong codes were typed from your device" in text(response)
    # Another client is not held up by it.
    assert report(client, event, p, codes[(p.pk, p.player_a_id)], 5, 3, REMOTE_ADDR="10.9.9.9").status_code == 302


@pytest.mark.parametrize("fields, field, message", [
    ({"report-code": "ABC"}, "code", "A code is six letters and digits, as printed on the slip (e.g. ACD-EFG)."),
    ({"report-code": "OOOOOO"}, "code", "A code is six letters and digits, as printed on the slip (e.g. ACD-EFG)."),
    ({"report-code": "x" * 500}, "code", "Ensure this value has at most 20 characters (it has 500)."),
    ({"report-score_a": "²"}, "score_a", "Enter a whole number."),
    ({"report-score_a": "-1"}, "score_a", "Ensure this value is greater than or equal to 0."),
    ({"report-score_b": "1e9"}, "score_b", "Enter a whole number."),
    ({"report-score_b": ""}, "score_b", "This field is required."),
    ({"report-code": ""}, "code", "Type the code printed on your half of the slip, or log in as yourself."),
    ({"report-score_a": "5", "report-score_b": "5"}, None, None),
])
def test_malformed_input_is_a_form_error_and_changes_nothing(client, event, td, fields, field, message):
    pairing = open_pairings(event)[0]
    codes = codes_for(event, td, [pairing])
    data = {"action": "report", "report-version": pairing.version,
            "report-code": codes[(pairing.pk, pairing.player_a_id)], "report-score_a": "5", "report-score_b": "3",
            **fields}
    response = client.post(url(event, pairing), data)
    assert response.status_code == 400
    if message:
        assert message in text(response)
    assert not ResultReport.objects.exists()
    # A malformed code is no guess: it does not count towards the limit.
    assert client.get(url(event, pairing)).status_code == 200


def test_a_tie_is_refused_beside_the_score(client, event, td):
    pairing = open_pairings(event)[0]
    code = codes_for(event, td, [pairing])[(pairing.pk, pairing.player_a_id)]
    response = report(client, event, pairing, code, 5, 5)
    assert response.status_code == 400
    assert not ResultReport.objects.exists()


def test_a_player_logged_in_as_himself_reports_without_a_code(client, event, td):
    pairing = open_pairings(event)[0]
    login = get_user_model().objects.create_user("slipper")
    PlayerAccount.objects.create(player=pairing.player_b, user=login)
    client.force_login(login)
    page = text(client.get(url(event, pairing)))
    assert f"You are logged in as {pairing.player_b.name}: you report as yourself, no code needed." in page
    response = report(client, event, pairing, "", 2, 5)
    assert response.status_code == 302
    made = ResultReport.objects.get(pairing=pairing)
    assert (made.submitted_for_id, made.submitted_by_id, made.submitted_with_code) == (
        pairing.player_b_id, login.pk, False)


def test_printing_again_keeps_the_codes_and_new_slips_replace_them(client, event, td):
    pairing = open_pairings(event)[0]
    first = codes_for(event, td, [pairing])
    assert codes_for(event, td, [pairing]) == {}
    assert SlipCode.objects.filter(pairing=pairing, revoked_at__isnull=True).count() == 2
    a = pairing.player_a_id
    renewed = events.slip_codes_issue(tournament=event, pairing_ids=[pairing.pk], by=td, renew=True)
    assert set(renewed) == {(pairing.pk, a), (pairing.pk, pairing.player_b_id)}
    assert report(client, event, pairing, first[(pairing.pk, a)], 5, 3).status_code == 403
    assert report(client, event, pairing, renewed[(pairing.pk, a)], 5, 3).status_code == 302


def test_the_slips_page_prints_codes_once_and_new_slips_on_request(client, event, td):
    client.force_login(td)
    response = client.get(f"/desk/{event.slug}/slips/")
    page = text(response)
    codes = re.findall(r"Code ([3-9A-Y]{3}-[3-9A-Y]{3})", page)
    assert len(codes) == 8 and len(set(codes)) == 8  # four matches, two halves each
    first = open_pairings(event)[0]
    # Both halves carry the QR code of the match's page (its address in the title).
    assert response.content.decode().count(f'title="http://testserver/events/{event.slug}/m/{first.pk}/"') == 2
    again = text(client.get(f"/desk/{event.slug}/slips/"))
    assert re.findall(r"Code ([3-9A-Y]{3}-[3-9A-Y]{3})", again) == []
    assert again.count("Code: on the slip printed before") == 8
    renewed = text(client.post(f"/desk/{event.slug}/slips/", {"action": "renew", "round": ""}))
    new = re.findall(r"Code ([3-9A-Y]{3}-[3-9A-Y]{3})", renewed)
    assert len(new) == 8 and not set(new) & set(codes)


def test_the_match_page_asks_as_many_queries_for_any_match(client, event, td):
    pairings = open_pairings(event)
    codes = codes_for(event, td, pairings[:2])
    p = pairings[1]
    report(client, event, p, codes[(p.pk, p.player_a_id)], 5, 3)
    counts = []
    for pairing in pairings[:2]:
        client.get(url(event, pairing))
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url(event, pairing)).status_code == 200
        counts.append(len(captured))
    # The pairing with its event, round, players and match; its open report with its reporter.
    assert counts == [2, 2]


def test_an_answer_to_a_report_replaced_meanwhile_is_refused_with_the_reason(client, event, td):
    pairing = open_pairings(event)[0]
    codes = codes_for(event, td, [pairing])
    a, b = codes[(pairing.pk, pairing.player_a_id)], codes[(pairing.pk, pairing.player_b_id)]
    report(client, event, pairing, a, 5, 3)
    stale = ResultReport.objects.get(pairing=pairing)
    pairing.refresh_from_db()
    report(client, event, pairing, a, 5, 4)
    response = answer(client, event, pairing, b, stale.pk)
    assert response.status_code == 409
    assert "That report has been replaced meanwhile: read the result again below." in text(response)
    assert list(ResultReport.objects.filter(pairing=pairing).values_list("status", flat=True).order_by("version")) == [
        "superseded", "pending"]


def test_a_decided_match_shows_its_rating_changes_and_links_to_its_own_page(client, event, td):
    from .conftest import publish_ratings

    pairing, other = open_pairings(event)[:2]
    events.result_report(pairing=pairing, by=td, score_a=5, score_b=3)
    events.pairing_walkover(pairing=other, winner=other.player_a, reason="did not show up", by=td)
    publish_ratings()
    pairing.refresh_from_db()
    response = client.get(url(event, pairing))
    html = response.content.decode()
    page = text(response)
    assert f'<p class="match-own-page"><a href="/matches/{pairing.match_id}/">The match\'s own page: its games and the rating changes</a>' in html
    assert "Rating changes Player FIBS Elo Variance-adjusted (Glicko-2)" in page
    assert re.search(rf"{pairing.player_a.name} \+\d+\.\d 1500 → 15\d\d \+\d+\.\d", page)
    assert re.search(rf"{pairing.player_b.name} -\d+\.\d 1500 → 14\d\d -\d+\.\d", page)
    # A walkover moves no rating: neither the section nor the link.
    walkover = text(client.get(url(event, other)))
    assert "Rating changes" not in walkover and "own page" not in walkover
