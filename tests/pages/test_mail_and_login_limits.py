"""Nobody floods a mailbox or sprays user names from one address, a refusing mail server locks no
one out of signing up, and a valid API token is never refused for someone else's wrong ones."""

import re
from smtplib import SMTPRecipientsRefused

import pytest
from celery.exceptions import Retry
from django.contrib.auth import get_user_model
from django.core import mail as django_mail
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


def sign_up(client, username="anna", email="anna@example.org", password="backgammon-2026", **extra):
    return client.post("/signup/", {"username": username, "email": email, "password": password}, **extra)


def confirm_link(message) -> str:
    return re.search(r"http://testserver(/signup/confirm/\S+/)", message.body)[1]


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run what a request leaves for after its commit (the e-mail tasks), as a real request does."""
    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()
    return run


# -- password reset -------------------------------------------------------------------------------


def test_an_address_gets_three_reset_mails_an_hour_and_the_page_never_tells(client, mailoutbox):
    get_user_model().objects.create_user("anna", email="anna@example.org", password="pw-anna-12345")
    codes = [client.post("/password/reset/", {"email": "anna@example.org"}, REMOTE_ADDR=f"10.0.0.{n}").status_code
             for n in range(30)]
    assert codes == [302] * 30  # from thirty addresses: each is told the mail is on its way
    assert len(mailoutbox) == 3


def test_a_client_asking_for_more_than_ten_resets_an_hour_is_refused(client, mailoutbox):
    for n in range(12):
        get_user_model().objects.create_user(f"u{n}", email=f"u{n}@example.org", password="pw-user-12345")
    codes = [client.post("/password/reset/", {"email": f"u{n}@example.org"}).status_code for n in range(12)]
    assert codes == [302] * 10 + [429, 429]
    assert len(mailoutbox) == 10
    response = client.post("/password/reset/", {"email": "u0@example.org"})
    assert "Too many e-mails were asked for from your address: try again in an hour." in response.content.decode()


def test_a_reset_mail_the_server_refuses_once_is_delivered_once_by_the_worker(client, mailoutbox, monkeypatch):
    from tournaments import tasks

    get_user_model().objects.create_user("anna", email="anna@example.org", password="pw-anna-12345")
    queued = []
    monkeypatch.setattr(tasks.password_reset_send, "delay", lambda *args: queued.append(args))
    response = client.post("/password/reset/", {"email": "anna@example.org"}, follow=True)
    assert response.status_code == 200
    assert "a link to choose a new password is on its way" in response.content.decode()
    assert mailoutbox == [] and len(queued) == 1  # the page sent nothing itself

    refusals = []
    send = django_mail.EmailMessage.send

    def server(message, *args, **kwargs):
        if not refusals:
            refusals.append(message.to)
            raise SMTPRecipientsRefused({"anna@example.org": (450, b"try later")})
        return send(message, *args, **kwargs)

    monkeypatch.setattr(django_mail.EmailMessage, "send", server)
    with pytest.raises(Retry) as retry:  # the worker's first try: refused, tried again later
        tasks.password_reset_send.apply(args=queued[0])
    assert mailoutbox == []
    retry.value.sig.apply()
    assert refusals == [["anna@example.org"]]
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["anna@example.org"]
    assert re.search(r"http://testserver/password/reset/\S+/", mailoutbox[0].body)
    assert tasks.password_reset_send.max_retries == 8


def test_a_refusing_mail_server_gives_the_reset_page_no_error(client, mailoutbox, monkeypatch):
    get_user_model().objects.create_user("anna", email="anna@example.org", password="pw-anna-12345")

    def refused(message, *args, **kwargs):
        raise SMTPRecipientsRefused({"anna@example.org": (450, b"try later")})

    monkeypatch.setattr(django_mail.EmailMessage, "send", refused)
    response = client.post("/password/reset/", {"email": "anna@example.org"})
    assert response.status_code == 302 and response["Location"] == "/password/reset/sent/"


def test_the_reset_page_answers_the_same_whether_or_not_a_login_has_the_address(client, mailoutbox):
    get_user_model().objects.create_user("anna", email="anna@example.org", password="pw-anna-12345")
    known = client.post("/password/reset/", {"email": "anna@example.org"}, follow=True)
    unknown = client.post("/password/reset/", {"email": "nobody@example.org"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [("/password/reset/sent/", 302)]
    assert known.status_code == unknown.status_code == 200
    strip = lambda page: re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"', "", page.content.decode())
    assert strip(known) == strip(unknown)
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]


# -- sign-up --------------------------------------------------------------------------------------


def test_a_client_signing_up_more_than_ten_times_an_hour_is_refused(client, mailoutbox, on_commit):
    codes = [on_commit(lambda n=n: sign_up(client, f"user{n}", f"user{n}@example.org")).status_code
             for n in range(12)]
    assert codes == [200] * 10 + [429, 429]
    assert len(mailoutbox) == 10
    assert get_user_model().objects.count() == 10


def test_signing_up_again_re_sends_the_link_at_most_three_times_an_hour(client, mailoutbox, on_commit):
    codes = [on_commit(lambda n=n: sign_up(client, REMOTE_ADDR=f"10.0.1.{n}")).status_code for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    assert len(mailoutbox) == 3
    assert get_user_model().objects.filter(email="anna@example.org").count() == 1


def test_a_refused_confirmation_mail_locks_no_one_out_signing_up_again_re_sends_it(
        client, mailoutbox, on_commit, monkeypatch, password_login):
    refusing = {"on": True}
    send = django_mail.EmailMessage.send

    def server(message, *args, **kwargs):
        if refusing["on"]:
            raise SMTPRecipientsRefused({"anna@example.org": (450, b"try later")})
        return send(message, *args, **kwargs)

    monkeypatch.setattr(django_mail.EmailMessage, "send", server)
    response = on_commit(lambda: sign_up(client))
    assert response.status_code == 200
    assert "An e-mail with a link is on its way to <strong>anna@example.org</strong>" in response.content.decode()
    assert mailoutbox == []
    # Signing up again (any user name, the address in any case) sends the waiting login's link again.
    refusing["on"] = False
    response = on_commit(lambda: sign_up(client, username="anna2", email="ANNA@example.org"))
    assert ("The login <strong>anna</strong> is waiting for <strong>anna@example.org</strong> to be confirmed"
            in response.content.decode())
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["anna@example.org"]
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["anna"]
    client.get(confirm_link(mailoutbox[0]))
    client.logout()
    assert password_login(client, "anna", "backgammon-2026")


def test_the_confirmation_task_tries_again_when_the_mail_server_refuses(monkeypatch):
    from tournaments import tasks

    user = get_user_model().objects.create_user("anna", email="anna@example.org", is_active=False)

    def refused(message, *args, **kwargs):
        raise SMTPRecipientsRefused({"anna@example.org": (450, b"try later")})

    monkeypatch.setattr(django_mail.EmailMessage, "send", refused)
    with pytest.raises(Retry) as retry:
        tasks.account_confirmation_send.apply(args=(user.pk, "http://testserver/x/"))
    assert isinstance(retry.value.exc, SMTPRecipientsRefused)
    assert tasks.account_confirmation_send.max_retries == 8


def test_a_login_waiting_for_its_confirmation_is_confirmed_by_a_password_reset(client, mailoutbox, on_commit,
                                                                             password_login):
    on_commit(lambda: sign_up(client))
    mailoutbox.clear()
    client.post("/password/reset/", {"email": "anna@example.org"})
    assert len(mailoutbox) == 1
    link = re.search(r"http://testserver(/password/reset/\S+/)", mailoutbox[0].body)[1]
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "a-new-pass-2026", "new_password2": "a-new-pass-2026"})
    user = get_user_model().objects.get(username="anna")
    assert user.is_active
    assert password_login(client, "anna", "a-new-pass-2026")


def test_a_login_staff_turned_off_gets_no_reset_mail(client, mailoutbox):
    user = get_user_model().objects.create_user("anna", email="anna@example.org", password="pw-anna-12345")
    user.last_login, user.is_active = user.date_joined, False
    user.save()
    client.post("/password/reset/", {"email": "anna@example.org"})
    assert mailoutbox == []


# -- logins ---------------------------------------------------------------------------------------


VENUE = "192.0.2.40"
"""The one address every phone of a venue shares (its wifi)."""


def test_a_guesser_at_a_venue_locks_the_names_he_guesses_and_no_other_player_s_login(client):
    players = [get_user_model().objects.create_user(f"player{n:02d}", password=f"right-password-{n:02d}")
               for n in range(20)]

    def log_in(username, password):
        client.logout()
        return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=VENUE).status_code

    # Five wrong passwords for one player, then one for each of eleven others and three unknown names.
    guesses = [log_in("player00", f"guess-{n}") for n in range(5)]
    guesses += [log_in(f"player{n:02d}", "guess") for n in range(1, 12)] + [log_in(f"ghost{n}", "guess") for n in range(3)]
    assert guesses == [200] * 4 + [429] + [200] * 14
    # Past ten names the guesser is slowed: a further name is locked after two wrong passwords, not five.
    assert [log_in("ghost9", "guess"), log_in("ghost9", "guess"), log_in("ghost9", "guess")] == [200, 429, 429]
    # Every other player of the room logs in with his password, those whose names were guessed once too ...
    assert [log_in(p.username, f"right-password-{n:02d}") for n, p in enumerate(players) if n] == [302] * 19
    # ... and the name guessed five times waits, the right password included.
    client.logout()
    response = client.post("/login/", {"username": "player00", "password": "right-password-00"}, REMOTE_ADDR=VENUE)
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    assert ("After 5 wrong passwords in a row for <strong>player00</strong>, logging in as player00 from here is locked"
            in response.content.decode())
    # From another address his password is taken.
    assert client.post("/login/", {"username": "player00", "password": "right-password-00"},
                       REMOTE_ADDR="198.51.100.7").status_code == 302


def test_nine_user_names_mistyped_do_not_lock_the_client_out(client, password_login):
    get_user_model().objects.create_user("anna", password="the-right-password-1")
    for n in range(9):
        client.post("/login/", {"username": f"name{n}", "password": "guess"})
    assert password_login(client, "anna", "the-right-password-1")


def test_a_valid_token_is_taken_after_others_sent_wrong_ones_from_the_same_address(api):
    user = get_user_model().objects.create_user("robot")
    token = Token.objects.create(user=user)
    codes = []
    for n in range(12):
        api.credentials(HTTP_AUTHORIZATION=f"Token {'0' * 39}{n % 10}")
        codes.append(api.get("/api/v1/players/").status_code)
    assert codes == [403] * 10 + [429, 429]
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert api.get("/api/v1/players/").status_code == 200
    api.credentials(HTTP_AUTHORIZATION="Token wrong-again")
    assert api.get("/api/v1/players/").status_code == 429
