"""Text that people type (names, clubs, a walkover's reason) reaches the desk, the projector and the event page as text, never as HTML: the long lists
are drawn by Jinja2 templates that escape by hand what they write (templates/jinja2/)."""

import pytest
from django.urls import reverse

from games import services as games
from tournaments import services as events
from tournaments.models import Flight, Pairing

from .conftest import build_knockout

pytestmark = pytest.mark.django_db

HOSTILE = "<i>Ann</i> & \"Bo\" 'Cy'"
ESCAPED = "&lt;i&gt;Ann&lt;/i&gt; &amp; &#34;Bo&#34; &#39;Cy&#39;"
"""`HOSTILE` as Jinja2 (markupsafe) escapes it; Django writes the quotes as &quot; and &#x27;."""


def test_names_and_reasons_typed_by_people_are_escaped_on_the_desk_and_the_event_page(td, client):
    players = [games.player_create(name=HOSTILE.replace("Ann", f"Ann {i}"), country="DK", club=HOSTILE)
               for i in range(8)]
    tournament = build_knockout(td, players, results_rounds=0)
    other = Pairing.objects.filter(flight__tournament=tournament, round__number=1).first()
    events.pairing_walkover(pairing=other, winner=other.player_a, reason="<script>no-show</script>", by=td)

    client.force_login(td)
    desk = client.get(reverse("desk-event", args=[tournament.slug])).content.decode()
    event = client.get(reverse("event", args=[tournament.slug])).content.decode()
    projector = client.get(reverse("desk-projector", args=[tournament.slug])).content.decode()
    for page in (desk, event, projector):
        assert "<i>Ann" not in page and "<script>no-show" not in page
    named = ESCAPED.replace("Ann", "Ann 3")
    assert named in desk and named in event and f'<span class="pj-name">{named}</span>' in projector
    assert f'data-find="{named.lower()} | ' in desk or f' | {named.lower()} | ' in desk  # the row's search words
    assert "&lt;script&gt;no-show&lt;/script&gt;" in desk


def test_a_flight_name_is_text_in_the_cards_of_the_matches_to_play_in_either_direction(td, client):
    players = [games.player_create(name=f"Player {i}", country="DK") for i in range(8)]
    tournament = build_knockout(td, players, results_rounds=0)
    Flight.objects.filter(pk=Flight.objects.filter(tournament=tournament).order_by("position").first().pk).update(
        name=HOSTILE)
    django_escaped = ESCAPED.replace("&#34;", "&quot;").replace("&#39;", "&#x27;")
    for language, isolated in (("en", ESCAPED), ("ar", f"<bdi>{django_escaped}</bdi>")):
        text = client.get(reverse("event", args=[tournament.slug]), headers={"accept-language": language}).content.decode()
        assert "<i>Ann" not in text
        assert f'<span class="now-meta">{isolated} · ' in text, language


@pytest.mark.parametrize("value", [HOSTILE, "", "plain", 7, 2.5, None, "ø & ü"])
def test_the_lists_hand_escaping_writes_what_markupsafe_writes(value):
    from markupsafe import Markup, escape
    from tournaments.templating import escaped

    assert escaped(value) == str(escape(value))
    assert type(escaped(value)) is str
    assert escaped(Markup("<b>kept</b>")) == "<b>kept</b>"
