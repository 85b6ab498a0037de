"""Match slips: the one-time codes printed on the players' halves (`tournaments.slipcodes`)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ConflictError

from .. import slipcodes
from ..models import Pairing, PairingStatus, SlipCode, Tournament
from ..permissions import may_issue_slip_codes
from ._base import _lock_tournament


def slip_codes_issue(*, tournament: Tournament, pairing_ids, by, renew: bool = False) -> dict[tuple[int, int], str]:
    """Codes for both players of each open match of `pairing_ids` in `tournament` that has none
    yet: {(pairing id, player id): code}, the only time the codes are seen in clear.

    A player who already holds a live code for his match gets none: printing the slips again
    never takes back a code already handed out, and his half shows that his code was printed
    before. `renew` (the TD asks for new slips) revokes the live codes of those matches first and
    issues new ones. Codes of a player no longer in the match are revoked either way.
    """
    if not may_issue_slip_codes(by, tournament):
        raise PermissionDenied(_("Only a TD of %(tournament)s prints its slips.") % {"tournament": tournament.name})
    players, stale, held = _plan(tournament, pairing_ids, renew)
    if not stale and all((pk, player_id) in held for pk, pair in players.items() for player_id in pair):
        return {}  # slips printed again: nothing to write, and the event is not locked for it
    with transaction.atomic():
        _lock_tournament(tournament)
        players, stale, held = _plan(tournament, pairing_ids, renew)
        if stale:
            SlipCode.objects.filter(pk__in=stale).update(revoked_at=timezone.now())
        issued, rows = {}, []
        for pairing_id, pair in players.items():
            for player_id in pair:
                if (pairing_id, player_id) in held:
                    continue
                code = slipcodes.new_code()
                issued[(pairing_id, player_id)] = code
                rows.append(SlipCode(pairing_id=pairing_id, player_id=player_id, issued_by=by,
                                     digest=slipcodes.digest(pairing_id=pairing_id, player_id=player_id, code=code)))
        try:
            if rows:
                with transaction.atomic():
                    SlipCode.objects.bulk_create(rows)
        except IntegrityError:
            raise ConflictError(_("Someone printed these slips at the same moment: open them again.")) from None
    return issued


def _plan(tournament: Tournament, pairing_ids, renew: bool):
    """For the open matches of `pairing_ids`: their players {pairing id: (a, b)}, the live codes
    to revoke (their ids) and the (pairing, player) pairs whose live code stays."""
    players = {pk: (a, b) for pk, a, b in Pairing.objects.filter(
        pk__in=list(pairing_ids), flight__tournament=tournament, player_b__isnull=False,
        status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]).values_list("pk", "player_a_id", "player_b_id")}
    live = list(SlipCode.objects.filter(pairing_id__in=list(players), revoked_at__isnull=True)
                .values_list("pk", "pairing_id", "player_id"))
    stale = [pk for pk, pairing_id, player_id in live if renew or player_id not in players[pairing_id]]
    revoked = set(stale)
    held = {(pairing_id, player_id) for pk, pairing_id, player_id in live if pk not in revoked}
    return players, stale, held
