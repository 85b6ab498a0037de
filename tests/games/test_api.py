import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Match

pytestmark = pytest.mark.django_db

RULEBOOK = [  # the 5-point match of the reference rules: (winner, kind, cube, owner)
    ("white", "gammon", 1, None),
    ("black", "single", 1, None),
    ("white", "single", 2, "white"),
    ("black", "single", 1, None),
    ("black", "single", 2, "white"),
    ("white", "gammon", 1, None),
]


@pytest.fixture
def rulebook(staff_api, make_player):
    white, black = make_player("White"), make_player("Black")
    response = staff_api.post("/api/v1/matches/", {"player_a": white.pk, "player_b": black.pk, "length": 5},
                              format="json")
    assert response.status_code == 201, response.data
    ids = {"white": white.pk, "black": black.pk, None: None}
    return response.data["id"], ids


def post_game(client, match_id, ids, number, winner, kind="single", cube=1, owner=None, **extra):
    body = {"number": number, "winner": ids[winner], "kind": kind, "cube": cube, "cube_owner": ids[owner], **extra}
    return client.post(f"/api/v1/matches/{match_id}/games/", body, format="json")


def test_the_rulebook_match_entered_through_the_api_ends_six_four_with_game_four_crawford(staff_api, rulebook):
    match_id, ids = rulebook
    for number, (winner, kind, cube, owner) in enumerate(RULEBOOK, start=1):
        response = post_game(staff_api, match_id, ids, number, winner, kind, cube, owner)
        assert response.status_code == 201, response.data
    state = response.data
    assert state["score"] == [6, 4]
    assert state["status"] == "finished"
    assert state["winner"] == ids["white"]
    assert state["crawford_game"] == 4
    assert [g["crawford"] for g in state["games"]] == [False, False, False, True, False, False]
    assert [g["points"] for g in state["games"]] == [2, 1, 2, 1, 2, 2]
    assert [g["score_after"] for g in state["games"]] == [[2, 0], [2, 1], [4, 1], [4, 2], [4, 4], [6, 4]]
    assert state["next_game"] is None


def test_a_cube_in_the_crawford_game_is_refused_and_nothing_is_stored(staff_api, rulebook):
    match_id, ids = rulebook
    for number, (winner, kind, cube, owner) in enumerate(RULEBOOK[:3], start=1):
        assert post_game(staff_api, match_id, ids, number, winner, kind, cube, owner).status_code == 201
    before = Match.objects.get(pk=match_id)
    response = post_game(staff_api, match_id, ids, 4, "black", "single", 2, "black")
    assert response.status_code == 400
    assert response.data == {"cube": ["Game 4 is the Crawford game: the cube cannot be turned."]}
    after = Match.objects.get(pk=match_id)
    assert Game.objects.filter(match_id=match_id).count() == 3
    assert (after.score_a, after.score_b, after.version) == (before.score_a, before.score_b, before.version)
    shown = staff_api.get(f"/api/v1/matches/{match_id}/").data
    assert shown["next_game"] == 4 and shown["next_game_is_crawford"] is True


def test_recording_a_game_number_already_recorded_is_a_conflict(staff_api, rulebook):
    match_id, ids = rulebook
    assert post_game(staff_api, match_id, ids, 1, "white").status_code == 201
    response = post_game(staff_api, match_id, ids, 1, "black")
    assert response.status_code == 409
    assert "Game 1 has already been recorded" in response.data["detail"]
    assert Match.objects.get(pk=match_id).score_a == 1


def test_a_stale_version_is_a_conflict(staff_api, rulebook):
    match_id, ids = rulebook
    assert post_game(staff_api, match_id, ids, 1, "white").status_code == 201
    response = post_game(staff_api, match_id, ids, 2, "white", version=0)
    assert response.status_code == 409


def test_a_skipped_game_number_is_refused(staff_api, rulebook):
    match_id, ids = rulebook
    response = post_game(staff_api, match_id, ids, 3, "white")
    assert response.status_code == 400
    assert response.data == {"number": ["The next game of this match is game 1, not game 3."]}


