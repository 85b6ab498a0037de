"""Who may act for whom: a login linked to a player, check-in from the phone and the API, a TD
entering his own event's games, and what a staff login no longer does."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone

from games import services as games
from ratings import services as ratings
from games.permissions import RATING_OFFICER, SITE_ADMIN, TOURNAMENT_DIRECTOR
from tournaments import services
from tournaments.models import Entry, Pairing, PairingStatus, PlayerAccount, PlayerClaim
from tournaments.services import registration

from .helpers import API, ok

pytestmark = pytest.mark.django_db


def _in_group(user, name):
    user.groups.add(Group.objects.get(name=name))
    return user


@pytest.fixture
def site_admin(db):
    return _in_group(get_user_model().objects.create_user("admin", email="admin@example.org", is_staff=True), SITE_ADMIN)


@pytest.fixture
def final(site_admin, make_player, make_user):
    """Another TD's final, running: Magnus (rated there, no login) against Lena."""
    honest = make_user("honest")
    event = services.tournament_create(name="Nordic Final", start_date=datetime.date(2026, 5, 1),
                                       organisers=[honest], by=site_admin)
    flight = services.flight_create(tournament=event, name="Final", format="single_elimination", lengths=[11],
                                    by=honest)
    magnus, lena = make_player("Magnus"), make_player("Lena")
    for seed, player in enumerate((magnus, lena), start=1):
        services.entry_check_in(entry=services.entry_add(flight=flight, player=player, seed=seed, by=honest),
                                by=honest)
    services.flight_start(flight=flight, by=honest)
    return {"event": event, "flight": flight, "td": honest, "magnus": magnus, "lena": lena}


@pytest.fixture
def rogue(site_admin, make_user):
    """A tournament director who runs a kitchen-table event of his own."""
    td = _in_group(make_user("rogue"), TOURNAMENT_DIRECTOR)
    event = services.tournament_create(name="Kitchen Table", start_date=datetime.date(2026, 4, 1), by=td)
    flight = services.flight_create(tournament=event, name="Main", format="round_robin", lengths=[3], by=td)
    return {"td": td, "event": event, "flight": flight}


def test_the_rogue_organiser_chain_fails_at_the_link_and_the_final_is_still_to_play(
        final, rogue, make_user, client_for, client):
    magnus = final["magnus"]
    # 1. He may enter anyone in his own kitchen-table event: that is what a TD does.
    services.entry_add(flight=rogue["flight"], player=magnus, by=rogue["td"])
    # 2. A second login of his claims Magnus: anyone may ask.
    sock = make_user("sock", email="sock@example.org")
    claim = registration.claim_request(user=sock, player=magnus)
    # 3. He cannot approve it, on the page nor link it through the API.
    client.force_login(rogue["td"])
    page = client.post("/account/claims/", {"claim": claim.pk, "action": "approve"}, follow=True)
    assert ("Magnus is also entered in events you do not run: only a site admin links a login to him."
            in page.content.decode())
    response = client_for(rogue["td"]).post(f"{API}/player-accounts/", {"player": magnus.pk, "username": "sock"},
                                            format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Magnus is also entered in events you do not run: only a site admin "
                                         "links a login to him."}
    # 4. So the second login cannot withdraw Magnus from the other TD's final.
    entry = Entry.objects.get(flight=final["flight"], player=magnus)
    response = client_for(sock).post(f"{API}/entries/{entry.pk}/withdraw/", {"reason": "ill"}, format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Only the player himself or a TD of the event withdraws a player."}
    # Nothing changed: the claim waits, nobody is linked, the final is still to be played.
    assert PlayerClaim.objects.get(pk=claim.pk).status == "pending"
    assert not PlayerAccount.objects.filter(player=magnus, user__isnull=False).exists()
    assert Pairing.objects.get(flight=final["flight"]).status == PairingStatus.PENDING
    assert Entry.objects.get(pk=entry.pk).status == "checked_in"
    # Nor does the claim show on his list: only a site admin decides it.
    assert [c.pk for c in registration.claims_to_decide(rogue["td"])] == []


def test_a_td_links_a_player_entirely_of_his_events_and_the_player_is_told(
        rogue, make_player, make_user, client_for, django_capture_on_commit_callbacks):
    newcomer = make_player("Newcomer")
    services.entry_add(flight=rogue["flight"], player=newcomer, by=rogue["td"])
    make_user("newbie", email="newbie@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        body = ok(client_for(rogue["td"]).post(f"{API}/player-accounts/",
                                               {"player": newcomer.pk, "username": "newbie"}, format="json"), 201)
    assert body == {"player": newcomer.pk, "username": "newbie"}
    assert [(m.to, m.subject) for m in mail.outbox] == [
        (["newbie@example.org"], "The login newbie now acts for Newcomer")]
    assert "tell the site's administrators: they undo the link" in mail.outbox[0].body


