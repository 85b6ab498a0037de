"""A format's refusal keeps its English words and values, and reads in the language of whoever
reads it (the site installs its translator at start)."""

import pytest
from django.utils import translation

from tournaments.formats import BracketUserError, Competitor, Pairing, Result, SeedingMethod, seed_competitors
from tournaments.formats.swiss import Swiss, SwissSettings


def refusal(call) -> BracketUserError:
    with pytest.raises(BracketUserError) as refused:
        call()
    return refused.value


def test_a_seeding_refusal_reads_in_english_and_in_danish():
    unrated = refusal(lambda: seed_competitors([Competitor(7, 1), Competitor(8, 2, 1650.0)], SeedingMethod.RATING))
    with translation.override("en"):
        assert str(unrated) == "Seeding by rating needs a rating for every player; no rating for 7."
    with translation.override("da"):
        assert str(unrated) == "Seedning efter rating kræver en rating for hver spiller; ingen rating for 7."
    assert unrated.args == ("Seeding by rating needs a rating for every player; no rating for 7.",)


def test_a_count_in_a_refusal_takes_each_language_s_form():
    players = [Competitor(seed, seed) for seed in range(1, 7)]
    first = Swiss(players, SwissSettings(rounds=3)).pair_next_round()
    waiting = refusal(lambda: Swiss(players, SwissSettings(rounds=3), pairings=first,
                                    results=[Result(first[0].slot, first[0].a)]).pair_next_round())
    with translation.override("en"):
        assert str(waiting) == "Swiss: round 1 is not finished (2 results missing)."
    with translation.override("da"):
        assert str(waiting) == "Swiss: runde 1 er ikke færdig (2 resultater mangler)."
    with translation.override("ar"):
        assert str(waiting) == "Swiss: الجولة 1 لم تنتهِ (تنقصها نتيجتان: 2)."


def test_one_result_missing_is_said_in_the_singular_and_in_each_language_s_form():
    players = [Competitor(seed, seed) for seed in range(1, 5)]
    first = Swiss(players, SwissSettings(rounds=3)).pair_next_round()
    waiting = refusal(lambda: Swiss(players, SwissSettings(rounds=3), pairings=first,
                                    results=[Result(first[0].slot, first[0].a)]).pair_next_round())
    with translation.override("en"):
        assert str(waiting) == "Swiss: round 1 is not finished (1 result missing)."
    with translation.override("ar"):
        assert str(waiting) == "Swiss: الجولة 1 لم تنتهِ (تنقصها نتيجة واحدة: 1)."
    with translation.override("ja"):
        assert str(waiting) == "Swiss: 第1ラウンドは終わっていません（結果が 1 件未報告です）。"


def test_a_swiss_refusal_names_the_players_by_their_names_in_a_list_of_the_reader_s_language():
    names = {1: "Anne Holm", 2: "Bo Lund", 3: "Kenji Sato", 4: "Layla Haddad"}
    players = [Competitor(seed, seed) for seed in names]
    swiss = Swiss(players, SwissSettings(rounds=3), label=names.__getitem__)
    left_out = refusal(lambda: swiss.check_round([Pairing("R1-1", 1, 1, 2)]))
    assert left_out.args == ("Swiss: Kenji Sato, Layla Haddad not paired.",)
    with translation.override("ja"):
        assert str(left_out) == "Swiss: Kenji Sato、Layla Haddad が組み合わされていません。"
    with translation.override("ar"):
        assert str(left_out) == "Swiss: Kenji Sato، Layla Haddad بلا إقران."
    twice = refusal(lambda: swiss.check_round([Pairing("R1-1", 1, 1, 2), Pairing("R1-2", 1, 3, 1)]))
    with translation.override("da"):
        assert str(twice) == "Swiss: Anne Holm er parret to gange."


def test_a_standings_refusal_names_the_winner_who_did_not_play_by_name():
    names = {1: "Anne Holm", 2: "Bo Lund", 3: "Kenji Sato", 4: "Layla Haddad"}
    players = [Competitor(seed, seed) for seed in names]
    first = Swiss(players, SwissSettings(rounds=3)).pair_next_round()
    stranger = next(p for p in names if p not in first[0].players)
    wrong = refusal(lambda: Swiss(players, SwissSettings(rounds=3), pairings=first, label=names.__getitem__,
                                  results=[Result(first[0].slot, stranger)]))
    assert wrong.args == (f"Swiss {first[0].slot} is {names[first[0].a]} against {names[first[0].b]}; "
                          f"{names[stranger]} did not play it.",)
