"""The desk shows what players do without the TD: claims to decide, registration and check-in
windows, in its counts too; and the TD who decides a claim is told by e-mail."""

import datetime

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services as games
from tournaments import services as events
from tournaments.models import PlayerAccount
from tournaments.services import registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(django_user_model):
    admin = django_user_model.objects.create_user("root", email="root@example.org", is_superuser=True)
    td = django_user_model.objects.create_user("clubtd", email="td@example.org")
    event = events.tournament_create(name="Club Night", start_date=datetime.date(2026, 12, 1), organisers=[td],
                                     by=admin)
    flight = events.flight_create(tournament=event, name="Main", format="round_robin", lengths=[3], by=td)
    players = [games.player_create(name=f"Club player {i}") for i in range(4)]
    for player in players:
        events.entry_add(flight=flight, player=player, by=td)
    return {"admin": admin, "td": td, "event": event, "flight": flight, "players": players}


def _claim(player, name, django_user_model):
    return registration.claim_request(user=django_user_model.objects.create_user(name), player=player,
                                      note="I play on Tuesdays")


def _desk(client, club):
    with CaptureQueriesContext(connection) as captured:
        html = client.get(f"/desk/{club['event'].slug}/").content.decode()
    return html, len(captured)


def test_the_desk_lists_the_claims_and_windows_and_counts_them(club, client, django_user_model):
    _claim(club["players"][0], "tuesday", django_user_model)
    now = timezone.now()
    registration.registration_open(flight=club["flight"], by=club["td"], closes=now + datetime.timedelta(days=1),
                                   cap=6)
    registration.check_in_window_open(flight=club["flight"], by=club["td"], minutes=30)
    client.force_login(club["td"])
    html, _ = _desk(client, club)
    assert "<b>1</b> claim to decide" in html
    assert "<b>1</b> registration open" in html
    assert "<b>1</b> check-in open" in html
    assert "<b>tuesday</b> says he is <b>Club player 0</b>: “I play on Tuesdays”" in html
    assert "4 of 6 places taken" in html
    assert "check-in from the phone open until" in html


def test_the_desk_asks_as_many_queries_for_one_claim_as_for_three(club, client, django_user_model):
    client.force_login(club["td"])
    _claim(club["players"][0], "one", django_user_model)
    _, one = _desk(client, club)
    _claim(club["players"][1], "two", django_user_model)
    _claim(club["players"][2], "three", django_user_model)
    html, three = _desk(client, club)
    assert "<b>3</b> claims to decide" in html
    assert three == one


def test_approving_from_the_desk_links_the_login_and_comes_back_to_the_desk(club, client, django_user_model):
    claim = _claim(club["players"][0], "tuesday", django_user_model)
    client.force_login(club["td"])
    desk = f"/desk/{club['event'].slug}/"
    response = client.post("/account/claims/", {"claim": claim.pk, "action": "approve",
                                                 "next": f"{desk}#players-side-heading"})
    assert response.status_code == 302 and response["Location"] == f"{desk}#players-side-heading"
    assert PlayerAccount.objects.get(player=club["players"][0]).user.username == "tuesday"
    assert "<b>0</b> claims to decide" in client.get(desk).content.decode()


def test_the_deciding_td_is_told_of_a_new_claim_by_e_mail(club, django_user_model, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        _claim(club["players"][0], "tuesday", django_user_model)
    # The site admin who created the event is one of its TDs too.
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["root@example.org", "td@example.org"], "tuesday claims to be Club player 0")]
    assert 'He says: "I play on Tuesdays"' in mail.outbox[0].body
    assert "/account/claims/" in mail.outbox[0].body


def test_a_claim_on_a_player_of_other_events_too_goes_to_the_site_admins(
        club, django_user_model, django_capture_on_commit_callbacks):
    other_td = django_user_model.objects.create_user("othertd", email="other@example.org")
    other = events.tournament_create(name="Other Night", start_date=datetime.date(2026, 12, 2),
                                     organisers=[other_td], by=club["admin"])
    flight = events.flight_create(tournament=other, name="Main", format="round_robin", lengths=[3], by=other_td)
    events.entry_add(flight=flight, player=club["players"][0], by=other_td)
    with django_capture_on_commit_callbacks(execute=True):
        _claim(club["players"][0], "tuesday", django_user_model)
    assert [m.to for m in mail.outbox] == [["root@example.org"]]


def test_the_desk_s_list_of_events_flags_an_event_with_a_claim_to_decide(club, client, django_user_model):
    other = events.tournament_create(name="Quiet Night", start_date=datetime.date(2026, 12, 2),
                                     organisers=[club["td"]], by=club["admin"])
    client.force_login(club["td"])
    assert "claim to decide" not in client.get("/desk/").content.decode()
    _claim(club["players"][0], "tuesday", django_user_model)
    _claim(club["players"][1], "wednesday", django_user_model)
    html = client.get("/desk/").content.decode()
    assert html.count("claims to decide") == 1
    assert (f'<a class="badge claims" href="/desk/{club["event"].slug}/#players-side-heading">2 claims to decide</a>'
            in html)
    assert f'href="/desk/{other.slug}/#players-side-heading"' not in html
