"""Crawford in the reader's language: chosen by the menu, kept with the login, read from the
browser, used by the API and by e-mails, including those a background task sends; and catalogs
that are complete, keep every placeholder, and are compiled as committed."""

import re
from datetime import date
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from config.languages import list_join
from config.models import LanguagePreference
from games import services as games
from tournaments import services as events
from tournaments import tasks
from tournaments.models import Pairing, PlayerAccount

PROJECT = Path(__file__).resolve().parent.parent
SHIPPED = ["da", "el", "ja", "ar"]
CATALOGS = {code: PROJECT / "locale" / code / "LC_MESSAGES" / "django.po" for code in SHIPPED}
PLACEHOLDER = re.compile(r"%\(\w+\)[sdrif]|%[sdrif]|\{\w*\}")

HOME_NAV = {"en": "Events", "da": "Turneringer", "el": "Τουρνουά", "ja": "大会", "ar": "البطولات"}


def html_lang(response) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]*)" dir="([^"]*)">', response.content.decode())
    return found.groups() if found else ("", "")


def nav_events(response) -> str:
    return re.search(r'<a href="/events/"[^>]*>([^<]*)</a>', response.content.decode()).group(1)


# -- choosing ------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("header", "code", "direction"), [
    ("el-GR,el;q=0.9,en;q=0.5", "el", "ltr"),
    ("ja,en-US;q=0.7", "ja", "ltr"),
    ("fr-FR,ar;q=0.8", "ar", "rtl"),
    ("da", "da", "ltr"),
    ("fr, de;q=0.5", "en", "ltr"),
])
def test_the_browser_languages_choose_the_first_one_crawford_speaks(client, header, code, direction):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert html_lang(response) == (code, direction)
    assert nav_events(response) == HOME_NAV[code]
    assert response["Content-Language"] == code
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
@pytest.mark.parametrize(("cookie", "header"), [
    ("xx", "zz-ZZ"),
    ("../../etc/passwd", "el;q=abc, ;;,=,"),
    ("a" * 5000, "*"),
    ("", "q=1, -, en-;q=0"),
    ("ja\x00", "x" * 2000),
])
def test_a_language_crawford_does_not_speak_is_english_never_an_error(cookie, header):
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = cookie
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 200
    assert html_lang(response) == ("en", "ltr")


@pytest.mark.django_db
def test_the_menu_sets_the_language_and_returns_to_the_page(client):
    response = client.post("/language/", {"language": "ja", "next": "/ratings/?page=2"})
    assert response.status_code == 302
    assert response["Location"] == "/ratings/?page=2"
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert (cookie.value, cookie["max-age"], cookie["samesite"]) == ("ja", 365 * 24 * 3600, "Lax")
    # The menu's choice beats the browser's languages.
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="el")
    assert html_lang(page) == ("ja", "ltr")
    assert nav_events(page) == "大会"


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/x", "javascript:alert(1)", ""])
def test_the_menu_returns_only_to_a_page_of_this_site(client, target):
    response = client.post("/language/", {"language": "da", "next": target})
    assert response.status_code == 302
    assert response["Location"] == "/"


