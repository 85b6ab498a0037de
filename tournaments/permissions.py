"""Who may do what in an event: staff everything, a TD his own events, a player his own matches.

The services ask these questions (so every interface answers the same); the API only keeps
anonymous users to reading.
"""

from django.core.exceptions import PermissionDenied
from rest_framework import permissions

from .models import Pairing, PlayerAccount, Tournament


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
