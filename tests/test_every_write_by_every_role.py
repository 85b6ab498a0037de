"""Every write of the API, the pages and the admin, tried as every role; the table of who may is
written out in full below, and `test_every_write_route_is_in_the_table` fails naming any write
route (an API route taking POST, PUT, PATCH or DELETE, a page that takes a POST and each `action`
it dispatches on, an add, change, delete or action of the admin) that the table leaves out. Each try
runs in a savepoint that is rolled back, so every role meets the same event, built once.

A write through the API counts as refused when it answers 401 or 403, as done when it answers 2xx;
anything else fails the test (the bodies are valid, so a 400 would hide whether the role was asked
about at all). A page or an admin action counts as done when the change it makes is found in the
database afterwards. A few writes whose valid body costs too much to build here (a match file, the
analysis of a match, the draw page's rules before the draw, the admin's add, change and delete
forms, posted empty) count as done when the role gets past the door: any answer but 401, 403 or a
redirect to a login page.
"""

import datetime
import inspect
import re
from urllib.parse import urlsplit

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils import timezone
from rest_framework.test import APIClient

from games import services as games
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from games.models import Game, Match, MatchFile
from games.permissions import RATING_OFFICER, SITE_ADMIN, TOURNAMENT_DIRECTOR
from ratings import services as ratings
from ratings.models import OfficialList, RatingCalibration
from rest_framework.authtoken.models import Token
from tournaments import services
from tournaments.models import (
    Entry,
    Flight,
    Pairing,
    PlayerAccount,
    PlayerClaim,
    PublicName,
    ResultReport,
    Round,
    SlipCode,
    Tournament,
    WaitingEntry,
)
from tournaments.services import registration

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "other player", "TD of another event", "TD of this event", "rating officer",
         "site admin")
API = "/api/v1"

NOBODY: set = set()
ADMIN = {"site admin"}
TD = {"TD of this event", "site admin"}
OFFICE = {"rating officer", "site admin"}

# Which roles may do each write. "player" plays the match and holds the entries the writes name;
# "other player" plays in the same event, not in that match.
EXPECTED = {
    # -- the API ---------------------------------------------------------------------------------
    "API create an event": {"TD of another event", "TD of this event", "site admin"},
    "API add a TD to the event": TD,
    "API add a flight": TD,
    "API change a flight": TD,
    "API preview a draw": TD,
    "API start a flight": TD,
    "API start the next round": TD,
    "API announce a round": TD,
    "API enter a player": TD,
    "API check a player in": {"player", "TD of this event", "site admin"},
    "API withdraw a player": {"player", "TD of this event", "site admin"},
    "API undo a withdrawal": TD,
    "API start a match": {"player", "TD of this event", "site admin"},
    "API report a result": {"player", "TD of this event", "site admin"},
    "API confirm a result": {"player", "TD of this event", "site admin"},
    "API dispute a result": {"player"},
    "API override a result": TD,
    "API preview a correction": TD,
    "API undo a result": TD,
    "API undo a walkover": TD,
    "API link a login to a player": TD,
    "API undo a link": ADMIN,
    "API add a player record": {"TD of another event", "TD of this event", "rating officer", "site admin"},
    "API replace a player record": OFFICE,
    "API change a player record": OFFICE,
    "API delete a player record": ADMIN,
    "API record the final score of an event's match": TD,
    "API forfeit an event's match": TD,
    "API undo a forfeit": ADMIN,
    "API create a match": ADMIN,
    "API enter a game of an event's match": TD,
    "API correct a game of an event's match": TD,
    "API delete the last game of an event's match": TD,
    "API import a match file": OFFICE,
    "API import a results file": OFFICE,
    "API analyse a match again": ADMIN,
    "API publish a rating list": OFFICE,
    "API ask for a recompute": OFFICE,
    "API import a rating list": OFFICE,
    "API enter a pasted list": TD,
    "API check everyone in": TD,
    "API open the phone check-in": TD,
    "API close the phone check-in": TD,
    "API open the online registration": TD,
    "API set the tables": TD,
    "API call every match to a table": TD,
    "API put a match at a table": TD,
    "API give a walkover": TD,
    "API print new slips with new codes": TD,
    # -- the desk --------------------------------------------------------------------------------
    "page: create an event at the desk": {"TD of another event", "TD of this event", "site admin"},
    "page: desk adds a flight": TD,
    "page: desk enters a player": TD,
    "page: desk adds a new player and enters him": TD,
    "page: desk enters a pasted list": TD,
    "page: desk checks a player in": TD,
    "page: desk checks everyone in": TD,
    "page: desk withdraws a player": TD,
    "page: desk undoes a withdrawal": TD,
    "page: desk changes a flight's settings": TD,
    "page: desk starts a flight": TD,
    "page: desk starts the next round": TD,
    "page: desk sets the tables": TD,
    "page: desk puts a match at a table": TD,
    "page: desk calls every match to a table": TD,
    "page: desk opens a score sheet": TD,
    "page: desk types a final score": TD,
    "page: desk gives a walkover": TD,
    "page: desk confirms a reported result": TD,
    "page: desk rules on a result": TD,
    "page: desk undoes a result": TD,
    "page: desk prints new slips with new codes": TD,
    "page: draw page draws the flight": TD,
    "page: draw page keeps two players apart": TD,
    "page: draw page fixes a pair": TD,
    "page: draw page resets the seeds": TD,
    "page: correction page overrides a result": TD,
    "page: correction page undoes a result": TD,
    "page: enter a game on the score sheet": TD,
    "page: remove the last game on the score sheet": TD,
    # -- the players' pages ----------------------------------------------------------------------
    "page: report a result on /me/": {"player"},
    "page: confirm a result on /me/": {"player"},
    # The code on a player's half of the slip is the right: whoever types it acts as that player.
    "page: report with the player's slip code": set(ROLES),
    "page: confirm with the player's slip code": set(ROLES),
    "page: report with a slip code of another match": set(),
    "page: dispute a result on /me/": {"player"},
    "page: check in from the phone": {"player"},
    "page: open the phone check-in": TD,
    "page: close the phone check-in": TD,
    "page: open the online registration": TD,
    "page: register online": {"player"},  # the other player is registered already
    "page: take back a registration": {"other player"},
    # -- accounts and claims ---------------------------------------------------------------------
    "page: claim a player": {"TD of another event", "TD of this event", "rating officer", "site admin"},
    "page: choose the name shown in public": {"player", "other player", "TD of another event", "TD of this event",
                                              "rating officer", "site admin"},
    "page: turn match e-mails off": {"player"},
    "page: approve a claim": TD,
    "page: refuse a claim": TD,
    # -- ratings ---------------------------------------------------------------------------------
    "page: publish a rating list": OFFICE,
    # -- the admin -------------------------------------------------------------------------------
    "admin: start a flight": ADMIN,
    "admin: start the next round": ADMIN,
    "admin: advance a flight": ADMIN,
    "admin: check a player in": ADMIN,
    "admin: withdraw a player": ADMIN,
    "admin: undo a link": ADMIN,
    "admin: delete the last game of a match": ADMIN,
}