@pytest.mark.django_db
@pytest.mark.parametrize("code", ["xx", "", "EN-gb-very-long" * 10, "../da"])
def test_the_menu_refuses_a_language_it_does_not_offer(client, code):
    response = client.post("/language/", {"language": code, "next": "/events/"}, HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400
    assert "Επιλέξτε μία από τις γλώσσες του μενού." in response.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.django_db
def test_the_menu_takes_posts_only_and_checks_the_csrf_token():
    assert Client().get("/language/").status_code == 405
    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/language/", {"language": "da"}).status_code == 403


MENU = re.compile(r'<form class="language-menu" method="post" action="/language/">.*?'
                  r'<input type="hidden" name="next" value="([^"]*)">.*?<select id="language-choice" name="language"'
                  r'.*?</select>\s*<button type="submit"', re.S)


@pytest.mark.django_db
def test_the_menu_is_on_every_page_offering_each_language_in_its_own_words(client):
    get_user_model().objects.create_user("reader", password="a-long-password-1")
    pages = ["/", "/events/", "/ratings/", "/ratings/chances/", "/ratings/formula/", "/login/", "/signup/",
             "/password/reset/", "/no-such-page/"]
    for url in pages:
        response = client.get(url)
        assert response.status_code in (200, 404), url
        menu = MENU.search(response.content.decode())
        assert menu is not None, url
        assert menu.group(1) == url
    client.login(username="reader", password="a-long-password-1")
    for url in ["/account/", "/me/", "/password/change/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert MENU.search(response.content.decode()) is not None, url
    options = re.findall(r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>',
                         client.get("/").content.decode())
    assert options == [("en", " selected", "English"), ("da", "", "dansk"), ("el", "", "Ελληνικά"),
                       ("ja", "", "日本語"), ("ar", "", "العربيّة")]


@pytest.mark.django_db
def test_a_logged_in_choice_is_kept_with_the_login_on_another_device(django_user_model):
    django_user_model.objects.create_user("eleni", password="a-long-password-1")
    phone = Client()
    phone.login(username="eleni", password="a-long-password-1")
    phone.post("/language/", {"language": "el", "next": "/"})
    assert LanguagePreference.objects.get(user__username="eleni").code == "el"
    phone.post("/logout/")

    laptop = Client()  # no cookie of the phone's, a browser asking for Japanese
    assert html_lang(laptop.get("/", HTTP_ACCEPT_LANGUAGE="ja")) == ("ja", "ltr")
    laptop.login(username="eleni", password="a-long-password-1")
    page = laptop.get("/", HTTP_ACCEPT_LANGUAGE="ja")
    assert html_lang(page) == ("el", "ltr")
    assert nav_events(page) == "Τουρνουά"


@pytest.mark.django_db
def test_a_stored_choice_of_a_language_no_longer_shipped_is_english(django_user_model):
    user = django_user_model.objects.create_user("old", password="a-long-password-1")
    LanguagePreference.objects.create(user=user, code="tlh")
    client = Client()
    client.login(username="old", password="a-long-password-1")
    assert html_lang(client.get("/")) == ("en", "ltr")


# -- the API -------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_answers_in_the_language_of_its_request(client):
    response = client.post("/api/v1/tournaments/", {"name": "x"}, content_type="application/json",
                           HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code in (401, 403)
    assert response.json() == {"detail": "Δεν δόθηκαν διαπιστευτήρια."}
    assert response["Content-Language"] == "el"
    english = client.post("/api/v1/tournaments/", {"name": "x"}, content_type="application/json")
    assert english.json() == {"detail": "Authentication credentials were not provided."}


# -- e-mails -------------------------------------------------------------------------------------


@pytest.fixture
def greek_field(db, settings):
    """A knockout of four whose player Eleni reads Greek, Anna English (no choice made)."""
    settings.SITE_URL = "https://club.example"
    User = get_user_model()
    staff = User.objects.create_user("office", is_staff=True, is_superuser=True)
    td = User.objects.create_user("director")
    tournament = events.tournament_create(name="Athens Open", start_date=date(2026, 11, 29), organisers=[td],
                                          by=staff)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[7, 9],
                                  by=td)
    players = {}
    for name in ("Eleni", "Anna", "Bo", "Cy"):
        player = games.player_create(name=name, country="GR")
        user = User.objects.create_user(name.lower(), email=f"{name.lower()}@example.org")
        PlayerAccount.objects.create(player=player, user=user)
        players[name] = player
    LanguagePreference.objects.create(user=User.objects.get(username="eleni"), code="el")
    for player in players.values():
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, by=td), by=td)
    return td, flight, players


def test_a_new_match_email_sent_by_the_task_is_in_the_language_of_each_player(greek_field, mailoutbox,
                                                                             django_capture_on_commit_callbacks):
    td, flight, p = greek_field
    with django_capture_on_commit_callbacks(execute=False):  # the task is run below, as a worker would
        events.flight_start(flight=flight, by=td, first_round=[[p["Eleni"].pk, p["Anna"].pk], [p["Bo"].pk, p["Cy"].pk]])
    ids = list(Pairing.objects.filter(flight=flight).values_list("pk", flat=True))
    assert tasks.pairings_notify.delay(ids).get() == 4
    eleni = next(m for m in mailoutbox if m.to == ["eleni@example.org"])
    anna = next(m for m in mailoutbox if m.to == ["anna@example.org"])
    assert eleni.subject == "Athens Open: παίζετε με τον/την Anna (Main, γύρος 1)"
    assert eleni.body == (
        "Γεια σας Eleni,\n\n"
        "Το επόμενο ματς σας στο Athens Open κληρώθηκε.\n\n"
        "Main, γύρος 1 (ματς R1-1)\n"
        "Αντίπαλος: Anna\n"
        "Διάρκεια ματς: 7 πόντοι\n\n"
        "Τα ματς σας, και πού δηλώνετε το αποτέλεσμα: https://club.example/me/\n\n"
        "Το λαμβάνετε επειδή ο λογαριασμός σας είναι συνδεδεμένος με τον/την Eleni. Για να σταματήσουν αυτά τα "
        "e-mail,\nξετσεκάρετε το «Στείλτε μου e-mail για κάθε νέο ματς» στη σελίδα του λογαριασμού σας: "
        "https://club.example/account/\n"
    )
    assert anna.subject == "Athens Open: you play Eleni (Main, round 1)"
    assert anna.body.startswith("Hello Anna,\n\nYour next match in Athens Open is drawn.")


