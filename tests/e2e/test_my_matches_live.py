"""A player's own page updates itself, as the event page does: the opponent's report appears on
the phone without a reload, and a score being typed is never overwritten by a refresh."""

import pytest
from django.contrib.auth import get_user_model

from tournaments import services as events
from tournaments.models import Pairing, PlayerAccount

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_opponent_s_report_appears_on_my_matches_without_a_reload(phone, live_server, settings):
    settings.EVENT_REFRESH_SECONDS = 1
    td = get_user_model().objects.create_user("director", password="pw-director-1")
    tournament = cast.build_knockout(td, cast.make_players(4), results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=tournament, player_b__isnull=False).order_by("pk").first()
    me = get_user_model().objects.create_user("bo", password="pw-bo-123456")
    opponent = get_user_model().objects.create_user("anna", password="pw-anna-123456")
    PlayerAccount.objects.create(player=pairing.player_b, user=me)
    PlayerAccount.objects.create(player=pairing.player_a, user=opponent)
    base = live_server.url
    phone.goto(f"{base}/login/")
    phone.get_by_label("Username").fill("bo")
    phone.get_by_label("Password").fill("pw-bo-123456")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(f"{base}/me/")
    phone.get_by_role("button", name="Report the result").wait_for()
    length = pairing.round.length
    events.result_report(pairing=pairing, by=opponent, score_a=length, score_b=1)
    section = phone.locator(f"#pairing-{pairing.pk}")
    section.get_by_text(f"{pairing.player_a.name} reported").wait_for()
    assert section.get_by_role("button", name="That is right: confirm").count() == 1
