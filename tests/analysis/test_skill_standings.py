"""A Swiss scored by win and skill, ties broken by PR, from GNU Backgammon's analysis of its match files."""

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from analysis import gnubg
from games.matfiles import file_digest
from games.models import MatchFile
from tournaments import services as events
from tournaments.models import Pairing, Tournament
from config.shared_data import SHARED_DATA
from tests.support import GNUBG_PR_TOLERANCE, stored_prs

MATFILES = SHARED_DATA / "matfiles"
# GNU Backgammon at 0 plies: each file's PR for its left and its right player (`show statistics match`).
LOOKUP_BGNORI = MATFILES / "bglib__1896804.txt"  # 14.98 and 4.26
BLUENOTE_APR = MATFILES / "bglib__BlueNote-nori-2009Apr152320.txt"  # 8.68 and 7.29
BLUENOTE_FEB = MATFILES / "bglib__BlueNote-nori-2009Feb141208.txt"  # 7.68 and 9.54
DA_NORI = MATFILES / "bglib__DA-nori-2009Apr152248.txt"  # 8.25 and 8.72
pytestmark = [
    pytest.mark.analysis,
    pytest.mark.gnubg,
    pytest.mark.skipif(gnubg.find_program() is None, reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.skipif(not LOOKUP_BGNORI.exists(), reason="the shared match files are not beside the repository"),
]


@pytest.fixture
def td(db):
    return get_user_model().objects.create_user("director", is_staff=True, is_superuser=True)


@pytest.fixture
def attach(django_capture_on_commit_callbacks):
    """Store a match file for a played pairing's match; its analysis runs when the file commits.
    The players' names are not the file's, so its left player is the pairing's first player."""

    def send(pairing: Pairing, path: Path) -> None:
        pairing.refresh_from_db()
        text = path.read_text()
        with django_capture_on_commit_callbacks(execute=True):
            MatchFile.objects.create(match=pairing.match, name=path.name, text=text, sha256=file_digest(text),
                                     games_revision=pairing.match.games_revision)

    return send


def pairing(flight, slot) -> Pairing:
    return Pairing.objects.select_related("round", "player_a", "player_b").get(flight=flight, slot=slot)


def names(p: Pairing) -> tuple[str, str]:
    return p.player_a.name, p.player_b.name


@pytest.fixture
def swiss(td, make_player):
    tournament = events.tournament_create(name="Skill Open", start_date=date(2026, 11, 22), organisers=[td], by=td)
    flight = events.flight_create(tournament=tournament, name="Swiss", format="swiss", lengths=[5], swiss_rounds=2,
                                  seeding="manual", scoring="win_and_skill", tie_breaks=["pr", "buchholz"], by=td)
    for seed, name in enumerate(("Anna", "Bo", "Cleo", "Dan"), start=1):
        events.entry_check_in(entry=events.entry_add(flight=flight, player=make_player(name=name), seed=seed, by=td),
                              by=td)
    events.flight_start(flight=flight, by=td)
    return tournament, flight


def play_two_rounds(flight, td, attach):
    """Round 1: Anna v Cleo, Bo v Dan. Anna (PR 14.98) beats Cleo (4.26): Cleo takes the skill point.
    Bo (8.25) beats Dan (8.72): less than 1.0 apart, half a skill point each.
    After round 1: Bo 1.5, Anna 1, Cleo 1, Dan 0.5. Round 2 pairs Bo v Anna and Cleo v Dan.
    Bo (8.68) beats Anna (7.29): 1.39 better, Anna takes the skill point. Dan beats Cleo, but
    Cleo (7.68) played 1.86 better than Dan (9.54): she takes the skill point.
    Final: Bo 2.5, Anna 2, Cleo 2, Dan 1.5. Anna and Cleo are level: PR over two matches,
    Cleo (4.26 + 7.68) / 2 = 5.97 ahead of Anna (14.98 + 7.29) / 2 = 11.14. Bo's PR is
    (8.25 + 8.68) / 2 = 8.47, Dan's (8.72 + 9.54) / 2 = 9.13."""
    first = pairing(flight, "R1-1")
    assert names(first) == ("Anna", "Cleo") and names(pairing(flight, "R1-2")) == ("Bo", "Dan")
    events.result_report(pairing=first, by=td, score_a=5, score_b=3)
    attach(first, LOOKUP_BGNORI)
    second = pairing(flight, "R1-2")
    events.result_report(pairing=second, by=td, score_a=5, score_b=1)
    attach(second, DA_NORI)
    top, bottom = pairing(flight, "R2-1"), pairing(flight, "R2-2")
    assert (names(top), names(bottom)) == (("Bo", "Anna"), ("Cleo", "Dan"))
    events.result_report(pairing=top, by=td, score_a=5, score_b=4)
    attach(top, BLUENOTE_APR)
    events.result_report(pairing=bottom, by=td, score_a=2, score_b=5)
    attach(bottom, BLUENOTE_FEB)


def test_the_standings_score_win_and_skill_and_break_ties_by_pr(swiss, td, attach, api):
    tournament, flight = swiss
    play_two_rounds(flight, td, attach)
    lines = api.get(f"/api/v1/flights/{flight.pk}/standings/").json()
    assert [(s["rank"], s["player"]["name"], s["points"], s["wins"], s["losses"], s["tie_breaks"]["buchholz"])
            for s in lines] == [
        (1, "Bo", 2.5, 2, 0, 3.5),
        (2, "Cleo", 2.0, 0, 2, 3.5),
        (3, "Anna", 2.0, 1, 1, 4.5),
        (4, "Dan", 1.5, 1, 1, 4.5),
    ]
    prs = [s["tie_breaks"]["pr"] for s in lines]
    assert prs == pytest.approx([8.467, 5.9691, 11.1386, 9.1302], abs=GNUBG_PR_TOLERANCE)
    assert list(lines[0]["tie_breaks"]) == ["pr", "buchholz"]
    assert api.get(f"/api/v1/flights/{flight.pk}/").json()["scoring"] == "win_and_skill"
    page = api.get(f"/events/{tournament.slug}/").content.decode()
    assert '<td class="num" data-label="Points">2.5</td>' in page
    assert f'<td class="num" data-label="PR">{prs[1]:.2f}</td>' in page  # Cleo's 5.97
    assert f'<td class="num" data-label="PR">{prs[2]:.2f}</td>' in page  # Anna's 11.14
    assert "A point for the win and one for skill (PR)" in page
    assert "1. PR</dt><dd>The average PR" in page


def test_a_finished_analysis_changes_the_cached_event_page(swiss, td, attach, client):
    tournament, flight = swiss
    first = pairing(flight, "R1-1")
    events.result_report(pairing=first, by=td, score_a=5, score_b=3)
    before = Tournament.objects.get(pk=tournament.pk).version
    page = client.get(f"/events/{tournament.slug}/").content.decode()
    # Not analysed yet: half a skill point each, and no PR (a dash).
    assert '<td class="num" data-label="Points">1.5</td>' in page and '<td class="num" data-label="PR">–</td>' in page
    attach(first, LOOKUP_BGNORI)
    assert Tournament.objects.get(pk=tournament.pk).version == before + 1
    page = client.get(f"/events/{tournament.slug}/").content.decode()
    # Cleo (4.26) outplayed Anna (14.98): one point each.
    assert '<td class="num" data-label="Points">1.5</td>' not in page
    first.refresh_from_db()
    anna, cleo = stored_prs(first.match)
    assert [anna, cleo] == pytest.approx([14.98, 4.26], abs=GNUBG_PR_TOLERANCE)
    assert f'<td class="num" data-label="PR">{cleo:.2f}</td>' in page and f'<td class="num" data-label="PR">{anna:.2f}</td>' in page


def test_only_a_swiss_scores_skill_and_pr_is_a_tie_break(swiss, td, api):
    tournament, _ = swiss
    with pytest.raises(ValidationError) as refused:
        events.flight_create(tournament=tournament, name="Knockout", format="single_elimination", lengths=[5],
                             scoring="win_and_skill", by=td)
    assert refused.value.message_dict == {"scoring": [
        "Only a Swiss (or the Swiss of a Swiss then knockout) scores a point for skill; score this flight by wins."]}
    robin = events.flight_create(tournament=tournament, name="Robin", format="round_robin", lengths=[5],
                                 tie_breaks=["pr"], by=td)
    with pytest.raises(ValidationError) as refused:
        events.flight_update(flight=robin, scoring="win_and_skill", by=td)
    assert list(refused.value.message_dict) == ["scoring"]
    with pytest.raises(ValidationError) as refused:
        events.flight_create(tournament=tournament, name="Other", format="swiss", lengths=[5], swiss_rounds=3,
                             scoring="by_luck", by=td)
    assert refused.value.message_dict == {"scoring": ["Score 'wins' or 'win_and_skill'."]}
    later = events.flight_create(tournament=tournament, name="Late Swiss", format="swiss", lengths=[5],
                                 swiss_rounds=3, by=td)
    assert events.flight_update(flight=later, scoring="win_and_skill", by=td).scoring == "win_and_skill"
