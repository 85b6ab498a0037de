"""The score sheet of a pairing's match: games, a final score, a forfeit entered on the match itself.

The match pages, the games API and the admin write a match through `games.keepers`; for a match
that decides a pairing these functions are what they call (registered in `apps.py`). Each takes
the locks in the package's order — the tournament (its results version raised), the pairing, then
the match inside the `games.services` call — and then makes the pairing and the draw follow the
match in the same transaction: a match that ends decides its pairing and the players move on; a
change that would give a decided pairing another winner is refused (a TD corrects it with
`result_override` or undoes it, which show what it changes downstream). A refusal after the
games write takes the games write back with it.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ConflictError
from games import services as games
from games.keepers import MatchWrites, keeper_writes
from games.models import Match, MatchStatus

from ..models import Pairing, PairingStatus
from ._base import _lock_pairing, _results_changed, _supersede_open
from .rounds import _advance


def is_pairing_match(match: Match) -> bool:
    """Whether `match` decides a pairing (the test `games.keepers` asks)."""
    return Pairing.objects.filter(match_id=match.pk).exists()


def _lock_pairing_of(match: Match) -> Pairing | None:
    """Lock the tournament and then the pairing that `match` decides (None when it decides none)."""
    found = Pairing.objects.filter(match_id=match.pk).values_list("pk", "flight__tournament_id").first()
    if found is None:
        return None
    pairing_id, tournament_id = found
    _results_changed(tournament_id)
    pairing = _lock_pairing(Pairing(pk=pairing_id), None)
    if pairing.match_id != match.pk:
        raise ConflictError(_("%(flight)s %(match)s was changed by someone else: reload the match.")
                % {"flight": pairing.flight.name, "match": pairing.slot})
    return pairing


def _follow(pairing: Pairing, match: Match, *, by) -> None:
    """Make the pairing agree with its match, which has just changed; the caller holds the locks."""
    if pairing.decided:
        if pairing.status == PairingStatus.WALKOVER and match.status != MatchStatus.FORFEITED:
            raise ValidationError({"non_field_errors": [
                _("This match is the walkover of %(flight)s %(match)s: a TD undoes the walkover through the "
                          "tournament (walkover-undo), which shows what it changes downstream.")
                        % {"flight": pairing.flight.name, "match": pairing.slot}]})
        if match.winner_id != pairing.winner_id:
            raise ValidationError({"non_field_errors": [
                _("This match decides %(flight)s %(match)s: a TD corrects its result through the tournament "
                          "(result override), which shows what it changes downstream.")
                        % {"flight": pairing.flight.name, "match": pairing.slot}]})
        if (match.score_a, match.score_b) != (pairing.score_a, pairing.score_b):
            pairing.score_a, pairing.score_b = match.score_a, match.score_b
            pairing._history_user = by
            pairing.save(update_fields=["score_a", "score_b"])
        return
    if not match.finished:
        return
    pairing.score_a, pairing.score_b = match.score_a, match.score_b
    pairing.winner_id = match.winner_id
    pairing.status = PairingStatus.WALKOVER if match.status == MatchStatus.FORFEITED else PairingStatus.FINISHED
    pairing.decided_at = timezone.now()
    pairing.version += 1
    pairing._history_user = by
    pairing.save()
    _supersede_open(pairing)
    _advance(pairing.flight.tournament, pairing.flight, by=by)


def _kept(write, *, match: Match, by=None, **arguments) -> Match:
    """`write` (a `games.services` function) on a pairing's match, in the lock order, the pairing
    and the draw following it in the same transaction."""
    with transaction.atomic():
        pairing = _lock_pairing_of(match)
        with keeper_writes(match):
            match = write(match=match, by=by, **arguments)
        if pairing is not None:
            _follow(pairing, match, by=by)
    return match


def pairing_game_record(*, match: Match, number: int, game: games.GameInput, by=None,
                        expected_version: int | None = None) -> Match:
    """Record game `number` of a pairing's match (`games.services.game_record`)."""
    return _kept(games.game_record, match=match, number=number, game=game, by=by, expected_version=expected_version)


def pairing_game_correct(*, match: Match, number: int, game: games.GameInput, by=None, reason: str = "",
                         expected_version: int | None = None) -> Match:
    """Correct game `number` of a pairing's match (`games.services.game_correct`)."""
    return _kept(games.game_correct, match=match, number=number, game=game, by=by, reason=reason,
                 expected_version=expected_version)


def pairing_game_delete_last(*, match: Match, number: int | None = None, by=None, reason: str = "",
                             expected_version: int | None = None) -> Match:
    """Delete the last game of a pairing's match (`games.services.game_delete_last`)."""
    return _kept(games.game_delete_last, match=match, number=number, by=by, reason=reason,
                 expected_version=expected_version)


def pairing_final_score_record(*, match: Match, score_a: int, score_b: int, by=None, reason: str = "",
                               expected_version: int | None = None) -> Match:
    """Finish a pairing's match from its final score (`games.services.match_final_score_record`)."""
    return _kept(games.match_final_score_record, match=match, score_a=score_a, score_b=score_b, by=by,
                 reason=reason, expected_version=expected_version)


def pairing_forfeit(*, match: Match, forfeited_by, by=None, reason: str = "",
                    expected_version: int | None = None) -> Match:
    """A player gives a pairing's match up (`games.services.match_forfeit`): the pairing is a walkover."""
    return _kept(games.match_forfeit, match=match, forfeited_by=forfeited_by, by=by, reason=reason,
                 expected_version=expected_version)


def pairing_forfeit_undo(*, match: Match, by=None, reason: str = "", expected_version: int | None = None) -> Match:
    """Take back the forfeit of a pairing's match (`games.services.match_forfeit_undo`); a walkover
    stands until a TD undoes it through the tournament."""
    return _kept(games.match_forfeit_undo, match=match, by=by, reason=reason, expected_version=expected_version)


def pairing_match_update(*, match: Match, by=None, reason: str = "", expected_version: int | None = None,
                         **changes) -> Match:
    """Mark a pairing's match rated or unrated, or move its date (`games.services.match_update`)."""
    return _kept(games.match_update, match=match, by=by, reason=reason, expected_version=expected_version,
                 **changes)


WRITES = MatchWrites(
    game_record=pairing_game_record,
    game_correct=pairing_game_correct,
    game_delete_last=pairing_game_delete_last,
    match_final_score_record=pairing_final_score_record,
    match_forfeit=pairing_forfeit,
    match_forfeit_undo=pairing_forfeit_undo,
    match_update=pairing_match_update,
)
"""What `games.keepers` calls for a match that decides a pairing."""