def test_bad_input_gets_a_message_per_field(staff_api, rulebook, make_player):
    match_id, ids = rulebook
    stranger = make_player("Stranger")
    response = staff_api.post(f"/api/v1/matches/{match_id}/games/",
                              {"number": 1, "winner": stranger.pk, "kind": "triple", "cube": 3}, format="json")
    assert response.status_code == 400
    assert set(response.data) == {"kind"}
    response = staff_api.post(f"/api/v1/matches/{match_id}/games/",
                              {"number": 1, "winner": stranger.pk, "cube": 3}, format="json")
    assert response.status_code == 400
    assert response.data["winner"][0].startswith("The winner must be one of the players of this match")
    response = post_game(staff_api, match_id, ids, 1, "white", cube=3, owner="black")
    assert response.data == {"cube": ["The cube holds powers of two (1, 2, 4, 8, …): 3 is not one."]}
    response = post_game(staff_api, match_id, ids, 1, "white", kind="gammon", cube=2, owner="black", points=2)
    assert response.data == {"points": ["A gammon with the cube on 2 is worth 4 points, not 2."]}
    assert Game.objects.count() == 0


def test_anonymous_users_read_but_cannot_write(api, rulebook):
    match_id, ids = rulebook
    assert api.get(f"/api/v1/matches/{match_id}/").status_code == 200
    assert post_game(api, match_id, ids, 1, "white").status_code in (401, 403)
    assert api.post("/api/v1/players/", {"name": "Eve"}, format="json").status_code in (401, 403)


def test_a_correction_keeps_the_earlier_version(staff_api, rulebook):
    match_id, ids = rulebook
    post_game(staff_api, match_id, ids, 1, "white")
    post_game(staff_api, match_id, ids, 2, "white")
    response = staff_api.put(f"/api/v1/matches/{match_id}/games/1/",
                             {"winner": ids["black"], "kind": "gammon", "reason": "wrong winner"}, format="json")
    assert response.status_code == 200, response.data
    assert response.data["score"] == [1, 2]
    history = staff_api.get(f"/api/v1/matches/{match_id}/history/").data
    game_one = [e for e in history if e["what"] == "game" and e["number"] == 1]
    assert [(e["action"], e["winner"], e["points"]) for e in game_one] == [("created", 0, 1), ("changed", 1, 2)]
    assert game_one[1]["by"] == "Tournament director" and game_one[1]["reason"] == "wrong winner"  # never "td"


def test_a_correction_that_breaks_a_later_game_is_refused(staff_api, rulebook):
    match_id, ids = rulebook
    for number, (winner, kind, cube, owner) in enumerate(RULEBOOK[:4], start=1):
        post_game(staff_api, match_id, ids, number, winner, kind, cube, owner)
    # Game 2 won by White with a gammon makes game 3 the Crawford game, where a cube was turned.
    response = staff_api.put(f"/api/v1/matches/{match_id}/games/2/",
                             {"winner": ids["white"], "kind": "gammon"}, format="json")
    assert response.status_code == 400
    assert response.data == {"non_field_errors": [
        "This change would make game 3 break the rules: Game 3 is the Crawford game: the cube cannot be turned."]}
    in_danish = staff_api.put(f"/api/v1/matches/{match_id}/games/2/", {"winner": ids["white"], "kind": "gammon"},
                              format="json", HTTP_ACCEPT_LANGUAGE="da")
    assert in_danish.json() == {"non_field_errors": [
        "Denne ændring ville få spil 3 til at bryde reglerne: Spil 3 er Crawford-spillet: doblingsterningen må ikke "
        "bruges."]}
    assert Match.objects.get(pk=match_id).score_a == 4


def test_deleting_the_last_game_reopens_the_match(staff_api, rulebook):
    match_id, ids = rulebook
    for number, (winner, kind, cube, owner) in enumerate(RULEBOOK, start=1):
        post_game(staff_api, match_id, ids, number, winner, kind, cube, owner)
    assert staff_api.delete(f"/api/v1/matches/{match_id}/games/5/").status_code == 400
    response = staff_api.delete(f"/api/v1/matches/{match_id}/games/6/")
    assert response.status_code == 200
    assert response.data["score"] == [4, 4] and response.data["status"] == "in_progress"
    assert response.data["next_game"] == 6


def test_a_forfeit_gives_the_match_to_the_opponent(staff_api, rulebook):
    match_id, ids = rulebook
    response = staff_api.post(f"/api/v1/matches/{match_id}/forfeit/", {"forfeited_by": ids["black"]}, format="json")
    assert response.status_code == 200
    assert response.data["status"] == "forfeited" and response.data["winner"] == ids["white"]
    assert post_game(staff_api, match_id, ids, 1, "white").status_code == 400


