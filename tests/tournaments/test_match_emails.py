"""A player with a login and an e-mail address is told of each new match drawn for him, once."""

from datetime import date
from smtplib import SMTPServerDisconnected

import pytest
from celery.exceptions import Retry
from django.contrib.auth import get_user_model

from games import services as games
from tournaments import services as events
from tournaments import tasks
from tournaments.models import Pairing, PlayerAccount

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(db, settings):
    """A four-player knockout (Main, 5 then 7 points); Anna, Bo and Cy have logins with an address,
    Dee a login without one."""
    settings.SITE_URL = "https://club.example"
    settings.DEFAULT_FROM_EMAIL = "Club <td@club.example>"
    User = get_user_model()
    staff = User.objects.create_user("office", is_staff=True, is_superuser=True)
    td = User.objects.create_user("director")
    tournament = events.tournament_create(name="Sunday Cup", start_date=date(2026, 11, 29), organisers=[td],
                                          by=staff)
    flight = events.flight_create(tournament=tournament, name="Main", format="single_elimination", lengths=[5, 7],
                                  by=td)
    players = {}
    for name, email in (("Anna", "anna@example.org"), ("Bo", "bo@example.org"), ("Cy", "cy@example.org"),
                        ("Dee", "")):
        player = games.player_create(name=name, country="DK")
        user = User.objects.create_user(name.lower(), email=email)
        PlayerAccount.objects.create(player=player, user=user)
        players[name] = player
    return td, flight, players


def enter(td, flight, players):
    for player in players:
        events.entry_check_in(entry=events.entry_add(flight=flight, player=player, by=td), by=td)


def sent(mailoutbox):
    return sorted((m.to[0], m.subject) for m in mailoutbox)


def test_each_player_of_a_new_match_gets_one_email(field, mailoutbox, django_capture_on_commit_callbacks):
    td, flight, p = field
    enter(td, flight, p.values())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk],
                                                               [p["Cy"].pk, p["Dee"].pk]])
    assert len(callbacks) == 1
    # Dee has no address: Cy alone hears of the second match.
    assert sent(mailoutbox) == [
        ("anna@example.org", "Sunday Cup: you play Bo (Main, round 1)"),
        ("bo@example.org", "Sunday Cup: you play Anna (Main, round 1)"),
        ("cy@example.org", "Sunday Cup: you play Dee (Main, round 1)"),
    ]
    anna = next(m for m in mailoutbox if m.to == ["anna@example.org"])
    assert anna.from_email == "Club <td@club.example>"
    assert anna.body == (
        "Hello Anna,\n\n"
        "Your next match in Sunday Cup is drawn.\n\n"
        "Main, round 1 (match R1-1)\n"
        "Opponent: Bo\n"
        "Match length: 5 points\n\n"
        "Your matches, and where you report the result: https://club.example/me/\n\n"
        "You receive this because your login is linked to Anna. To stop these e-mails,\n"
        'untick "E-mail me each new match" on your account page: https://club.example/account/\n'
    )
    assert Pairing.objects.filter(notified_at__isnull=False).count() == 2

    # Sent again (a task delivered twice): nothing goes twice.
    assert tasks.pairings_notify.delay(list(Pairing.objects.values_list("pk", flat=True))).get() == 0
    assert len(mailoutbox) == 3

    # The final is drawn when both semi-finals are decided: only its two players hear of it.
    first, second = Pairing.objects.order_by("slot")
    with django_capture_on_commit_callbacks(execute=True):
        events.result_override(pairing=first, score_a=5, score_b=2, by=td)
    assert len(mailoutbox) == 3
    with django_capture_on_commit_callbacks(execute=True):
        events.result_override(pairing=second, score_a=5, score_b=0, by=td)
    assert sent(mailoutbox[3:]) == [("anna@example.org", "Sunday Cup: you play Cy (Main, round 2)"),
                                    ("cy@example.org", "Sunday Cup: you play Anna (Main, round 2)")]
    assert "Match length: 7 points\n" in mailoutbox[3].body


def test_no_email_for_a_bye_nor_for_a_player_who_turned_them_off(field, client, mailoutbox,
                                                                 django_capture_on_commit_callbacks):
    td, flight, p = field
    bo = PlayerAccount.objects.get(player=p["Bo"]).user
    client.force_login(bo)
    response = client.post("/account/", {"action": "match_emails"})  # the box left unticked
    assert response.status_code == 302
    assert PlayerAccount.objects.get(player=p["Bo"]).match_emails is False
    assert "E-mail me each new match" in client.get("/account/").content.decode()
    enter(td, flight, [p["Anna"], p["Bo"], p["Cy"]])
    with django_capture_on_commit_callbacks(execute=True):
        events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk], [p["Cy"].pk, None]])
    assert Pairing.objects.get(slot="R1-2").status == "bye"
    assert sent(mailoutbox) == [("anna@example.org", "Sunday Cup: you play Bo (Main, round 1)")]

    client.post("/account/", {"action": "match_emails", "match_emails": "on"})
    assert PlayerAccount.objects.get(player=p["Bo"]).match_emails is True


