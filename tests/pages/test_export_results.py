"""A venue without internet: the slips point at the TD's laptop, and the event reaches the club's
server as a results file: `export_results` writes what `import_results` reads, and importing it
twice stores it once."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Match
from tournaments.models import Pairing, Tournament

from .conftest import build_knockout, make_players

pytestmark = pytest.mark.django_db


def test_an_event_s_results_go_to_another_server_once(td, tmp_path, capsys):
    event = build_knockout(td, make_players(8, "Laptop"), name="Cellar Open", results_rounds=1)
    played = list(Pairing.objects.filter(flight__tournament=event, status="finished")
                  .select_related("player_a", "player_b", "round").order_by("id"))
    assert len(played) == 4
    expected = sorted((p.player_a.name, p.player_b.name, p.round.length, p.score_a, p.score_b) for p in played)
    file = tmp_path / "cellar.csv"
    call_command("export_results", event.slug, str(file))
    lines = file.read_text().splitlines()
    assert lines[0] == "played_on,player_a,player_b,length,score_a,score_b,event,source_id"
    assert lines[1].endswith(f",Cellar Open,{event.slug}/Main/{played[0].slot}")
    # The club's server knows the players but not the event (played on the laptop).
    Tournament.objects.filter(pk=event.pk).delete()
    Match.objects.all().delete()
    call_command("import_results", str(file))
    assert "imported 4 matches, 0 already there, 0 new players" in capsys.readouterr().out
    stored = sorted((m.player_a.name, m.player_b.name, m.length, m.score_a, m.score_b)
                    for m in Match.objects.select_related("player_a", "player_b"))
    assert stored == expected
    call_command("import_results", str(file))
    assert "imported 0 matches, 4 already there" in capsys.readouterr().out
    assert Match.objects.count() == 4


def test_an_unknown_event_names_the_events_there_are(td):
    build_knockout(td, make_players(4, "Known"), name="Known Cup", results_rounds=0)
    with pytest.raises(CommandError, match="There is no event 'nope'. Events: known-cup"):
        call_command("export_results", "nope", "-")


def test_at_a_venue_without_internet_the_slips_point_at_the_laptop(td_client, td, settings):
    """The TD opens the desk at localhost; the players' phones reach the laptop at SLIP_BASE_URL."""
    event = build_knockout(td, make_players(4, "Venue"), name="Venue Cup", results_rounds=0)
    settings.SLIP_BASE_URL = "http://192.168.1.20:8000"
    html = td_client.get(f"/desk/{event.slug}/slips/").content.decode()
    pairing = Pairing.objects.filter(flight__tournament=event, player_b__isnull=False).order_by("id").first()
    assert f"192.168.1.20:8000/events/{event.slug}/m/{pairing.pk}/" in html
    assert "http://testserver/events/" not in html
