"""Official rating lists: published by staff, dated, kept unchanged, compared with the one before."""

import io
import re
from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import CommandError, call_command
from django.utils import timezone

from config.errors import ConflictError
from games.models import Player
from ratings import selectors, services
from ratings.services import lists
from ratings.models import OfficialList, OfficialListRow

pytestmark = pytest.mark.django_db

OCTOBER = date(2025, 10, 31)
NOVEMBER = date(2025, 11, 30)


@pytest.fixture
def club(make_player, finish, no_enqueue):
    """Two pairs with the same sixteen 25-point matches (Anna and Carl win nine, Bo and Dan seven),
    so both pairs are established with equal ratings; Eve beats Finn at 5 points (both
    provisional). The FIBS ratings are then published."""
    names = ("Anna", "Bo", "Carl", "Dan", "Eve", "Finn")
    players = {n: make_player(name=n, country="DK" if n < "D" else "SE", club="North") for n in names}
    day = 0
    for won in "abababababaabbaa":
        finish(players["Anna"], players["Bo"], length=25, winner=won, day=day)
        finish(players["Carl"], players["Dan"], length=25, winner=won, day=day)
        day += 1
    finish(players["Eve"], players["Finn"], length=5, winner="a", day=day)
    services.rating_recompute_now(system="fibs")
    return players


@pytest.fixture
def two_lists(club, finish, make_player, staff):
    """The October list, then Bo beats Anna, Gus (new) beats Eve, a recompute, and the November list."""
    october = services.rating_list_publish(system="fibs", as_of=OCTOBER, by=staff, note="Autumn")
    finish(club["Bo"], club["Anna"], length=25, winner="a", day=30)
    club["Gus"] = make_player(name="Gus", country="SE", club="South")
    finish(club["Gus"], club["Eve"], length=3, winner="a", day=31)
    services.rating_recompute_now(system="fibs")
    november = services.rating_list_publish(system="fibs", as_of=NOVEMBER)
    return october, november


def lines(official):
    return [(r.player.name, r.rank, round(r.rating, 4), r.provisional, r.matches, r.experience)
            for r in official.rows.select_related("player").order_by("-rating", "player_id")]


OCTOBER_LINES = [
    ("Eve", None, 1522.3607, True, 1, 5),  # 1500 + 4·√5·½·5 (equal ratings, a new player's multiplier 5)
    ("Anna", 1, 1520.3433, False, 16, 400),
    ("Carl", 1, 1520.3433, False, 16, 400),  # the same matches as Anna: the same rating, the same rank
    ("Bo", 3, 1479.6567, False, 16, 400),
    ("Dan", 3, 1479.6567, False, 16, 400),
    ("Finn", None, 1477.6393, True, 1, 5),
]
NOVEMBER_LINES = [
    ("Carl", 1, 1520.3433, False, 16, 400),
    ("Gus", None, 1517.7066, True, 1, 3),
    ("Anna", 2, 1509.1775, False, 17, 425),
    ("Eve", None, 1504.8311, True, 2, 8),
    ("Bo", 3, 1490.8225, False, 17, 425),
    ("Dan", 4, 1479.6567, False, 16, 400),
    ("Finn", None, 1477.6393, True, 1, 5),
]


# -- the service ---------------------------------------------------------------------------------


def test_a_list_copies_the_published_ratings_with_ranks_among_the_established(club, staff):
    official = services.rating_list_publish(system="fibs", as_of=OCTOBER, by=staff, note="  Autumn  ")
    assert (official.system, official.as_of, official.players, official.note) == ("fibs", OCTOBER, 6, "Autumn")
    assert official.published_by == staff and official.run.published and official.rated_at == official.run.finished_at
    assert lines(official) == OCTOBER_LINES
    assert str(official) == "FIBS Elo list of 31 Oct 2025"


def test_a_list_stays_as_it_was_published_when_ratings_change(two_lists):
    october, november = two_lists
    assert lines(october) == OCTOBER_LINES
    assert lines(november) == NOVEMBER_LINES
    assert october.run_id != november.run_id


def later_results(club, finish, make_player):
    """Bo beats Anna on 31 Jan 2025 (day 30), Gus (new) beats Eve on 1 Feb (day 31); recomputed."""
    finish(club["Bo"], club["Anna"], length=25, winner="a", day=30)
    club["Gus"] = make_player(name="Gus", country="SE", club="South")
    finish(club["Gus"], club["Eve"], length=3, winner="a", day=31)
    for system in ("fibs", "crawford"):
        services.rating_recompute_now(system=system)


