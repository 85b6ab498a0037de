"""Celery tasks of the events. They call services and hold no rules of their own."""

from smtplib import SMTPException

from celery import shared_task

from .services import idempotency, notifications, registration


@shared_task(name="tournaments.pairings_notify", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(SMTPException, OSError), retry_backoff=30, retry_backoff_max=1800, retry_jitter=True,
             max_retries=8)
def pairings_notify(pairing_ids: list[int]) -> int:
    """E-mail the players of newly drawn pairings; a mail server that fails is tried again later,
    waiting longer each time (about 30 s, 1 min, 2 min, ... up to half an hour). Returns the
    e-mails sent."""
    return notifications.pairing_notices_send(pairing_ids=pairing_ids)


@shared_task(name="tournaments.account_link_announce", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(SMTPException, OSError), retry_backoff=30, retry_backoff_max=1800, retry_jitter=True,
             max_retries=8)
def account_link_announce(player_id: int, user_id: int, addresses: list[str], by_id: int | None) -> int:
    """Tell a player which login now acts for him; a mail server that fails is tried again later."""
    from .services import registration

    return registration.account_link_announce_send(player_id=player_id, user_id=user_id, addresses=addresses,
                                                   by_id=by_id)


@shared_task(name="tournaments.claim_announce", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(SMTPException, OSError), retry_backoff=30, retry_backoff_max=1800, retry_jitter=True,
             max_retries=8)
def claim_announce(claim_id: int) -> int:
    """Tell the TDs (or site admins) who decide a new claim; tried again while the mail server fails."""
    from django.urls import reverse

    from config.links import site_url

    from .services import registration

    return registration.claim_announce_send(claim_id=claim_id, claims_url=site_url(reverse("claims")))


@shared_task(name="tournaments.account_confirmation_send", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, autoretry_for=(SMTPException, OSError), retry_backoff=30,
             retry_backoff_max=1800, retry_jitter=True, max_retries=8)
def account_confirmation_send(user_id: int, link: str) -> bool:
    """E-mail a new login its confirmation link; a mail server that fails is tried again later,
    as for the new matches."""
    return registration.account_confirmation_mail_send(user_id=user_id, link=link)


@shared_task(name="tournaments.password_reset_send", ignore_result=True, acks_late=True,
             reject_on_worker_lost=True, autoretry_for=(SMTPException, OSError), retry_backoff=30,
             retry_backoff_max=1800, retry_jitter=True, max_retries=8)
def password_reset_send(user_id: int, subject: str, body: str, html: str | None = None) -> bool:
    """E-mail a login the link to choose a new password; a mail server that fails is tried again
    later, as for the sign-up confirmation."""
    return registration.password_reset_mail_send(user_id=user_id, subject=subject, body=body, html=html)


@shared_task(name="tournaments.report_notify", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
             autoretry_for=(SMTPException, OSError), retry_backoff=30, retry_backoff_max=1800, retry_jitter=True,
             max_retries=8)
def report_notify(report_id: int) -> int:
    """E-mail the opponent that a reported result waits for his confirmation (retried as above)."""
    return notifications.report_notice_send(report_id=report_id)


@shared_task(name="tournaments.save_keys_prune", ignore_result=True)
def save_keys_prune() -> int:
    """Forget the keys of Saves older than SAVE_KEY_DAYS (run daily by beat)."""
    return idempotency.save_keys_prune()
