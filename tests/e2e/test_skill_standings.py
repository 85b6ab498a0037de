"""A phone reads a Swiss scored by win and skill: half points, the PR column, no sideways scroll."""

import pytest

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_phone_reads_skill_points_and_the_pr_tie_break_as_cards(phone, live_server, django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    tournament = cast.build_swiss(td, cast.make_players(6), name="Skill Swiss", scoring="win_and_skill",
                                  tie_breaks=["pr", "buchholz"])
    phone.goto(f"{live_server.url}/events/{tournament.slug}/")
    standings = phone.locator("table.standings")
    standings.scroll_into_view_if_needed()
    # No match file was analysed: every winner has 1.5 (the win and half the skill point), every
    # loser 0.5, and the PR column shows a dash.
    points = standings.locator('td[data-label="Points"]').all_inner_texts()
    assert sorted(points) == ["0.5", "0.5", "0.5", "1.5", "1.5", "1.5"]
    assert standings.locator('td[data-label="PR"]').all_inner_texts() == ["–"] * 6
    assert "1 for skill" in phone.locator(".help", has_text="1 for skill").first.inner_text()
    widths = phone.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert widths[0] <= widths[1]
