"""Single elimination and the progressive consolation / last chance flights."""

import random

import pytest

from tournaments.formats import (
    BracketUserError,
    Competitor,
    Feeder,
    FlightKind,
    FlightSpec,
    KnockoutEvent,
    Result,
    SeedingMethod,
    SingleElimination,
    bracket_order,
    seed_competitors,
)

MAIN_LENGTHS = (7, 7, 9, 9, 11, 11)

SPECS_37 = (
    FlightSpec("Main", FlightKind.MAIN, lengths=MAIN_LENGTHS),
    FlightSpec(
        "Consolation",
        FlightKind.CONSOLATION,
        lengths=(5, 5, 7, 7, 9, 9),
        feeders=(Feeder("Main", 1, 1), Feeder("Main", 2, 2)),
    ),
    FlightSpec(
        "Last Chance",
        FlightKind.LAST_CHANCE,
        lengths=(5,),
        feeders=(Feeder("Consolation", 1, 1),),
    ),
)


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def play_out(competitors, specs, choose_winner, withdrawn=()):
    """Report every ready match until nothing is left; returns the final event."""
    results = {spec.name: [] for spec in specs}
    while True:
        event = KnockoutEvent(competitors, specs, results=results, withdrawn=withdrawn)
        ready = event.ready()
        if not any(ready.values()):
            return event
        for name, pairings in ready.items():
            for pairing in pairings:
                results[name].append(Result(pairing.slot, choose_winner(pairing)))


def better_seed(pairing):
    return min(pairing.a, pairing.b)


def places(flight):
    return {p.competitor: p.label for p in flight.placings()}


def test_bracket_order_keeps_the_top_seeds_apart():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_sixteen_players_meet_one_v_sixteen_and_eight_v_nine():
    bracket = SingleElimination(field(16))
    assert [(p.a, p.b) for p in bracket.ready()] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]


def test_the_37_player_event_runs_to_three_champions_with_the_better_seed_winning():
    event = play_out(field(37), SPECS_37, better_seed)
    main, consolation, last_chance = (event[n] for n in ("Main", "Consolation", "Last Chance"))

    # Main: 37 players need a 64-line bracket, so 64 - 37 = 27 byes, to seeds 1-27.
    # Round 1 keeps 32 - 27 = 5 real matches: 28 v 37, 29 v 36, 30 v 35, 31 v 34, 32 v 33.
    # Then 16 + 8 + 4 + 2 + 1 matches: 5 + 31 = 36 = 37 - 1.
    assert sorted(p.a for p in main.byes()) == list(range(1, 28))
    assert [(p.a, p.b) for p in main.played() if p.round_no == 1] == [
        (32, 33), (29, 36), (28, 37), (31, 34), (30, 35),
    ]
    assert len(main.played()) == 36
    assert [sum(1 for p in main.played() if p.round_no == r) for r in range(1, 7)] == [
        5, 16, 8, 4, 2, 1,
    ]
    assert {p.round_no: p.length for p in main.pairings()} == dict(enumerate(MAIN_LENGTHS, 1))

    # Consolation round 1 takes the 5 losers of Main round 1 (33-37); round 2 the 16 losers of
    # Main round 2 (17-32).
    assert consolation.entrants(1) == (33, 34, 35, 36, 37)
    assert consolation.entrants(2) == tuple(range(17, 33))
    # Round 1: more entrants are coming, so play as many as possible: 2 matches, 1 bye to the
    # best seed, 33; then best against worst: 34 v 37, 35 v 36. 34 and 35 win.
    # Round 2: 3 survivors (33, 34, 35) + 16 entrants = 19. No one else is coming, so bring 19
    # down to 16 at once: 19 - 16 = 3 matches, 13 byes to the best seeds without a bye yet
    # (17-29). 30 v 35, 31 v 34, 32 v 33. Then 8 + 4 + 2 + 1: 2 + 3 + 15 = 20 = 21 - 1.
    assert [(p.a, p.b) for p in consolation.played() if p.round_no == 1] == [(34, 37), (35, 36)]
    assert [(p.a, p.b) for p in consolation.played() if p.round_no == 2] == [
        (30, 35), (31, 34), (32, 33),
    ]
    assert sorted(p.a for p in consolation.byes() if p.round_no == 2) == list(range(17, 30))
    assert len(consolation.played()) == 20
    assert len(consolation.byes()) == 14

    # Last Chance takes the 2 losers of Consolation round 1 (36, 37): one match.
    assert last_chance.entrants(1) == (36, 37)
    assert len(last_chance.played()) == 1

    assert (main.champion, consolation.champion, last_chance.champion) == (1, 17, 36)
    assert event.is_finished

    main_places = places(main)
    assert main_places[1] == "1" and main_places[2] == "2"
    assert {main_places[s] for s in (3, 4)} == {"3-4"}
    assert {main_places[s] for s in range(5, 9)} == {"5-8"}
    assert {main_places[s] for s in range(9, 17)} == {"9-16"}
    assert {main_places[s] for s in range(17, 33)} == {"17-32"}
    assert {main_places[s] for s in range(33, 38)} == {"33-37"}

    # Consolation: 17 wins, 18 second, 19-20, 21-24, 25-32 by round; the three who lost in
    # round 2 (33, 34, 35) share 17-19, the two who lost in round 1 (36, 37) share 20-21.
    cons_places = places(consolation)
    assert cons_places[17] == "1" and cons_places[18] == "2"
    assert {cons_places[s] for s in (19, 20)} == {"3-4"}
    assert {cons_places[s] for s in range(21, 25)} == {"5-8"}
    assert {cons_places[s] for s in range(25, 33)} == {"9-16"}
    assert {cons_places[s] for s in (33, 34, 35)} == {"17-19"}
    assert {cons_places[s] for s in (36, 37)} == {"20-21"}
    assert places(last_chance) == {36: "1", 37: "2"}


