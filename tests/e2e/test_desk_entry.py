"""A TD enters a round's results at the desk as fast as he types: nothing typed is lost, no score
lands on another match, the filter and the focus go where he looks."""

import re
import shutil
import subprocess

import pytest
from django.contrib.auth import get_user_model

from games.models import Player
from tournaments import services as events
from tournaments.models import Pairing

from .conftest import ARTIFACTS, cast
from .test_desk import SETTLED, log_in, posted

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Round 1's eight matches sit at tables in another order than the queue's, so "table 5" is not
# the fifth row.
TABLES = ["3", "7", "1", "5", "8", "2", "6", "4"]


@pytest.fixture
def room(live_server):
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(16, prefix="Entrant"), name="Harbour Cup",
                                     results_rounds=0)
    events.tables_set(tournament=tournament, count=8, by=td)
    rows = list(Pairing.objects.filter(flight__tournament=tournament, round__number=1, flight__name="Main")
                .select_related("player_a", "player_b", "flight__tournament").order_by("id"))
    for pairing, table in zip(rows, TABLES, strict=True):
        events.pairing_table_set(pairing=pairing, table=table, by=td)
    return {"td": td, "tournament": tournament, "rows": [Pairing.objects.get(pk=p.pk) for p in rows],
            "url": f"{live_server.url}/desk/{tournament.slug}/"}


def open_desk(page, live_server, room):
    page.add_init_script(SETTLED)
    log_in(page, live_server.url, "director", "pw-director-1")
    page.goto(room["url"])


def settled(page, before):
    page.wait_for_function(f"(window.settled || 0) > {before}")


def active_id(page):
    return page.evaluate("document.activeElement && document.activeElement.id")


