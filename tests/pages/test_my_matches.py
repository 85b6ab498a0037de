"""A player's own page: the match to play, reporting its result, confirming or disputing the
opponent's report; and the public player page's "to play now"."""

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Pairing, ResultReport

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast(td):
    """A four-player knockout, round 1 drawn and unplayed; every player has a login."""
    players = make_players(4)
    tournament = build_knockout(td, players, name="Players Open", results_rounds=0)
    staff = get_user_model().objects.create_user("linker", is_staff=True, is_superuser=True)
    logins = {}
    for player in players:
        user = get_user_model().objects.create_user(f"login-{player.pk}")
        events.player_account_link(player=player, user=user, by=staff)
        logins[player.pk] = user
    first, second = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main",
                                           round__number=1).select_related("player_a", "player_b").order_by("slot")
    return {"tournament": tournament, "first": first, "second": second, "logins": logins}


def as_player(client, cast, player_id):
    client.force_login(cast["logins"][player_id])
    return client


def report(client, pairing, a, b, *, version=None):
    return client.post("/me/", {
        "action": "report", "pairing": pairing.pk, f"p{pairing.pk}-version": pairing.version if version is None
        else version, f"p{pairing.pk}-score_a": a, f"p{pairing.pk}-score_b": b,
    }, follow=True)


def test_the_page_needs_a_login_and_a_linked_player(client):
    assert client.get("/me/")["Location"] == "/login/?next=/me/"
    client.force_login(get_user_model().objects.create_user("nobody"))
    assert "not linked to a player" in client.get("/me/").content.decode()


def test_a_player_sees_his_match_and_reports_it_then_the_opponent_confirms(client, cast):
    first = cast["first"]
    page = as_player(client, cast, first.player_a_id).get("/me/").content.decode()
    assert f"v <a href=\"/players/{first.player_b_id}/\">{first.player_b.name}</a> · 5 points" in page
    assert 'aria-label="Report the result of ' in page

    done = report(client, first, 5, 2).content.decode()
    assert "reported. It counts when your opponent confirms it." in done
    assert f"You reported {first.player_a.name} 5–2 {first.player_b.name}" in done
    first.refresh_from_db()
    assert (first.status, first.winner_id) == ("pending", None)

    page = as_player(client, cast, first.player_b_id).get("/me/").content.decode()
    assert f"reported <strong>{first.player_a.name} 5–2 {first.player_b.name}</strong>" in page
    pending = ResultReport.objects.get(pairing=first)
    done = client.post("/me/", {"action": "confirm", "report": pending.pk}, follow=True).content.decode()
    assert "result confirmed" in done
    first.refresh_from_db()
    assert (first.status, first.winner_id, first.score_a, first.score_b) == ("finished", first.player_a_id, 5, 2)


def test_the_opponent_disputes_with_a_reason_and_the_desk_queues_it(client, cast, td):
    first = cast["first"]
    report(as_player(client, cast, first.player_b_id), first, 2, 5)
    pending = ResultReport.objects.get(pairing=first)

    client.force_login(cast["logins"][first.player_a_id])
    empty = client.post("/me/", {"action": "dispute", "report": pending.pk, f"r{pending.pk}-reason": "  "},
                        follow=True).content.decode()
    assert "Say what is wrong with the result, for the TD." in empty
    assert ResultReport.objects.get(pk=pending.pk).status == "pending"

    done = client.post("/me/", {"action": "dispute", "report": pending.pk,
                                f"r{pending.pk}-reason": "I won 5-2, not lost"}, follow=True).content.decode()
    assert "disputed. The TD will rule on it." in done
    assert "is disputed (“I won 5-2, not lost”): the TD will rule on it." in done
    assert ResultReport.objects.get(pk=pending.pk).status == "disputed"

    client.force_login(td)
    desk = client.get(f"/desk/{cast['tournament'].slug}/").content.decode()
    assert "disputed: “I won 5-2, not lost”" in desk


def test_refusals_change_nothing(client, cast):
    first, second = cast["first"], cast["second"]
    as_player(client, cast, first.player_a_id)
    # Nobody reaches another pair's match.
    assert report(client, second, 5, 0).status_code == 404
    # A score that does not finish the match is refused with the rule's words.
    refused = report(client, first, 4, 2).content.decode()
    assert "Nobody reached 5 points: a 5-point match is not over at 4–2." in refused
    # A stale form (the match changed since the page was drawn) is a conflict.
    stale = report(client, first, 5, 2, version=first.version + 7).content.decode()
    assert f"Main {first.slot} was changed by someone else (version 0, you had 7): reload it." in stale
    assert not ResultReport.objects.filter(pairing__in=[first, second]).exists()

    report(client, first, 5, 2)
    mine = ResultReport.objects.get(pairing=first)
    own = client.post("/me/", {"action": "confirm", "report": mine.pk}, follow=True).content.decode()
    assert "The opponent of the player who reported it (or a TD) confirms a result." in own
    assert ResultReport.objects.get(pk=mine.pk).status == "pending"
    other_pair = client.post("/me/", {"action": "dispute", "report": mine.pk, f"r{mine.pk}-reason": "x"},
                             follow=True).content.decode()
    assert "Only the opponent of the player who reported it can dispute a result." in other_pair
    assert ResultReport.objects.get(pk=mine.pk).status == "pending"


def test_the_public_player_page_shows_the_match_to_play_now(client, cast):
    first = cast["first"]
    page = client.get(f"/players/{first.player_a_id}/").content.decode()
    assert "To play now" in page
    assert (f"Players Open</a>, Main {first.slot}: v <a href=\"/players/{first.player_b_id}/\">"
            f"{first.player_b.name}</a> · 5 points") in page


def test_the_page_is_valid_html_in_each_state(client, cast):
    from .test_html import check_page

    first = cast["first"]
    as_player(client, cast, first.player_a_id)
    check_page(client.get("/me/").content.decode(), "report form")
    report(client, first, 5, 2)
    check_page(client.get("/me/").content.decode(), "reported, waiting")
    as_player(client, cast, first.player_b_id)
    check_page(client.get("/me/").content.decode(), "confirm or dispute")


def test_the_page_runs_the_same_queries_however_many_matches(client, td):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    players = make_players(12)
    staff = get_user_model().objects.create_user("linker", is_staff=True, is_superuser=True)
    user = get_user_model().objects.create_user("busy-player")
    events.player_account_link(player=players[0], user=user, by=staff)
    build_knockout(td, players[:4], name="One Open", results_rounds=0)
    client.force_login(user)
    client.get("/me/")
    with CaptureQueriesContext(connection) as one:
        client.get("/me/")
    for name in ("Two Open", "Three Open"):
        build_knockout(td, [players[0], *make_players(3)], name=name, results_rounds=0)
    with CaptureQueriesContext(connection) as three:
        page = client.get("/me/").content.decode()
    assert page.count('aria-label="Report the result of ') == 3
    # The session, the user, the player's login, the player, the pairings, their reports, the entries
    # still to check in; and whether the login organises an event (the menu's desk link).
    assert len(one) == len(three) == 8