# Writes not in the table, each with why: pages that write for the caller's own login only (or
# make a new one), so no role is asked, and one action of a third-party admin.
NOT_ROLE_WRITES = {
    "login": "signs in",
    "logout": "signs out",
    "signup": "makes a new login, confirmed by e-mail",
    "language": "the language the visitor reads the site in (kept with his own login, if any)",
    "password_reset": "mails a link to whoever holds the address",
    "password_reset_confirm": "the link mailed to the address proves the person",
    "password_change": "the login's own password",
    "admin:login": "signs in",
    "admin:logout": "signs out",
    "admin:password_change": "the login's own password",
    ("POST", "admin:axes_accessattempt_changelist", "cleanup_expired_attempts"):
        "django-axes's own action, open to whoever may see the attempts (site admins): it drops expired ones; "
        "not tried, as it fails outside a sign-in request (no request.axes_attempt_time)",
}

# The admin's add, change and delete forms, for each model it shows: who may open them to write.
ADMIN_FORMS = {
    "auth.group": (ADMIN, ADMIN, ADMIN),
    "auth.user": (ADMIN, ADMIN, ADMIN),
    "authtoken.tokenproxy": (ADMIN, ADMIN, ADMIN),
    "axes.accessattempt": (NOBODY, ADMIN, ADMIN),
    "axes.accesslog": (NOBODY, ADMIN, ADMIN),
    "axes.accessfailurelog": (NOBODY, ADMIN, ADMIN),
    "games.player": (OFFICE, OFFICE, ADMIN),
    "games.match": (ADMIN, ADMIN, NOBODY),
    "games.game": (ADMIN, NOBODY, ADMIN),
    "games.matchfile": (NOBODY, NOBODY, NOBODY),
    "ratings.ratingrun": (NOBODY, NOBODY, NOBODY),
    "ratings.ratingsystemstate": (NOBODY, NOBODY, NOBODY),
    "ratings.officiallist": (NOBODY, NOBODY, NOBODY),
    "ratings.ratingcalibration": (NOBODY, NOBODY, NOBODY),
    "ratings.ratingstart": (OFFICE, OFFICE, OFFICE),
    "tournaments.tournament": (ADMIN, ADMIN, NOBODY),
    "tournaments.flight": (ADMIN, ADMIN, NOBODY),
    "tournaments.entry": (ADMIN, ADMIN, NOBODY),
    "tournaments.round": (NOBODY, ADMIN, NOBODY),
    "tournaments.pairing": (NOBODY, NOBODY, NOBODY),
    "tournaments.resultreport": (NOBODY, NOBODY, NOBODY),
    "tournaments.playeraccount": (ADMIN, ADMIN, NOBODY),
}
for _label, _who in ADMIN_FORMS.items():
    for _form, _roles in zip(("add", "change", "delete"), _who):
        EXPECTED[f"admin: {_form} form of {_label}"] = _roles

DOOR = "door"
"""In place of an effect: the write counts as done when the role got past the door."""


