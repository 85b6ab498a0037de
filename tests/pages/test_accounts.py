"""Players on their own: sign up with an e-mail confirmation, claim a player record that a TD
approves, land on their own matches when they log in, reset a forgotten password."""

import re

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import PlayerAccount, PlayerClaim

from .conftest import build_knockout, make_players
from .test_html import check_page

pytestmark = pytest.mark.django_db


def sign_up(client, username="anna", email="anna@example.org", password="backgammon-2026"):
    return client.post("/signup/", {"username": username, "email": email, "password": password})


def confirm_link(mail) -> str:
    return re.search(r"http://testserver(/signup/confirm/\S+/)", mail.body)[1]


def test_a_new_login_works_once_its_e_mail_address_is_confirmed(client, mailoutbox, password_login,
                                                                 django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = sign_up(client)
    assert "Check your e-mail" in response.content.decode()
    user = get_user_model().objects.get(username="anna")
    assert not user.is_active
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["anna@example.org"]
    assert not password_login(client, "anna", "backgammon-2026")
    link = confirm_link(mailoutbox[0])
    response = client.get(link)
    assert response.status_code == 302 and response["Location"] == "/account/"
    user.refresh_from_db()
    assert user.is_active
    client.logout()
    assert client.get(link).status_code == 400  # a link works once


def test_sign_up_refusals_are_shown_beside_their_fields(client, mailoutbox):
    get_user_model().objects.create_user("anna", email="other@example.org")
    response = sign_up(client, password="123")
    html = response.content.decode()
    assert response.status_code == 400 and not mailoutbox
    assert "This user name is taken" in html and "This password is too short" in html
    check_page(html, "sign up refused")
    described = set(" ".join(re.findall(r'aria-describedby="([^"]+)"', html)).split())
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    assert described and described <= ids, described - ids


def test_a_claim_approved_by_a_td_of_the_player_s_event_links_the_login(client, td, django_user_model):
    players = make_players(4)
    build_knockout(td, players, results_rounds=0)
    user = django_user_model.objects.create_user("bo", password="pw-bo-12345")
    client.force_login(user)
    html = client.get("/account/", {"q": players[2].name}).content.decode()
    assert f'aria-label="This is me: {players[2].name}"' in html
    client.post("/account/", {"action": "claim", "player": players[2].pk})
    claim = PlayerClaim.objects.get(user=user)
    assert claim.status == "pending"
    assert "A TD or the federation" in client.get("/account/").content.decode()

    stranger = django_user_model.objects.create_user("stranger", is_staff=False)
    client.force_login(stranger)
    assert client.get("/account/claims/").status_code == 403
    client.force_login(td)
    page = client.get("/account/claims/").content.decode()
    assert "bo says: I am" in page
    client.post("/account/claims/", {"claim": claim.pk, "action": "approve"})
    assert PlayerAccount.objects.get(user=user).player == players[2]

    client.logout()
    response = client.post("/login/", {"username": "bo", "password": "pw-bo-12345", "next": "/welcome/"},
                           follow=True)
    assert response.redirect_chain[-1][0] == "/me/"


def test_a_refused_claim_says_why(client, td, django_user_model):
    players = make_players(2)
    build_knockout(td, players, results_rounds=0)
    user = django_user_model.objects.create_user("cy", password="pw-cy-12345")
    client.force_login(user)
    client.post("/account/", {"action": "claim", "player": players[0].pk})
    claim = PlayerClaim.objects.get(user=user)
    client.force_login(td)
    client.post("/account/claims/", {"claim": claim.pk, "action": "refuse", "reason": ""})
    assert PlayerClaim.objects.get(pk=claim.pk).status == "pending"  # a reason is needed
    client.post("/account/claims/", {"claim": claim.pk, "action": "refuse", "reason": "Not at the event."})
    client.force_login(user)
    assert "was refused: Not at the event." in client.get("/account/").content.decode()


def test_a_td_lands_on_his_desk_and_a_new_login_on_his_account(client, td, django_user_model):
    build_knockout(td, make_players(2), results_rounds=0)
    client.force_login(td)
    assert client.get("/welcome/")["Location"] == "/desk/"
    client.force_login(django_user_model.objects.create_user("dee"))
    assert client.get("/welcome/")["Location"] == "/account/"


def test_a_forgotten_password_is_reset_by_e_mail(client, mailoutbox, django_user_model, password_login):
    django_user_model.objects.create_user("eve", email="eve@example.org", password="old-password-1")
    client.post("/password/reset/", {"email": "eve@example.org"})
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/password/reset/\S+/)", mailoutbox[0].body)[1]
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    client.post(form.redirect_chain[-1][0], {"new_password1": "new-password-22", "new_password2": "new-password-22"})
    assert password_login(client, "eve", "new-password-22")


