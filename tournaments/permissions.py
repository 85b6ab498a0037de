"""Who may act for whom in an event: one rule each, asked by the services.

Roles (`games.permissions`): a site admin may do everything; a TD may do what an event needs in
the events he organises, and nothing in anyone else's; a rating officer rules on no result; a
player acts for his own player record only. Pages, the API and the admin show or hide what these
answer, but the services ask them again, so every interface answers the same.
"""

from __future__ import annotations

from django.contrib.auth.backends import BaseBackend
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import permissions

from games.models import Match
from games.permissions import (
    CREATE_PLAYERS,
    ENTER_MATCH_RESULTS,
    VIEW_MATCH_PRIVATE,
    is_site_admin,
)

from . import slipcodes
from .models import Entry, FlightStatus, Pairing, PlayerAccount, PlayerClaim, ResultReport, SlipCode, Tournament

# Who entered, confirmed or disputed a result (login names), why it was disputed, and who changed
# a match and why: shown to site admins, the TDs of the event and the two players, to nobody else.
VIEW_REPORT_PRIVATE = "tournaments.view_report_private"


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def td_of(user) -> frozenset[int]:
    """The ids of the events this login organises (one query)."""
    if not _signed_in(user):
        return frozenset()
    return frozenset(Tournament.objects.filter(organisers=user).values_list("pk", flat=True))


def is_td(user, tournament: Tournament) -> bool:
    """True for site admins and for the organisers of this tournament (not for every staff login)."""
    if not _signed_in(user):
        return False
    return is_site_admin(user) or tournament.organisers.filter(pk=user.pk).exists()


def require_td(user, tournament: Tournament) -> None:
    if not is_td(user, tournament):
        raise PermissionDenied(_("Only a TD of %(event)s may do this.") % {"event": tournament.name})


def runs_events(user) -> bool:
    """Has a TD desk: a site admin or the organiser of at least one event."""
    return is_site_admin(user) or Tournament.objects.filter(organisers=user).exists()


def may_create_tournament(user) -> bool:
    """Site admins, and tournament directors (their group holds `tournaments.add_tournament`, which
    may also be given to one login)."""
    if not _signed_in(user):
        return False
    return is_site_admin(user) or user.has_perm("tournaments.add_tournament")


def player_id_of(user) -> int | None:
    """The player a login belongs to, if any."""
    if not _signed_in(user):
        return None
    return PlayerAccount.objects.filter(user=user).values_list("player_id", flat=True).first()


def side_of(user, pairing: Pairing) -> int | None:
    """0 or 1 when the user is player A or B of the pairing, else None."""
    player_id = player_id_of(user)
    if player_id is None:
        return None
    if player_id == pairing.player_a_id:
        return 0
    if player_id == pairing.player_b_id:
        return 1
    return None


# -- the code on a match slip ---------------------------------------------------------------------


class WrongSlipCode(PermissionDenied):
    """A code typed on a match's page that is not a live slip code of one of its players."""


WRONG_SLIP_CODE = ("This is not the code on a slip of this match. Type the code printed on your own half "
                   "of the slip (six letters and digits), or ask the TD.")


def slip_code_side(pairing: Pairing, typed: str) -> int:
    """0 or 1: the side of the player whose slip code `typed` is. A code acts for that player in
    that pairing only, while it is live (not revoked) and he still plays that side; anything else
    raises `WrongSlipCode`. Holding the code is the right: no login is asked."""
    code = slipcodes.normalise(typed)
    if code is None or pairing.player_b_id is None:
        raise WrongSlipCode(WRONG_SLIP_CODE)
    live = list(SlipCode.objects.filter(pairing_id=pairing.pk, revoked_at__isnull=True,
                                        player_id__in=(pairing.player_a_id, pairing.player_b_id))
                .values_list("player_id", "digest"))
    for player_id, stored in live:
        if slipcodes.same(stored, slipcodes.digest(pairing_id=pairing.pk, player_id=player_id, code=code)):
            return 0 if player_id == pairing.player_a_id else 1
    raise WrongSlipCode(WRONG_SLIP_CODE)