def _group(user, name):
    user.groups.add(Group.objects.get(name=name))
    return user


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def world(db):
    User = get_user_model()
    admin_ = _group(User.objects.create_user("site-admin", is_staff=True), SITE_ADMIN)
    officer = _group(User.objects.create_user("officer", is_staff=True), RATING_OFFICER)
    td = _group(User.objects.create_user("td-this"), TOURNAMENT_DIRECTOR)
    other_td = _group(User.objects.create_user("td-other"), TOURNAMENT_DIRECTOR)
    services.tournament_create(name="Other Cup", start_date=datetime.date(2026, 3, 1), by=other_td)
    event = services.tournament_create(name="Spring Open", start_date=datetime.date(2026, 4, 1), by=td)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5],
                                  by=td)
    side = services.flight_create(tournament=event, name="Side", format="round_robin", lengths=[3], by=td)
    league = services.flight_create(tournament=event, name="League", format="swiss", lengths=[3], by=td, swiss_rounds=3,
                                    auto_pair=False)
    opening = services.flight_create(tournament=event, name="Open", format="round_robin", lengths=[3], by=td)
    duel = services.flight_create(tournament=event, name="Duel", format="single_elimination", lengths=[5], by=td)
    p, q, r, s, x, y, z, o1, o2 = (games.player_create(name=name) for name in (
        "Pia", "Quin", "Rolf", "Sten", "Xavi", "Yuri", "Zeno", "Olaf", "Otto"))
    logins = {"player": User.objects.create_user("pia", email="pia@example.org"),
              "other player": User.objects.create_user("rolf")}
    PlayerAccount.objects.create(player=p, user=logins["player"])
    PlayerAccount.objects.create(player=r, user=logins["other player"])
    quin = User.objects.create_user("quin")
    PlayerAccount.objects.create(player=q, user=quin)
    for seed, player in enumerate((p, q, r, s), start=1):
        services.entry_check_in(entry=services.entry_add(flight=main, player=player, seed=seed, by=td), by=td)
        services.entry_check_in(entry=services.entry_add(flight=league, player=player, seed=seed, by=td), by=td)
        services.entry_check_in(entry=services.entry_add(flight=duel, player=player, seed=seed, by=td), by=td)
    services.entry_check_in(entry=services.entry_add(flight=league, player=x, seed=5, by=td), by=td)
    services.flight_start(flight=main, by=td, first_round=[[p.pk, q.pk], [r.pk, s.pk]])
    pq = Pairing.objects.get(flight=main, player_a=p)
    rs = Pairing.objects.get(flight=main, player_a=r)
    report = services.result_report(pairing=pq, by=quin, score_a=2, score_b=5)
    services.pairing_start(pairing=rs, by=td)
    rs.refresh_from_db()
    services.flight_start(flight=league, by=td)
    finished, walkover = Pairing.objects.filter(flight=league, player_b__isnull=False, round__number=1).order_by("pk")
    services.result_override(pairing=finished, by=td, score_a=3, score_b=1)
    services.pairing_walkover(pairing=walkover, winner=walkover.player_a, reason="no show", by=td)
    bye = Pairing.objects.get(flight=league, round__number=1, player_b__isnull=True).player_a
    withdrawn = services.entry_withdraw(entry=Entry.objects.get(flight=league, player=bye), by=td, reason="ill")
    services.flight_start(flight=duel, by=td, first_round=[[p.pk, q.pk], [r.pk, s.pk]])
    waiting = Pairing.objects.get(flight=duel, player_a=p)
    services.tables_set(tournament=event, by=td, count=10, reserved="")
    playing = services.pairing_start(pairing=Pairing.objects.get(flight=duel, player_a=r), by=td)
    slip_codes = services.slip_codes_issue(tournament=event, pairing_ids=[pq.pk, rs.pk], by=td)
    side_entries = [services.entry_add(flight=side, player=player, by=td) for player in (p, q, x)]
    for checked in side_entries[1:]:
        services.entry_check_in(entry=checked, by=td)
    registration.check_in_window_open(flight=side, by=td, minutes=60)
    side.refresh_from_db()
    registration.registration_open(flight=opening, by=td, closes=timezone.now() + datetime.timedelta(days=3))
    registration.registration_enter(flight=opening, by=logins["other player"])
    claimer = User.objects.create_user("xavi-login")
    claim = registration.claim_request(user=claimer, player=x)
    User.objects.create_user("newcomer")
    linked = PlayerAccount.objects.get(player=r)
    api = _api(td)
    answer = api.post(f"{API}/matches/{playing.match_id}/games/", {
        "number": 1, "winner": r.pk, "kind": "single", "cube": 1, "version": playing.match.version}, format="json")
    assert answer.status_code == 201, answer.content
    outside = games.match_create(player_a=o1, player_b=o2, length=3, by=admin_)
    games.match_forfeit(match=outside, forfeited_by=o2, by=admin_, reason="left")
    earlier = games.match_create(player_a=o1, player_b=o2, length=3, by=admin_,
                                 played_on=timezone.now() - datetime.timedelta(days=2))
    games.match_final_score_record(match=earlier, score_a=3, score_b=1, by=admin_)  # rated before yesterday's list
    ratings.rating_recompute_now(system="fibs")
    ratings.rating_list_publish(system="fibs", as_of=timezone.localdate() - datetime.timedelta(days=1), by=officer)
    # A row of each kind the admin shows, so that its change and delete forms are tried on a real one.
    MatchFile.objects.create(match=outside, name="m.mat", text="", sha256="0" * 64)
    RatingCalibration.objects.create(system="crawford", status="candidate", matches=0, reason="a fit")
    AccessAttempt.objects.create(username="nobody", ip_address="10.9.9.9", user_agent="", path_info="/login/",
                                 get_data="", post_data="", failures_since_start=1)
    AccessLog.objects.create(username="nobody", ip_address="10.9.9.9", user_agent="", path_info="/login/")
    AccessFailureLog.objects.create(username="nobody", ip_address="10.9.9.9", user_agent="", path_info="/login/")
    Token.objects.create(user=officer)
    return {
        "users": {"player": logins["player"], "other player": logins["other player"],
                  "TD of another event": other_td, "TD of this event": td, "rating officer": officer,
                  "site admin": admin_},
        "event": event, "main": main, "side": side, "league": league, "opening": opening,
        "pq": Pairing.objects.get(pk=pq.pk), "rs": Pairing.objects.get(pk=rs.pk),
        "finished": Pairing.objects.get(pk=finished.pk), "walkover": Pairing.objects.get(pk=walkover.pk),
        "report": report, "side_entry": side_entries[0], "withdrawn": withdrawn, "x": x, "z": z,
        "outside": Match.objects.get(pk=outside.pk), "waiting": Pairing.objects.get(pk=waiting.pk),
        "playing": Pairing.objects.get(pk=playing.pk), "claim": claim, "linked": linked, "players": (p, q, r, s),
        "codes": slip_codes,
    }