def hold_posts(page):
    """Hold every POST to the desk until the test lets it through: a Save still running."""
    held = []
    page.route(re.compile(r"/desk/[^/]+/$"),
               lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
    return held


def test_a_score_typed_while_another_row_saves_survives_the_redraw(page, live_server, room):
    open_desk(page, live_server, room)
    first, second = room["rows"][:2]
    held = hold_posts(page)
    page.click(f"#p{first.pk}-a")
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    with page.expect_request(lambda r: r.method == "POST"):
        page.keyboard.press("Enter")
    # While that Save runs, the TD types the next result.
    page.click(f"#p{second.pk}-a")
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    page.keyboard.type("1")
    assert len(held) == 1
    before = page.evaluate("window.settled || 0")
    held.pop().continue_()
    settled(page, before)
    page.locator(f"#pairing-{first.pk}.is-finished").wait_for()
    assert page.input_value(f"#p{second.pk}-a") == "5"
    assert page.input_value(f"#p{second.pk}-b") == "1"
    assert active_id(page) == f"p{second.pk}-b"
    first.refresh_from_db()
    assert (first.status, first.score_a, first.score_b) == ("finished", 5, 2)


def test_a_score_typed_for_a_match_decided_meanwhile_is_named_as_not_saved(page, live_server, room):
    open_desk(page, live_server, room)
    first, second = room["rows"][:2]
    held = hold_posts(page)
    page.fill(f"#p{first.pk}-a", "5")
    page.fill(f"#p{first.pk}-b", "2")
    with page.expect_request(lambda r: r.method == "POST"):
        page.click(f"#pairing-{first.pk} .q-save")
    page.fill(f"#p{second.pk}-a", "5")
    page.fill(f"#p{second.pk}-b", "4")
    # Meanwhile another TD records the second match differently.
    events.result_report(pairing=second, by=room["td"], score_a=1, score_b=5)
    before = page.evaluate("window.settled || 0")
    held.pop().continue_()
    settled(page, before)
    status = page.locator(".desk-status").inner_text()
    assert (f"Not saved: Main R1-2, table 7: {second.player_a.name} 5–4 {second.player_b.name}. "
            "The match was recorded meanwhile: its row shows the result that stands.") in status


def by_table(room, table):
    return room["rows"][TABLES.index(table)]


def test_finding_a_table_shows_its_row_alone_and_tab_reaches_its_fields(page, live_server, room):
    open_desk(page, live_server, room)
    five = by_table(room, "5")
    page.locator("h1").click()
    page.keyboard.press("/")
    assert active_id(page) == "qf-find"
    page.keyboard.type("5")
    assert page.locator(f"#pairing-{five.pk}").is_visible()
    hidden = [p.slot for p in room["rows"] if p.pk != five.pk and page.locator(f"#pairing-{p.pk}").is_visible()]
    assert hidden == []
    page.keyboard.press("Tab")
    assert active_id(page) == f"p{five.pk}-a"
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("5")
    posted(page, lambda: page.keyboard.press("Enter"))
    five.refresh_from_db()
    assert (five.status, five.score_a, five.score_b) == ("finished", 2, 5)
    # The filter held through the redraw; the row saved was the last one shown, so the search
    # has the cursor again for the next table.
    assert page.locator(f"#pairing-{room['rows'][0].pk}").is_hidden()
    assert active_id(page) == "qf-find"
    # A slot is found by its name too.
    page.keyboard.type("r1-2")
    assert page.locator(f"#pairing-{room['rows'][1].pk}").is_visible()
    assert page.locator(f"#pairing-{room['rows'][2].pk}").is_hidden()


def test_a_save_keeps_the_cursor_below_and_names_the_match(page, live_server, room):
    open_desk(page, live_server, room)
    third, fourth = room["rows"][2], room["rows"][3]
    page.click(f"#p{third.pk}-a")
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    posted(page, lambda: page.keyboard.press("Enter"))
    assert active_id(page) == f"p{fourth.pk}-a"
    assert page.locator(".desk-status").inner_text().strip() == (
        f"Main R1-3, table 1: {third.player_a.name} 5–3 {third.player_b.name} recorded.")
    # "/" reaches the search from a score field, and types nothing there.
    page.keyboard.press("/")
    assert active_id(page) == "qf-find"
    assert page.input_value(f"#p{fourth.pk}-a") == ""


def test_a_refused_flight_shows_its_error_where_the_td_is(page, live_server, room):
    open_desk(page, live_server, room)
    add = page.get_by_role("region", name="Add a flight")
    add.get_by_label("Flight name").fill("Last chance")
    add.get_by_label("Match lengths by round").fill("seven")
    posted(page, lambda: add.get_by_role("button", name="Add the flight").click())
    field = add.get_by_label("Match lengths by round")
    assert active_id(page) == field.get_attribute("id")
    error = add.locator(".has-error .errorlist")
    assert error.inner_text() == "Write whole numbers separated by commas, for example 7, 7, 9."
    assert error.is_visible()
    box, height = error.bounding_box(), page.viewport_size["height"]
    assert 0 <= box["y"] and box["y"] + box["height"] <= height


@pytest.mark.slow
def test_a_round_of_eight_typed_ahead_with_filters_lands_every_result_on_its_match(page, live_server, room):
    """The TD works through a pile of slips at keyboard speed: never waiting for a Save, finding
    some matches by table or slot, the rest by going on down the queue."""
    # The test database (SQLite in memory, shared by the server's threads) refuses a read while
    # a Save writes; the ratings panel's poll is not what this walk is about.
    page.route(re.compile(r"/ratings/runs/"), lambda route: route.abort())
    open_desk(page, live_server, room)
    rows = room["rows"]
    keys = page.keyboard
    typed = {}

    def result(pairing, a, b):
        keys.type(str(a))
        keys.press("Tab")
        keys.type(str(b))
        keys.press("Enter")
        typed[pairing.pk] = (a, b)

    page.click(f"#p{rows[0].pk}-a")
    result(rows[0], 5, 1)
    result(rows[1], 2, 5)   # the cursor went on to the next row at once
    result(rows[2], 5, 3)
    keys.press("/")
    keys.type("6")          # table 6
    keys.press("Tab")
    result(by_table(room, "6"), 4, 5)
    keys.type("2")          # the search has the cursor again, its words selected
    keys.press("Tab")
    result(by_table(room, "2"), 5, 0)
    keys.type("r1-4")
    keys.press("Tab")
    result(rows[3], 5, 2)
    keys.type("8")
    keys.press("Tab")
    result(by_table(room, "8"), 3, 5)
    keys.press("Backspace")  # the whole queue again; the last match by its table
    keys.type("4")
    keys.press("Tab")
    result(by_table(room, "4"), 5, 4)
    for pairing in rows:
        page.locator(f"#pairing-{pairing.pk}.is-finished").wait_for(state="attached")
    page.wait_for_function("!document.querySelector('form.q-score.is-saving')")
    assert page.locator(".not-saved").count() == 0
    stored = {p.pk: (p.score_a, p.score_b) for p in Pairing.objects.filter(pk__in=[r.pk for r in rows])}
    assert stored == typed
    assert len(typed) == 8


def record_game(page, winner, *, won_as="Single", end=None):
    page.get_by_label(winner).first.check()
    if end:
        page.get_by_label(end, exact=True).check()
    if won_as:
        page.get_by_label(won_as, exact=True).check()
    number = page.locator("form[data-sheet]").get_attribute("data-number")
    page.get_by_role("button", name=f"Record game {number}").click()
    page.wait_for_url(re.compile(r"/matches/\d+/enter/$"))


def test_the_crawford_game_s_sheet_offers_only_what_the_rules_allow(page, live_server, room):
    open_desk(page, live_server, room)
    first = room["rows"][0]
    page.get_by_role("button", name=f"Score sheet of {first.slot}").click()
    page.wait_for_url(re.compile(r"/matches/\d+/enter/$"))
    name = first.player_a.name
    # Before the Crawford game a refused double is offered, and "Won as" is not asked with it.
    page.get_by_label("Double refused", exact=True).check()
    assert page.get_by_role("group", name="Won as").is_hidden()
    page.get_by_label("Played out", exact=True).check()
    assert page.get_by_role("group", name="Won as").is_visible()
    record_game(page, name, won_as="Backgammon")       # 3–0
    record_game(page, name)                            # 4–0: game 3 is the Crawford game
    assert page.get_by_label("Double refused", exact=True).count() == 0
    assert [page.get_by_label(t, exact=True).count() for t in ("Played out", "Resigned")] == [1, 1]
    assert page.get_by_label("Cube value").is_disabled()
    # A client that sends one anyway is refused at the field that asked for it, not at the cube.
    page.evaluate("""() => { const r = document.querySelector('input[name=end]');
        r.value = 'double_refused'; r.checked = true; }""")
    page.get_by_label(name).first.check()
    page.get_by_role("button", name="Record game 3").click()
    assert page.locator("#id_end_error").inner_text() == (
        "Game 3 is the Crawford game: nobody may double in it, so no double can be refused.")
    assert page.locator("#id_cube_error").count() == 0


def test_printed_slips_keep_every_line_on_a4(page, live_server, room, tmp_path):
    pdftotext = shutil.which("pdftotext")
    if not pdftotext:
        pytest.skip("pdftotext is not installed")
    # Long names, the kind that broke mid-word.
    first = room["rows"][0]
    Player.objects.filter(pk=first.player_a_id).update(name="Maximiliane Hohenzollern-Sigmaringen")
    Player.objects.filter(pk=first.player_b_id).update(name="Bartholomew Featherstonehaugh")
    open_desk(page, live_server, room)
    page.goto(f"{room['url']}slips/")
    pdf = tmp_path / "slips.pdf"
    page.pdf(path=str(pdf), format="A4")
    # -raw keeps the order the page drew its text in: slip after slip.
    text = subprocess.run([pdftotext, "-raw", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    assert len([p for p in text.split("\f") if p.strip()]) == 2  # eight slips, four to a page
    # A line may end after a hyphen of a name ("Hohenzollern-" / "Sigmaringen"), never inside a word.
    flat = re.sub(r"-\s+", "-", " ".join(text.split()))
    slips = flat.split("Harbour Cup · Main ")[1:]
    pairings = Pairing.objects.filter(pk__in=[r.pk for r in room["rows"]]).select_related("player_a", "player_b")
    assert len(slips) == 8
    codes = set()
    for pairing, slip in zip(pairings.order_by("id"), slips, strict=True):
        a, b = pairing.player_a.name, pairing.player_b.name
        assert slip.startswith(f"{pairing.slot} {a} v {b} 5-point match, Crawford rule, cube capped at 64"), slip
        # The head, the score table's columns and his half of the slip.
        assert slip.count(a) == 3 and slip.count(b) == 3, slip
        assert f"TABLE {pairing.table} " in slip
        assert "Cube Crawford? 1 2 3 4 5 6 7 8 9 " in slip
        assert ("Winner: __________________ Final score: ____ – ____ Signatures: __________ __________ "
                f"For {a} Code ") in slip, slip
        # Each player's half: his name and his code.
        halves = re.findall(r"For (.+?) Code ([3-9A-Y]{3}-[3-9A-Y]{3}) Scan the QR code, then type your code and "
                            r"the final score\.", slip)
        assert [name for name, _ in halves] == [a, b], slip
        codes.update(code for _, code in halves)
    assert len(codes) == 16  # two to a slip, none the same


def box_top(page, selector):
    return page.locator(selector).bounding_box()["y"] + page.evaluate("window.scrollY")


@pytest.mark.parametrize("width", [1280, 360])
def test_saves_answered_while_the_td_types_the_next_row_leave_it_where_it_is(request, live_server, room, width):
    """Each Save answers while the TD is half-way through the next slip: the answer changes the
    saved row, the counts and the confirmation, and adds the matches drawn from it, but the row
    he is typing in keeps what he typed, his cursor, and its place on the page."""
    page = request.getfixturevalue("page" if width == 1280 else "phone")
    page.route(re.compile(r"/ratings/runs/"), lambda route: route.abort())
    open_desk(page, live_server, room)
    rows = room["rows"]
    results = [(5, 1), (2, 5), (5, 3), (4, 5), (5, 0), (3, 5)]
    held = hold_posts(page)
    keys = page.keyboard

    def save_typed():
        with page.expect_request(lambda r: r.method == "POST"):
            keys.press("Enter")

    answers = []
    page.click(f"#p{rows[0].pk}-a")
    keys.type("5")
    keys.press("Tab")
    keys.type("1")
    save_typed()
    for n in range(1, len(results)):
        saved, typing = rows[n - 1], rows[n]
        assert active_id(page) == f"p{typing.pk}-a"  # the cursor went on at once
        a, b = results[n]
        keys.type(str(a))
        keys.press("Tab")
        keys.type(str(b))  # the next slip typed, not yet saved, when the Save before it answers
        top = box_top(page, f"#pairing-{typing.pk}")
        before = page.evaluate("window.settled || 0")
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            held.pop().continue_()
        settled(page, before)
        page.locator(f"#pairing-{saved.pk}.is-finished").wait_for()
        out_of_band = answer.value.headers.get("hx-reswap") == "none"
        answers.append(out_of_band)
        sa, sb = results[n - 1]
        assert page.locator(".desk-status").inner_text().strip().endswith(
            f"{saved.player_a.name} {sa}–{sb} {saved.player_b.name} recorded.")
        assert (page.input_value(f"#p{typing.pk}-a"), page.input_value(f"#p{typing.pk}-b")) == (str(a), str(b))
        assert active_id(page) == f"p{typing.pk}-b"
        if out_of_band:  # (a Save that opens a round redraws the whole desk)
            assert box_top(page, f"#pairing-{typing.pk}") == top
        save_typed()
    before = page.evaluate("window.settled || 0")
    held.pop().continue_()
    settled(page, before)
    page.locator(f"#pairing-{rows[5].pk}.is-finished").wait_for()
    # Only the second Save, which drew round 2's first match, was answered with the whole desk.
    assert answers == [True, False, True, True, True]
    # R2-1, R2-2 and R2-3 (drawn by the second, fourth and sixth Saves) wait in round 2.
    semis = Pairing.objects.filter(flight__tournament=room["tournament"], flight__name="Main", round__number=2)
    assert semis.count() == 3
    for semi in semis:
        assert page.locator(f"#pairing-{semi.pk} form.q-score").count() == 1
    assert page.locator("#count-table").inner_text() == "2"
    assert page.locator(".not-saved").count() == 0
    stored = [(p.score_a, p.score_b) for p in Pairing.objects.filter(pk__in=[r.pk for r in rows[:6]]).order_by("id")]
    assert stored == results
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desk-after-saves-{width}.png"))
