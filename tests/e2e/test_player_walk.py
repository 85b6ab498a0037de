"""A player on a 360 px phone: signs up, confirms his e-mail, claims his record, and once a TD
approves it lands on his matches, registers for next week's event, checks in from the phone and
reports a result."""

import re
from datetime import date, timedelta

import pytest
from django.utils import timezone

from tournaments import services as events
from tournaments.models import Pairing, PlayerClaim
from tournaments.services import registration

from .conftest import cast

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fits(page) -> bool:
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    return scroll <= client


def test_a_player_signs_up_claims_registers_checks_in_and_reports_from_a_phone(phone, live_server, mailoutbox,
                                                                       django_user_model):
    td = django_user_model.objects.create_user("director", password="pw-director-1")
    players = cast.make_players(4)
    tournament = cast.build_knockout(td, players, results_rounds=0)
    pairing = Pairing.objects.filter(flight__tournament=tournament, flight__name="Main",
                                     player_b__isnull=False).select_related("player_a", "player_b").first()
    me = pairing.player_a
    base = live_server.url
    staff = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    upcoming = events.tournament_create(name="Friday Cup", start_date=date(2026, 11, 27), organisers=[td], by=staff)
    upcoming_main = events.flight_create(tournament=upcoming, name="Main", format="single_elimination", lengths=[5],
                                         by=td)
    registration.registration_open(flight=upcoming_main, by=td, closes=timezone.now() + timedelta(days=2), cap=16)

    phone.goto(f"{base}/")
    phone.get_by_role("link", name="Sign up").click()
    phone.get_by_label("User name").fill("anna")
    phone.get_by_label("E-mail address").fill("anna@example.org")
    phone.get_by_label("Password").fill("backgammon-2026")
    phone.get_by_role("button", name="Sign up").click()
    assert "Check your e-mail" in phone.content() and fits(phone)

    link = re.search(r"https?://[^/\s]+(/signup/confirm/\S+/)", mailoutbox[0].body)[1]
    phone.goto(base + link)
    assert phone.url.endswith("/account/") and "Your e-mail address is confirmed" in phone.content()
    phone.get_by_label("Your name").fill(me.name.split()[-1])
    phone.get_by_role("button", name="Find").click()
    phone.get_by_role("button", name=f"This is me: {me.name}").click()
    assert f"Your claim on {me.name} is sent" in phone.content() and fits(phone)

    registration.claim_approve(claim=PlayerClaim.objects.get(player=me), by=td)
    phone.get_by_role("button", name=re.compile("Log out")).click()
    phone.get_by_role("link", name="Log in").click()
    phone.get_by_label("Username").fill("anna")
    phone.get_by_label("Password").fill("backgammon-2026")
    phone.get_by_role("button", name="Log in").click()
    phone.wait_for_url(f"{base}/me/")

    # Next week's event: registration online, then check-in from the phone.
    phone.goto(f"{base}/events/{upcoming.slug}/")
    phone.get_by_role("button", name="Register for Main").click()
    assert "You are registered for Main." in phone.content() and fits(phone)
    registration.check_in_window_open(flight=upcoming_main, by=td, minutes=30)
    phone.goto(f"{base}/me/")
    phone.get_by_role("button", name="I am here: check me in").click()
    assert "You are checked in for Friday Cup, Main." in phone.content()

    phone.get_by_label(pairing.player_a.name).fill(str(pairing.round.length))
    phone.get_by_label(pairing.player_b.name).fill("1")
    phone.get_by_role("button", name="Report the result").click()
    assert "It counts when your opponent confirms it." in phone.content() and fits(phone)