def _status(model, pk):
    return model.objects.get(pk=pk).status


def _writes(w):
    slug, side, league, pq, rs = w["event"].slug, w["side"], w["league"], w["pq"], w["rs"]
    finished, walkover, report = w["finished"], w["walkover"], w["report"]
    p, q, r, s = w["players"]
    today = timezone.localdate().isoformat()
    entry, withdrawn = w["side_entry"], w["withdrawn"]
    desk = f"/desk/{slug}/"
    waiting, playing = w["waiting"], w["playing"]
    sheet = playing.match
    event_version = Tournament.objects.get(pk=w["event"].pk).version
    games_of = lambda match_id: Game.objects.filter(match_id=match_id).count()  # noqa: E731
    writes = {
        "API create an event": ("post", f"{API}/tournaments/", {"name": "New Cup", "start_date": "2026-09-01"}),
        "API add a TD to the event": ("post", f"{API}/tournaments/{slug}/organisers/", {"username": "newcomer"}),
        "API add a flight": ("post", f"{API}/flights/", {"tournament": slug, "name": "Last", "lengths": [3],
                                                          "format": "round_robin"}),
        "API change a flight": ("patch", f"{API}/flights/{side.pk}/", {"lengths": [5]}),
        "API preview a draw": ("post", f"{API}/flights/{side.pk}/draw-preview/", {}),
        "API start a flight": ("post", f"{API}/flights/{side.pk}/start/", {}),
        "API start the next round": ("post", f"{API}/flights/{league.pk}/start-round/", {}),
        "API announce a round": ("post", f"{API}/rounds/{pq.round_id}/schedule/",
                                 {"starts_at": "2026-04-01T10:00:00Z"}),
        "API enter a player": ("post", f"{API}/entries/", {"flight": side.pk, "player": s.pk}),
        "API check a player in": ("post", f"{API}/entries/{entry.pk}/check-in/", {}),
        "API withdraw a player": ("post", f"{API}/entries/{entry.pk}/withdraw/", {"reason": "ill"}),
        "API undo a withdrawal": ("post", f"{API}/entries/{withdrawn.pk}/withdraw-undo/", {"reason": "better"}),
        "API start a match": ("post", f"{API}/pairings/{pq.pk}/start/", {}),
        "API report a result": ("post", f"{API}/pairings/{pq.pk}/reports/", {"score_a": 5, "score_b": 1}),
        "API confirm a result": ("post", f"{API}/result-reports/{report.pk}/confirm/", {}),
        "API dispute a result": ("post", f"{API}/result-reports/{report.pk}/dispute/", {"reason": "5-1"}),
        "API override a result": ("post", f"{API}/pairings/{pq.pk}/override/", {"score_a": 5, "score_b": 0}),
        "API preview a correction": ("post", f"{API}/pairings/{pq.pk}/correction-preview/",
                                     {"winner": pq.player_a_id}),
        "API undo a result": ("post", f"{API}/pairings/{finished.pk}/result-undo/", {"reason": "typo"}),
        "API undo a walkover": ("post", f"{API}/pairings/{walkover.pk}/walkover-undo/", {"reason": "came late"}),
        "API link a login to a player": ("post", f"{API}/player-accounts/", {"player": w["x"].pk,
                                                                             "username": "newcomer"}),
        "API undo a link": ("delete", f"{API}/player-accounts/{w['linked'].player_id}/", None),
        "API add a player record": ("post", f"{API}/players/", {"name": "Brand New"}),
        "API replace a player record": ("put", f"{API}/players/{w['x'].pk}/", {"name": "Xavi", "club": "Kitchen"}),
        "API change a player record": ("patch", f"{API}/players/{w['x'].pk}/", {"club": "Kitchen"}),
        "API delete a player record": ("delete", f"{API}/players/{w['z'].pk}/", None),
        "API record the final score of an event's match": ("post", f"{API}/matches/{rs.match_id}/final-score/",
                                                           {"score_a": 5, "score_b": 1}),
        "API forfeit an event's match": ("post", f"{API}/matches/{rs.match_id}/forfeit/",
                                         {"forfeited_by": rs.player_b_id, "reason": "left"}),
        "API undo a forfeit": ("post", f"{API}/matches/{w['outside'].pk}/forfeit-undo/", {"reason": "a mistake"}),
        "API create a match": ("post", f"{API}/matches/", {"player_a": p.pk, "player_b": q.pk, "length": 3}),
        "API enter a game of an event's match": ("post", f"{API}/matches/{sheet.pk}/games/",
                                                 {"number": 2, "winner": rs.player_a_id, "kind": "single", "cube": 1}),
        "API correct a game of an event's match": ("put", f"{API}/matches/{sheet.pk}/games/1/",
                                                   {"winner": sheet.player_b_id, "kind": "single", "cube": 1}),
        "API delete the last game of an event's match": ("delete", f"{API}/matches/{sheet.pk}/games/1/", None),
        "API import a match file": ("post", f"{API}/match-files/", lambda: {
            "file": SimpleUploadedFile("m.mat", b"not a match file")}, DOOR),
        "API import a results file": ("post", f"{API}/results-imports/", lambda: {"file": SimpleUploadedFile(
            "results.csv", b"played_on,player_a,player_b,length,score_a,score_b,event\n"
                           b"2025-02-01,Anna,Bo,5,5,3,Club night\n", content_type="text/csv")}),
        "API analyse a match again": ("post", f"{API}/matches/{sheet.pk}/analysis/", {}, DOOR),
        "API publish a rating list": ("post", f"{API}/ratings/lists/", {"system": "fibs", "as_of": today}),
        "API ask for a recompute": ("post", f"{API}/ratings/recompute/", {"system": "fibs"}),
        "API import a rating list": ("post", f"{API}/ratings/starts/", {
            "csv": "player,rating,experience,as_of\nListed Player,1600,100,2025-01-01\n"}),
        "API enter a pasted list": ("post", f"{API}/flights/{side.pk}/paste/", {"text": "Sten"}),
        "API check everyone in": ("post", f"{API}/flights/{side.pk}/check-in-all/", {}),
        "API open the phone check-in": ("post", f"{API}/flights/{side.pk}/check-in-open/", {"minutes": 30}),
        "API close the phone check-in": ("post", f"{API}/flights/{side.pk}/check-in-close/", {}),
        "API open the online registration": ("post", f"{API}/flights/{side.pk}/registration-open/", {
            "closes": (timezone.now() + datetime.timedelta(days=2)).isoformat()}),
        "API set the tables": ("post", f"{API}/tournaments/{slug}/tables/", {"count": 12, "reserved": []}),
        "API call every match to a table": ("post", f"{API}/tournaments/{slug}/call-tables/", {}),
        "API put a match at a table": ("post", f"{API}/pairings/{waiting.pk}/table/", {"table": "7"}),
        "API give a walkover": ("post", f"{API}/pairings/{pq.pk}/walkover/", {"winner": p.pk}),
        "API print new slips with new codes": ("post", f"{API}/tournaments/{slug}/slip-codes/", {"renew": True}),
        # The desk.
        "page: create an event at the desk": (lambda: Tournament.objects.filter(name="Desk Cup").exists(), "/desk/",
                                              {"name": "Desk Cup", "start_date": "2026-09-01"}),
        "page: desk adds a flight": (lambda: Flight.objects.filter(tournament=w["event"], name="Last").exists(), desk,
                                     {"action": "flight", "flight-name": "Last", "flight-format": "round_robin",
                                      "flight-kind": "main", "flight-lengths": "3", "flight-seeding": "manual"}),
        "page: desk enters a player": (lambda: Entry.objects.filter(flight=side, player=s).exists(), desk,
                                       {"action": "enter", "flight": side.pk, "player": s.pk}),
        "page: desk adds a new player and enters him": (
            lambda: Entry.objects.filter(flight=side, player__name="Walt Newman").exists(), desk,
            {"action": "new_player", "flight": side.pk, "new-name": "Walt Newman"}),
        "page: desk enters a pasted list": (lambda: Entry.objects.filter(flight=side, player=s).exists(), desk,
                                            {"action": "paste", "flight": side.pk, "paste-text": "Sten"}),
        "page: desk checks a player in": (lambda: _status(Entry, entry.pk) == "checked_in", desk,
                                          {"action": "check_in", "entry": entry.pk}),
        "page: desk checks everyone in": (lambda: _status(Entry, entry.pk) == "checked_in", desk,
                                          {"action": "check_in_all", "flight": side.pk}),
        "page: desk withdraws a player": (lambda: _status(Entry, entry.pk) == "withdrawn", desk,
                                          {"action": "withdraw", "entry": entry.pk}),
        "page: desk undoes a withdrawal": (lambda: _status(Entry, withdrawn.pk) != "withdrawn", desk,
                                           {"action": "withdraw_undo", "entry": withdrawn.pk}),
        "page: desk changes a flight's settings": (
            lambda: Flight.objects.get(pk=side.pk).lengths == [5], desk,
            {"action": "settings", "flight": side.pk, f"f{side.pk}-version": side.version,
             f"f{side.pk}-lengths": "5", f"f{side.pk}-seeding": "manual"}),
        "page: desk starts a flight": (lambda: _status(Flight, side.pk) != "draft", desk,
                                       {"action": "start_flight", "flight": side.pk, "version": side.version}),
        "page: desk starts the next round": (lambda: Round.objects.filter(flight=league).count() == 2, desk,
                                             {"action": "start_round", "flight": league.pk,
                                              "version": Flight.objects.get(pk=league.pk).version}),
        "page: desk sets the tables": (lambda: Tournament.objects.get(pk=w["event"].pk).tables == 12, desk,
                                       {"action": "tables", "tables-count": 12, "tables-reserved": ""}),
        "page: desk puts a match at a table": (lambda: Pairing.objects.get(pk=waiting.pk).table == "7", desk,
                                               {"action": "table", "pairing": waiting.pk, f"p{waiting.pk}-table": "7",
                                                f"p{waiting.pk}-version": waiting.version}),
        "page: desk calls every match to a table": (
            lambda: Pairing.objects.get(pk=waiting.pk).table != "", desk, {"action": "call_all"}),
        "page: desk opens a score sheet": (lambda: Pairing.objects.get(pk=pq.pk).match_id is not None, desk,
                                           {"action": "sheet", "pairing": pq.pk}),
        "page: desk types a final score": (
            lambda: Pairing.objects.get(pk=pq.pk).score_a == 5, desk,
            {"action": "score", "pairing": pq.pk, f"p{pq.pk}-version": pq.version, f"p{pq.pk}-score_a": 5,
             f"p{pq.pk}-score_b": 1}),
        "page: desk gives a walkover": (lambda: _status(Pairing, pq.pk) == "walkover", desk,
                                        {"action": "walkover", "pairing": pq.pk, "winner": p.pk,
                                         f"p{pq.pk}-version": pq.version}),
        "page: desk confirms a reported result": (lambda: _status(ResultReport, report.pk) == "confirmed", desk,
                                                  {"action": "confirm", "report": report.pk}),
        "page: desk rules on a result": (
            lambda: Pairing.objects.get(pk=pq.pk).score_a == 5, desk,
            {"action": "rule", "pairing": pq.pk, f"rule{pq.pk}-version": pq.version, f"rule{pq.pk}-score_a": 5,
             f"rule{pq.pk}-score_b": 0}),
        "page: desk undoes a result": (lambda: _status(Pairing, finished.pk) != "finished", desk,
                                       {"action": "undo", "pairing": finished.pk,
                                        f"undo{finished.pk}-version": finished.version}),
        "page: desk prints new slips with new codes": (
            lambda: SlipCode.objects.filter(pairing=pq, revoked_at__isnull=False).exists(), f"/desk/{slug}/slips/",
            {"action": "renew"}),
        "page: draw page draws the flight": (lambda: _status(Flight, side.pk) != "draft",
                                             f"/desk/{slug}/flights/{side.pk}/draw/",
                                             {"action": "confirm", "version": side.version}),
        "page: draw page keeps two players apart": (DOOR, f"/desk/{slug}/flights/{side.pk}/draw/",
                                                    {"action": "apart", "pair_a": q.pk, "pair_b": w["x"].pk}),
        "page: draw page fixes a pair": (DOOR, f"/desk/{slug}/flights/{side.pk}/draw/",
                                         {"action": "fixed", "pair_a": q.pk, "pair_b": w["x"].pk}),
        "page: draw page resets the seeds": (DOOR, f"/desk/{slug}/flights/{side.pk}/draw/", {"action": "reset"}),
        "page: correction page overrides a result": (
            lambda: Pairing.objects.get(pk=finished.pk).score_b == 3,
            f"/desk/{slug}/pairings/{finished.pk}/",
            {"version": finished.version, "score_a": 1, "score_b": 3, "previewed": "1-3"}),
        "page: correction page undoes a result": (
            lambda: _status(Pairing, finished.pk) != "finished", f"/desk/{slug}/pairings/{finished.pk}/",
            {"undo": "confirmed", "version": finished.version}),
        "page: enter a game on the score sheet": (
            lambda: games_of(sheet.pk) == 2, f"/matches/{sheet.pk}/enter/",
            {"number": 2, "version": sheet.version, "winner": 0, "end": "played_out", "kind": 1,
             "cube": 1, "cube_owner": ""}),
        "page: remove the last game on the score sheet": (
            lambda: games_of(sheet.pk) == 0, f"/matches/{sheet.pk}/enter/",
            {"action": "undo", "version": sheet.version}),
        # The players' pages.
        "page: report a result on /me/": (
            lambda: ResultReport.objects.filter(pairing=pq, score_a=5, score_b=3).exists(), "/me/",
            {"action": "report", "pairing": pq.pk, f"p{pq.pk}-version": pq.version, f"p{pq.pk}-score_a": 5,
             f"p{pq.pk}-score_b": 3}),
        "page: confirm a result on /me/": (lambda: _status(ResultReport, report.pk) == "confirmed", "/me/",
                                           {"action": "confirm", "report": report.pk}),
        "page: dispute a result on /me/": (lambda: _status(ResultReport, report.pk) == "disputed", "/me/",
                                           {"action": "dispute", "report": report.pk,
                                            f"r{report.pk}-reason": "It was 5-1"}),
        "page: check in from the phone": (lambda: _status(Entry, entry.pk) == "checked_in", "/me/",
                                          {"action": "check_in", "entry": entry.pk}),
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
        "page: open the phone check-in": (
            lambda: Flight.objects.get(pk=side.pk).check_in_closes < side.check_in_closes,
            f"/events/{slug}/check-in/", {"flight": side.pk, "minutes": "30"}),
        "page: close the phone check-in": (
            lambda: not Flight.objects.get(pk=side.pk).check_in_closes
            or Flight.objects.get(pk=side.pk).check_in_closes <= timezone.now(),
            f"/events/{slug}/check-in/", {"flight": side.pk, "action": "close"}),
        "page: open the online registration": (
            lambda: Flight.objects.get(pk=side.pk).registration_closes is not None,
            f"/events/{slug}/register/", {"flight": side.pk, "action": "open",
                                          "closes": (timezone.now() + datetime.timedelta(days=2)).isoformat()}),
        "page: register online": (
            lambda: Entry.objects.filter(flight=w["opening"]).count() + WaitingEntry.objects.filter(
                flight=w["opening"]).count() > 1, f"/events/{slug}/register/", {"flight": w["opening"].pk}),
        "page: take back a registration": (
            lambda: not Entry.objects.filter(flight=w["opening"], player=r).exclude(status="withdrawn").exists(),
            f"/events/{slug}/register/", {"flight": w["opening"].pk, "action": "cancel"}),
        # Accounts and claims.
        "page: claim a player": (lambda: PlayerClaim.objects.filter(player=s).exists(), "/account/",
                                 {"action": "claim", "player": s.pk}),
        "page: choose the name shown in public": (lambda: PublicName.objects.filter(name="The Chooser").exists(),
                                                  "/account/", {"action": "public_name", "public_name": "The Chooser"}),
        "page: turn match e-mails off": (lambda: not PlayerAccount.objects.get(player=p).match_emails, "/account/",
                                         {"action": "match_emails"}),
        "page: approve a claim": (lambda: _status(PlayerClaim, w["claim"].pk) == "approved", "/account/claims/",
                                  {"claim": w["claim"].pk, "action": "approve"}),
        "page: refuse a claim": (lambda: _status(PlayerClaim, w["claim"].pk) == "refused", "/account/claims/",
                                 {"claim": w["claim"].pk, "action": "refuse", "reason": "not him"}),
        # Ratings.
        "page: publish a rating list": (lambda: OfficialList.objects.count() > 1, "/ratings/lists/publish/",
                                        {"system": "fibs", "as_of": today, "note": "again"}),
        # The admin's actions.
        "admin: start a flight": (lambda: _status(Flight, side.pk) != "draft", "/admin/tournaments/flight/",
                                  {"action": "start_flight", "_selected_action": [side.pk]}),
        "admin: start the next round": (lambda: Round.objects.filter(flight=league).count() == 2,
                                        "/admin/tournaments/flight/",
                                        {"action": "start_next_round", "_selected_action": [league.pk]}),
        "admin: advance a flight": (lambda: Tournament.objects.get(pk=w["event"].pk).version > event_version,
                                    "/admin/tournaments/flight/",
                                    {"action": "advance_flight", "_selected_action": [league.pk]}),
        "admin: check a player in": (lambda: _status(Entry, entry.pk) == "checked_in", "/admin/tournaments/entry/",
                                     {"action": "check_in", "_selected_action": [entry.pk]}),
        "admin: withdraw a player": (lambda: _status(Entry, entry.pk) == "withdrawn", "/admin/tournaments/entry/",
                                     {"action": "withdraw", "_selected_action": [entry.pk]}),
        "admin: undo a link": (lambda: PlayerAccount.objects.get(pk=w["linked"].pk).user_id is None,
                               "/admin/tournaments/playeraccount/", {"action": "unlink",
                                                                     "_selected_action": [w["linked"].pk]}),
        "admin: delete the last game of a match": (lambda: games_of(sheet.pk) == 0, "/admin/games/match/",
                                                   {"action": "delete_last_game", "_selected_action": [sheet.pk]}),
    }
    for model, model_admin in admin.site._registry.items():
        label = model._meta.label_lower
        obj = model_admin.get_queryset(_FakeRequest()).order_by("pk").first()
        pk = obj.pk if obj is not None else 0
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        writes[f"admin: add form of {label}"] = (DOOR, f"{base}add/", {})
        writes[f"admin: change form of {label}"] = (DOOR, f"{base}{pk}/change/", {})
        writes[f"admin: delete form of {label}"] = (DOOR, f"{base}{pk}/delete/", {})
    return writes


