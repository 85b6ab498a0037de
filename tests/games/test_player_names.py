"""The players meant, not new ones: the API and imports ask about names near players' names."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied
from django.core.management import CommandError, call_command

from games import services
from games.models import Player
from games.permissions import RATING_OFFICER, SITE_ADMIN, TOURNAMENT_DIRECTOR, may_create_players
from tournaments import services as events

pytestmark = pytest.mark.django_db


@pytest.fixture
def soren(make_player):
    return make_player("Søren Thygesen", club="Copenhagen BG")


def test_the_api_answers_a_near_name_with_its_candidates_and_creates_it_only_when_told(staff_api, soren):
    response = staff_api.post("/api/v1/players/", {"name": "Soren Thygesen"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "name": [f"Soren Thygesen is no player here. Did you mean Søren Thygesen (Copenhagen BG, player {soren.pk})?"
                 " Use that player, or send create to add a new one."],
        "candidates": {"Soren Thygesen": [{"id": soren.pk, "name": "Søren Thygesen", "club": "Copenhagen BG",
                                           "why": "the same name without accents"}]},
    }
    assert Player.objects.count() == 1
    made = staff_api.post("/api/v1/players/", {"name": "Soren Thygesen", "create": True}, format="json")
    assert made.status_code == 201 and made.json()["name"] == "Soren Thygesen"
    assert staff_api.post("/api/v1/players/", {"name": "Jan Novak"}, format="json").status_code == 201


def test_a_results_import_refuses_a_near_name_by_line_and_stores_nothing(tmp_path, soren):
    path = tmp_path / "results.csv"
    path.write_text("played_on,player_a,player_b,length,score_a,score_b\n"
                    "2025-02-01,Jan Novak,Anna Berg,5,5,3\n"
                    "2025-02-02,Soren Thygesen,Anna Berg,5,5,3\n", encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        call_command("import_results", str(path))
    assert (f"line 3: Soren Thygesen is no player here. Did you mean Søren Thygesen (Copenhagen BG, player"
            f" {soren.pk})? Write the name as the record has it, or add the new player first.") in str(refused.value)
    assert "line 2" not in str(refused.value)
    assert list(Player.objects.values_list("name", flat=True)) == ["Søren Thygesen"]
    path.write_text("played_on,player_a,player_b,length,score_a,score_b\n"
                    "2025-02-02,Søren Thygesen,Anna Berg,5,5,3\n", encoding="utf-8")
    call_command("import_results", str(path))
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Anna Berg", "Søren Thygesen"]


@pytest.mark.parametrize("role, may", [
    ("nobody in particular", False), ("TD of an event", True), ("rating officer", True), ("site admin", True)])
def test_one_rule_says_who_adds_a_player_record_at_the_desk_and_through_the_api(role, may, make_user, client_for):
    user = make_user(f"{role.replace(' ', '-')}-login")
    if role == "TD of an event":
        user.groups.add(Group.objects.get(name=TOURNAMENT_DIRECTOR))
        events.tournament_create(name="Newcomers Cup", start_date=datetime.date(2026, 8, 1), by=user)
    elif role in ("rating officer", "site admin"):
        user.is_staff = True
        user.save()
        user.groups.add(Group.objects.get(name=RATING_OFFICER if role == "rating officer" else SITE_ADMIN))
    assert may_create_players(user) is may
    answer = client_for(user).post("/api/v1/players/", {"name": f"New by {role}", "create": True}, format="json")
    assert answer.status_code == (201 if may else 403)
    if may:
        assert services.player_create(name=f"Also by {role}", by=user).name == f"Also by {role}"
    else:
        with pytest.raises(PermissionDenied):
            services.player_create(name=f"Also by {role}", by=user)
    assert sorted(Player.objects.filter(name__endswith=f"by {role}").values_list("name", flat=True)) == (
        [f"Also by {role}", f"New by {role}"] if may else [])
