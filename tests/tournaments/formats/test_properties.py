"""Invariants of the formats, checked on many generated events."""

import random
from collections import Counter
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.formats import (
    Competitor,
    Feeder,
    FlightKind,
    FlightSpec,
    KnockoutEvent,
    Result,
    SingleElimination,
)
from tournaments.formats.double_elimination import DoubleElimination
from tournaments.formats.swiss import Swiss, SwissSettings

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def no_player_in_two_pending_matches(pairings):
    players = [player for p in pairings for player in p.players]
    return len(players) == len(set(players))


@SLOW
@given(n=st.integers(2, 512), draw=st.integers(0, 2**32))
def test_a_knockout_of_any_size_has_one_champion_and_byes_for_the_top_seeds(n, draw):
    rng = random.Random(draw)
    bracket = SingleElimination(field(n))
    size = 1 << (n - 1).bit_length()
    assert sorted(p.a for p in bracket.byes()) == list(range(1, size - n + 1))
    results = []
    while True:
        ready = bracket.ready()
        assert no_player_in_two_pending_matches(ready)
        if not ready:
            break
        results += [Result(p.slot, rng.choice(p.players)) for p in ready]
        bracket = bracket.with_results(results)
    assert len(bracket.played()) == n - 1
    assert bracket.champion is not None
    firsts = [p for p in bracket.placings() if p.first == 1]
    assert [p.competitor for p in firsts] == [bracket.champion]
    assert len(bracket.placings()) == n


@SLOW
@given(n=st.integers(3, 100), draw=st.integers(0, 2**32))
def test_a_main_consolation_and_last_chance_event_always_finishes_with_champions(n, draw):
    rng = random.Random(draw)
    specs = (
        FlightSpec("Main"),
        FlightSpec("Consolation", FlightKind.CONSOLATION,
                   feeders=(Feeder("Main", 1, 1), Feeder("Main", 2, 2))),
        FlightSpec("Last Chance", FlightKind.LAST_CHANCE, feeders=(Feeder("Consolation", 1, 1),)),
    )
    results = {spec.name: [] for spec in specs}
    while True:
        event = KnockoutEvent(field(n), specs, results=results)
        ready = event.ready()
        assert no_player_in_two_pending_matches([p for ps in ready.values() for p in ps])
        if not any(ready.values()):
            break
        for name, pairings in ready.items():
            results[name] += [Result(p.slot, rng.choice(p.players)) for p in pairings]
    assert event.is_finished
    consolation = event["Consolation"]
    entrants = len(consolation.entrants(1)) + len(consolation.entrants(2))
    assert len(consolation.played()) == max(entrants - 1, 0)
    assert len(event["Main"].played()) == n - 1


@SLOW
@given(n=st.integers(2, 64), draw=st.integers(0, 2**32), reset=st.booleans())
def test_double_elimination_ends_with_one_champion_and_nobody_out_before_two_losses(n, draw, reset):
    rng = random.Random(draw)
    bracket = DoubleElimination(field(n), bracket_reset=reset)
    results = []
    while True:
        ready = bracket.ready()
        assert no_player_in_two_pending_matches(ready)
        if not ready:
            break
        results += [Result(p.slot, rng.choice(p.players)) for p in ready]
        bracket = bracket.with_results(results)
    losses = Counter(bracket.loser(p.slot) for p in bracket.played())
    champion = bracket.champion
    assert champion is not None
    assert losses[champion] <= 1
    out = [player for player in range(1, n + 1) if player != champion]
    if reset:
        assert all(losses[player] == 2 for player in out)
    else:
        # Without a reset, only the winners' bracket finalist can go out on one loss.
        assert sum(1 for player in out if losses[player] < 2) <= 1
    assert len(bracket.placings()) == n


def rematch_free_round_exists(players, played, byes):
    """Brute force: can ``players`` be paired with no rematch, the bye (if any) going to one of
    the players with the fewest byes?"""

    def perfect(rest):
        if not rest:
            return True
        first = rest[0]
        return any(
            frozenset((first, other)) not in played and perfect([p for p in rest[1:] if p != other])
            for other in rest[1:]
        )

    if len(players) % 2 == 0:
        return perfect(players)
    fewest = min(byes[p] for p in players)
    return any(perfect([q for q in players if q != p]) for p in players if byes[p] == fewest)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 11),
    rounds=st.integers(1, 7),
    out_after=st.sampled_from([None, 2, 3]),
    draw=st.integers(0, 2**32),
)
def test_swiss_never_pairs_a_rematch_that_could_be_avoided(n, rounds, out_after, draw):
    rng = random.Random(draw)
    settings_ = SwissSettings(rounds=rounds, out_after_losses=out_after)
    pairings, results = [], []
    swiss = Swiss(field(n), settings_)
    while not swiss.is_finished:
        players = list(swiss.active())
        played = {frozenset(p.players) for p in pairings if not p.is_bye}
        byes = Counter(p.a for p in pairings if p.is_bye)
        new = swiss.pair_next_round()
        assert sorted(x for p in new for x in p.players) == sorted(players)
        assert sum(p.is_bye for p in new) == len(players) % 2
        rematch = any(frozenset(p.players) in played for p in new if not p.is_bye)
        if rematch:
            assert not rematch_free_round_exists(players, played, {p: byes[p] for p in players})
        for p in new:
            if p.is_bye:
                assert byes[p.a] == min(byes[q] for q in players)
        pairings += new
        results += [Result(p.slot, rng.choice(p.players)) for p in new if not p.is_bye]
        swiss = Swiss(field(n), settings_, pairings=pairings, results=results)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(4, 40), draw=st.integers(0, 2**32))
def test_swiss_pairs_within_score_groups_in_the_first_rounds(n, draw):
    # After one round nobody has met anyone twice, so a score group of even size pairs inside
    # itself; at most one player per group floats down.
    rng = random.Random(draw)
    settings_ = SwissSettings(rounds=2)
    first = Swiss(field(n), settings_).pair_next_round()
    results = [Result(p.slot, rng.choice(p.players)) for p in first if not p.is_bye]
    swiss = Swiss(field(n), settings_, pairings=first, results=results)
    second = swiss.pair_next_round()
    mixed = Counter(
        max(swiss.points(p.a), swiss.points(p.b))
        for p in second
        if not p.is_bye and swiss.points(p.a) != swiss.points(p.b)
    )
    assert all(count == 1 for count in mixed.values())
    assert all(a != b for a, b in combinations([x for p in second for x in p.players], 2))
