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
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _

from config.fields import typed_text
from config.languages import in_language_of, language_of, language_store, supported
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
from ..permissions import account_link_refusal, claims_to_decide, require_td  # noqa: F401 (claims_to_decide: read here by the pages)
from ._base import _results_changed
from .entries import _entry_take
from .places import place_cap_check, place_or_wait, places_settle

logger = logging.getLogger(__name__)


def confirmation_path(user) -> tuple[str, str]:
    """The two parts of the confirmation link of a new login (its id and a one-time token)."""
    return urlsafe_base64_encode(force_bytes(user.pk)), default_token_generator.make_token(user)


def unconfirmed(user) -> bool:
    """A login made by signing up whose address was never confirmed (not one staff turned off)."""
    return not user.is_active and user.last_login is None


def account_signup(*, username: str, email: str, password: str, confirm_url, language: str = "") -> object:
    """A new login, inactive until its e-mail address is confirmed; the confirmation is sent by a
    retried task once the login is stored. `confirm_url(uid, token)` gives the absolute address
    of the link. Signing up again with the address of a login still waiting for its confirmation
    sends that login's link again (a mail server that refused the first one locks no one out);
    nothing of that login changes. `language` (the one the visitor signed up in) is kept as the
    new login's: its e-mails, the confirmation first, are written in it."""
    User = get_user_model()
    username, email = (username or "").strip(), (email or "").strip().lower()
    waiting = next((u for u in User.objects.filter(email__iexact=email) if unconfirmed(u)), None) if email else None
    if waiting is not None:
        _confirmation_send_on_commit(waiting, confirm_url)
        waiting.confirmation_resent = True
        return waiting
    errors: dict[str, list[str]] = {}
    if not username:
        errors["username"] = [_("Choose a user name.")]
    elif User.objects.filter(username__iexact=username).exists():
        errors["username"] = [_("This user name is taken: choose another.")]
    if not email or "@" not in email:
        errors["email"] = [_("Give an e-mail address: the confirmation is sent there.")]
    elif User.objects.filter(email__iexact=email).exists():
        errors["email"] = [_("A login already uses this address. Forgot the password? Reset it from the log-in page.")]
    candidate = User(username=username, email=email)
    try:
        password_validation.validate_password(password, candidate)
    except ValidationError as error:
        errors["password"] = list(error.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        user = User.objects.create_user(username=username, email=email, password=password, is_active=False)
        if supported(language):
            language_store(user=user, code=language)
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
    with in_language_of(user):
        subject = _("Confirm your Crawford login")
        body = _("Hello %(name)s,\n\nOpen this link to confirm your e-mail address and start using your "
                 "login:\n%(link)s\n\nIf you did not sign up, ignore this message.\n") % {
            "name": user.get_username(), "link": link}
    send_mail(subject, body, None, [user.email])
    return True


def password_reset_enqueue(*, user_id: int, subject: str, body: str, html: str | None = None) -> None:
    """Hand a password reset e-mail to the worker, which tries it again while the mail server
    refuses; the page answers at once. A broker that cannot take it is logged, and the page still
    answers as if it went (asking again sends another)."""
    from .. import tasks

    try:
        tasks.password_reset_send.delay(user_id, subject, body, html)
    except Exception:
        logger.exception("the password reset mail of login %s could not be sent", user_id)


def password_reset_mail_send(*, user_id: int, subject: str, body: str, html: str | None = None) -> bool:
    """E-mail a login the reset link made for it, to its address as it is now; nothing for a login
    gone or without an address. Raises what the mail server raises (the task tries again)."""
    from django.core.mail import EmailMultiAlternatives

    user = get_user_model().objects.filter(pk=user_id).first()
    address = getattr(user, user.get_email_field_name(), "") if user is not None else ""
    if not address:
        return False
    message = EmailMultiAlternatives(subject, body, None, [address])
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
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
        raise ValidationError({"token": [_("This confirmation link is not valid.")]}) from None
    if user.is_active and user.last_login is not None:
        raise ValidationError({"token": [_("This login is confirmed already: log in.")]})
    if not default_token_generator.check_token(user, token):
        raise ValidationError({"token": [_("This confirmation link is not valid any more: sign up again.")]})
    User.objects.filter(pk=user.pk).update(is_active=True)
    user.is_active = True
    return user


def account_match_emails_set(*, account: PlayerAccount, by, on: bool) -> PlayerAccount:
    """The player turns the e-mails of his new matches on or off (only for his own login)."""
    if by is None or not by.is_authenticated or account.user_id != by.pk:
        raise PermissionDenied(_("Only the player himself chooses his e-mails."))
    PlayerAccount.objects.filter(pk=account.pk).update(match_emails=bool(on))
    account.match_emails = bool(on)
    return account


PUBLIC_NAME_MAX = 80


def account_public_name_set(*, user, by, name: str) -> str:
    """The person chooses the name his login shows in public (as an event's director); an empty
    name goes back to his player's name or the neutral title. Returns the name now shown."""
    if by is None or not by.is_authenticated or user.pk != by.pk:
        raise PermissionDenied(_("Only the person himself chooses his public name."))
    name = " ".join(typed_text(name, field="public_name").split())
    if len(name) > PUBLIC_NAME_MAX:
        raise ValidationError({"public_name": [_("Keep the name to %(public_name_max)s characters.")
                % {"public_name_max": PUBLIC_NAME_MAX}]})
    if name:
        PublicName.objects.update_or_create(user=user, defaults={"name": name})
    else:
        PublicName.objects.filter(user=user).delete()
    return public_name(get_user_model().objects.select_related("public_name", "player_account__player")
                       .get(pk=user.pk))


def claim_request(*, user, player: Player, note: str = "") -> PlayerClaim:
    """Ask to be recognised as `player`. One open claim at a time; a player with a login is taken."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied(_("Log in to claim a player."))
    if PlayerAccount.objects.filter(user=user, user__isnull=False).exists():
        raise ValidationError({"player": [_("Your login already belongs to a player.")]})
    if PlayerAccount.objects.filter(player=player, user__isnull=False).exists():
        raise ValidationError({"player": [_("%(player)s already has a login. If it is you, ask the TD.")
                % {"player": player.name}]})
    note = typed_text(note, field="note").strip()[:300]
    try:
        with transaction.atomic():
            claim = PlayerClaim.objects.create(user=user, player=player, note=note)
            transaction.on_commit(lambda: _claim_enqueue(claim.pk))
            return claim
    except IntegrityError:
        raise ValidationError({"player": [_("You have a claim waiting already: a TD will look at it.")]}) from None


def _claim_enqueue(claim_id: int) -> None:
    from .. import tasks

    try:
        tasks.claim_announce.delay(claim_id)
    except Exception:  # the claim is stored and shows on the desk: a lost e-mail never undoes it
        logger.exception("the TDs could not be told of claim %s", claim_id)


def claim_deciders(claim: PlayerClaim) -> list:
    """Who decides a claim: the TDs of the player's events who may link him; where none may (he
    plays elsewhere too), the site admins."""
    from games.permissions import SITE_ADMIN

    from ..permissions import may_link_account

    User = get_user_model()
    tds = [u for u in User.objects.filter(organised_tournaments__entries__player=claim.player, is_active=True)
           .distinct().order_by("pk") if may_link_account(u, claim.player)]
    if tds:
        return tds
    return list(User.objects.filter(is_active=True).filter(
        Q(is_superuser=True) | Q(is_staff=True, groups__name=SITE_ADMIN)).distinct().order_by("pk"))


def claim_announce_send(*, claim_id: int, claims_url: str) -> int:
    """E-mail the deciders of an open claim (each once); the number of e-mails sent."""
    claim = PlayerClaim.objects.select_related("user", "player").filter(pk=claim_id,
                                                                        status=ClaimStatus.PENDING).first()
    if claim is None:
        return 0
    sent = 0
    for language, addresses in _by_language(u for u in claim_deciders(claim) if u.email):
        with translation.override(language):
            names = {"login": claim.user.get_username(), "player": claim.player.name, "note": claim.note,
                     "link": claims_url}
            note = _('\nHe says: "%(note)s"\n') % names if claim.note else ""
            subject = _("%(login)s claims to be %(player)s") % names
            body = _("Hello,\n\nThe login %(login)s asks to act for the player %(player)s (his results, "
                     "registrations and withdrawals).") % names + note + _(
                "\nApprove or refuse it on your desk or at %(link)s\n") % names
        sent += send_mail(subject, body, None, addresses)
    return sent


def _by_language(users) -> list[tuple[str, list[str]]]:
    """The addresses of `users`, grouped by the language each reads (one e-mail per language)."""
    groups: dict[str, set[str]] = {}
    for user in users:
        groups.setdefault(language_of(user), set()).add(user.email)
    return [(language, sorted(addresses)) for language, addresses in sorted(groups.items())]


def account_link_store(*, player: Player, user, by) -> PlayerAccount:
    """Store the link (the caller has checked `permissions.may_link_account` and holds a transaction)
    and announce it, once committed, to the player's e-mail addresses: the login he had before, if
    any, and the new one."""
    previous = PlayerAccount.objects.filter(player=player).select_related("user").first()
    before = previous.user.email if previous and previous.user_id and previous.user_id != user.pk else ""
    if PlayerAccount.objects.filter(user=user).exclude(player=player).exists():
        raise ValidationError({"user": [_("%(login)s already belongs to another player.")
                % {"login": user.get_username()}]})
    account, _created = PlayerAccount.objects.update_or_create(player=player, defaults={"user": user})
    addresses = sorted({a for a in (before, user.email) if a})
    if addresses:
        transaction.on_commit(lambda: _announce(player.pk, user.pk, addresses, by.pk if by else None))
    return account


def _announce(player_id: int, user_id: int, addresses: list[str], by_id: int | None) -> None:
    from .. import tasks

    try:
        tasks.account_link_announce.delay(player_id, user_id, addresses, by_id)
    except Exception:  # the link is stored: an e-mail that cannot be queued never undoes it
        logger.exception("the link of player %s could not be announced", player_id)


def account_link_announce_send(*, player_id: int, user_id: int, addresses: list[str], by_id: int | None) -> int:
    """The e-mail that tells a player which login now acts for him, and how to have it undone."""
    User = get_user_model()
    player = Player.objects.filter(pk=player_id).first()
    user = User.objects.filter(pk=user_id).first()
    if player is None or user is None:
        return 0
    by = User.objects.filter(pk=by_id).first() if by_id else None
    names = {"login": user.get_username(), "player": player.name,
             "by": (by.get_full_name() or by.get_username()) if by else ""}
    readers = {u.email.lower(): u for u in User.objects.filter(email__in=addresses).select_related(
        "language_preference").order_by("is_active", "pk")}  # an active login's language wins
    groups: dict[str, list[str]] = {}
    for address in addresses:
        groups.setdefault(language_of(readers.get(address.lower())), []).append(address)
    sent = 0
    for language, group in sorted(groups.items()):
        with translation.override(language):
            subject = _("The login %(login)s now acts for %(player)s") % names
            if by and by.pk != user.pk:
                linked = _("On Crawford the login %(login)s was linked to the player %(player)s by %(by)s.") % names
            else:
                linked = _("On Crawford the login %(login)s was linked to the player %(player)s.") % names
            body = "{}\n\n{} {}\n\n{}\n".format(
                _("Hello,"), linked, _("It can now report his results, register, check in and withdraw him from events."),
                _("If this is not you or not your wish, tell the site's administrators: they undo the link."))
        sent += send_mail(subject, body, None, group)
    return sent


def account_unlink(*, player: Player, by) -> None:
    """A site admin undoes a link: the login no longer acts for the player (his results stay)."""
    from ..permissions import may_unlink_account

    if not may_unlink_account(by):
        raise PermissionDenied(_("Only a site admin undoes the link between a login and a player."))
    with transaction.atomic():
        if not PlayerAccount.objects.filter(player=player, user__isnull=False).update(user=None):
            raise ValidationError({"player": [_("%(player)s has no login linked.") % {"player": player.name}]})


def _decide(claim_id: int, by, status: str, reason: str = "") -> PlayerClaim:
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().select_related("player", "user").get(pk=claim_id)
        refusal = account_link_refusal(by, claim.player)
        if refusal is not None:
            raise PermissionDenied(refusal)
        if claim.status != ClaimStatus.PENDING:
            raise ValidationError({"claim": [_("This claim was %(status)s already.")
                    % {"status": claim.get_status_display().lower()}]})
        if status == ClaimStatus.APPROVED:
            if PlayerAccount.objects.filter(player=claim.player, user__isnull=False).exclude(user=claim.user).exists():
                raise ValidationError({"claim": [_("%(player)s has another login already.")
                        % {"player": claim.player.name}]})
            account_link_store(player=claim.player, user=claim.user, by=by)
        claim.status, claim.decided_by, claim.decided_at, claim.reason = status, by, timezone.now(), reason
        claim.save(update_fields=["status", "decided_by", "decided_at", "reason"])
    return claim


def claim_approve(*, claim: PlayerClaim, by) -> PlayerClaim:
    """Link the login to the player it claims."""
    return _decide(claim.pk, by, ClaimStatus.APPROVED)


def claim_refuse(*, claim: PlayerClaim, by, reason: str) -> PlayerClaim:
    """Refuse a claim, saying why (the player reads it on his account page)."""
    reason = typed_text(reason, field="reason").strip()
    if not reason:
        raise ValidationError({"reason": [_("Say why, so that the player knows what to do.")]})
    return _decide(claim.pk, by, ClaimStatus.REFUSED, reason[:300])


CHECK_IN_MINUTES = (5, 720)
"""The shortest and the longest check-in window a TD opens (minutes)."""


def check_in_window_open(*, flight: Flight, by, minutes: int, now=None) -> Flight:
    """Let the entered players of a flight not yet drawn check in from their phones for `minutes`."""
    require_td(by, flight.tournament)
    low, high = CHECK_IN_MINUTES
    if not isinstance(minutes, int) or not low <= minutes <= high:
        raise ValidationError({"minutes": [_("Open check-in for %(low)s to %(high)s minutes.")
                % {"low": low, "high": high}]})
    now = now or timezone.now()
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).get(pk=flight.pk)
        if flight.status != FlightStatus.DRAFT:
            raise ValidationError({"flight": [_("%(flight)s has been drawn: check-in is over.")
                    % {"flight": flight.name}]})
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


def registration_open(*, flight: Flight, by, closes, cap: int | None = None, now=None) -> Flight:
    """Let players register themselves online for a flight not yet drawn, until `closes`; with a
    `cap`, later registrations join the waiting list."""
    require_td(by, flight.tournament)
    now = now or timezone.now()
    errors = {}
    if closes is None or closes <= now:
        errors["closes"] = [_("Give a closing time in the future.")]
    if cap is not None and (not isinstance(cap, int) or cap < 2):
        errors["cap"] = [_("A flight takes at least 2 players; leave the places empty for no limit.")]
    if not flight.takes_entries:
        errors["flight"] = [_("%(flight)s takes the losers of other flights, not entries.") % {"flight": flight.name}]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).get(pk=flight.pk)
        if flight.status != FlightStatus.DRAFT:
            raise ValidationError({"flight": [_("%(flight)s has been drawn: registration is over.")
                    % {"flight": flight.name}]})
        place_cap_check(flight, cap)
        flight.registration_closes, flight.registration_cap = closes, cap
        flight._history_user = by
        flight.save(update_fields=["registration_closes", "registration_cap"])
        places_settle(flight, by=by)
    return flight


def registration_is_open(flight: Flight, now=None) -> bool:
    return bool(flight.status == FlightStatus.DRAFT and flight.registration_closes
                and (now or timezone.now()) < flight.registration_closes)


def _player_of(user) -> Player:
    account = PlayerAccount.objects.filter(user=user).select_related("player").first() if user else None
    if account is None:
        raise PermissionDenied(_("Claim your player record first: registration is for players."))
    return account.player


def registration_enter(*, flight: Flight, by, now=None) -> Entry | WaitingEntry:
    """The login's player registers for the flight: an entry while places remain, else a place on
    the waiting list. He still checks in before the draw."""
    player = _player_of(by)
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        if not registration_is_open(flight, now):
            raise ValidationError({"flight": [_("Online registration for %(flight)s is closed.")
                    % {"flight": flight.name}]})
        entry = Entry.objects.filter(flight=flight, player=player).first()
        if (entry and entry.status != EntryStatus.WITHDRAWN) or WaitingEntry.objects.filter(
                flight=flight, player=player).exists():
            raise ValidationError({"flight": [_("You are registered for %(flight)s already.")
                    % {"flight": flight.name}]})
        if not place_or_wait(flight):
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
            raise ValidationError({"flight": [_("%(flight)s has been drawn: ask the TD to withdraw you.")
                    % {"flight": flight.name}]})
        if WaitingEntry.objects.filter(flight=flight, player=player).delete()[0]:
            return
        entry = Entry.objects.filter(flight=flight, player=player).exclude(status=EntryStatus.WITHDRAWN).first()
        if entry is None:
            raise ValidationError({"flight": [_("You are not registered for %(flight)s.") % {"flight": flight.name}]})
        entry.status = EntryStatus.WITHDRAWN
        entry._history_user = by
        entry.save()
        places_settle(flight, by=by)
