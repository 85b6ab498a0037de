"""Swiss rounds, then the top of the standings in a seeded knockout."""

import pytest

from tournaments.formats import BracketUserError, Competitor, Result
from tournaments.formats.swiss_knockout import SwissKnockout


def field(n):
    return [Competitor(seed, seed) for seed in range(1, n + 1)]


def test_sixteen_players_three_swiss_rounds_then_the_top_eight_in_a_knockout():
    pairings, results = [], []
    event = SwissKnockout(field(16), swiss_rounds=3, qualifiers=8)
    while not event.swiss.is_finished:
        new = event.swiss.pair_next_round()
        pairings += new
        results += [Result(p.slot, min(p.a, p.b)) for p in new]
        event = SwissKnockout(field(16), swiss_rounds=3, qualifiers=8,
                              swiss_pairings=pairings, swiss_results=results)
    # With the better seed always winning: 1 and 2 finish 3-0, 3 to 8 on 2 points, each pair
    # (3, 4), (5, 6), (7, 8) level on every tie-break and listed by seed.
    ranked = [s.competitor for s in event.swiss.standings()[:8]]
    assert ranked == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [c.seed for c in event.knockout.competitors] == list(range(1, 9))
    assert [(p.a, p.b) for p in event.knockout.ready()] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    ko_results = []
    while not event.is_finished:
        ko_results += [Result(p.slot, min(p.a, p.b)) for p in event.knockout.ready()]
        event = SwissKnockout(field(16), swiss_rounds=3, qualifiers=8, swiss_pairings=pairings,
                              swiss_results=results, knockout_results=ko_results)
    assert event.champion == 1


def test_the_knockout_takes_no_results_before_the_swiss_is_over():
    with pytest.raises(BracketUserError, match="before the Swiss is over"):
        SwissKnockout(field(8), swiss_rounds=2, qualifiers=4, knockout_results=[Result("R1-1", 1)])


def test_players_who_do_not_qualify_are_placed_after_the_knockout_by_their_swiss_rank():
    # One round: 1 v 3 and 2 v 4, the better seed winning. 1 and 2 are level on everything, and
    # so are 3 and 4 (Buchholz 1 each): both pairs share a rank.
    event = SwissKnockout(field(4), swiss_rounds=1, qualifiers=2)
    pairings = event.swiss.pair_next_round()
    assert [(p.a, p.b) for p in pairings] == [(1, 3), (2, 4)]
    results = [Result(p.slot, min(p.a, p.b)) for p in pairings]
    event = SwissKnockout(field(4), swiss_rounds=1, qualifiers=2, swiss_pairings=pairings, swiss_results=results)
    assert [(s.rank, s.competitor) for s in event.swiss.standings()] == [(1, 1), (1, 2), (3, 3), (3, 4)]
    with pytest.raises(BracketUserError, match="not finished"):
        event.placings()
    event = SwissKnockout(field(4), swiss_rounds=1, qualifiers=2, swiss_pairings=pairings, swiss_results=results,
                          knockout_results=[Result("R1-1", 2)])
    assert [(p.competitor, p.label) for p in event.placings()] == [(2, "1"), (1, "2"), (3, "3-4"), (4, "3-4")]


def test_a_qualifier_who_withdraws_after_the_knockout_is_drawn_stays_in_it():
    event = SwissKnockout(field(4), swiss_rounds=1, qualifiers=2)
    pairings = event.swiss.pair_next_round()
    results = [Result(p.slot, min(p.a, p.b)) for p in pairings]

    def after(**state):
        return SwissKnockout(field(4), swiss_rounds=1, qualifiers=2, swiss_pairings=pairings,
                             swiss_results=results, **state)

    # Withdrawn before the draw: 2 does not qualify, 3 takes his place.
    assert [(p.a, p.b) for p in after(withdrawn={2}).knockout.ready()] == [(1, 3)]
    # Withdrawn once drawn against 1: he stays, and loses by walkover.
    drawn = after(withdrawn={2}, knockout_players={1, 2},
                  knockout_results=[Result("R1-1", 1, walkover=True)])
    assert [(p.a, p.b) for p in drawn.knockout.played()] == [(1, 2)]
    assert drawn.champion == 1


def test_when_withdrawals_leave_fewer_players_than_qualifiers_everyone_left_plays_the_knockout():
    event = SwissKnockout(field(6), swiss_rounds=1, qualifiers=5)
    pairings = event.swiss.pair_next_round()
    results = [Result(p.slot, min(p.a, p.b)) for p in pairings]
    event = SwissKnockout(field(6), swiss_rounds=1, qualifiers=5, swiss_pairings=pairings, swiss_results=results,
                          withdrawn={5, 6})
    assert [c.id for c in event.knockout.competitors] == [1, 2, 3, 4]
    with pytest.raises(BracketUserError, match="Only 1 player is left"):
        SwissKnockout(field(6), swiss_rounds=1, qualifiers=5, swiss_pairings=pairings, swiss_results=results,
                      withdrawn={2, 3, 4, 5, 6})