class _FakeRequest:
    """What an admin's `get_queryset` reads of a request (its user, for no filtering)."""

    class user:  # noqa: N801
        is_superuser = True
        is_active = True
        is_staff = True


# -- the routes that write ------------------------------------------------------------------------

WRITE_METHODS = ("post", "put", "patch", "delete")
ACTION_LITERALS = (re.compile(r'\baction\s*==\s*"(\w+)"'), re.compile(r'get\("action"\)\s*==\s*"(\w+)"'))
ACTION_TUPLE = re.compile(r'\baction in \(([^)]*)\)')


def _patterns(patterns, namespace=""):
    for item in patterns:
        if isinstance(item, URLResolver):
            inner = f"{namespace}:{item.namespace}" if namespace and item.namespace else item.namespace or namespace
            yield from _patterns(item.url_patterns, inner or "")
        elif isinstance(item, URLPattern) and item.name:
            yield (f"{namespace}:{item.name}" if namespace else item.name), item.callback


def _page_actions(view) -> set[str]:
    """The `action` values a page's view (or a helper of its module it calls) dispatches on, and
    those of the `ACTIONS` registry (action name -> view) it dispatches through, as the desk does."""
    function = inspect.unwrap(view)
    module = inspect.getmodule(function)
    source = inspect.getsource(function)
    for name, helper in vars(module).items():
        if inspect.isfunction(helper) and helper is not function and f"{name}(" in source:
            source += inspect.getsource(helper)
    found = {m for pattern in ACTION_LITERALS for m in pattern.findall(source)}
    if isinstance(getattr(module, "ACTIONS", None), dict) and "ACTIONS" in source:
        found |= set(module.ACTIONS)
    for group in ACTION_TUPLE.findall(source):
        found |= set(re.findall(r'"(\w+)"', group))
    return found


