"""A player's record on his page (his events, other matches, results by length, head to head; drawn
by Jinja2) reads in the visitor's language, its plurals and dates as Django writes them, names escaped."""

import re

import pytest
from django.conf import settings
from django.utils import formats, translation

from games import services as games
from tournaments import services as events
from tournaments.models import Pairing

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


def test_a_player_s_record_reads_in_the_visitor_s_language_with_names_escaped(client, td):
    players = make_players(4)
    games.player_update(player=players[1], name="Bo <i>“Cube”</i> & Co")
    tournament = build_knockout(td, players, name="Record Open", results_rounds=0)
    first, second = Pairing.objects.filter(flight__tournament=tournament, status="pending").order_by("id")[:2]
    events.pairing_walkover(pairing=first, winner=first.player_b, reason="did not show up", by=td)
    events.result_report(pairing=second, by=td, score_a=5, score_b=1)
    star = first.player_b
    other = games.match_create(player_a=star, player_b=players[1] if star != players[1] else players[2], length=3)
    games.match_final_score_record(match=other, score_a=3, score_b=1)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "el"
    html = client.get(f"/players/{star.pk}/").content.decode()
    with translation.override("el"):
        wanted = [translation.gettext("Results by event"), translation.gettext("Other matches"),
                  translation.gettext("Head to head"), translation.gettext("7-point forecast"),
                  translation.gettext("won"), translation.gettext("walkover"),
                  translation.ngettext("%(n)s walkover", "%(n)s walkovers", 1) % {"n": 1},
                  translation.gettext("won %(won)s, lost %(lost)s") % {"won": 0, "lost": 0},
                  f'data-label="{translation.gettext("Opponent")}"',
                  formats.date_format(tournament.start_date, translation.pgettext("short date format", "j M Y"))]
    assert wanted[0] != "Results by event"  # read in Greek
    text = re.sub(r"\s+", " ", html)
    assert [w for w in wanted if w not in text] == []
    assert "<i>" not in html and "&lt;i&gt;“Cube”&lt;/i&gt; &amp; Co" in html