@pytest.mark.django_db
def test_a_signup_keeps_the_language_it_was_made_in_for_its_confirmation(client, mailoutbox,
                                                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/signup/", {"username": "kenji", "email": "kenji@example.org",
                                            "password": "a-long-password-1"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert LanguagePreference.objects.get(user__username="kenji").code == "ja"
    [mail] = mailoutbox
    assert mail.subject == "Crawford のログインを確認してください"
    assert mail.body.startswith("kenji 様\n\n次のリンクを開いてメールアドレスを確認すると")


# -- the catalogs --------------------------------------------------------------------------------


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated_and_none_is_fuzzy(code):
    catalog = polib.pofile(str(CATALOGS[code]))
    assert catalog.metadata["Language"] == code
    assert [entry.msgid for entry in catalog if entry.fuzzy or not entry.translated()] == []
    assert len(catalog) > 100


@pytest.mark.parametrize("code", SHIPPED)
def test_gettext_itself_accepts_every_catalog(code):
    """What a translator's tool checks: msgfmt --check (formats of python-format messages, plural
    forms, the header); a "95% of" read as a format would stop the catalog being compiled there."""
    import shutil
    import subprocess

    if shutil.which("msgfmt") is None:
        pytest.skip("needs GNU gettext's msgfmt (CI installs it)")
    checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(CATALOGS[code])],
                             capture_output=True, text=True)
    assert (checked.returncode, checked.stderr) == (0, "")


def placeholders_lost(catalog) -> list[tuple[str, str]]:
    """(message, translation) for each translation whose placeholders are not its message's."""
    wrong = []
    for entry in catalog:
        if entry.msgid_plural:
            expected = sorted(set(PLACEHOLDER.findall(entry.msgid_plural)) | set(PLACEHOLDER.findall(entry.msgid)))
            wrong += [(entry.msgid, form) for form in entry.msgstr_plural.values()
                      if sorted(set(PLACEHOLDER.findall(form))) != expected]
        elif _placeholders(entry.msgstr) != _placeholders(entry.msgid):
            wrong.append((entry.msgid, entry.msgstr))
    return wrong


@pytest.mark.parametrize("code", SHIPPED)
def test_every_translation_keeps_the_placeholders_of_its_message(code):
    assert placeholders_lost(polib.pofile(str(CATALOGS[code]))) == []


def test_a_translation_that_drops_or_renames_a_placeholder_is_caught():
    catalog = polib.POFile()
    kept = [
        polib.POEntry(msgid="Game %(number)s is the Crawford game.", msgstr="Spil %(number)s er Crawford-spillet."),
        polib.POEntry(msgid="%(done)s of %(total)s", msgstr="%(total)s 中 %(done)s"),  # another order is fine
        polib.POEntry(msgid="Round {n}", msgstr="Runde {n}"),
        polib.POEntry(msgid="%(n)s point", msgid_plural="%(n)s points",
                      msgstr_plural={0: "%(n)s point", 1: "%(n)s point"}),
    ]
    broken = [
        polib.POEntry(msgid="Game %(number)s removed.", msgstr="Spillet er fjernet."),  # dropped
        polib.POEntry(msgid="%(winner)s won.", msgstr="%(vinder)s vandt."),  # renamed
        polib.POEntry(msgid="Sent: %(score)s.", msgstr="Sendt: %(score)d."),  # another conversion
        polib.POEntry(msgid="Round {n}", msgctxt="brace", msgstr="Runde {number}"),  # a brace one renamed
        polib.POEntry(msgid="lost %(equity)s", msgstr="tabte %(equity)s %(equity)s"),  # doubled
        polib.POEntry(msgid="%(n)s game", msgid_plural="%(n)s games",  # one plural form without it
                      msgstr_plural={0: "et spil", 1: "%(n)s spil"}),
    ]
    for entry in kept + broken:
        catalog.append(entry)
    assert placeholders_lost(catalog) == [
        ("Game %(number)s removed.", "Spillet er fjernet."),
        ("%(winner)s won.", "%(vinder)s vandt."),
        ("Sent: %(score)s.", "Sendt: %(score)d."),
        ("Round {n}", "Runde {number}"),
        ("lost %(equity)s", "tabte %(equity)s %(equity)s"),
        ("%(n)s game", "et spil"),
    ]