def acting_side(user, pairing: Pairing, code: str | None = None) -> tuple[bool, int | None]:
    """Who acts on a pairing's result: (is a TD of its event, side 0 or 1 or None).

    With a slip code, the player it was printed for, whoever is logged in (a TD typing a player's
    code acts as that player); without one, the login."""
    if code is not None:
        return False, slip_code_side(pairing, code)
    return is_td(user, pairing.flight.tournament), side_of(user, pairing)


def may_issue_slip_codes(user, tournament: Tournament) -> bool:
    """The TDs of the event print its slips, and with them the players' codes."""
    return is_td(user, tournament)


# -- entries --------------------------------------------------------------------------------------


def may_act_for_entry(user, entry: Entry) -> bool:
    """A TD of the event, or the entered player himself (withdrawing, for one)."""
    if is_td(user, entry.tournament):
        return True
    player_id = player_id_of(user)
    return player_id is not None and player_id == entry.player_id


def check_in_window_is_open(flight, now=None) -> bool:
    """The players' own check-in window of a flight not yet drawn is open now."""
    now = now or timezone.now()
    return bool(flight.status == FlightStatus.DRAFT and flight.check_in_opens and flight.check_in_closes
                and flight.check_in_opens <= now < flight.check_in_closes)


def may_check_in(user, entry: Entry, *, now=None) -> bool:
    """A TD checks a player in at his desk until the draw; the player himself only while the window
    the TD opened is open, from his phone or through the API alike."""
    if is_td(user, entry.tournament):
        return True
    return may_act_for_entry(user, entry) and check_in_window_is_open(entry.flight, now)


def require_check_in(user, entry: Entry, *, now=None) -> None:
    """Raise what `may_check_in` refuses: 403 for someone else's entry, 400 for a closed window."""
    if may_check_in(user, entry, now=now):
        return
    if not may_act_for_entry(user, entry):
        raise PermissionDenied(_("Only the player himself or a TD of the event checks a player in."))
    flight = entry.flight
    now = now or timezone.now()
    if flight.check_in_closes and flight.check_in_closes <= now:
        message = _("Check-in for %(flight)s is not open from the phone. It closed at %(time)s. Check in at the "
                    "TD's desk.") % {"flight": flight.name, "time": f"{timezone.localtime(flight.check_in_closes):%H:%M}"}
    else:
        message = _("Check-in for %(flight)s is not open from the phone. Check in at the TD's desk.") % {
            "flight": flight.name}
    raise ValidationError({"status": [message]})


# -- a login's player ------------------------------------------------------------------------------


def _events_of(user):
    """The events this login organises, as a subquery (no query of its own)."""
    return Tournament.objects.filter(organisers=user).values("pk")


def _entries_elsewhere(user):
    """Entries of a player (as `OuterRef("pk")` of a Player) in events this login does not run."""
    return Entry.objects.filter(player=OuterRef("pk")).exclude(tournament_id__in=_events_of(user))


def _rated_elsewhere(user):
    """Rated matches of a player (`OuterRef("pk")`) that were not played in this login's events."""
    mine = Pairing.objects.filter(match=OuterRef("pk"), flight__tournament_id__in=_events_of(user))
    return (Match.objects.filter(rated=True).filter(Q(player_a=OuterRef("pk")) | Q(player_b=OuterRef("pk")))
            .exclude(Exists(mine)))


def players_a_td_may_link(user, players):
    """Of `players` (a queryset), those this TD may link to a login: every entry of theirs is in his
    events, they have at least one, and no rated match outside them."""
    return (players.filter(Exists(Entry.objects.filter(player=OuterRef("pk"), tournament_id__in=_events_of(user))))
            .exclude(Exists(_entries_elsewhere(user))).exclude(Exists(_rated_elsewhere(user))))