def test_a_list_dated_in_the_past_holds_the_ratings_of_the_results_played_by_its_date(club, finish, make_player):
    later_results(club, finish, make_player)
    january = services.rating_list_publish(system="fibs", as_of=date(2025, 1, 20), note="published late")
    assert lines(january) == OCTOBER_LINES  # the club's matches end on 17 Jan: what the October list held
    end_of_january = services.rating_list_publish(system="fibs", as_of=date(2025, 1, 31))
    assert lines(end_of_january) == [
        ("Eve", None, 1522.3607, True, 1, 5),
        ("Carl", 1, 1520.3433, False, 16, 400),
        ("Anna", 2, 1509.1775, False, 17, 425),  # Bo's win of 31 Jan counts, Gus's of 1 Feb does not
        ("Bo", 3, 1490.8225, False, 17, 425),
        ("Dan", 4, 1479.6567, False, 16, 400),
        ("Finn", None, 1477.6393, True, 1, 5),
    ]
    assert end_of_january.players == 6 and january.players == 6


@pytest.mark.parametrize("system", ["fibs", "crawford"])
def test_a_list_published_late_equals_the_ratings_published_on_its_date(club, finish, make_player, system):
    services.rating_recompute_now(system=system)
    on_its_day = sorted(
        selectors.rating_list(system=system).values_list("player_id", "rating", "deviation", "provisional", "matches",
                                                         "experience"),
        key=lambda row: (-row[1], row[0]))
    later_results(club, finish, make_player)
    late = services.rating_list_publish(system=system, as_of=date(2025, 1, 20))
    assert list(late.rows.order_by("-rating", "player_id").values_list(
        "player_id", "rating", "deviation", "provisional", "matches", "experience")) == on_its_day
    assert len(on_its_day) == 6 and (system == "fibs") == (on_its_day[0][2] is None)
    assert late.rows.filter(player=club["Gus"]).count() == 0


def test_a_list_dated_before_any_result_is_refused(club):
    with pytest.raises(ValidationError) as refused:
        services.rating_list_publish(system="fibs", as_of=date(2024, 12, 31))
    assert refused.value.message_dict == {"as_of": [
        "No FIBS Elo result was rated by 31 Dec 2024: a list of that date would be empty."]}
    assert OfficialList.objects.count() == 0


def test_the_command_refuses_a_list_dated_after_today(club):
    tomorrow = timezone.localdate() + timedelta(days=1)
    with pytest.raises(CommandError, match=f"^as_of: {tomorrow:%d %b %Y} is after today: a list is dated the day "
                                           "it stands for.$"):
        call_command("publish_rating_list", "--system", "fibs", "--as-of", tomorrow.isoformat())
    assert OfficialList.objects.count() == 0


def test_a_list_cannot_be_dated_before_or_on_the_last_one(two_lists):
    with pytest.raises(ValidationError) as earlier:
        services.rating_list_publish(system="fibs", as_of=date(2025, 11, 1))
    assert earlier.value.message_dict == {"as_of": [
        "The last official FIBS Elo list is dated 30 Nov 2025: a new one cannot be dated earlier."]}
    with pytest.raises(ValidationError) as same:
        services.rating_list_publish(system="fibs", as_of=NOVEMBER)
    assert same.value.message_dict == {"as_of": ["There is already an official FIBS Elo list of 30 Nov 2025."]}
    assert OfficialList.objects.count() == 2 and OfficialListRow.objects.count() == 13


def test_each_system_has_its_own_dates(two_lists):
    services.rating_recompute_now(system="crawford")
    crawford = services.rating_list_publish(system="crawford", as_of=OCTOBER)
    assert crawford.players == 7 and crawford.as_of == OCTOBER


def test_a_list_is_refused_a_future_date_an_unknown_system_and_a_long_note(club):
    tomorrow = timezone.localdate() + timedelta(days=1)
    with pytest.raises(ValidationError) as refused:
        services.rating_list_publish(system="elo", as_of=tomorrow, note="x" * 501)
    assert refused.value.message_dict == {
        "system": ["no rating system is called 'elo'; known systems: crawford, fibs"],
        "as_of": [f"{tomorrow:%d %b %Y} is after today: a list is dated the day it stands for."],
        "note": ["The note has at most 500 characters."],
    }
    assert not OfficialList.objects.exists()


