"""What a TD or a player types is read as meant: a final score the rules can reach, a pasted list
read name by name."""

import datetime

import pytest

from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout(staff, make_player):
    """Eight players in a 7-point single elimination, started."""
    event = services.tournament_create(name="Input Open", start_date=datetime.date(2026, 5, 1), by=staff)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[7, 7, 7],
                                  seeding="manual", by=staff)
    for n in range(1, 9):
        entry = services.entry_add(flight=main, player=make_player(f"Seed {n}"), seed=n, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    services.flight_start(flight=main, by=staff)
    return main, None, None


def first_match(main):
    return Pairing.objects.select_related("player_a", "player_b").filter(flight=main, round__number=1).order_by(
        "slot").first()


def test_a_player_reporting_an_impossible_final_score_gets_a_400_at_the_winners_score_and_nothing_is_kept(
        knockout, make_user, client_for):
    main, _, _ = knockout
    pairing = first_match(main)
    player = client_for(make_user(player=pairing.player_b))
    url = f"/api/v1/pairings/{pairing.pk}/reports/"
    refused = player.post(url, {"score_a": 3, "score_b": 55}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"score_b": [
        "3–55 is not a possible final score: in a 7-point match where the loser has 3, the winner ends on 7 to 22,"
        " 24 to 30, 32 to 38, 48 to 54, 64 to 70, … (the score he stood at, below 7, plus one game: the cube times"
        " 1, 2 or 3)."]}
    assert not pairing.reports.exists()
    assert player.post(url, {"score_a": 3, "score_b": 9}, format="json").status_code == 201


def test_a_pasted_surname_given_line_is_read_as_a_name_unless_the_list_has_a_club_column(knockout, staff, make_player):
    main, _, _ = knockout
    side = services.flight_create(tournament=main.tournament, name="Side", format="swiss", lengths=[3],
                                  swiss_rounds=3, by=staff)
    greta = make_player("Greta Kowalski", club="Warsaw BC")
    (line,) = services.entries_paste_plan(flight=side, text="Kowalski, Greta\n")
    assert (line.typed, line.name, line.club, line.near, line.candidates, line.player) == (
        "Kowalski, Greta", "Greta Kowalski", "", True, [greta], None)
    (line,) = services.entries_paste_plan(flight=side, text="name,club\nLena,Kiel\n")
    assert (line.typed, line.name, line.club, line.near, line.candidates) == ("", "Lena", "Kiel", False, [])
    (line,) = services.entries_paste_plan(flight=side, text="Kowalski, Warsaw BC\n")
    assert (line.name, line.club) == ("Kowalski", "Warsaw BC")  # a club there is: a name and its club


def test_an_improbable_final_score_from_a_td_asks_for_a_confirmation_and_is_stored_with_it(knockout, staff_api):
    main, _, _ = knockout
    pairing = first_match(main)
    url = f"/api/v1/pairings/{pairing.pk}/reports/"
    asked = staff_api.post(url, {"score_a": 51, "score_b": 3}, format="json")
    assert asked.status_code == 400
    assert asked.json() == {"score_a": [
        "51-3 needs a cube of 16 or more in the last game of a 7-point match: check the slip, then confirm to "
        "record it."]}
    assert not pairing.reports.exists()
    stored = staff_api.post(url, {"score_a": 51, "score_b": 3, "improbable_confirmed": True}, format="json")
    assert stored.status_code == 201
    pairing.refresh_from_db()
    assert (pairing.status, pairing.score_a, pairing.score_b) == ("finished", 51, 3)


def test_a_gammon_on_a_four_cube_is_not_improbable_and_a_players_report_is_never_asked(knockout, staff_api,
                                                                                      make_user, client_for):
    main, _, _ = knockout
    first, second = Pairing.objects.filter(flight=main, round__number=1).order_by("slot")[:2]
    assert staff_api.post(f"/api/v1/pairings/{first.pk}/reports/", {"score_a": 14, "score_b": 2},
                          format="json").status_code == 201  # from 6-2, a gammon on a 4-cube
    player = client_for(make_user(player=second.player_a))
    assert player.post(f"/api/v1/pairings/{second.pk}/reports/", {"score_a": 51, "score_b": 3},
                       format="json").status_code == 201  # the opponent checks a player's report
