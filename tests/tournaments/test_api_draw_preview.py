"""A draw the TD sees before it is made: the preview, moved seeds, pairs kept apart or fixed, and a
start that makes exactly what was shown (or refuses, changing nothing)."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from tournaments import draws, services
from tournaments.formats import DrawRules
from tournaments.models import Entry, Flight, Pairing

from .helpers import API, ok

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.tournaments.urls")]


@pytest.fixture
def cup(staff, make_player):
    """An 8-player knockout with a consolation, seeds 1-8 given by hand; players known by seed."""
    event = services.tournament_create(name="Draw Cup", start_date=datetime.date(2026, 6, 6), by=staff)
    main = services.flight_create(tournament=event, name="Main", format="single_elimination", lengths=[5, 7, 9],
                                  by=staff)
    services.flight_create(tournament=event, name="Consolation", kind="consolation", format="single_elimination",
                           lengths=[3], feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=staff)
    player = {}
    for seed in range(1, 9):
        player[seed] = make_player(f"Seed {seed}")
        entry = services.entry_add(flight=main, player=player[seed], seed=seed, by=staff)
        services.entry_check_in(entry=entry, by=staff)
    return main, player


def as_seeds(preview_or_bracket_round, player):
    """Round 1 as (original seed a, original seed b or None) per table."""
    seed = {p.pk: s for s, p in player.items()}
    return [(seed[t["player_a"]["id"]], t["player_b"] and seed[t["player_b"]["id"]])
            for t in preview_or_bracket_round]


def test_the_preview_shows_the_seeds_round_one_and_the_fed_flights_and_changes_nothing(staff_api, cup):
    main, player = cup
    body = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json"))
    assert [(s["seed"], s["name"]) for s in body["seeds"]] == [(n, f"Seed {n}") for n in range(1, 9)]
    assert as_seeds(body["round"], player) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [t["slot"] for t in body["round"]] == ["R1-1", "R1-2", "R1-3", "R1-4"]
    assert body["feeds"] == [{"flight": "Consolation", "source_round": 1, "entry_round": 1}]
    assert (body["version"], body["moved"], body["random_seed"]) == (main.version, False, None)
    main.refresh_from_db()
    assert (main.status, main.version, Pairing.objects.count()) == ("draft", body["version"], 0)


def test_moved_seeds_a_pair_kept_apart_and_a_fixed_pairing_are_drawn_exactly_as_previewed(staff_api, cup):
    main, player = cup
    ask = {"seeds": [player[s].pk for s in (1, 2, 3, 5, 4, 6, 7, 8)],
           "apart": [[player[1].pk, player[8].pk]], "fixed": [[player[2].pk, player[3].pk]]}
    preview = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", ask, format="json"))
    assert as_seeds(preview["round"], player) == [(1, 7), (5, 4), (2, 3), (8, 6)]
    assert preview["moved"] is True

    started = ok(staff_api.post(f"{API}/flights/{main.pk}/start/", {**ask, "version": preview["version"]},
                                format="json"))
    assert started["status"] == "running"
    assert started["draw_rules"] == {"apart": [[player[1].pk, player[8].pk]], "fixed": [[player[2].pk, player[3].pk]],
                                     "moved": True}
    bracket = ok(staff_api.get(f"{API}/flights/{main.pk}/bracket/"))
    assert as_seeds(bracket["rounds"][0]["slots"], player) == [(1, 7), (5, 4), (2, 3), (8, 6)]
    stored = dict(Entry.objects.filter(flight=main).values_list("player_id", "seed"))
    assert [stored[player[s].pk] for s in range(1, 9)] == [1, 2, 3, 5, 4, 6, 7, 8]
    main.refresh_from_db()
    assert main.draw_rules == {"apart": [[player[1].pk, player[8].pk]], "fixed": [[player[2].pk, player[3].pk]],
                               "moved": True}


def test_the_draw_is_made_again_from_what_the_flight_stored(staff_api, cup):
    main, player = cup
    ok(staff_api.patch(f"{API}/flights/{main.pk}/", {"seeding": "random"}, format="json"))
    ask = {"apart": [[player[1].pk, player[2].pk]]}
    first = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", ask, format="json"))
    again = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", {**ask, "random_seed": first["random_seed"]},
                              format="json"))
    assert again == first
    ok(staff_api.post(f"{API}/flights/{main.pk}/start/", {**ask, "random_seed": first["random_seed"],
                                                          "version": first["version"]}, format="json"))
    main.refresh_from_db()
    assert main.random_seed == first["random_seed"]
    assert main.first_round == [[t["player_a"]["id"], t["player_b"] and t["player_b"]["id"]] for t in first["round"]]
    # Anyone holding the stored seeds and rules draws the same round 1.
    entries = list(Entry.objects.filter(flight=main))
    seeds = [e.player_id for e in sorted(entries, key=lambda e: e.seed)]
    remade = draws.plan_draw(main, entries, {}, seeds=seeds, random_seed=main.random_seed,
                             rules=DrawRules.of(main.draw_rules["apart"], main.draw_rules["fixed"]))
    assert [list(t) for t in remade.tables] == main.first_round


def test_a_second_td_confirming_a_draw_already_made_gets_409_and_nothing_more_is_drawn(staff, staff_api, cup,
                                                                                      make_user, client_for):
    main, player = cup
    other = make_user("second-td")
    services.tournament_organiser_add(tournament=main.tournament, user=other, by=staff)
    other_api = client_for(other)
    mine = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json"))
    theirs = ok(other_api.post(f"{API}/flights/{main.pk}/draw-preview/",
                               {"apart": [[player[1].pk, player[8].pk]]}, format="json"))
    ok(staff_api.post(f"{API}/flights/{main.pk}/start/", {"version": mine["version"]}, format="json"))
    drawn = list(Pairing.objects.order_by("id").values_list("flight_id", "slot", "player_a_id", "player_b_id"))
    late = other_api.post(f"{API}/flights/{main.pk}/start/", {"apart": [[player[1].pk, player[8].pk]],
                                                               "version": theirs["version"]}, format="json")
    assert late.status_code == 409
    assert late.json() == {"detail": "Main has already been started by another TD: its draw is made. Nothing of "
                                     "yours was drawn; reload the desk to see it."}
    assert list(Pairing.objects.order_by("id").values_list("flight_id", "slot", "player_a_id", "player_b_id")) == drawn
    assert as_seeds(ok(staff_api.get(f"{API}/flights/{main.pk}/bracket/"))["rounds"][0]["slots"], player) == [
        (1, 8), (4, 5), (2, 7), (3, 6)]
    assert other_api.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json").status_code == 409


def test_a_seed_list_overtaken_by_a_check_in_is_a_409_that_names_the_player(staff, staff_api, cup, make_player):
    main, player = cup
    late = services.entry_add(flight=main, player=make_player("Late Comer"), by=staff)
    shown = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json"))
    assert shown["absent"] == [{"id": late.player_id, "name": "Late Comer"}]
    services.entry_check_in(entry=late, by=staff)
    refused = staff_api.post(f"{API}/flights/{main.pk}/start/", {
        "seeds": [s["id"] for s in shown["seeds"]], "version": shown["version"]}, format="json")
    assert refused.status_code == 409
    assert refused.json() == {"detail": "The players of Main changed since this draw was shown (Late Comer checked "
                                        "in): look at the draw again before you confirm it."}
    assert (Flight.objects.get(pk=main.pk).status, Pairing.objects.count()) == ("draft", 0)


def test_a_changed_setting_since_the_preview_is_a_409(staff_api, cup):
    main, _ = cup
    shown = ok(staff_api.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json"))
    ok(staff_api.patch(f"{API}/flights/{main.pk}/", {"lengths": [7, 7, 9]}, format="json"))
    refused = staff_api.post(f"{API}/flights/{main.pk}/start/", {"version": shown["version"]}, format="json")
    assert refused.status_code == 409
    assert refused.json() == {"detail": "The settings of Main were changed by someone else since this draw was "
                                        "shown: look at the draw again before you confirm it."}
    assert Pairing.objects.count() == 0


def test_bad_seeds_and_rules_answer_400_by_field_and_change_nothing(staff_api, cup):
    main, player = cup
    ids = [player[s].pk for s in range(1, 9)]
    cases = [
        ({"seeds": ids[:7] + [ids[0]]}, {"seeds": ["Seed 1 listed twice: give each player one seed."]}),
        ({"seeds": ids[:7] + [999999]}, {"seeds": ["Player 999999 is not entered in Main."]}),
        ({"apart": [[ids[3], ids[3]]]}, {"apart": ["Main: a pair kept apart needs two different players, "
                                                   "not Seed 4 twice."]}),
        ({"fixed": [[ids[0], ids[1]], [ids[0], ids[2]]]},
         {"fixed": ["Main: Seed 1 cannot play both Seed 2 and Seed 3 in round 1; keep one of the two fixed "
                    "pairings."]}),
        ({"apart": [[ids[0], 0]]}, {"apart": {"0": {"1": ["Ensure this value is greater than or equal to 1."]}}}),
    ]
    for body, errors in cases:
        for path in ("draw-preview", "start"):
            response = staff_api.post(f"{API}/flights/{main.pk}/{path}/", body, format="json")
            assert (path, response.status_code, response.json()) == (path, 400, errors)
    both = staff_api.post(f"{API}/flights/{main.pk}/start/", {
        "first_round": [[ids[0], ids[7]], [ids[3], ids[4]], [ids[1], ids[6]], [ids[2], ids[5]]],
        "apart": [[ids[0], ids[7]]]}, format="json")
    assert (both.status_code, both.json()) == (400, {"first_round": [
        "Give either a hand-made draw or seeds and pairs kept apart or fixed, not both."]})
    assert (Flight.objects.get(pk=main.pk).status, Pairing.objects.count()) == ("draft", 0)


@pytest.mark.parametrize("format_, options", [("swiss", {}), ("swiss_knockout", {"qualifiers": 2})])
def test_a_swiss_first_round_keeps_a_pair_apart(staff, staff_api, make_player, format_, options):
    event = services.tournament_create(name="Swiss Night", start_date=datetime.date(2026, 6, 6), by=staff)
    swiss = services.flight_create(tournament=event, name="Swiss", format=format_, lengths=[5], swiss_rounds=3,
                                   by=staff, **options)
    player = {}
    for seed in range(1, 6):
        player[seed] = make_player(f"Swiss {seed}")
        services.entry_check_in(entry=services.entry_add(flight=swiss, player=player[seed], seed=seed, by=staff),
                                by=staff)
    plain = ok(staff_api.post(f"{API}/flights/{swiss.pk}/draw-preview/", {}, format="json"))
    assert as_seeds(plain["round"], player) == [(1, 3), (2, 4), (5, None)]
    ask = {"apart": [[player[1].pk, player[3].pk]]}
    preview = ok(staff_api.post(f"{API}/flights/{swiss.pk}/draw-preview/", ask, format="json"))
    assert as_seeds(preview["round"], player) == [(1, 4), (2, 3), (5, None)]
    ok(staff_api.post(f"{API}/flights/{swiss.pk}/start/", ask, format="json"))
    seed = {p.pk: s for s, p in player.items()}
    assert [(p.slot, seed[p.player_a_id], p.player_b_id and seed[p.player_b_id], p.status)
            for p in Pairing.objects.filter(flight=swiss).order_by("slot")] == [
        ("R1-1", 1, 4, "pending"), ("R1-2", 2, 3, "pending"), ("R1-3", 5, None, "bye")]


def test_a_double_elimination_is_drawn_with_its_fixed_pairing_as_previewed(staff, staff_api, make_player):
    event = services.tournament_create(name="Double Night", start_date=datetime.date(2026, 6, 6), by=staff)
    double = services.flight_create(tournament=event, name="Double", format="double_elimination", lengths=[5],
                                    by=staff)
    player = {}
    for seed in range(1, 7):
        player[seed] = make_player(f"Double {seed}")
        services.entry_check_in(entry=services.entry_add(flight=double, player=player[seed], seed=seed, by=staff),
                                by=staff)
    ask = {"fixed": [[player[1].pk, player[6].pk]]}
    preview = ok(staff_api.post(f"{API}/flights/{double.pk}/draw-preview/", ask, format="json"))
    assert as_seeds(preview["round"], player) == [(1, 6), (4, 5), (2, None), (3, None)]
    ok(staff_api.post(f"{API}/flights/{double.pk}/start/", ask, format="json"))
    bracket = ok(staff_api.get(f"{API}/flights/{double.pk}/bracket/"))
    assert as_seeds(bracket["rounds"][0]["slots"], player) == [(1, 6), (4, 5), (2, None), (3, None)]


def test_a_round_robin_previews_its_first_round_and_takes_moved_seeds_but_no_pair_rules(staff, staff_api,
                                                                                       make_player):
    event = services.tournament_create(name="Club Night", start_date=datetime.date(2026, 6, 6), by=staff)
    robin = services.flight_create(tournament=event, name="Robin", format="round_robin", lengths=[3], by=staff)
    player = {}
    for seed in range(1, 5):
        player[seed] = make_player(f"Robin {seed}")
        services.entry_check_in(entry=services.entry_add(flight=robin, player=player[seed], seed=seed, by=staff),
                                by=staff)
    moved = {"seeds": [player[s].pk for s in (4, 2, 3, 1)]}
    preview = ok(staff_api.post(f"{API}/flights/{robin.pk}/draw-preview/", moved, format="json"))
    assert as_seeds(preview["round"], player) == [(4, 1), (2, 3)]
    refused = staff_api.post(f"{API}/flights/{robin.pk}/draw-preview/",
                             {"fixed": [[player[1].pk, player[2].pk]]}, format="json")
    assert refused.status_code == 400
    assert refused.json() == {"fixed": ["Robin is a round robin: everyone meets everyone, in the order of the "
                                        "Berger tables, so no pair can be kept apart or fixed. Move seeds to change "
                                        "who meets whom in round 1."]}
    ok(staff_api.post(f"{API}/flights/{robin.pk}/start/", moved, format="json"))
    seed = {p.pk: s for s, p in player.items()}
    assert [(p.slot, seed[p.player_a_id], seed[p.player_b_id]) for p in
            Pairing.objects.filter(flight=robin, round__number=1).order_by("slot")] == [("R1-1", 4, 1), ("R1-2", 2, 3)]


def test_only_a_td_of_the_event_sees_the_draw_before_it_is_made(cup, make_user, client_for):
    main, _ = cup
    stranger = client_for(make_user("nosy"))
    assert stranger.post(f"{API}/flights/{main.pk}/draw-preview/", {}, format="json").status_code == 403


def test_a_refused_draw_is_told_in_the_td_s_language(staff, cup):
    main, player = cup
    ids = [player[s].pk for s in range(1, 9)]
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=main, by=staff, fixed=[[ids[0], ids[1]], [ids[0], ids[2]]])
    assert refused.value.message_dict == {"fixed": [
        "Main: Seed 1 kan ikke spille mod både Seed 2 og Seed 3 i runde 1; behold én af de to fastlagte parringer."]}
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=main, by=staff, apart=[[ids[3], ids[3]]])
    assert refused.value.message_dict == {"apart": [
        "Main: et par, der holdes adskilt, kræver to forskellige spillere, ikke Seed 4 to gange."]}
    assert (Pairing.objects.count(), Flight.objects.get(pk=main.pk).status) == (0, "draft")


def four_checked_in(flight, staff, make_player) -> list[int]:
    """Anna, Bo, Cy and Dee entered in `flight` and checked in: their ids."""
    ids = []
    for name in ("Anna", "Bo", "Cy", "Dee"):
        entry = services.entry_add(flight=flight, player=make_player(name), by=staff)
        services.entry_check_in(entry=entry, by=staff)
        ids.append(entry.player_id)
    return ids


def swiss_of_four(staff, make_player):
    """A two-round Swiss drawn by hand, its four players (Anna, Bo, Cy, Dee) checked in: the flight and their ids."""
    event = services.tournament_create(name="Club Swiss", start_date=datetime.date(2026, 6, 6), by=staff)
    swiss = services.flight_create(tournament=event, name="Swiss", format="swiss", lengths=[3], swiss_rounds=2,
                                   auto_pair=False, by=staff)
    return swiss, four_checked_in(swiss, staff, make_player)


def test_a_refused_swiss_pairing_is_told_in_the_td_s_language(staff, make_player):
    swiss, ids = swiss_of_four(staff, make_player)
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=swiss, by=staff, first_round=[[ids[0], ids[1]], [ids[2], None], [ids[3], None]])
    assert refused.value.message_dict == {"first_round": ["Swiss: kun én spiller må have fri i en runde."]}
    assert Pairing.objects.count() == 0


def test_a_refused_swiss_draw_names_the_players_by_name_in_a_list_of_the_td_s_language(staff, make_player):
    swiss, ids = swiss_of_four(staff, make_player)
    with translation.override("ja"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=swiss, by=staff, first_round=[[ids[0], ids[1]]])
    assert refused.value.message_dict == {"first_round": ["Swiss: Cy、Dee が組み合わされていません。"]}
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=swiss, by=staff, first_round=[[ids[0], ids[1]], [ids[2], ids[0]], [ids[3], None]])
    assert refused.value.message_dict == {"first_round": ["Swiss: Anna er parret to gange."]}
    stranger = make_player("Eve").pk
    with translation.override("ar"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=swiss, by=staff, first_round=[[ids[0], ids[1]], [ids[2], ids[3]], [stranger, None]])
    assert refused.value.message_dict == {"first_round": ["Swiss: Eve غير مسجَّل."]}
    with translation.override("da"):
        assert draws.player_label(999999) == "spiller 999999"
    assert Pairing.objects.count() == 0


def test_a_refused_hand_made_knockout_draw_names_the_players_by_name(staff, make_player):
    event = services.tournament_create(name="Club Cup", start_date=datetime.date(2026, 6, 6), by=staff)
    cup = services.flight_create(tournament=event, name="Cup", format="single_elimination", lengths=[5, 5],
                                 by=staff)
    ids = four_checked_in(cup, staff, make_player)
    with translation.override("ar"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=cup, by=staff, first_round=[[ids[0], ids[1]], [ids[2], None]])
    assert refused.value.message_dict == {"first_round": ["Cup: القرعة تُغفل Dee."]}
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=cup, by=staff, first_round=[[ids[0], ids[1]], [ids[2], ids[0]]])
    assert refused.value.message_dict == {"first_round": ["Cup: Anna er trukket to gange."]}
    assert Pairing.objects.count() == 0


def test_a_hand_made_draw_refused_for_a_round_robin_is_told_in_the_td_s_language(staff, make_player):
    event = services.tournament_create(name="Club Robin", start_date=datetime.date(2026, 6, 6), by=staff)
    robin = services.flight_create(tournament=event, name="Robin", format="round_robin", lengths=[5], by=staff)
    ids = four_checked_in(robin, staff, make_player)
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=robin, by=staff, first_round=[[ids[0], ids[1]], [ids[2], ids[3]]])
    assert refused.value.message_dict == {"first_round": [
        "En alle-mod-alle-turnering følger Berger-tabellerne: den tager ingen håndlavet lodtrækning."]}
    with translation.override("da"), pytest.raises(ValidationError) as refused:
        services.flight_start(flight=robin, by=staff, apart=[[ids[0], ids[1]]])
    assert refused.value.message_dict == {"apart": [
        "Robin spilles alle mod alle i Berger-tabellernes rækkefølge, så intet par kan holdes adskilt eller "
        "fastlægges. Flyt seedninger for at ændre, hvem der mødes i runde 1."]}
    assert Pairing.objects.count() == 0
