"""Who may do what in an event: staff everything, a TD his own events, a player his own matches.

The services ask these questions (so every interface answers the same); the API only keeps
anonymous users to reading.
"""

from django.contrib.auth.backends import BaseBackend
from django.core.exceptions import PermissionDenied
from rest_framework import permissions

from games.models import Match
from games.permissions import VIEW_MATCH_PRIVATE

from .models import Pairing, PlayerAccount, ResultReport, Tournament

# Who entered, confirmed or disputed a result (login names), why it was disputed, and who changed
# a match and why: shown to staff, the TDs of the event and the two players, to nobody else.
VIEW_REPORT_PRIVATE = "tournaments.view_report_private"


def is_td(user, tournament: Tournament) -> bool:
    """True for staff and for the organisers of this tournament."""
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def require_td(user, tournament: Tournament) -> None:
    if not is_td(user, tournament):
        raise PermissionDenied(f"Only a TD of {tournament.name} may do this.")


def player_id_of(user) -> int | None:
    """The player a login belongs to, if any."""
    if user is None or not user.is_authenticated:
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


class ReadOnlyOrSignedIn(permissions.BasePermission):
    """Anyone reads; writes need a login, and the services decide whether that login may."""

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or bool(request.user and request.user.is_authenticated)


class EventRolesBackend(BaseBackend):
    """Object permissions that come from a role in an event (`user.has_perm(VIEW_…, obj)`).

    Staff, the TDs of the event and the two players of the match may read a report's or a
    match's private details. The roles are read once per user object (two queries), so a list
    of reports asks nothing more per row.
    """

    def has_perm(self, user_obj, perm, obj=None):
        if obj is None or perm not in (VIEW_REPORT_PRIVATE, VIEW_MATCH_PRIVATE):
            return False
        if not (user_obj.is_active and user_obj.is_authenticated):
            return False
        if user_obj.is_staff:
            return True
        td_of, player = self._roles(user_obj)
        if perm == VIEW_REPORT_PRIVATE and isinstance(obj, ResultReport):
            pairing = obj.pairing
            return pairing.flight.tournament_id in td_of or player in (pairing.player_a_id, pairing.player_b_id)
        if perm == VIEW_MATCH_PRIVATE and isinstance(obj, Match):
            if player is not None and player in (obj.player_a_id, obj.player_b_id):
                return True
            return bool(td_of) and Pairing.objects.filter(match=obj, flight__tournament_id__in=td_of).exists()
        return False

    @staticmethod
    def _roles(user) -> tuple[frozenset[int], int | None]:
        if not hasattr(user, "_crawford_event_roles"):
            td_of = frozenset(Tournament.objects.filter(organisers=user).values_list("pk", flat=True))
            user._crawford_event_roles = (td_of, player_id_of(user))
        return user._crawford_event_roles
