from datetime import date

import pytest

from bench.ratings_accuracy import results_csv


def test_the_bench_reads_a_list_of_winners_with_blank_scores_as_player_a_winning(tmp_path):
    path = tmp_path / "club.csv"
    path.write_text("played_on,player_a,player_b,length,score_a,score_b\n"
                    "2025-01-04,Anna,Bo,5,,\n2025-01-04,Bo,Anna,5,2,5\n2025-01-11,Bo,Carl,7,,\n")
    data = results_csv(path)
    assert [(r.played_on, r.player_a, r.player_b, r.winner) for r in data.history] == [
        (date(2025, 1, 4), "Anna", "Bo", "a"), (date(2025, 1, 4), "Bo", "Anna", "b"), (date(2025, 1, 11), "Bo", "Carl", "a"),
    ]


def test_the_bench_refuses_one_blank_score_rather_than_reading_it_as_zero(tmp_path):
    path = tmp_path / "club.csv"
    path.write_text("played_on,player_a,player_b,length,score_a,score_b\n2025-01-04,Anna,Bo,5,5,\n")
    with pytest.raises(ValueError, match="one score given and the other blank"):
        results_csv(path)