def test_a_swiss_round_started_by_the_td_is_announced(field, mailoutbox, django_capture_on_commit_callbacks):
    td, _, p = field
    tournament = events.tournament_create(name="Club Swiss", start_date=date(2026, 11, 30), organisers=[td],
                                          by=get_user_model().objects.get(username="office"))
    flight = events.flight_create(tournament=tournament, name="Swiss", format="swiss", lengths=[3], swiss_rounds=2,
                                  auto_pair=False, by=td)
    enter(td, flight, [p["Anna"], p["Bo"], p["Cy"]])
    with django_capture_on_commit_callbacks(execute=True):
        events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Cy"].pk], [p["Bo"].pk, None]])
    assert sent(mailoutbox) == [("anna@example.org", "Club Swiss: you play Cy (Swiss, round 1)"),
                                ("cy@example.org", "Club Swiss: you play Anna (Swiss, round 1)")]
    with django_capture_on_commit_callbacks(execute=True):
        events.result_override(pairing=Pairing.objects.get(flight=flight, slot="R1-1"), score_a=3, score_b=1, by=td)
        events.round_start(flight=flight, by=td, pairings=[[p["Anna"].pk, p["Bo"].pk], [p["Cy"].pk, None]])
    assert sent(mailoutbox[2:]) == [("anna@example.org", "Club Swiss: you play Bo (Swiss, round 2)"),
                                    ("bo@example.org", "Club Swiss: you play Anna (Swiss, round 2)")]


def test_a_mail_server_that_fails_never_fails_the_draw(field, mailoutbox, monkeypatch,
                                                       django_capture_on_commit_callbacks):
    td, flight, p = field
    enter(td, flight, p.values())
    calls = []

    def refuse(message, fail_silently=False):
        calls.append(message.to[0])
        raise SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("django.core.mail.EmailMessage.send", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk],
                                                               [p["Cy"].pk, p["Dee"].pk]])
    assert Pairing.objects.filter(status="pending").count() == 2  # the draw stands
    assert mailoutbox == [] and calls == ["anna@example.org"]
    # The claim on the first pairing is given back: the retry (or a later run) sends it all.
    assert not Pairing.objects.filter(notified_at__isnull=False).exists()
    ids = list(Pairing.objects.values_list("pk", flat=True))
    with pytest.raises(Retry, match=r"Retry in \d+s: SMTPServerDisconnected"):
        tasks.pairings_notify.apply(args=[ids])
    assert calls == ["anna@example.org"] * 2
    monkeypatch.undo()
    assert tasks.pairings_notify.delay(list(Pairing.objects.values_list("pk", flat=True))).get() == 3


def test_in_an_event_with_tables_the_email_goes_when_the_table_is_called_and_names_it(
        field, mailoutbox, django_capture_on_commit_callbacks):
    td, flight, p = field
    events.tables_set(tournament=flight.tournament, by=td, count=6, reserved=[])
    enter(td, flight, p.values())
    with django_capture_on_commit_callbacks(execute=True):
        events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk],
                                                               [p["Cy"].pk, p["Dee"].pk]])
    assert mailoutbox == []  # drawn, not yet seated
    from tournaments.services.notifications import pairing_notices_owed

    assert pairing_notices_owed() == 0  # nothing is owed before a table is called: the sweep sends nothing
    first = Pairing.objects.get(player_a=p["Anna"])
    with django_capture_on_commit_callbacks(execute=True):
        events.pairing_table_set(pairing=first, table="4", by=td)
    assert sent(mailoutbox) == [
        ("anna@example.org", "Sunday Cup: you play Bo (Main, round 1, table 4)"),
        ("bo@example.org", "Sunday Cup: you play Anna (Main, round 1, table 4)"),
    ]
    assert "Your next match in Sunday Cup is called to table 4." in mailoutbox[0].body
    assert "Table: 4" in mailoutbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        called = events.tables_call(tournament=flight.tournament, pairings=list(Pairing.objects.filter(table="")),
                                    by=td)
    assert called == 1
    second = Pairing.objects.get(player_a=p["Cy"])
    assert sent(mailoutbox)[2:] == [("cy@example.org", f"Sunday Cup: you play Dee (Main, round 1, table {second.table})")]
    # Moving a match to another table sends nothing again.
    with django_capture_on_commit_callbacks(execute=True):
        events.pairing_table_set(pairing=Pairing.objects.get(pk=first.pk), table="5", by=td)
    assert len(mailoutbox) == 3


def test_the_opponent_is_told_that_a_reported_result_waits_for_his_confirmation(
        field, mailoutbox, django_capture_on_commit_callbacks):
    td, flight, p = field
    enter(td, flight, p.values())
    events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk], [p["Cy"].pk, p["Dee"].pk]])
    mailoutbox.clear()
    anna = PlayerAccount.objects.get(player=p["Anna"]).user
    pairing = Pairing.objects.get(player_a=p["Anna"])
    with django_capture_on_commit_callbacks(execute=True):
        events.result_report(pairing=pairing, by=anna, score_a=5, score_b=2)
    assert sent(mailoutbox) == [("bo@example.org", "Sunday Cup: confirm Anna 5-2 Bo")]
    body = mailoutbox[0].body
    assert "Anna reported the result of your match in Sunday Cup" in body
    assert f"https://club.example/me/#pairing-{pairing.pk}" in body
    # A TD's entry counts at once: nobody is asked to confirm it.
    other = Pairing.objects.get(player_a=p["Cy"])
    with django_capture_on_commit_callbacks(execute=True):
        events.result_report(pairing=other, by=td, score_a=5, score_b=0)
    assert len(mailoutbox) == 1


def test_a_report_confirmed_before_the_email_goes_sends_nothing(field, mailoutbox):
    td, flight, p = field
    enter(td, flight, p.values())
    events.flight_start(flight=flight, by=td, first_round=[[p["Anna"].pk, p["Bo"].pk], [p["Cy"].pk, p["Dee"].pk]])
    mailoutbox.clear()
    pairing = Pairing.objects.get(player_a=p["Anna"])
    report = events.result_report(pairing=pairing, by=PlayerAccount.objects.get(player=p["Anna"]).user,
                                  score_a=5, score_b=2)
    events.result_confirm(report=report, by=PlayerAccount.objects.get(player=p["Bo"]).user)
    assert tasks.report_notify(report.pk) == 0 and mailoutbox == []