def test_a_list_needs_published_ratings(club):
    with pytest.raises(ValidationError) as refused:
        services.rating_list_publish(system="crawford", as_of=OCTOBER)
    assert refused.value.message_dict == {
        "system": ["Variance-adjusted (Glicko-2) has no published ratings yet: recompute them first."]}


def test_only_staff_publish_a_list(club, make_user):
    with pytest.raises(PermissionDenied):
        services.rating_list_publish(system="fibs", as_of=OCTOBER, by=make_user())
    assert not OfficialList.objects.exists()


def test_the_database_decides_between_two_lists_of_the_same_day(club, monkeypatch):
    """Two staff members publish the 31 October list at once: both read no list of that day,
    the unique constraint takes the first, and the second is a conflict that leaves nothing."""
    services.rating_list_publish(system="fibs", as_of=OCTOBER)
    monkeypatch.setattr(lists, "_last_official_list", lambda system: None)  # read before the first committed
    with pytest.raises(ConflictError, match="Someone else published the official FIBS Elo list of 31 Oct 2025"):
        services.rating_list_publish(system="fibs", as_of=OCTOBER)
    assert OfficialList.objects.count() == 1 and OfficialListRow.objects.count() == 6


# -- the API -------------------------------------------------------------------------------------


def test_staff_publish_a_list_through_the_api(api, staff_api, club):
    body = {"system": "fibs", "as_of": "2025-10-31", "note": "Autumn"}
    assert api.post("/api/v1/ratings/lists/", body, format="json").status_code in (401, 403)
    response = staff_api.post("/api/v1/ratings/lists/", body, format="json")
    assert response.status_code == 201
    made = response.json()
    assert (made["system"], made["as_of"], made["players"], made["note"], made["published_by"]) == (
        "fibs", "2025-10-31", 6, "Autumn", "Rating officer")  # the login "td" chose no name
    again = staff_api.post("/api/v1/ratings/lists/", body, format="json")
    assert again.status_code == 400
    assert again.json()["as_of"] == ["There is already an official FIBS Elo list of 31 Oct 2025."]
    bad = staff_api.post("/api/v1/ratings/lists/", {"system": "fibs", "as_of": "31/10/2025"}, format="json")
    assert bad.status_code == 400 and "as_of" in bad.json()


def test_a_raced_list_answers_409(staff_api, club, monkeypatch):
    services.rating_list_publish(system="fibs", as_of=OCTOBER)
    monkeypatch.setattr(lists, "_last_official_list", lambda system: None)
    response = staff_api.post("/api/v1/ratings/lists/", {"system": "fibs", "as_of": "2025-10-31"}, format="json")
    assert response.status_code == 409


def test_the_lists_are_public_latest_first(api, two_lists):
    october, november = two_lists
    body = api.get("/api/v1/ratings/lists/?system=fibs").json()
    assert [(r["id"], r["as_of"], r["players"], r["published_by"]) for r in body["results"]] == [
        (november.pk, "2025-11-30", 7, None), (october.pk, "2025-10-31", 6, "Rating officer")]
    assert api.get("/api/v1/ratings/lists/?system=crawford").json()["count"] == 0


def test_a_list_reads_page_by_page_with_each_players_change(api, two_lists, django_assert_num_queries):
    october, november = two_lists
    with django_assert_num_queries(5):  # the list, its system's lists, count, page, the list before
        body = api.get(f"/api/v1/ratings/lists/{november.pk}/").json()
    assert body["count"] == 7 and body["list"]["as_of"] == "2025-11-30"
    assert body["previous_list"]["id"] == october.pk
    assert [(r["name"], r["rank"], round(r["rating"], 4), r["previous_rank"], r["previous_rating"] and
             round(r["previous_rating"], 4), r["change"] and round(r["change"], 4)) for r in body["results"]] == [
        ("Carl", 1, 1520.3433, 1, 1520.3433, 0.0),
        ("Gus", None, 1517.7066, None, None, None),
        ("Anna", 2, 1509.1775, 1, 1520.3433, -11.1657),
        ("Eve", None, 1504.8311, None, 1522.3607, -17.5295),
        ("Bo", 3, 1490.8225, 3, 1479.6567, 11.1657),
        ("Dan", 4, 1479.6567, 3, 1479.6567, 0.0),
        ("Finn", None, 1477.6393, None, 1477.6393, 0.0),
    ]
    assert body["next"] is None
    first = api.get(f"/api/v1/ratings/lists/{october.pk}/").json()
    assert first["previous_list"] is None and {r["change"] for r in first["results"]} == {None}
    assert api.get("/api/v1/ratings/lists/999/").status_code == 404


