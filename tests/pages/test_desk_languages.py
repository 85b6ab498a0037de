"""The desk in the TD's language: its Django templates, its Jinja2 queue rows, the strings of
desk.js (carried by the page) and the messages of its actions, with plural forms, all from the
catalogs; names and scores untouched."""

import re

import pytest

from .test_desk import HX, event, open_pairings  # noqa: F401 (event is the fixture of both)

pytestmark = pytest.mark.django_db


def test_the_desk_in_arabic_translates_its_templates_its_queue_rows_and_its_script_words(td_client, event):
    first = open_pairings(event)[0]
    html = td_client.get(f"/desk/{event.slug}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    # Django templates: the counters and the queue's heading.
    assert '<b id="count-call">4</b> بانتظار الاستدعاء</li>' in html
    assert '<h2 id="play-heading">قائمة المباريات</h2>' in html
    # Jinja2 rows: the state, the score form's label and its Save, the players' names as they are.
    row = html[html.index(f'id="pairing-{first.pk}"'):html.index(f'id="pairing-{first.pk}"') + 4000]
    assert '<span class="pill is-call">بانتظار الاستدعاء</span>' in row
    assert f'aria-label="النتيجة النهائية لـ {first.slot}"' in row
    assert f'aria-label="حفظ نتيجة {first.slot}">حفظ</button>' in row
    assert f">{first.player_a.name}</label>" in row
    # desk.js's words, translated on the server; the score sheet's are not the desk's.
    assert '<span data-text="Saving…">جارٍ الحفظ…</span>' in html
    assert "Game %(number)s is worth" not in html


def test_the_score_sheet_carries_its_scripts_words_in_arabic_a_plural_for_each_count(td_client, td, event):
    first = open_pairings(event)[0]
    if first.match_id is None:
        from tournaments.services import pairing_start
        pairing_start(pairing=first, by=td)
        first.refresh_from_db()
    html = td_client.get(f"/matches/{first.match_id}/enter/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    assert '<template id="sheet-words" data-words>' in html
    assert ('<span data-text="Game %(number)s is the Crawford game: no doubling, so the cube stays at 1.">'
            "الشوط %(number)s هو لعبة كروفورد: لا مضاعفة، فيبقى المكعب على 1.</span>") in html
    assert ('<span data-text="Game %(number)s is worth %(points)s point." data-count="3">'
            "الشوط %(number)s قيمته %(points)s نقاط.</span>") in html
    assert ('<span data-text="Game %(number)s is worth %(points)s point." data-count="11">'
            "الشوط %(number)s قيمته %(points)s نقطة.</span>") in html


def test_a_save_answers_in_danish_with_the_match_named_and_the_rounds_progress_in_plural(td_client, event):
    first = open_pairings(event)[0]
    response = td_client.post(f"/desk/{event.slug}/", {
        "action": "score", "pairing": first.pk, f"p{first.pk}-version": first.version,
        f"p{first.pk}-score_a": 5, f"p{first.pk}-score_b": 2}, headers=HX, HTTP_ACCEPT_LANGUAGE="da")
    html = response.content.decode()
    assert response.status_code == 200
    assert f"Main R1-1: {first.player_a.name} 5–2 {first.player_b.name} registreret." in html
    assert re.search(r'id="progress-\d+-1" hx-swap-oob="true">5 point · 3 mangler<', html)
    assert '<span class="pill is-finished">Afsluttet</span>' in html


def test_the_desk_counts_in_greek_plurals_and_japanese_has_one_form(td_client, event):
    greek = td_client.get("/desk/", HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert "· 8 συμμετοχές</span>" in greek
    called = td_client.post(f"/desk/{event.slug}/", {"action": "tables", "tables-count": 6, "tables-reserved": ""},
                            HTTP_ACCEPT_LANGUAGE="ja", follow=True).content.decode()
    assert "テーブル 6 台。" in called
    danish = td_client.post(f"/desk/{event.slug}/", {"action": "call_all"}, HTTP_ACCEPT_LANGUAGE="da",
                            follow=True).content.decode()
    assert "4 matcher kaldt til et bord." in danish


def test_a_refused_form_of_the_desk_says_why_in_the_tds_language(td_client, event):
    response = td_client.post(f"/desk/{event.slug}/", {
        "action": "tables", "tables-count": 4, "tables-reserved": "somewhere"}, HTTP_ACCEPT_LANGUAGE="el")
    assert response.status_code == 400
    assert ("Γραμμή 1: γράψτε ένα τραπέζι και για ποιον είναι, π.χ. &quot;1 Consolation&quot;."
            in response.content.decode())


def test_the_reason_an_undo_at_the_desk_keeps_is_in_the_sites_language_whoever_reads_it(td_client, event, settings):
    from tournaments.models import Pairing

    settings.LANGUAGE_CODE = "da"
    first = open_pairings(event)[0]
    td_client.post(f"/desk/{event.slug}/", {
        "action": "score", "pairing": first.pk, f"p{first.pk}-version": first.version,
        f"p{first.pk}-score_a": 5, f"p{first.pk}-score_b": 2}, headers=HX, HTTP_ACCEPT_LANGUAGE="ja")
    first.refresh_from_db()
    undone = td_client.post(f"/desk/{event.slug}/", {"action": "undo", "pairing": first.pk,
                                                    f"undo{first.pk}-version": first.version},
                            headers=HX, HTTP_ACCEPT_LANGUAGE="ja")
    assert undone.status_code == 200
    words = f"Main {first.slot}: {first.player_a.name} 5–2 {first.player_b.name}"
    assert f"取り消しました: {words}。マッチは再び未決着です。" in undone.content.decode()  # the TD reads Japanese
    reasons = list(Pairing.history.filter(id=first.pk).order_by("-history_id")
                   .values_list("history_change_reason", flat=True)[:1])
    assert reasons == ["fortrudt ved turneringsbordet"]


def test_a_broken_version_on_the_desk_is_refused_in_the_tds_language(td_client, event):
    first = open_pairings(event)[0]
    refused = td_client.post(f"/desk/{event.slug}/", {"action": "undo", "pairing": first.pk,
                                                     f"undo{first.pk}-version": "abc"}, HTTP_ACCEPT_LANGUAGE="el")
    assert refused.status_code == 400
    assert "Αυτό το αίτημα δεν έγινε κατανοητό" in refused.content.decode()


def test_the_apis_refusal_of_a_walkover_to_a_stranger_is_in_the_language_asked_for(event, td):
    from rest_framework.test import APIClient

    first = open_pairings(event)[0]
    api = APIClient()
    api.force_authenticate(td)
    refused = api.post(f"/api/v1/pairings/{first.pk}/walkover/", {"winner": 999999, "version": first.version},
                       format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 400
    assert refused.json() == {"winner": ["不戦勝の勝者はこのマッチのプレイヤーです（その ID）。"]}


def test_the_offline_queues_counts_are_carried_in_every_plural_form_of_arabic(td_client, event):
    html = td_client.get(f"/desk/{event.slug}/", HTTP_ACCEPT_LANGUAGE="ar").content.decode()
    waiting = dict(re.findall(
        r'<span data-text="%\(n\)s result waiting to send\." data-count="(\d+)">([^<]*)</span>', html))
    assert waiting == {
        "0": "%(n)s نتيجة بانتظار الإرسال.",
        "1": "%(n)s نتيجة واحدة بانتظار الإرسال.",
        "2": "%(n)s نتيجتان بانتظار الإرسال.",
        "3": "%(n)s نتائج بانتظار الإرسال.",
        "11": "%(n)s نتيجة بانتظار الإرسال.",
        "100": "%(n)s نتيجة بانتظار الإرسال.",
    }
    assert ('<span data-text="%(n)s result to decide: see its row." data-count="2">'
            '%(n)s نتيجتان تنتظران القرار: انظر صفيهما.</span>') in html


def test_the_event_pages_find_my_match_says_its_count_in_the_readers_language(client, event):
    html = client.get(f"/events/{event.slug}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert ('<span data-text="No match to play now for “%(name)s”.">「%(name)s」がいま対戦する試合はありません。</span>'
            in html)
    assert ('<span data-text="%(n)s match to play now for “%(name)s”." data-count="2">'
            '「%(name)s」がいま対戦する試合: %(n)s 件。</span>') in html


def test_the_slips_in_danish_translate_every_slip_and_escape_the_clock_and_the_names(td_client, event):
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=event.pk).update(cube_cap=4, clock="2 min + 12 s/<move>")
    first = open_pairings(event)[0]
    html = td_client.get(f"/desk/{event.slug}/slips/", HTTP_ACCEPT_LANGUAGE="da").content.decode()
    slip = html[html.index(f'aria-label="Seddel Main {first.slot}"'):]
    slip = slip[:slip.index("</article>")]
    assert f"<p class=\"slip-players\"><b>{first.player_a.name}</b> mod <b>{first.player_b.name}</b></p>" in slip
    assert ('<p class="slip-rules">Match til 5 point, Crawford-reglen, terningen højst 4 · '
            "ur 2 min + 12 s/&lt;move&gt;</p>") in slip
    assert '<div class="slip-table"><small>Bord</small><b>&nbsp;</b></div>' in slip
    assert f'<section class="slip-half" aria-label="Halvdel til {first.player_b.name}">' in slip
    assert f'<p class="slip-for">Til {first.player_a.name}</p>' in slip
    assert re.search(r'<p class="slip-code">Kode <b>[3-9A-Y]{3}-[3-9A-Y]{3}</b></p>', slip)
    assert '<p class="slip-how">Scan QR-koden, og skriv så din kode og slutstillingen.</p>' in slip
    assert html.count('<article class="slip"') == 4


def test_a_round_without_a_match_to_play_prints_no_slip_in_japanese(td_client, event):
    html = td_client.get(f"/desk/{event.slug}/slips/", {"round": 999999}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<article class="slip"' not in html
    assert f'<div class="slips">\n\n  <p>{translated("No match to play in this round.", "ja")}</p>\n\n</div>' in html


def translated(message: str, language: str) -> str:
    from django.utils import translation

    with translation.override(language):
        return translation.gettext(message)