def test_a_td_may_not_link_a_player_with_rated_results_elsewhere(rogue, make_player, make_user, client_for):
    veteran, other = make_player("Veteran"), make_player("Other")
    match = games.match_create(player_a=veteran, player_b=other, length=3)
    games.match_final_score_record(match=match, score_a=3, score_b=1)
    services.entry_add(flight=rogue["flight"], player=veteran, by=rogue["td"])
    make_user("vet")
    response = client_for(rogue["td"]).post(f"{API}/player-accounts/", {"player": veteran.pk, "username": "vet"},
                                            format="json")
    assert response.status_code == 403
    assert response.json() == {"detail": "Veteran has rated results outside your events: only a site admin "
                                         "links a login to him."}
    in_japanese = client_for(rogue["td"]).post(f"{API}/player-accounts/", {"player": veteran.pk, "username": "vet"},
                                               format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert in_japanese.json() == {"detail": "Veteran にはあなたの大会以外のレーティング対象の結果があります。"
                                            "ログインを結びつけられるのはサイト管理者だけです。"}


def test_a_site_admin_links_anyone_and_undoes_a_link(final, site_admin, make_user, client_for):
    magnus = final["magnus"]
    make_user("magnus-login", email="magnus@example.org")
    admin_api = client_for(site_admin)
    ok(admin_api.post(f"{API}/player-accounts/", {"player": magnus.pk, "username": "magnus-login"},
                      format="json"), 201)
    assert PlayerAccount.objects.get(player=magnus).user.username == "magnus-login"
    # Only a site admin undoes it.
    response = client_for(final["td"]).delete(f"{API}/player-accounts/{magnus.pk}/")
    assert response.status_code == 403
    assert admin_api.delete(f"{API}/player-accounts/{magnus.pk}/").status_code == 204
    assert PlayerAccount.objects.get(player=magnus).user is None


def test_the_admin_undoes_a_link_through_the_service(final, site_admin, make_user, client):
    account = PlayerAccount.objects.create(player=final["magnus"], user=make_user("magnus-login"))
    site_admin.is_staff = True
    site_admin.save()
    client.force_login(site_admin)
    response = client.post("/admin/tournaments/playeraccount/", {"action": "unlink", "_selected_action": [account.pk]})
    assert response.status_code == 302
    assert PlayerAccount.objects.get(pk=account.pk).user is None


def test_a_staff_login_is_no_td_of_every_event_and_a_rating_officer_overrides_no_result(final, make_user, client_for):
    pairing = Pairing.objects.get(flight=final["flight"])
    staff = make_user("clerk", is_staff=True)
    officer = _in_group(make_user("officer", is_staff=True), RATING_OFFICER)
    for user in (staff, officer):
        response = client_for(user).post(f"{API}/pairings/{pairing.pk}/override/",
                                         {"score_a": 11, "score_b": 0, "version": pairing.version}, format="json")
        assert response.status_code == 403
        assert response.json() == {"detail": "Only a TD of Nordic Final may do this."}
    assert Pairing.objects.get(pk=pairing.pk).status == PairingStatus.PENDING


def test_a_rating_officer_publishes_a_rating_list_and_a_staff_login_does_not(make_user, make_player, client_for):
    officer = _in_group(make_user("officer", is_staff=True), RATING_OFFICER)
    staff = make_user("clerk", is_staff=True)
    match = games.match_create(player_a=make_player(name="Ada"), player_b=make_player(name="Ben"), length=3)
    games.match_final_score_record(match=match, score_a=3, score_b=0)  # a list holds the results rated by its date
    ratings.rating_recompute_now(system="fibs")
    today = timezone.localdate().isoformat()
    refused = client_for(staff).post(f"{API}/ratings/lists/", {"system": "fibs", "as_of": today}, format="json")
    assert refused.status_code == 403
    assert client_for(officer).post(f"{API}/ratings/lists/", {"system": "fibs", "as_of": today},
                                    format="json").status_code == 201


def _open_window(flight, td, minutes=30, now=None):
    return registration.check_in_window_open(flight=flight, by=td, minutes=minutes, now=now)


@pytest.fixture
def draft(rogue, make_player, make_user):
    player = make_player("Phone Player")
    entry = services.entry_add(flight=rogue["flight"], player=player, by=rogue["td"])
    login = make_user("phone", player=player)
    return {"entry": entry, "login": login, **rogue}


def test_a_player_checks_in_through_the_api_only_while_the_window_is_open(draft, client_for):
    entry, player_api = draft["entry"], client_for(draft["login"])
    response = player_api.post(f"{API}/entries/{entry.pk}/check-in/")
    assert response.status_code == 400
    assert response.json() == {"status": ["Check-in for Main is not open from the phone. Check in at the TD's desk."]}
    assert Entry.objects.get(pk=entry.pk).status == "registered"
    _open_window(draft["flight"], draft["td"])
    assert ok(player_api.post(f"{API}/entries/{entry.pk}/check-in/"))["status"] == "checked_in"


def test_a_player_checks_in_from_the_phone_page_only_while_the_window_is_open(draft, client):
    client.force_login(draft["login"])
    entry = draft["entry"]
    page = client.post("/me/", {"action": "check_in", "entry": entry.pk}, follow=True)
    assert "Check-in for Main is not open from the phone. Check in at the TD&#x27;s desk." in page.content.decode()
    assert Entry.objects.get(pk=entry.pk).status == "registered"
    _open_window(draft["flight"], draft["td"])
    client.post("/me/", {"action": "check_in", "entry": entry.pk})
    assert Entry.objects.get(pk=entry.pk).status == "checked_in"


def test_a_td_checks_a_player_in_at_any_time_before_the_draw(draft, client_for):
    entry = draft["entry"]
    assert ok(client_for(draft["td"]).post(f"{API}/entries/{entry.pk}/check-in/"))["status"] == "checked_in"


def test_a_td_enters_the_games_of_his_events_matches_through_the_api(final, make_user, client_for):
    pairing = Pairing.objects.get(flight=final["flight"])
    started = services.pairing_start(pairing=pairing, by=final["td"])
    match_id = started.match_id
    game = {"number": 1, "winner": pairing.player_a_id, "kind": "single", "cube": 1, "version": started.match.version}
    other_td = make_user("other-td")
    assert client_for(other_td).post(f"{API}/matches/{match_id}/games/", game, format="json").status_code == 403
    body = ok(client_for(final["td"]).post(f"{API}/matches/{match_id}/games/", game, format="json"), 201)
    assert body["score"] == [1, 0]


def test_import_jobs_are_read_by_rating_officers_and_site_admins_only(make_user, client_for, site_admin):
    officer = _in_group(make_user("officer", is_staff=True), RATING_OFFICER)
    assert client_for(make_user("reader")).get(f"{API}/imports/").status_code == 403
    assert client_for(make_user("clerk", is_staff=True)).get(f"{API}/imports/").status_code == 403
    assert client_for(officer).get(f"{API}/imports/").status_code == 200
    assert client_for(site_admin).get(f"{API}/imports/").status_code == 200