def test_a_list_downloads_as_csv_safe_for_spreadsheets(api, two_lists):
    _, november = two_lists
    Player.objects.filter(name="Dan").update(name="=HYPERLINK(\"http://x\")", club="@North")
    response = api.get(f"/api/v1/ratings/lists/{november.pk}/csv/")
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="ratings-fibs-2025-11-30.csv"'
    assert response.content.decode().splitlines() == [
        ("as_of,rank,player_id,name,country,club,rating,deviation,provisional,matches,experience,previous_rank,"
         "previous_rating,change"),
        f"2025-11-30,1,{two_id('Carl')},Carl,DK,North,1520.3,,no,16,400,1,1520.3,0.0",
        f"2025-11-30,,{two_id('Gus')},Gus,SE,South,1517.7,,yes,1,3,,,",
        f"2025-11-30,2,{two_id('Anna')},Anna,DK,North,1509.2,,no,17,425,1,1520.3,-11.2",
        f"2025-11-30,,{two_id('Eve')},Eve,SE,North,1504.8,,yes,2,8,,1522.4,-17.5",
        f"2025-11-30,3,{two_id('Bo')},Bo,DK,North,1490.8,,no,17,425,3,1479.7,11.2",
        (f"2025-11-30,4,{two_id('=HYPERLINK(\"http://x\")')},\"'=HYPERLINK(\"\"http://x\"\")\",SE,'@North,1479.7,,no,"
         "16,400,3,1479.7,0.0"),
        f"2025-11-30,,{two_id('Finn')},Finn,SE,North,1477.6,,yes,1,5,,1477.6,0.0",
    ]


def two_id(name):
    return Player.objects.get(name=name).pk


# -- the command ---------------------------------------------------------------------------------


def test_the_command_publishes_a_list(club):
    out = io.StringIO()
    call_command("publish_rating_list", "--system", "fibs", "--as-of", "2025-10-31", "--note", "Autumn", stdout=out)
    official = OfficialList.objects.get()
    assert out.getvalue() == f"FIBS Elo list of 31 Oct 2025: 6 players (list {official.pk}).\n"
    assert official.published_by is None and lines(official) == OCTOBER_LINES
    with pytest.raises(CommandError, match="^as_of: There is already an official FIBS Elo list of 31 Oct 2025.$"):
        call_command("publish_rating_list", "--system", "fibs", "--as-of", "2025-10-31")
    with pytest.raises(CommandError, match="^--as-of: '31.10.2025' is not a date \\(YYYY-MM-DD\\).$"):
        call_command("publish_rating_list", "--system", "fibs", "--as-of", "31.10.2025")


# -- the page ------------------------------------------------------------------------------------


def page_rows(html):
    """(name, change, rank then) of each row of the rating list page."""
    rows = []
    for row in re.findall(r"<tr>\s*<td class=\"num rank\".*?</tr>", html, re.DOTALL):
        name = re.search(r'<a href="/players/\d+/">([^<]+)</a>', row).group(1)
        change = re.search(r'data-label="Change">([^<]*)</td>', row)
        then = re.search(r'data-label="Rank then">(.*?)</td>', row, re.DOTALL)
        rows.append((name, change and change.group(1), then and re.sub(r"<[^>]+>", "", then.group(1))))
    return rows


def test_the_page_shows_an_official_list_with_changes_since_the_one_before(client, two_lists):
    _, november = two_lists
    html = client.get(f"/ratings/?system=fibs&list={november.pk}").content.decode()
    assert "Official list of 30 Nov 2025" in html
    assert "Changes and ranks then are since the official list of 31 Oct 2025." in html
    assert page_rows(html) == [
        ("Carl", "0.0", "1"), ("Gus", "new", ""), ("Anna", "\u221211.2", "1"), ("Eve", "\u221217.5", "P"),
        ("Bo", "+11.2", "3"), ("Dan", "0.0", "3"), ("Finn", "0.0", "P"),
    ]
    assert f'href="?system=fibs&amp;list={november.pk}&amp;format=csv" download>Download the official list of ' \
           "30 Nov 2025 as CSV" in html


