"""Players on their own: a login made by signing up (confirmed by e-mail), and a claim on a
player's record that staff or a TD of one of his events approves.

Kept apart from the event services: none of these touch a draw, so none take the event locks.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from games.models import Player

from ..models import (
    ClaimStatus,
    Entry,
    EntryStatus,
    Flight,
    FlightStatus,
    PlayerAccount,
    PlayerClaim,
    PublicName,
    WaitingEntry,
    public_name,
)
from ..permissions import require_td
from ._base import _results_changed

logger = logging.getLogger(__name__)
from .entries import _entry_take, _waiting_list_move_up, entry_check_in


def confirmation_path(user) -> tuple[str, str]:
    """The two parts of the confirmation link of a new login (its id and a one-time token)."""
    return urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)


def unconfirmed(user) -> bool:
    """A login made by signing up whose address was never confirmed (not one staff turned off)."""
    return not user.is_active and user.last_login is None


def account_signup(*, username: str, email: str, password: str, confirm_url) -> object:
    """A new login, inactive until its e-mail address is confirmed; the confirmation is sent by a
    retried task once the login is stored. `confirm_url(uid, token)` gives the absolute address
    of the link. Signing up again with the address of a login still waiting for its confirmation
    sends that login's link again (a mail server that refused the first one locks no one out);
    nothing of that login changes."""
    User = get_user_model()
    username, email = (username or "").strip(), (email or "").strip().lower()
    waiting = next((u for u in User.objects.filter(email__iexact=email) if unconfirmed(u)), None) if email else None
    if waiting is not None:
        _confirmation_send_on_commit(waiting, confirm_url)
        waiting.confirmation_resent = True
        return waiting
    errors: dict[str, list[str]] = {}
    if not username:
        errors["username"] = ["Choose a user name."]
    elif User.objects.filter(username__iexact=username).exists():
        errors["username"] = ["This user name is taken: choose another."]
    if not email or "@" not in email:
        errors["email"] = ["Give an e-mail address: the confirmation is sent there."]
    elif User.objects.filter(email__iexact=email).exists():
        errors["email"] = ["A login already uses this address. Forgot the password? Reset it from the log-in page."]
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, candidate)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email, password=password, is_active=False)
        _confirmation_send_on_commit(user, confirm_url)
    user.confirmation_resent = False
    return user


def _confirmation_send_on_commit(user, confirm_url) -> None:
    uid, token = confirmation_path(user)
    transaction.on_commit(partial(_confirmation_enqueue, user.pk, confirm_url(uid, token)))


def _confirmation_enqueue(user_id: int, link: str) -> None:
    from .. import tasks

    try:
        tasks.account_confirmation_send.delay(user_id, link)
    except Exception:  # the login is stored: signing up again sends the link again
        logger.exception("the confirmation of login %s could not be sent", user_id)


def account_confirmation_mail_send(*, user_id: int, link: str) -> bool:
    """E-mail a login waiting for its confirmation the link to confirm it; nothing for a login
    confirmed meanwhile. Raises what the mail server raises (the task tries again)."""
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not unconfirmed(user) or not user.email:
        return False
    send_mail(
        "Confirm your Crawford login",
        f"Hello {user.get_username()},\n\nOpen this link to confirm your e-mail address and start using your "
        f"login:\n{link}\n\nIf you did not sign up, ignore this message.\n",
        None, [user.email],
    )
    return True


def account_confirmed_by_reset(*, user) -> None:
    """A login waiting for its confirmation that set its password through a reset link (sent to
    its address) is confirmed: the link proved the address."""
    if unconfirmed(user):
        get_user_model().objects.filter(pk=user.pk, is_active=False, last_login__isnull=True).update(is_active=True)
        user.is_active = True


def account_confirm(*, uid: str, token: str) -> object:
    """Activate the login of a confirmation link; a used or forged link is refused."""
    User = get_user_model()
    try:
        user = User.objects.get(pk=int(force_str(urlsafe_base64_decode(uid))))
    except (ValueError, TypeError, OverflowError, User.DoesNotExist):
        raise ValidationError({"token": ["This confirmation link is not valid."]}) from None
    if user.is_active and user.last_login is not None:
        raise ValidationError({"token": ["This login is confirmed already: log in."]})
    if not default_token_generator.check_token(user, token):
        raise ValidationError({"token": ["This confirmation link is not valid any more: sign up again."]})
    User.objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    return user


def account_match_emails_set(*, account: PlayerAccount, by, on: bool) -> PlayerAccount:
    """The player turns the e-mails of his new matches on or off (only for his own login)."""
    if by is None or not by.is_authenticated or account.user_id != by.pk:
        raise PermissionDenied("Only the player himself chooses his e-mails.")
    PlayerAccount.objects.filter(pk=account.pk).update(match_emails=bool(on))
    account.match_emails = bool(on)
    return account


PUBLIC_NAME_MAX = 80


def account_public_name_set(*, user, by, name: str) -> str:
    """The person chooses the name his login shows in public (as an event's director); an empty
    name goes back to his player's name or the neutral title. Returns the name now shown."""
    if by is None or not by.is_authenticated or user.pk != by.pk:
        raise PermissionDenied("Only the person himself chooses his public name.")
    name = " ".join((name or "").split())
    if len(name) > PUBLIC_NAME_MAX:
        raise ValidationError({"public_name": [f"Keep the name to {PUBLIC_NAME_MAX} characters."]})
    if name:
        PublicName.objects.update_or_create(user=user, defaults={"name": name})
    else:
        PublicName.objects.filter(user=user).delete()
    return public_name(get_user_model().objects.select_related("public_name", "player_account__player")
                       .get(pk=user.pk))


def claim_request(*, user, player: Player, note: str = "") -> PlayerClaim:
    """Ask to be recognised as `player`. One open claim at a time; a player with a login is taken."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Log in to claim a player.")
    if PlayerAccount.objects.filter(user=user, user__isnull=False).exists():
        raise ValidationError({"player": ["Your login already belongs to a player."]})
    if PlayerAccount.objects.filter(player=player, user__isnull=False).exists():
        raise ValidationError({"player": [f"{player.name} already has a login. If it is you, ask the TD."]})
    try:
        with transaction.atomic():
            return PlayerClaim.objects.create(user=user, player=player, note=(note or "").strip()[:300])
    except IntegrityError:
        raise ValidationError({"player": ["You have a claim waiting already: a TD will look at it."]}) from None


def may_decide(user, claim: PlayerClaim) -> bool:
    """Staff, and the TDs of the events the claimed player has entered."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return Entry.objects.filter(player_id=claim.player_id, tournament__organisers=user).exists()


def claims_to_decide(user):
    """The open claims this login may decide, oldest first."""
    claims = PlayerClaim.objects.filter(status=ClaimStatus.PENDING).select_related("user", "player")
    if user.is_staff:
        return claims
    return claims.filter(player__tournament_entries__tournament__organisers=user).distinct()


def _decide(claim_id: int, by, status: str, reason: str = "") -> PlayerClaim:
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().select_related("player", "user").get(pk=claim_id)
        if not may_decide(by, claim):
            raise PermissionDenied("Only staff or a TD of one of this player's events decide his claims.")
        if claim.status != ClaimStatus.PENDING:
            raise ValidationError({"claim": [f"This claim was {claim.get_status_display().lower()} already."]})
        if status == ClaimStatus.APPROVED:
            if PlayerAccount.objects.filter(player=claim.player, user__isnull=False).exclude(user=claim.user).exists():
                raise ValidationError({"claim": [f"{claim.player.name} has another login already."]})
            PlayerAccount.objects.update_or_create(player=claim.player, defaults={"user": claim.user})
        claim.status, claim.decided_by, claim.decided_at, claim.reason = status, by, timezone.now(), reason
        claim.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    return claim


def claim_approve(*, claim: PlayerClaim, by) -> PlayerClaim:
    """Link the login to the player it claims."""
    return _decide(claim.pk, by, ClaimStatus.APPROVED)


def claim_refuse(*, claim: PlayerClaim, by, reason: str) -> PlayerClaim:
    """Refuse a claim, saying why (the player reads it on his account page)."""
    if not (reason or "").strip():
        raise ValidationError({"reason": ["Say why, so that the player knows what to do."]})
    return _decide(claim.pk, by, ClaimStatus.REFUSED, reason.strip()[:300])


CHECK_IN_MINUTES = (5, 720)
"""The shortest and the longest check-in window a TD opens (minutes)."""


def check_in_window_open(*, flight: Flight, by, minutes: int, now=None) -> Flight:
    """Let the entered players of a flight not yet drawn check in from their phones for `minutes`."""
    require_td(by, flight.tournament)
    low, high = CHECK_IN_MINUTES
    if not isinstance(minutes, int) or not low <= minutes <= high:
        raise ValidationError({"minutes": [f"Open check-in for {low} to {high} minutes."]})
    now = now or timezone.now()
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).get(pk=flight.pk)
        if flight.status != FlightStatus.DRAFT:
            raise ValidationError({"flight": [f"{flight.name} has been drawn: check-in is over."]})
        flight.check_in_opens, flight.check_in_closes = now, now + timedelta(minutes=minutes)
        flight._history_user = by
        flight.save(update_fields=["check_in_opens", "check_in_closes"])
    return flight