def test_a_match_needs_two_different_players(staff_api, make_player):
    anna = make_player("Anna")
    response = staff_api.post("/api/v1/matches/", {"player_a": anna.pk, "player_b": anna.pk, "length": 5},
                              format="json")
    assert response.status_code == 400
    assert response.data == {"player_b": ["A match needs two different players."]}


def test_money_options_are_refused_for_a_match(staff_api, make_player):
    a, b = make_player(), make_player()
    response = staff_api.post("/api/v1/matches/", {"player_a": a.pk, "player_b": b.pk, "length": 7, "jacoby": True},
                              format="json")
    assert response.status_code == 400
    assert response.data == {"jacoby": ["The Jacoby rule is never used in match play."]}
    response = staff_api.post("/api/v1/matches/", {"player_a": a.pk, "player_b": b.pk, "length": 0}, format="json")
    assert response.data == {"length": ["A match is played to at least 1 point."]}


def test_a_session_under_jacoby_scores_a_centred_gammon_as_one(staff_api, make_player):
    a, b = make_player(), make_player()
    response = staff_api.post("/api/v1/matches/", {"player_a": a.pk, "player_b": b.pk, "kind": "session",
                                                   "jacoby": True, "beavers": True}, format="json")
    assert response.status_code == 201, response.data
    match_id = response.data["id"]
    ids = {"a": a.pk, "b": b.pk, None: None}
    assert post_game(staff_api, match_id, ids, 1, "a", "gammon").data["score"] == [1, 0]
    assert post_game(staff_api, match_id, ids, 2, "b", "gammon", 4, "a", beavered=True).data["score"] == [1, 8]


def test_a_session_with_automatic_doubles_names_how_many_a_game_may_have(staff_api, make_player):
    a, b = make_player(), make_player()
    body = {"player_a": a.pk, "player_b": b.pk, "kind": "session", "automatic_doubles": True}
    response = staff_api.post("/api/v1/matches/", body, format="json")
    assert response.status_code == 400
    assert response.data == {"automatic_double_cap": [
        "Automatic doubles are on: say how many a game may have (1 or more); a cap of 0 allows none."]}
    response = staff_api.post("/api/v1/matches/", {**body, "automatic_double_cap": 2}, format="json")
    assert response.status_code == 201, response.data
    ids = {"a": a.pk, "b": b.pk, None: None}
    response = post_game(staff_api, response.data["id"], ids, 1, "a", cube=2, automatic_doubles=2)
    assert response.status_code == 400
    assert response.data == {"cube": ["After 2 automatic doubles the cube is at least 4: a cube of 2 is too low."]}


def test_a_second_player_of_the_same_name_and_club_needs_confirmation(staff_api):
    assert staff_api.post("/api/v1/players/", {"name": "Anna Berg", "club": "Aarhus"}, format="json").status_code == 201
    response = staff_api.post("/api/v1/players/", {"name": "anna  berg", "club": "aarhus"}, format="json")
    assert response.status_code == 400
    assert "confirm the duplicate" in response.data["name"][0]
    response = staff_api.post("/api/v1/players/", {"name": "Anna Berg", "club": "Aarhus", "confirm_duplicate": True},
                              format="json")
    assert response.status_code == 201
    assert staff_api.post("/api/v1/players/", {"name": "Anna Berg", "club": "Odense"}, format="json").status_code == 201


def test_players_are_searchable_by_name(api, make_player):
    make_player("Anna Berg"), make_player("Bo Jensen"), make_player("Annette Hansen")
    names = [p["name"] for p in api.get("/api/v1/players/?search=ann").data["results"]]
    assert names == ["Anna Berg", "Annette Hansen"]


def test_match_filters(api, make_player, make_match):
    anna, bo, cy = make_player("Anna"), make_player("Bo"), make_player("Cy")
    m1 = make_match(player_a=anna, player_b=bo)
    make_match(player_a=bo, player_b=cy)
    ids = [m["id"] for m in api.get(f"/api/v1/matches/?player={anna.pk}").data["results"]]
    assert ids == [m1.pk]
    assert api.get("/api/v1/matches/?state=finished").data["count"] == 0
    assert api.get("/api/v1/matches/?state=in_progress").data["count"] == 2