def test_the_changes_since_the_list_before_read_in_the_readers_language(client, two_lists):
    _, november = two_lists
    html = client.get(f"/ratings/?system=fibs&list={november.pk}", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    changes = [change for _, change, _ in page_rows(html.replace('data-label="Ændring"', 'data-label="Change"')
                                                    .replace('data-label="Placering dengang"', 'data-label="Rank then"'))]
    assert changes == ["0,0", "ny", "\u221211,2", "\u221217,5", "+11,2", "0,0", "0,0"]


def test_the_live_page_says_when_it_was_rated_and_compares_with_the_latest_list(client, club, finish):
    services.rating_list_publish(system="fibs", as_of=OCTOBER)
    finish(club["Bo"], club["Anna"], length=25, winner="a", day=30)
    run = services.rating_recompute_now(system="fibs")
    html = client.get("/ratings/?system=fibs").content.decode()
    assert f"Live ratings as of {timezone.localtime(run.finished_at):%-d %b %Y, %H:%M}" in html
    assert "since the official list of 31 Oct 2025" in html
    assert page_rows(html) == [
        ("Eve", "0.0", "P"), ("Carl", "0.0", "1"), ("Anna", "\u221211.2", "1"), ("Bo", "+11.2", "3"),
        ("Dan", "0.0", "3"), ("Finn", "0.0", "P"),
    ]


def test_the_page_without_lists_shows_no_change_column(client, club):
    html = client.get("/ratings/?system=fibs").content.decode()
    assert "Live ratings as of" in html and 'data-label="Change"' not in html and "Official list" not in html


def test_the_page_downloads_the_official_list_as_csv(client, two_lists):
    october, _ = two_lists
    response = client.get(f"/ratings/?system=fibs&list={october.pk}&format=csv")
    assert response["Content-Disposition"] == 'attachment; filename="ratings-fibs-2025-10-31.csv"'
    assert response.content.decode().splitlines()[2] == f"2025-10-31,1,{two_id('Anna')},Anna,DK,North,1520.3,,no,16,400,,,"


def test_the_page_reads_a_fixed_number_of_queries(client, two_lists, make_player, finish, django_assert_num_queries):
    from django.core.cache import cache

    _, november = two_lists
    # Drawn from nothing each time (an official list: 6 queries, whatever its length).
    # The live list: the countries, the list menu, the count, the page's ids, its rows, the published
    # run, the ratings above (ranks), the rows of the last official list, when the run finished.
    cache.clear()
    with django_assert_num_queries(6):
        client.get(f"/ratings/?system=fibs&list={november.pk}")
    cache.clear()
    with django_assert_num_queries(9):
        client.get("/ratings/?system=fibs")
    bo = Player.objects.get(name="Bo")
    for n in range(30):
        finish(make_player(name=f"New {n}"), bo, length=3, day=40 + n)
    services.rating_recompute_now(system="fibs")
    december = services.rating_list_publish(system="fibs", as_of=date(2025, 12, 31))
    cache.clear()
    with django_assert_num_queries(6):
        html = client.get(f"/ratings/?system=fibs&list={december.pk}")
    assert html.content.decode().count('data-label="Change"') == 37
    cache.clear()
    with django_assert_num_queries(9):
        client.get("/ratings/?system=fibs")


def test_staff_publish_a_list_from_the_page(client, club, staff, make_user):
    client.force_login(make_user())
    assert client.post("/ratings/lists/publish/", {"system": "fibs", "as_of": "2025-10-31"}).status_code == 403
    assert "Publish an official list" not in client.get("/ratings/?system=fibs").content.decode()
    client.force_login(staff)
    assert "Publish an official list (FIBS Elo)" in client.get("/ratings/?system=fibs").content.decode()
    response = client.post("/ratings/lists/publish/", {"system": "fibs", "as_of": "2025-10-31", "note": "Autumn"},
                           follow=True)
    official = OfficialList.objects.get()
    assert response.redirect_chain == [(f"/ratings/?system=fibs&list={official.pk}", 302)]
    html = response.content.decode()
    assert "The official FIBS Elo list of 31 Oct 2025 is published: 6 players." in html
    assert "Official list of 31 Oct 2025</strong> — Autumn" in html
    again = client.post("/ratings/lists/publish/", {"system": "fibs", "as_of": "2025-10-31"}, follow=True)
    assert "There is already an official FIBS Elo list of 31 Oct 2025." in again.content.decode()
    assert OfficialList.objects.count() == 1


def test_the_live_csv_is_safe_for_spreadsheets_too(client, club):
    Player.objects.filter(name="Eve").update(name="+SUM(A1)", club="-North")
    lines_ = client.get("/ratings/?system=fibs&format=csv").content.decode().splitlines()
    assert lines_[1] == f",{two_id('+SUM(A1)')},'+SUM(A1),SE,'-North,1522.4,,yes,1,5"


def test_the_changes_since_a_list_take_one_query_whatever_the_rows(two_lists, django_assert_num_queries):
    october, november = two_lists
    rows = list(selectors.official_list_rows(official_list=november))
    with django_assert_num_queries(1):
        then = selectors.rating_changes_since(official_list=october, ratings=rows)
    assert sorted((Player.objects.get(pk=k).name, round(v.change, 4), v.rank) for k, v in then.items()) == [
        ("Anna", -11.1657, 1), ("Bo", 11.1657, 3), ("Carl", 0.0, 1), ("Dan", 0.0, 3), ("Eve", -17.5295, None),
        ("Finn", 0.0, None)]
    live = list(selectors.rating_list(system="fibs"))
    with django_assert_num_queries(1):
        assert len(selectors.rating_changes_since(official_list=november, ratings=live)) == 7
    with django_assert_num_queries(0):
        assert selectors.rating_changes_since(official_list=None, ratings=live) == {}


def test_the_admin_shows_lists_without_changing_them(client, two_lists, django_user_model):
    _, november = two_lists
    client.force_login(django_user_model.objects.create_superuser("root", password="pw-root-12345"))
    listing = client.get("/admin/ratings/officiallist/")
    assert listing.status_code == 200
    assert re.findall(r'field-players">(\d+)<', listing.content.decode()) == ["7", "6"]
    assert client.get("/admin/ratings/officiallist/add/").status_code == 403
    view = client.get(f"/admin/ratings/officiallist/{november.pk}/change/")
    assert view.status_code == 200 and f"/ratings/?system=fibs&amp;list={november.pk}" in view.content.decode()


def test_the_ratings_of_a_past_date_take_three_queries_whatever_the_players(club, finish, make_player,
                                                                           django_assert_num_queries):
    run_id = services.rating_recompute_now(system="fibs").pk
    with django_assert_num_queries(3):  # last match, count and lengths per player; those changes; the run's settings
        few = lists.ratings_as_of(system="fibs", run_id=run_id, as_of=date(2025, 1, 20))
    for number in range(30):
        finish(make_player(name=f"Newcomer {number}"), club["Anna"], length=3, winner="b", day=20)
    run_id = services.rating_recompute_now(system="fibs").pk
    with django_assert_num_queries(3):
        many = lists.ratings_as_of(system="fibs", run_id=run_id, as_of=date(2025, 1, 21))
    assert (len(few), len(many)) == (6, 36)


def test_the_list_reads_its_countries_and_ranks_as_the_publish_kept_them(
    client, two_lists, make_player, finish, django_assert_num_queries
):
    """No reader builds them: the run that published the ratings kept the ranks and the countries
    of the list's players, and the official list's publication kept its countries."""
    from ratings.ranks import list_countries

    _, november = two_lists
    # The live list: the list menu, the published run, the count, the page's ids, its rows, the
    # rows of the last official list, when the run finished.
    with django_assert_num_queries(7):
        html = client.get("/ratings/?system=fibs").content.decode()
    assert "Anna</a>" in html
    assert re.findall(r'<option value="(\w*)"', html.split('name="country"')[1].split("</select>")[0]) == [
        "", "DK", "SE"]
    with django_assert_num_queries(5):  # the official list as before, its countries kept
        html = client.get(f"/ratings/?system=fibs&list={november.pk}").content.decode()
    assert re.findall(r'<option value="(\w*)"', html.split('name="country"')[1].split("</select>")[0]) == [
        "", "DK", "SE"]

    make_player(name="Ida", country="IS")  # no rating: not a country of the list
    finish(make_player(name="Nils", country="NO"), make_player(name="Olga", country=""), length=3, day=40)
    services.rating_recompute_now(system="fibs")
    with django_assert_num_queries(1):  # the published run: the countries were kept with it
        assert list_countries("fibs") == ["DK", "NO", "SE"]
    html = client.get("/ratings/?system=fibs&country=NO").content.decode()
    assert "Nils</a>" in html and "Anna</a>" not in html