def test_players_check_in_from_their_phones_while_the_td_s_window_is_open(client, td, django_user_model):
    from datetime import date

    from tournaments import services as events
    from tournaments.models import Entry

    creator = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Friday Cup", start_date=date(2026, 11, 27), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5],
                                  by=td)
    players = make_players(2)
    entry = events.entry_add(flight=flight, player=players[0], by=td)
    user = django_user_model.objects.create_user("fay", password="pw-fay-12345")
    PlayerAccount.objects.create(player=players[0], user=user)

    client.force_login(user)
    assert "check in at the TD's desk" in client.get("/me/").content.decode()
    client.post("/me/", {"action": "check_in", "entry": entry.pk})
    assert Entry.objects.get(pk=entry.pk).status == "registered"  # no window: refused

    client.force_login(td)
    html = client.get(f"/events/{tournament.slug}/").content.decode()
    assert "Open check-in of Main" in html
    client.post(f"/events/{tournament.slug}/check-in/", {"flight": flight.pk, "minutes": "45"})
    assert "Close check-in of Main" in client.get(f"/events/{tournament.slug}/").content.decode()

    client.force_login(user)
    assert "I am here: check me in" in client.get("/me/").content.decode()
    client.post("/me/", {"action": "check_in", "entry": entry.pk})
    assert Entry.objects.get(pk=entry.pk).status == "checked_in"

    stranger = django_user_model.objects.create_user("gus")
    client.force_login(stranger)
    client.post(f"/events/{tournament.slug}/check-in/", {"flight": flight.pk, "action": "close"})
    flight.refresh_from_db()
    assert flight.check_in_closes > flight.check_in_opens  # only a TD closes it


def test_online_registration_fills_the_places_then_a_waiting_list_that_moves_up(client, td, django_user_model):
    from datetime import date, timedelta

    from django.utils import timezone

    from tournaments import services as events
    from tournaments.models import Entry, WaitingEntry

    creator = django_user_model.objects.create_user("office", is_staff=True, is_superuser=True)
    tournament = events.tournament_create(name="Sunday Cup", start_date=date(2026, 11, 29), organisers=[td],
                                          by=creator)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5],
                                  by=td)
    logins = []
    for i, player in enumerate(make_players(3)):
        user = django_user_model.objects.create_user(f"reg{i}", password="pw-reg-12345")
        PlayerAccount.objects.create(player=player, user=user)
        logins.append(user)
    url = f"/events/{tournament.slug}/"

    client.force_login(logins[0])
    client.post(f"{url}register/", {"flight": flight.pk})
    assert not Entry.objects.exists()  # not open yet

    client.force_login(td)
    closes = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    client.post(f"{url}register/", {"flight": flight.pk, "action": "open", "closes": closes, "cap": "2"})
    for user in logins:
        client.force_login(user)
        client.post(f"{url}register/", {"flight": flight.pk})
    assert Entry.objects.filter(flight=flight, status="registered").count() == 2
    assert WaitingEntry.objects.get().player == logins[2].player_account.player
    html = client.get(url).content.decode()
    assert "2 of 2 places taken · 1 waiting" in html and "You are number 1 on the waiting list." in html

    client.force_login(logins[0])
    client.post(f"{url}register/", {"flight": flight.pk, "action": "cancel"})
    assert not WaitingEntry.objects.exists()
    assert set(Entry.objects.filter(flight=flight, status="registered").values_list("player", flat=True)) == {
        logins[1].player_account.player.pk, logins[2].player_account.player.pk}
    client.logout()
    assert 'Log in</a> or <a href="/signup/">sign up</a> to register.' in client.get(url).content.decode()


def test_every_e_mail_links_to_site_url_whatever_host_the_request_came_in_on(
        client, mailoutbox, settings, django_user_model, django_capture_on_commit_callbacks):
    """The sign-up and reset mails, sent from a page, link to the same address as the mails the
    worker sends (a new match, a result to confirm: tests/tournaments/test_match_emails.py)."""
    settings.SITE_URL = "https://club.example"
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(client, username="hana", email="hana@example.org")
    django_user_model.objects.create_user("eve", email="eve@example.org", password="old-password-1")
    client.post("/password/reset/", {"email": "eve@example.org"}, headers={"Host": "127.0.0.1:8000"},
                SERVER_NAME="127.0.0.1")
    assert len(mailoutbox) == 2
    assert re.search(r"https://club\.example/signup/confirm/\S+/", mailoutbox[0].body)
    assert re.search(r"https://club\.example/password/reset/\S+/", mailoutbox[1].body)
    assert "testserver" not in mailoutbox[0].body + mailoutbox[1].body
    assert "127.0.0.1" not in mailoutbox[1].body