@pytest.mark.parametrize("url", ["/api/v1/matches/", "/api/v1/players/"])
def test_list_endpoints_use_a_fixed_number_of_queries(api, make_match, url):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert api.get(url).status_code == 200
        return len(queries)

    make_match()
    few = count()
    for _ in range(15):
        make_match()
    assert count() == few


def test_the_schema_and_docs_are_served(api):
    assert api.get("/api/schema/").status_code == 200
    assert api.get("/api/docs/").status_code == 200


def test_a_match_can_be_finished_from_its_final_score_alone(staff_api, make_match):
    match = make_match(length=7)
    url = f"/api/v1/matches/{match.pk}/final-score/"
    response = staff_api.post(url, {"score_a": 5, "score_b": 6}, format="json")
    assert response.status_code == 400
    assert response.data == {"score_a": ["Nobody reached 7 points: a 7-point match is not over at 5–6."]}
    response = staff_api.post(url, {"score_a": 7, "score_b": 8}, format="json")
    assert response.data == {"score_a": ["Both players cannot reach 7: the match ends when the first one does."]}
    response = staff_api.post(url, {"score_a": 3, "score_b": 8}, format="json")
    assert response.status_code == 200
    assert (response.data["status"], response.data["score"], response.data["winner"]) == (
        "finished", [3, 8], match.player_b_id)
    corrected = staff_api.post(url, {"score_a": 9, "score_b": 3, "reason": "slip misread"}, format="json")
    assert corrected.data["winner"] == match.player_a_id
    history = [e for e in staff_api.get(f"/api/v1/matches/{match.pk}/history/").data if e["what"] == "match"]
    assert [e["score"] for e in history] == [[0, 0], [3, 8], [9, 3]]


def test_a_final_score_no_game_can_reach_is_refused_at_the_winners_score_and_nothing_is_stored(staff_api, make_match):
    match = make_match(length=5, cube_cap=64)
    url = f"/api/v1/matches/{match.pk}/final-score/"
    response = staff_api.post(url, {"score_a": 3, "score_b": 55}, format="json")
    assert response.status_code == 400
    assert response.data == {"score_b": [
        "3–55 is not a possible final score: in a 5-point match where the loser has 3, the winner ends on 5 to 20,"
        " 24 to 28, 32 to 36, 48 to 52, 64 to 68, … (the score he stood at, below 5, plus one game: the cube times"
        " 1, 2 or 3, the cube capped at 64)."]}
    match.refresh_from_db()
    assert (match.status, match.score_a, match.score_b, match.version) == ("in_progress", 0, 0, 0)
    assert staff_api.post(url, {"score_a": 3, "score_b": 7}, format="json").data["score"] == [3, 7]


def test_a_final_score_is_refused_once_games_are_recorded(staff_api, rulebook):
    match_id, ids = rulebook
    post_game(staff_api, match_id, ids, 1, "white")
    response = staff_api.post(f"/api/v1/matches/{match_id}/final-score/", {"score_a": 5, "score_b": 1}, format="json")
    assert response.data == {"score_a": ["This match is recorded game by game: correct its games instead."]}


def test_a_forfeit_given_by_mistake_at_three_one_is_undone_and_the_match_goes_on(staff_api, rulebook):
    match_id, ids = rulebook
    for number, winner, kind in [(1, "white", "gammon"), (2, "black", "single"), (3, "white", "single")]:
        assert post_game(staff_api, match_id, ids, number, winner, kind).status_code == 201
    staff_api.post(f"/api/v1/matches/{match_id}/forfeit/", {"forfeited_by": ids["white"]}, format="json")
    response = staff_api.post(f"/api/v1/matches/{match_id}/forfeit-undo/", {"reason": "wrong player"}, format="json")
    assert response.status_code == 200
    assert (response.data["status"], response.data["score"], response.data["winner"]) == ("in_progress", [3, 1], None)
    assert post_game(staff_api, match_id, ids, 4, "white", "gammon").data["status"] == "finished"
    again = staff_api.post(f"/api/v1/matches/{match_id}/forfeit-undo/", {}, format="json")
    assert again.status_code == 400
    assert again.data == {"non_field_errors": ["The match was not forfeited: there is no forfeit to undo."]}