def write_routes() -> set[tuple[str, str, str]]:
    """(method, URL name, action) of every write the URL conf offers."""
    routes = set()
    for name, view in _patterns(get_resolver().url_patterns):
        if name.startswith("admin:"):
            if name in ("admin:login", "admin:logout", "admin:password_change"):
                routes.add(("POST", name, ""))
            continue
        cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
        actions = getattr(view, "actions", None)
        if actions:
            routes |= {(method.upper(), name, "") for method in actions if method in WRITE_METHODS}
        elif cls is not None:
            offered = getattr(view, "view_initkwargs", {}).get("http_method_names", cls.http_method_names)
            routes |= {(method.upper(), name, "") for method in WRITE_METHODS if hasattr(cls, method) and method in offered}
        elif "POST" in inspect.getsource(inspect.unwrap(view)):
            routes |= {("POST", name, action) for action in _page_actions(view) or {""}}
    for model, model_admin in admin.site._registry.items():
        prefix = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        routes |= {("POST", f"{prefix}_{form}", "") for form in ("add", "change", "delete")}
        routes |= {("POST", f"{prefix}_changelist", action) for action in model_admin.actions or ()}
    return routes


def _route(how, url, data) -> tuple[str, str, str]:
    method = how.upper() if isinstance(how, str) and how != DOOR else "POST"
    action = data.get("action", "") if isinstance(data, dict) else ""
    return method, resolve(urlsplit(url).path).view_name, action


