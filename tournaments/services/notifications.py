"""Players are told of their new matches by e-mail, once the draw that made them is stored.

A draw only collects the ids of the matches it stored (`pairings_announce`); a task sends the
e-mails after the commit (`tournaments.tasks.pairings_notify`). In an event that seats its matches
(it has tables), a match is announced when its table is called, with the table. Nothing here can fail a draw: a
broker that cannot be reached or a mail server that refuses is logged, and the task retries.
Each pairing is claimed (`notified_at`) before its e-mails go, so a task run twice sends nothing
twice; a send that fails gives the claim back for the next try.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.languages import in_language_of
from config.links import site_url
from ratings.background import after_response

from ..models import Pairing, PairingStatus, PlayerAccount, ReportStatus, ResultReport

logger = logging.getLogger(__name__)

OPEN = (PairingStatus.PENDING, PairingStatus.PLAYING)


def pairings_announce(*, pairing_ids) -> None:
    """Once the current transaction commits, e-mail the players of these new pairings (byes and
    walkovers among them are left out when the e-mails are sent)."""
    ids = sorted(set(pairing_ids))
    if ids:
        transaction.on_commit(partial(_enqueue_after_response, ids))


def _enqueue_after_response(pairing_ids: list[int]) -> None:
    """Within a request (a Save at the desk that drew new matches), the e-mails are asked for
    after the response has gone out, as the rating runs are (`ratings.background`): without a
    broker the task runs in-process and would hold the answer up. Nothing is lost if the process
    ends first: the periodic sweep (`pairing_notices_owed`) sends what no task has claimed."""
    if not after_response(partial(_enqueue, pairing_ids)):
        _enqueue(pairing_ids)


def _enqueue(pairing_ids: list[int]) -> None:
    from .. import tasks

    try:
        tasks.pairings_notify.delay(pairing_ids)
    except Exception:  # the draw is committed: an e-mail that cannot be sent never undoes it
        logger.exception("the e-mails of pairings %s could not be sent", pairing_ids)


def _announceable():
    """The pairings whose new-match e-mail is owed: open, with two players, not yet announced, and,
    in an event that seats its matches, called to a table (the e-mail names it)."""
    return (Pairing.objects.filter(notified_at__isnull=True, status__in=OPEN, player_b__isnull=False)
            .exclude(flight__tournament__tables__gt=0, table=""))


def pairing_notices_owed() -> int:
    """The periodic sweep (`games.jobs`): send the notices of open pairings that no task has
    claimed yet (a broker that lost the message, a worker killed before it began). A pairing whose
    notice is in flight is claimed, so nothing goes twice. Returns the pairings sent again."""
    ids = list(_announceable().order_by("pk").values_list("pk", flat=True)[:1000])
    if ids:
        _enqueue(ids)
    return len(ids)


def _recipients(pairings) -> dict[int, PlayerAccount]:
    players = {p.player_a_id for p in pairings} | {p.player_b_id for p in pairings}
    accounts = (PlayerAccount.objects.filter(player_id__in=players, user__isnull=False, user__is_active=True,
                                             match_emails=True)
                .exclude(user__email="").select_related("user__language_preference", "player"))
    return {a.player_id: a for a in accounts}


def _message(pairing: Pairing, account: PlayerAccount, opponent) -> EmailMessage:
    flight = pairing.flight
    context = {
        "player": account.player, "opponent": opponent, "pairing": pairing, "round": pairing.round,
        "flight": flight, "tournament": flight.tournament,
        "link": site_url(reverse("my-matches")), "account_link": site_url(reverse("account")),
    }
    names = {"event": flight.tournament.name, "opponent": opponent.name, "flight": flight.name,
             "round": pairing.round.number, "table": pairing.table}
    with in_language_of(account.user):
        if pairing.table:
            subject = _("%(event)s: you play %(opponent)s (%(flight)s, round %(round)s, table %(table)s)") % names
        else:
            subject = _("%(event)s: you play %(opponent)s (%(flight)s, round %(round)s)") % names
        body = render_to_string("tournaments/email/new_match.txt", context)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [account.user.email])


def pairing_notices_send(*, pairing_ids) -> int:
    """E-mail each player with a login, an address and the e-mails turned on his new match among
    `pairing_ids` that is still to be played and not yet announced. Returns the e-mails sent."""
    pairings = list(_announceable().filter(pk__in=pairing_ids)
                    .select_related("flight__tournament", "round", "player_a", "player_b").order_by("pk"))
    accounts = _recipients(pairings)
    sent = 0
    for pairing in pairings:
        if not Pairing.objects.filter(pk=pairing.pk, notified_at__isnull=True).update(notified_at=timezone.now()):
            continue  # another run has it
        sides = ((pairing.player_a_id, pairing.player_b), (pairing.player_b_id, pairing.player_a))
        messages = [_message(pairing, accounts[me], opponent) for me, opponent in sides if me in accounts]
        try:
            for message in messages:
                message.send()
                sent += 1
        except Exception:
            Pairing.objects.filter(pk=pairing.pk).update(notified_at=None)
            raise
    return sent


# -- a result that waits for the opponent ---------------------------------------------------------


def report_announce(*, report_id: int) -> None:
    """Once the current transaction commits, e-mail the opponent that this report waits for him."""
    transaction.on_commit(partial(_enqueue_report, report_id))


def _enqueue_report(report_id: int) -> None:
    from .. import tasks

    try:
        tasks.report_notify.delay(report_id)
    except Exception:  # the report is stored: /me/ shows it to the opponent all the same
        logger.exception("the e-mail of report %s could not be sent", report_id)


def report_notice_send(*, report_id: int) -> int:
    """E-mail the opponent of the player who reported a result (with a login, an address and the
    e-mails about his matches on) that it waits for his confirmation; nothing once it is
    confirmed, disputed or superseded. Returns the e-mails sent."""
    report = (ResultReport.objects.filter(pk=report_id, status=ReportStatus.PENDING, submitted_for__isnull=False)
              .select_related("pairing__flight__tournament", "pairing__round", "pairing__player_a",
                              "pairing__player_b", "submitted_for").first())
    if report is None:
        return 0
    pairing = report.pairing
    opponent = pairing.player_b if report.submitted_for_id == pairing.player_a_id else pairing.player_a
    account = _recipients([pairing]).get(opponent.pk)
    if account is None:
        return 0
    tournament = pairing.flight.tournament
    score = f"{pairing.player_a.name} {report.score_a}-{report.score_b} {pairing.player_b.name}"
    with in_language_of(account.user):
        body = render_to_string("tournaments/email/result_to_confirm.txt", {
            "player": opponent, "reporter": report.submitted_for, "score": score, "pairing": pairing,
            "tournament": tournament, "flight": pairing.flight,
            "link": site_url(f"{reverse('my-matches')}#pairing-{pairing.pk}"),
            "account_link": site_url(reverse("account")),
        })
        subject = _("%(event)s: confirm %(score)s") % {"event": tournament.name, "score": score}
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [account.user.email]).send()
    return 1
