"""A format's refusal keeps its English words and values, and reads in the language of whoever
reads it (the site installs its translator at start)."""

import pytest
from django.utils import translation

from tournaments.formats import BracketUserError, Competitor, Result, SeedingMethod, seed_competitors
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