def test_the_37_player_event_with_seeded_random_winners_has_the_same_shape_and_repeats():
    def run(seed):
        rng = random.Random(seed)
        return play_out(field(37), SPECS_37, lambda p: rng.choice((p.a, p.b)))

    event = run(2024)
    main, consolation, last_chance = (event[n] for n in ("Main", "Consolation", "Last Chance"))
    assert event.is_finished
    assert len(main.byes()) == 27
    assert [len(f.played()) for f in (main, consolation, last_chance)] == [36, 20, 1]
    assert len(consolation.entrants(1)) == 5 and len(consolation.entrants(2)) == 16
    assert set(consolation.entrants(1)) == set(main.losers_of_round(1))
    assert set(last_chance.entrants(1)) == set(consolation.losers_of_round(1))
    assert all(f.champion is not None for f in (main, consolation, last_chance))
    again = run(2024)
    assert [f.champion for f in again.flights.values()] == [
        f.champion for f in event.flights.values()
    ]
    assert [p.label for p in again["Main"].placings()] == [p.label for p in main.placings()]


def test_consolation_round_one_is_played_while_main_round_two_is_still_on():
    round_one = [p for p in SingleElimination(field(37)).ready() if p.round_no == 1]
    results = {"Main": [Result(p.slot, better_seed(p)) for p in round_one]}
    event = KnockoutEvent(field(37), SPECS_37, results=results)
    assert sum(1 for p in event["Main"].ready() if p.round_no == 2) == 16
    assert len(event["Consolation"].ready()) == 2
    assert event["Consolation"].entrants(2) == ()
    assert not event["Consolation"].round_complete(2)