def test_every_write_route_is_in_the_table(world):
    writes = _writes(world)
    covered = {_route(how, url, data) for how, url, data, *_ in writes.values()}
    missing = sorted(route for route in write_routes() - covered
                     if route[1] not in NOT_ROLE_WRITES and route not in NOT_ROLE_WRITES)
    assert not missing, f"writes not in the table of {__name__}: {missing}"
    assert set(writes) == set(EXPECTED)


# -- trying them ----------------------------------------------------------------------------------


def _api_outcome(response, door=False):
    if response.status_code in (401, 403):
        return False
    if door:
        assert response.status_code < 500, response.content[:500]
        return True
    assert 200 <= response.status_code < 300, response.content[:500]
    return True


def _page_outcome(response, took_effect):
    """A page or admin action answers 200 (or redirects) whether it refused or not: what it left in
    the database tells."""
    assert response.status_code in (200, 204, 302, 400, 403, 404, 409), (response.status_code,
                                                                         response.content[:500])
    if took_effect == DOOR:
        login = response.status_code == 302 and "login" in response["Location"]
        return response.status_code not in (403, 404) and not login
    return took_effect()


def _clients(w) -> dict:
    """A page client and an API client for each role, made once: a client sets up the middleware
    on its first request, which costs more than a try."""
    clients = {}
    for role in ROLES:
        user = w["users"].get(role)
        page, api = Client(), APIClient()
        if user is not None:
            page.force_login(user)
            api.force_authenticate(user)
        clients[role] = (page, api)
    return clients


