"""A player's record as his page sums it up, read in the database."""

from datetime import datetime, UTC

import pytest

from games import selectors, services

pytestmark = pytest.mark.django_db


def finished(a, b, *, length, a_wins=True, day=1):
    match = services.match_create(player_a=a, player_b=b, length=length, played_on=datetime(2026, 10, day, tzinfo=UTC))
    return services.match_final_score_record(match=match, score_a=length if a_wins else 0,
                                             score_b=0 if a_wins else length)


def test_a_record_counts_the_matches_played_on_either_side_by_opponent_and_by_length(make_player):
    ann, bo, cy = make_player(name="Ann Record"), make_player(name="Bo Record"), make_player(name="Cy Record")
    finished(ann, bo, length=5)
    finished(bo, ann, length=5)  # Bo wins, Ann on the other side
    finished(cy, ann, length=7, a_wins=False)  # Ann wins as player b
    finished(bo, cy, length=3)  # not Ann's
    record = selectors.player_record(ann.pk)
    assert record.head_to_head == [
        {"id": bo.pk, "name": "Bo Record", "won": 1, "lost": 1, "points": 10},
        {"id": cy.pk, "name": "Cy Record", "won": 1, "lost": 0, "points": 7},
    ]
    assert record.opponents == 2
    assert record.by_length == [{"length": 5, "won": 1, "lost": 1}, {"length": 7, "won": 1, "lost": 0}]


def test_a_record_leaves_out_forfeits_and_unfinished_matches(make_player):
    ann, bo = make_player(name="Ann Left"), make_player(name="Bo Left")
    finished(ann, bo, length=3)
    services.match_forfeit(match=services.match_create(player_a=ann, player_b=bo, length=5), forfeited_by=bo,
                           reason="did not show up")
    services.match_create(player_a=ann, player_b=bo, length=7)  # still being played
    record = selectors.player_record(ann.pk)
    assert record.head_to_head == [{"id": bo.pk, "name": "Bo Left", "won": 1, "lost": 0, "points": 3}]
    assert record.by_length == [{"length": 3, "won": 1, "lost": 0}]


def test_a_record_lists_the_opponents_met_most_often_then_the_latest_met_and_counts_them_all(make_player):
    star = make_player(name="Star")
    zed, amy, max_ = make_player(name="Zed"), make_player(name="Amy"), make_player(name="Max")
    for day in (1, 2, 3):
        finished(star, zed, length=1, day=day)
    finished(amy, star, length=1, day=4)
    finished(star, max_, length=1, day=5)  # met once, as Amy, but since
    record = selectors.player_record(star.pk, opponents=2)
    assert [row["name"] for row in record.head_to_head] == ["Zed", "Max"]
    assert record.opponents == 3


def test_a_record_follows_a_result_taken_back_at_once(make_player):
    ann, bo = make_player(name="Ann Undo"), make_player(name="Bo Undo")
    match = finished(ann, bo, length=5)
    assert selectors.player_record(ann.pk).by_length == [{"length": 5, "won": 1, "lost": 0}]
    undone = services.match_final_score_undo(match=match, reason="wrong match")
    assert selectors.player_record(ann.pk).head_to_head == []
    services.match_final_score_record(match=undone, score_a=2, score_b=5)
    assert selectors.player_record(ann.pk).by_length == [{"length": 5, "won": 0, "lost": 1}]
    assert selectors.player_record(bo.pk).head_to_head == [
        {"id": ann.pk, "name": "Ann Undo", "won": 1, "lost": 0, "points": 5}]


def test_a_record_of_a_player_without_matches_is_empty(make_player):
    record = selectors.player_record(make_player().pk)
    assert (record.head_to_head, record.opponents, record.by_length) == ([], 0, [])