def test_the_plural_forms_are_those_of_each_language():
    forms = {code: polib.pofile(str(path)).metadata["Plural-Forms"] for code, path in CATALOGS.items()}
    assert forms == {
        "da": "nplurals=2; plural=(n != 1);",
        "el": "nplurals=2; plural=(n != 1);",
        "ja": "nplurals=1; plural=0;",
        "ar": "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 && "
              "n%100<=99 ? 4 : 5;",
    }


@pytest.mark.parametrize("code", SHIPPED)
def test_the_committed_compiled_catalog_is_its_catalog_compiled(code):
    source = polib.pofile(str(CATALOGS[code]))
    compiled = polib.mofile(str(CATALOGS[code].with_suffix(".mo")))

    def messages(catalog):
        return {(e.msgctxt, e.msgid): (e.msgstr, dict(e.msgstr_plural)) for e in catalog if e.msgid}

    assert messages(compiled) == messages(source)


@pytest.mark.parametrize(("count", "form"), [(0, 0), (1, 1), (2, 2), (3, 3), (10, 3), (11, 4), (99, 4), (100, 5),
                                              (102, 5), (111, 4)])
def test_arabic_counts_take_the_form_their_number_asks_for(count, form):
    from django.utils import translation

    catalog = polib.pofile(str(CATALOGS["ar"]))
    entry = next(e for e in catalog if e.msgid == "Match length: %(length)s point")
    with translation.override("ar"):
        text = translation.ngettext("Match length: %(length)s point", "Match length: %(length)s points", count)
    assert text == entry.msgstr_plural[form]


def test_the_rules_refuse_a_cube_in_the_crawford_game_in_the_language_of_the_request(staff_api, make_player):
    white, black = make_player("White"), make_player("Black")
    match = staff_api.post("/api/v1/matches/", {"player_a": white.pk, "player_b": black.pk, "length": 3},
                           format="json").data["id"]
    ids = {"white": white.pk, "black": black.pk}
    game = {"number": 1, "winner": ids["white"], "kind": "single", "cube": 2, "cube_owner": ids["white"]}
    assert staff_api.post(f"/api/v1/matches/{match}/games/", game, format="json").status_code == 201
    crawford = {"number": 2, "winner": ids["black"], "kind": "gammon", "cube": 2, "cube_owner": ids["black"]}
    refused = {
        "el": "Το παιχνίδι 2 είναι το παιχνίδι Crawford: ο κύβος δεν μπορεί να γυρίσει.",
        "da": "Spil 2 er Crawford-spillet: doblingsterningen må ikke bruges.",
        "ja": "第2ゲームはクロフォードゲームです。キューブは使えません。",
        "ar": "الشوط 2 هو لعبة كروفورد: لا يجوز تحريك مكعب المضاعفة.",
        "en": "Game 2 is the Crawford game: the cube cannot be turned.",
    }
    for code, message in refused.items():
        response = staff_api.post(f"/api/v1/matches/{match}/games/", crawford, format="json",
                                  HTTP_ACCEPT_LANGUAGE=code)
        assert (response.status_code, response.json()) == (400, {"cube": [message]}), code


@pytest.mark.parametrize(("code", "listed"), [
    ("en", "Anne Holm, Bo Lund, Kenji Sato"), ("da", "Anne Holm, Bo Lund, Kenji Sato"),
    ("ja", "Anne Holm、Bo Lund、Kenji Sato"), ("ar", "Anne Holm، Bo Lund، Kenji Sato"),
])
def test_a_list_of_names_is_written_as_each_language_writes_a_list(code, listed):
    with translation.override(code):
        assert list_join(["Anne Holm", "Bo Lund", "Kenji Sato"]) == listed