def _try(w, clients, role, how, url, data, door=False):
    user = w["users"].get(role)
    page, api = clients[role]
    with transaction.atomic():
        if callable(data):
            data = data()
        if callable(how) or how == DOOR:
            done = _page_outcome(page.post(url, data), how)
        else:
            match_id = resolve(urlsplit(url).path).kwargs.get("pk") if "/matches/" in url else None
            if data is not None and "version" not in data and how == "post" and match_id is not None:
                data = {**data, "version": Match.objects.get(pk=match_id).version}
            multipart = isinstance(data, dict) and any(isinstance(v, SimpleUploadedFile) for v in data.values())
            done = _api_outcome(getattr(api, how)(url, data, format="multipart" if multipart else "json"), door)
        transaction.set_rollback(True)
    for cached in ("_crawford_roles", "_crawford_event_roles", "_perm_cache", "_user_perm_cache",
                   "_group_perm_cache"):
        if user is not None and hasattr(user, cached):
            delattr(user, cached)
    return done


@pytest.mark.slow
def test_every_write_is_done_by_exactly_the_roles_that_may_do_it(world):
    found, errors = {}, []
    clients = _clients(world)
    for name, (how, url, data, *door) in _writes(world).items():
        found[name] = set()
        for role in ROLES:
            try:
                if _try(world, clients, role, how, url, data, *door):
                    found[name].add(role)
            except Exception as error:  # noqa: BLE001 (every failure is listed at the end)
                errors.append(f"{name} as {role}: {str(error)[:300]}")
    wrong = [f"{name}: expected {sorted(EXPECTED.get(name, ()))}, found {sorted(roles)}"
             for name, roles in found.items() if roles != EXPECTED.get(name)]
    assert not errors + wrong, "\n".join(errors + wrong)
