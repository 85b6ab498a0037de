"""Every write of the API, the pages and the admin, tried as every role; the table of who may is
written out in full below. Each try runs in a savepoint that is rolled back, so every role meets
the same event.

A write through the API counts as refused when it answers 401 or 403, as done when it answers 2xx;
anything else fails the test (the bodies are valid, so a 400 would hide whether the role was asked
about at all). A page or an admin action counts as done when the change it makes is found in the
database afterwards.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games import services as games
from games.models import Game
from games.permissions import RATING_OFFICER, SITE_ADMIN, TOURNAMENT_DIRECTOR
from ratings import services as ratings
from ratings.models import OfficialList
from tournaments import services
from tournaments.models import Entry, Flight, Pairing, PlayerAccount, PlayerClaim, ResultReport
from tournaments.services import registration

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "other player", "TD of another event", "TD of this event", "rating officer",
         "site admin")
API = "/api/v1"

# Which roles may do each write. "player" plays the match and holds the entries the writes name;
# "other player" plays in the same event, not in that match.
EXPECTED = {
    "API create an event": {"TD of another event", "TD of this event", "site admin"},
    "API add a TD to the event": {"TD of this event", "site admin"},
    "API add a flight": {"TD of this event", "site admin"},
    "API change a flight": {"TD of this event", "site admin"},
    "API start a flight": {"TD of this event", "site admin"},
    "API announce a round": {"TD of this event", "site admin"},
    "API enter a player": {"TD of this event", "site admin"},
    "API check a player in": {"player", "TD of this event", "site admin"},
    "API withdraw a player": {"player", "TD of this event", "site admin"},
    "API start a match": {"player", "TD of this event", "site admin"},
    "API report a result": {"player", "TD of this event", "site admin"},
    "API confirm a result": {"player", "TD of this event", "site admin"},
    "API dispute a result": {"player"},
    "API override a result": {"TD of this event", "site admin"},
    "API preview a correction": {"TD of this event", "site admin"},
    "API link a login to a player": {"TD of this event", "site admin"},
    "API undo a link": {"site admin"},
    "API add a player record": {"rating officer", "site admin"},
    "API change a player record": {"rating officer", "site admin"},
    "API record the final score of an event's match": {"TD of this event", "site admin"},
    "API forfeit an event's match": {"TD of this event", "site admin"},
    "API create a match": {"site admin"},
    "API enter a game of an event's match": {"TD of this event", "site admin"},
    "API publish a rating list": {"rating officer", "site admin"},
    "API ask for a recompute": {"rating officer", "site admin"},
    "page: desk enters a player": {"TD of this event", "site admin"},
    "page: desk withdraws a player": {"TD of this event", "site admin"},
    "page: confirm a result on /me/": {"player"},
    # The code on a player's half of the slip is the right: whoever types it acts as that player.
    "page: report with the player's slip code": set(ROLES),
    "page: confirm with the player's slip code": set(ROLES),
    "page: report with a slip code of another match": set(),
    "page: approve a claim": {"TD of this event", "site admin"},
    "page: open the phone check-in": {"TD of this event", "site admin"},
    "page: check in from the phone": {"player"},
    "page: enter a game on the score sheet": {"TD of this event", "site admin"},
    "page: publish a rating list": {"rating officer", "site admin"},
    "admin: check a player in": {"site admin"},
    "admin: undo a link": {"site admin"},
}

def _group(user, name):
    user.groups.add(Group.objects.get(name=name))
    return user


@pytest.fixture
def world(db):
    User = get_user_model()
    admin = _group(User.objects.create_user("site-admin", is_staff=True), SITE_ADMIN)
    officer = _group(User.objects.create_user("officer", is_staff=True), RATING_OFFICER)
    td = _group(User.objects.create_user("td-this"), TOURNAMENT_DIRECTOR)
    other_td = _group(User.objects.create_user("td-other"), TOURNAMENT_DIRECTOR)
    services.tournament_create(name="Other Cup", start_date=datetime.date(2026, 3, 1), by=other_td)
    event = services.tournament_create(name="Spring Open", start_date=datetime.date(2026, 4, 1), by=td)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5],
                                  by=td)
    side = services.flight_create(tournament=event, name="Side", format="round_robin", lengths=[3], by=td)
    p, q, r, s, x = (games.player_create(name=name) for name in ("Pia", "Quin", "Rolf", "Sten", "Xavi"))
    logins = {"player": User.objects.create_user("pia"), "other player": User.objects.create_user("rolf")}
    PlayerAccount.objects.create(player=p, user=logins["player"])
    PlayerAccount.objects.create(player=r, user=logins["other player"])
    quin = User.objects.create_user("quin")
    PlayerAccount.objects.create(player=q, user=quin)
    for seed, player in enumerate((p, q, r, s), start=1):
        services.entry_check_in(entry=services.entry_add(flight=main, player=player, seed=seed, by=td), by=td)
    services.flight_start(flight=main, by=td, first_round=[[p.pk, q.pk], [r.pk, s.pk]])
    pq = Pairing.objects.get(flight=main, player_a=p)
    rs = Pairing.objects.get(flight=main, player_a=r)
    report = services.result_report(pairing=pq, by=quin, score_a=2, score_b=5)
    services.pairing_start(pairing=rs, by=td)
    rs.refresh_from_db()
    slip_codes = services.slip_codes_issue(tournament=event, pairing_ids=[pq.pk, rs.pk], by=td)
    side_entries = [services.entry_add(flight=side, player=player, by=td) for player in (p, q, x)]
    for checked in side_entries[1:]:
        services.entry_check_in(entry=checked, by=td)
    registration.check_in_window_open(flight=side, by=td, minutes=60)
    side.refresh_from_db()
    claimer = User.objects.create_user("xavi-login")
    claim = registration.claim_request(user=claimer, player=x)
    newcomer_login = User.objects.create_user("newcomer")
    linked = PlayerAccount.objects.get(player=r)
    ratings.rating_recompute_now(system="fibs")
    return {
        "users": {"player": logins["player"], "other player": logins["other player"],
                  "TD of another event": other_td, "TD of this event": td, "rating officer": officer,
                  "site admin": admin},
        "event": event, "main": main, "side": side, "pq": Pairing.objects.get(pk=pq.pk), "rs": rs,
        "report": report, "side_entry": side_entries[0], "x": x, "claim": claim, "newcomer": newcomer_login,
        "linked": linked, "players": (p, q, r, s), "codes": slip_codes,
    }


def _writes(w):
    slug, main, side, pq, rs = w["event"].slug, w["main"], w["side"], w["pq"], w["rs"]
    today = timezone.localdate().isoformat()
    entry = w["side_entry"]
    return {
        "API create an event": ("post", f"{API}/tournaments/", {"name": "New Cup", "start_date": "2026-09-01"}),
        "API add a TD to the event": ("post", f"{API}/tournaments/{slug}/organisers/", {"username": "newcomer"}),
        "API add a flight": ("post", f"{API}/flights/", {"tournament": slug, "name": "Last", "lengths": [3],
                                                          "format": "round_robin"}),
        "API change a flight": ("patch", f"{API}/flights/{side.pk}/", {"lengths": [5]}),
        "API start a flight": ("post", f"{API}/flights/{side.pk}/start/", {}),
        "API announce a round": ("post", f"{API}/rounds/{pq.round_id}/schedule/",
                                 {"starts_at": "2026-04-01T10:00:00Z"}),
        "API enter a player": ("post", f"{API}/entries/", {"flight": side.pk, "player": w["players"][3].pk}),
        "API check a player in": ("post", f"{API}/entries/{entry.pk}/check-in/", {}),
        "API withdraw a player": ("post", f"{API}/entries/{entry.pk}/withdraw/", {"reason": "ill"}),
        "API start a match": ("post", f"{API}/pairings/{pq.pk}/start/", {}),
        "API report a result": ("post", f"{API}/pairings/{pq.pk}/reports/", {"score_a": 5, "score_b": 1}),
        "API confirm a result": ("post", f"{API}/result-reports/{w['report'].pk}/confirm/", {}),
        "API dispute a result": ("post", f"{API}/result-reports/{w['report'].pk}/dispute/", {"reason": "5-1"}),
        "API override a result": ("post", f"{API}/pairings/{pq.pk}/override/", {"score_a": 5, "score_b": 0}),
        "API preview a correction": ("post", f"{API}/pairings/{pq.pk}/correction-preview/",
                                     {"winner": pq.player_a_id}),
        "API link a login to a player": ("post", f"{API}/player-accounts/", {"player": w["x"].pk,
                                                                             "username": "newcomer"}),
        "API undo a link": ("delete", f"{API}/player-accounts/{w['linked'].player_id}/", None),
        "API add a player record": ("post", f"{API}/players/", {"name": "Brand New"}),
        "API change a player record": ("patch", f"{API}/players/{w['x'].pk}/", {"club": "Kitchen"}),
        "API record the final score of an event's match": ("post", f"{API}/matches/{rs.match_id}/final-score/",
                                                           {"score_a": 5, "score_b": 1}),
        "API forfeit an event's match": ("post", f"{API}/matches/{rs.match_id}/forfeit/",
                                         {"forfeited_by": rs.player_b_id, "reason": "left"}),
        "API create a match": ("post", f"{API}/matches/", {"player_a": w["players"][0].pk,
                                                            "player_b": w["players"][1].pk, "length": 3}),
        "API enter a game of an event's match": ("post", f"{API}/matches/{rs.match_id}/games/",
                                                 {"number": 1, "winner": rs.player_a_id, "kind": "single", "cube": 1}),
        "API publish a rating list": ("post", f"{API}/ratings/lists/", {"system": "fibs", "as_of": today}),
        "API ask for a recompute": ("post", f"{API}/ratings/recompute/", {"system": "fibs"}),
        "page: desk enters a player": (
            lambda: Entry.objects.filter(flight=side, player=w["players"][3]).exists(),
            f"/desk/{slug}/", {"action": "enter", "flight": side.pk, "player": w["players"][3].pk}),
        "page: desk withdraws a player": (
            lambda: Entry.objects.get(pk=entry.pk).status == "withdrawn",
            f"/desk/{slug}/", {"action": "withdraw", "entry": entry.pk}),
        "page: confirm a result on /me/": (
            lambda: ResultReport.objects.get(pk=w["report"].pk).status == "confirmed",
            "/me/", {"action": "confirm", "report": w["report"].pk}),
        "page: report with the player's slip code": (
            lambda: ResultReport.objects.filter(pairing=rs, submitted_for=rs.player_a, score_a=5).exists(),
            f"/events/{slug}/m/{rs.pk}/", {"action": "report", "report-version": rs.version, "report-score_a": 5,
                                           "report-score_b": 1, "report-code": w["codes"][(rs.pk, rs.player_a_id)]}),
        "page: confirm with the player's slip code": (
            lambda: ResultReport.objects.get(pk=w["report"].pk).status == "confirmed",
            f"/events/{slug}/m/{pq.pk}/", {"action": "answer", "answer-report": w["report"].pk,
                                           "answer-answer": "confirm",
                                           "answer-code": w["codes"][(pq.pk, pq.player_a_id)]}),
        "page: report with a slip code of another match": (
            lambda: ResultReport.objects.filter(pairing=rs).exists(),
            f"/events/{slug}/m/{rs.pk}/", {"action": "report", "report-version": rs.version, "report-score_a": 5,
                                           "report-score_b": 1, "report-code": w["codes"][(pq.pk, pq.player_a_id)]}),
        "page: approve a claim": (
            lambda: PlayerClaim.objects.get(pk=w["claim"].pk).status == "approved",
            "/account/claims/", {"claim": w["claim"].pk, "action": "approve"}),
        "page: open the phone check-in": (
            lambda: Flight.objects.get(pk=side.pk).check_in_closes < side.check_in_closes,
            f"/events/{slug}/check-in/", {"flight": side.pk, "minutes": "30"}),
        "page: check in from the phone": (
            lambda: Entry.objects.get(pk=entry.pk).status == "checked_in",
            "/me/", {"action": "check_in", "entry": entry.pk}),
        "page: enter a game on the score sheet": (lambda: Game.objects.filter(match_id=rs.match_id).exists(),
                                                  f"/matches/{rs.match_id}/enter/", {
            "number": 1, "version": rs.match.version, "winner": 0, "end": "played_out", "kind": 1,
            "cube": 1, "cube_owner": ""}),
        "page: publish a rating list": (lambda: OfficialList.objects.exists(),
                                        "/ratings/lists/publish/", {"system": "fibs", "as_of": today}),
        "admin: check a player in": (lambda: Entry.objects.get(pk=entry.pk).status == "checked_in",
                                     "/admin/tournaments/entry/", {"action": "check_in",
                                                                   "_selected_action": [entry.pk]}),
        "admin: undo a link": (lambda: PlayerAccount.objects.get(pk=w["linked"].pk).user_id is None,
                               "/admin/tournaments/playeraccount/", {"action": "unlink",
                                                                     "_selected_action": [w["linked"].pk]}),
    }


def _api_outcome(response):
    if response.status_code in (401, 403):
        return False
    assert 200 <= response.status_code < 300, response.content
    return True


def _page_outcome(response, took_effect):
    """A page or admin action answers 200 (or redirects) whether it refused or not: what it left in
    the database tells."""
    assert response.status_code in (200, 302, 403, 404), (response.status_code, response.content[:500])
    return took_effect()


def _try(w, role, how, url, data):
    user = w["users"].get(role)
    with transaction.atomic():
        if callable(how):
            client = Client()
            if user is not None:
                client.force_login(user)
            done = _page_outcome(client.post(url, data, follow=True), how)
        else:
            client = APIClient()
            if user is not None:
                client.force_authenticate(user)
            if data is not None and "version" not in data and how == "post" and "/matches/" in url:
                data = {**data, "version": Pairing.objects.get(pk=w["rs"].pk).match.version}
            done = _api_outcome(getattr(client, how)(url, data, format="json"))
        transaction.set_rollback(True)
    for cached in ("_crawford_roles", "_crawford_event_roles", "_perm_cache", "_user_perm_cache",
                   "_group_perm_cache"):
        if user is not None and hasattr(user, cached):
            delattr(user, cached)
    return done


def test_every_write_is_done_by_exactly_the_roles_that_may_do_it(world):
    found = {}
    for name, (how, url, data) in _writes(world).items():
        found[name] = set()
        for role in ROLES:
            try:
                if _try(world, role, how, url, data):
                    found[name].add(role)
            except AssertionError as error:
                raise AssertionError(f"{name} as {role}: {error}") from None
    assert found == EXPECTED