def test_a_walkover_sends_the_opponent_through_and_the_absent_player_feeds_no_flight():
    round_one = [p for p in SingleElimination(field(37)).ready() if p.round_no == 1]
    no_show = next(p.slot for p in round_one if p.players == (32, 33))
    results = [Result(no_show, 32, walkover=True)]  # 33 did not show against 32
    results += [Result(p.slot, better_seed(p)) for p in round_one if p.slot != no_show]
    event = KnockoutEvent(field(37), SPECS_37, results={"Main": results})
    assert event["Main"].winner(no_show) == 32
    assert event["Main"].loser(no_show) == 33
    assert 33 not in event["Consolation"].entrants(1)
    assert len(event["Consolation"].entrants(1)) == 4


def test_a_withdrawn_loser_does_not_enter_the_consolation():
    event = play_out(field(37), SPECS_37, better_seed, withdrawn={37})
    assert event["Consolation"].entrants(1) == (33, 34, 35, 36)
    assert event.is_finished


def test_seeding_by_rating_puts_the_highest_rating_first():
    players = [Competitor("ann", 1, 1500), Competitor("bob", 2, 1700), Competitor("cy", 3, 1600)]
    assert [c.id for c in seed_competitors(players, SeedingMethod.RATING)] == ["bob", "cy", "ann"]


def test_seeding_by_rating_refuses_a_player_without_a_rating():
    with pytest.raises(BracketUserError, match="no rating for ann"):
        seed_competitors([Competitor("ann", 1), Competitor("bob", 2, 1700)], SeedingMethod.RATING)


def test_a_random_draw_repeats_from_its_seed_and_needs_one():
    players = field(20)
    first = seed_competitors(players, SeedingMethod.RANDOM, random_seed=7)
    assert first == seed_competitors(players, SeedingMethod.RANDOM, random_seed=7)
    assert [c.seed for c in first] == list(range(1, 21))
    assert [c.id for c in first] != list(range(1, 21))
    with pytest.raises(BracketUserError, match="random seed"):
        seed_competitors(players, SeedingMethod.RANDOM)


def test_a_hand_made_draw_is_accepted_when_every_player_is_placed_once():
    bracket = SingleElimination(field(5), first_round=[(1, 2), (3, None), (4, None), (5, None)])
    assert [(p.a, p.b) for p in bracket.ready()] == [(1, 2), (4, 5)]
    assert bracket.winner("R1-2") == 3


@pytest.mark.parametrize(
    "first_round, message",
    [
        ([(1, 2), (3, 4)], "has 4 first-round matches"),
        ([(1, 2), (3, 1), (4, None), (5, None)], "1 is drawn twice"),
        ([(1, 2), (3, 9), (4, None), (5, None)], "9 is not entered"),
        ([(1, 2), (3, None), (4, None), (None, None)], "at least one player"),
    ],
)
def test_a_hand_made_draw_that_breaks_the_rules_is_refused(first_round, message):
    with pytest.raises(BracketUserError, match=message):
        SingleElimination(field(5), first_round=first_round)


def test_a_result_for_a_match_whose_players_are_not_known_is_refused():
    with pytest.raises(BracketUserError, match="not known yet"):
        SingleElimination(field(8), results=[Result("R2-1", 1)])


def test_a_result_naming_someone_who_did_not_play_is_refused():
    with pytest.raises(BracketUserError, match="1 against 8; 3 did not play it"):
        SingleElimination(field(8), results=[Result("R1-1", 3)])


def test_a_result_for_a_bye_is_refused():
    with pytest.raises(BracketUserError, match="is a bye"):
        SingleElimination(field(3), results=[Result("R1-1", 1)])


def test_a_flight_fed_by_an_unknown_flight_is_refused():
    specs = (FlightSpec("Main"), FlightSpec("Consolation", FlightKind.CONSOLATION,
                                            feeders=(Feeder("Mian", 1, 1),)))
    with pytest.raises(BracketUserError, match="fed by Mian"):
        KnockoutEvent(field(8), specs)


def test_placings_are_refused_before_the_end():
    with pytest.raises(BracketUserError, match="not finished"):
        SingleElimination(field(4)).placings()