def account_link_refusal(user, player) -> str | None:
    """Why this login may not link a login to `player`, or None when it may.

    Site admins link anyone. A TD links only a player who is entirely his: every entry in an event
    he runs and no rated history elsewhere, so that he can never hand the identity of another
    event's player (his results, his withdrawals) to a login of his choosing."""
    if not _signed_in(user):
        return _("Log in first.")
    if is_site_admin(user):
        return None
    if not td_of(user):
        return _("Only a site admin or a TD of the player's events links a login to a player.")
    from games.models import Player

    one = Player.objects.filter(pk=player.pk)
    if not one.filter(Exists(Entry.objects.filter(player=OuterRef("pk"),
                                                  tournament_id__in=_events_of(user)))).exists():
        return _("%(player)s has no entry in an event you run: ask a site admin.") % {"player": player.name}
    if one.filter(Exists(_entries_elsewhere(user))).exists():
        return (_("%(player)s is also entered in events you do not run: only a site admin links a login to him.")
                % {"player": player.name})
    if one.filter(Exists(_rated_elsewhere(user))).exists():
        return (_("%(player)s has rated results outside your events: only a site admin links a login to him.")
                % {"player": player.name})
    return None


def may_link_account(user, player) -> bool:
    return account_link_refusal(user, player) is None


def may_unlink_account(user) -> bool:
    """Undoing a link (a login that was given the wrong player) is a site admin's."""
    return is_site_admin(user)


def claims_to_decide(user):
    """The open claims this login may decide, oldest first."""
    from .models import ClaimStatus

    claims = PlayerClaim.objects.filter(status=ClaimStatus.PENDING).select_related("user", "player")
    if is_site_admin(user):
        return claims
    if not _signed_in(user):
        return claims.none()
    from games.models import Player

    return claims.filter(player__in=players_a_td_may_link(user, Player.objects.all()))


# -- the API and object permissions ----------------------------------------------------------------


class ReadOnlyOrSignedIn(permissions.BasePermission):
    """Anyone reads; writes need a login, and the services decide whether that login may."""

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class EventRolesBackend(BaseBackend):
    """Object permissions that come from a role in an event (`user.has_perm(PERM, obj)`).

    Site admins, the TDs of the event and the two players of the match may read a report's or a
    match's private details; site admins and the TDs of its event enter a match's games directly.
    Without an object, the TD of any event may add player records (`games.permissions.CREATE_PLAYERS`).
    The roles are read once per user object (two queries), so a list asks nothing more per row.
    """

    PERMS = (VIEW_REPORT_PRIVATE, VIEW_MATCH_PRIVATE, ENTER_MATCH_RESULTS)

    def has_perm(self, user_obj, perm, obj=None):
        if perm == CREATE_PLAYERS and obj is None and _signed_in(user_obj):
            return is_site_admin(user_obj) or bool(self._roles(user_obj)[0])  # the TD of an event
        if obj is None or perm not in self.PERMS or not _signed_in(user_obj):
            return False
        if is_site_admin(user_obj):
            return True
        events, player = self._roles(user_obj)
        if perm == VIEW_REPORT_PRIVATE and isinstance(obj, ResultReport):
            pairing = obj.pairing
            return pairing.flight.tournament_id in events or player in (pairing.player_a_id, pairing.player_b_id)
        if isinstance(obj, Match):
            if perm == VIEW_MATCH_PRIVATE and player is not None and player in (obj.player_a_id, obj.player_b_id):
                return True
            return bool(events) and Pairing.objects.filter(match=obj, flight__tournament_id__in=events).exists()
        return False

    @staticmethod
    def _roles(user) -> tuple[frozenset[int], int | None]:
        if not hasattr(user, "_crawford_event_roles"):
            user._crawford_event_roles = (td_of(user), player_id_of(user))
        return user._crawford_event_roles
