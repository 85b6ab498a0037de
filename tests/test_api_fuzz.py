"""Every operation of the OpenAPI schema, with generated input: never a 5xx, and every answer
matches the schema.

Schemathesis draws requests from the schema (valid and invalid ones) and sends them to the
application in-process, signed in as staff, against a small event whose objects the path
parameters name. Generation is derandomized and the examples are few (five valid or invalid
requests an operation), so a run is the same every time and takes well under a minute; a
failure names the request that broke the contract.
"""

from datetime import date

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.db.backends.base.base import BaseDatabaseWrapper
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from werkzeug.test import Client

from games import services as games_services
from games.models import Player
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # some fifty operations, a few seconds each

EXAMPLES = 5

SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


@pytest.fixture
def app(db, monkeypatch):
    """The WSGI application, answering inside the test's transaction: as under Django's test
    client, the connection is not closed at the end of each request."""
    monkeypatch.setattr(BaseDatabaseWrapper, "close_if_unusable_or_obsolete", lambda connection: None)
    return get_wsgi_application()


@pytest.fixture
def cast(staff, make_player):
    """An event with a running knockout and a played match, and the ids the paths name."""
    players = [make_player(f"Fuzz {n}") for n in range(4)]
    match = games_services.match_create(player_a=players[0], player_b=players[1], length=3, by=staff)
    tournament = tournament_services.tournament_create(name="Fuzz Open", start_date=date(2026, 12, 1), by=staff)
    flight = tournament_services.flight_create(tournament=tournament, name="Main", format="single_elimination",
                                               lengths=[3, 3], by=staff)
    for player in players:
        entry = tournament_services.entry_add(flight=flight, player=player, by=staff)
        tournament_services.entry_check_in(entry=entry, by=staff)
    tournament_services.flight_start(flight=flight, by=staff, random_seed=1)
    pairing = flight.pairings.order_by("slot").first()
    report = tournament_services.result_report(pairing=pairing, by=staff, score_a=3, score_b=1)
    return {
        "id": {"players": players[2].pk, "matches": match.pk, "flights": flight.pk, "entries": entry.pk,
               "rounds": pairing.round_id, "pairings": pairing.pk, "result-reports": report.pk,
               "match-files": 1},
        "slug": tournament.slug,
        "player_id": players[0].pk,
        "number": 1,
    }


def _path_parameters(operation, cast):
    resource = operation.path.split("/")[3]
    values = {"id": cast["id"].get(resource, 1), "slug": cast["slug"], "player_id": cast["player_id"],
              "number": cast["number"]}
    return {p.name: values[p.name] for p in operation.path_parameters if p.name in values}


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
def test_no_operation_answers_a_server_error_or_breaks_its_schema(operation, staff, cast, app):
    token = Token.objects.create(user=staff)
    paths = _path_parameters(operation, cast)
    strategy = (operation.as_strategy(generation_mode=GenerationMode.POSITIVE, path_parameters=paths)
                | operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, path_parameters=paths))

    @settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(case=strategy)
    def check(case):
        response = case.call(app=app, headers={"Authorization": f"Token {token.key}"})
        case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])

    check()


def test_the_answers_about_an_event_match_their_schema(staff_api, staff, cast, make_player, make_user, client_for,
                                                      app):
    """Known shapes the schema once got wrong: null players, matches and users, the bracket,
    standings, placings, the dispute queue, a pairing's reports and a match's history."""
    flight_id, slug = cast["id"]["flights"], cast["slug"]
    tournament = Tournament.objects.get(slug=slug)
    robin = tournament_services.flight_create(tournament=tournament, name="Robin", format="round_robin",
                                              lengths=[1], by=staff)
    for n in range(3):  # three players: a bye in every round
        entry = tournament_services.entry_add(flight=robin, player=make_player(f"Robin {n}"), by=staff)
        tournament_services.entry_check_in(entry=entry, by=staff)
    tournament_services.flight_start(flight=robin, by=staff)
    table = next(p for p in flight_pairings(staff_api, robin.pk) if p["player_b"] and p["status"] == "pending")
    reporter, disputer = (client_for(make_user(player=Player.objects.get(pk=p["id"])))
                          for p in (table["player_a"], table["player_b"]))
    report = reporter.post(f"/api/v1/pairings/{table['id']}/reports/", {"score_a": 1, "score_b": 0}, format="json")
    assert disputer.post(f"/api/v1/result-reports/{report.json()['id']}/dispute/", {"reason": "I won"},
                         format="json").status_code == 200
    for pairing in flight_pairings(staff_api, flight_id):  # the knockout played to its champion
        pairing = staff_api.get(f"/api/v1/pairings/{pairing['id']}/").json()
        if pairing["status"] == "pending":
            staff_api.post(f"/api/v1/pairings/{pairing['id']}/reports/", {"score_a": 3, "score_b": 0}, format="json")
    final = flight_pairings(staff_api, flight_id)[-1]
    staff_api.post(f"/api/v1/pairings/{final['id']}/reports/", {"score_a": 3, "score_b": 0}, format="json")
    assert staff_api.get(f"/api/v1/flights/{flight_id}/").json()["status"] == "finished"

    answers = {
        ("GET", "/api/v1/pairings/"): f"/api/v1/pairings/?flight={robin.pk}",
        ("GET", "/api/v1/pairings/{id}/"): f"/api/v1/pairings/{final['id']}/",
        ("GET", "/api/v1/pairings/{id}/reports/"): f"/api/v1/pairings/{final['id']}/reports/",
        ("GET", "/api/v1/flights/"): f"/api/v1/flights/?tournament={slug}",
        ("GET", "/api/v1/flights/{id}/"): f"/api/v1/flights/{robin.pk}/",
        ("GET", "/api/v1/flights/{id}/bracket/"): f"/api/v1/flights/{flight_id}/bracket/",
        ("GET", "/api/v1/flights/{id}/standings/"): f"/api/v1/flights/{robin.pk}/standings/",
        ("GET", "/api/v1/flights/{id}/placings/"): f"/api/v1/flights/{flight_id}/placings/",
        ("GET", "/api/v1/tournaments/{slug}/disputes/"): f"/api/v1/tournaments/{slug}/disputes/",
        ("GET", "/api/v1/result-reports/"): f"/api/v1/result-reports/?tournament={slug}",
        ("GET", "/api/v1/matches/"): "/api/v1/matches/",
        ("GET", "/api/v1/matches/{id}/history/"): f"/api/v1/matches/{cast['id']['matches']}/history/",
    }
    client = Client(app)
    auth = {"Authorization": f"Token {Token.objects.create(user=staff).key}"}
    for (method, path), url in answers.items():
        response = client.get(url, headers=auth)
        assert response.status_code == 200, (url, response.text)
        assert response.json, url
        SCHEMA[path][method].validate_response(response)
    preview = client.post(f"/api/v1/pairings/{final['id']}/correction-preview/", headers=auth,
                          json={"winner": final["player_b"]["id"]})
    assert preview.status_code == 200, (final, preview.text)
    SCHEMA["/api/v1/pairings/{id}/correction-preview/"]["POST"].validate_response(preview)


def flight_pairings(client, flight_id):
    return client.get("/api/v1/pairings/", {"flight": flight_id}).json()["results"]