def check_in_window_close(*, flight: Flight, by, now=None) -> Flight:
    """Close the players' own check-in now (the TD can still check players in at the desk)."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).get(pk=flight.pk)
        if flight.check_in_closes is not None:
            flight.check_in_closes = min(flight.check_in_closes, now or timezone.now())
            flight._history_user = by
            flight.save(update_fields=["check_in_closes"])
    return flight


def check_in_is_open(flight: Flight, now=None) -> bool:
    now = now or timezone.now()
    return bool(flight.status == FlightStatus.DRAFT and flight.check_in_opens and flight.check_in_closes
                and flight.check_in_opens <= now < flight.check_in_closes)


def entry_self_check_in(*, entry: Entry, by, now=None) -> Entry:
    """A player checks himself in from his phone, within the window the TD opened."""
    flight = entry.flight
    if not check_in_is_open(flight, now):
        when = (f" It closed at {timezone.localtime(flight.check_in_closes):%H:%M}."
                if flight.check_in_closes and flight.check_in_closes <= (now or timezone.now()) else "")
        raise ValidationError({"status": [(f"Check-in for {flight.name} is not open from the phone.{when} "
                                           "Check in at the TD's desk.")]})
    return entry_check_in(entry=entry, by=by)


def registration_open(*, flight: Flight, by, closes, cap: int | None = None, now=None) -> Flight:
    """Let players register themselves online for a flight not yet drawn, until `closes`; with a
    `cap`, later registrations join the waiting list."""
    require_td(by, flight.tournament)
    now = now or timezone.now()
    errors = {}
    if closes is None or closes <= now:
        errors["closes"] = ["Give a closing time in the future."]
    if cap is not None and (not isinstance(cap, int) or cap < 2):
        errors["cap"] = ["A flight takes at least 2 players; leave the places empty for no limit."]
    if not flight.takes_entries:
        errors["flight"] = [f"{flight.name} takes the losers of other flights, not entries."]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).get(pk=flight.pk)
        if flight.status != FlightStatus.DRAFT:
            raise ValidationError({"flight": [f"{flight.name} has been drawn: registration is over."]})
        flight.registration_closes, flight.registration_cap = closes, cap
        flight._history_user = by
        flight.save(update_fields=["registration_closes", "registration_cap"])
    return flight


def registration_is_open(flight: Flight, now=None) -> bool:
    return bool(flight.status == FlightStatus.DRAFT and flight.registration_closes
                and (now or timezone.now()) < flight.registration_closes)


def _player_of(user) -> Player:
    account = PlayerAccount.objects.filter(user=user).select_related("player").first() if user else None
    if account is None:
        raise PermissionDenied("Claim your player record first: registration is for players.")
    return account.player


def registration_enter(*, flight: Flight, by, now=None) -> Entry | WaitingEntry:
    """The login's player registers for the flight: an entry while places remain, else a place on
    the waiting list. He still checks in before the draw."""
    player = _player_of(by)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        if not registration_is_open(flight, now):
            raise ValidationError({"flight": [f"Online registration for {flight.name} is closed."]})
        entry = Entry.objects.filter(flight=flight, player=player).first()
        if (entry and entry.status != EntryStatus.WITHDRAWN) or WaitingEntry.objects.filter(
                flight=flight, player=player).exists():
            raise ValidationError({"flight": [f"You are registered for {flight.name} already."]})
        taken = Entry.objects.filter(flight=flight).exclude(status=EntryStatus.WITHDRAWN).count()
        if flight.registration_cap is not None and taken >= flight.registration_cap:
            return WaitingEntry.objects.create(flight=flight, player=player)
        return _entry_take(flight, player, by=by, again=True)


def registration_cancel(*, flight: Flight, by) -> None:
    """The login's player takes back his registration (or his place on the waiting list) before the
    draw; the first player waiting takes the place."""
    player = _player_of(by)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        if flight.status != FlightStatus.DRAFT:
            raise ValidationError({"flight": [f"{flight.name} has been drawn: ask the TD to withdraw you."]})
        if WaitingEntry.objects.filter(flight=flight, player=player).delete()[0]:
            return
        entry = Entry.objects.filter(flight=flight, player=player).exclude(status=EntryStatus.WITHDRAWN).first()
        if entry is None:
            raise ValidationError({"flight": [f"You are not registered for {flight.name}."]})
        entry.status = EntryStatus.WITHDRAWN
        entry._history_user = by
        entry.save()
        _waiting_list_move_up(flight, by=by)
