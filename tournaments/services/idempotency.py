"""A result arrives once, however often it is sent.

A browser makes a key when a result is typed (`Idempotency-Key`, a header or a form field) and
sends it with every try: the Save that timed out but reached the server, the one kept offline and
sent again when the network returns. The first answer is stored with the key in the writer's
transaction (`SaveKey`); a key seen before for the same match gets that answer again (same status,
same body) and stores nothing; a key seen for another match is refused (409).

Twenty requests at once with one key store one result: the tournament and then the pairing are
locked before the key is looked for (the package's lock order), so the requests for one match
wait for each other; a key used at the same moment for another match collides on the key's
unique constraint, and the loser reads the winner's row and answers 409.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ConflictError
from games.engine.errors import ScoringError

from ..models import Pairing, ReportStatus, SaveKey
from ._base import _lock_pairing, _lock_tournament
from .results import ImprobableScore, ResultConflict, result_arrival, result_report

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a key may be: up to 64 letters, digits, `-` and `_` (a UUID is 36 of them)."""


@dataclass(frozen=True)
class SaveAnswer:
    """An answer to a Save sent with a key: its HTTP status and JSON body; `replayed` when it is
    the stored answer of an earlier try."""

    status: int
    body: dict
    replayed: bool = False

    @property
    def stored(self) -> bool:
        """The result is on the server (this try or an earlier one stored it, or it was there)."""
        return 200 <= self.status < 300


def save_key_clean(value: str | None) -> str | None:
    """The key sent with a request, or None when none was; a malformed key raises ValidationError."""
    if value is None or value == "":
        return None
    if not KEY_PATTERN.fullmatch(value):
        raise ValidationError({"idempotency_key": [
            _("An Idempotency-Key is 1 to 64 letters, digits, '-' or '_'.")]})
    return value


def refusal_answer(error: Exception) -> SaveAnswer:
    """A service's refusal as an answer: 400 with a message per field, 409 for a conflict (with
    both scores when it is a `ResultConflict`)."""
    if isinstance(error, ResultConflict):
        pairing = error.pairing
        return SaveAnswer(409, {
            "error": "result_conflict", "message": str(error), "pairing": pairing.pk, "slot": pairing.slot,
            "state": error.state, "version": pairing.version,
            "stored": {"score_a": error.stored[0], "score_b": error.stored[1]},
            "sent": {"score_a": error.sent[0], "score_b": error.sent[1]},
        })
    if isinstance(error, ConflictError):
        return SaveAnswer(409, {"error": "conflict", "message": str(error)})
    if isinstance(error, ScoringError):
        fields = {error.field or "non_field_errors": [error.message]}
    else:
        fields = getattr(error, "message_dict", None) or {"non_field_errors": list(error.messages)}
    return SaveAnswer(400, {"error": "improbable" if isinstance(error, ImprobableScore) else "invalid", "fields": fields,
                            "message": " ".join(text for texts in fields.values() for text in texts)})


def save_once(*, key: str, pairing: Pairing, write: Callable[[Pairing], tuple[int, dict]]) -> SaveAnswer:
    """Carry out `write` for `pairing` once per `key`, and answer every try with the first answer.

    `write` gets the locked pairing, with the event's and the match's locks held in this
    transaction (a service it calls is told so: `result_report(held=True)`, and does not lock them
    again), and returns (status, JSON body); a refusal it raises (400,
    409) is that first answer too, and nothing of it is stored but the key. A missing right
    (`PermissionDenied`) is raised to the caller and not kept: the key may be tried again by
    someone who has it.
    """
    for _attempt in range(3):
        try:
            with transaction.atomic():
                if connection.features.has_select_for_update:
                    # the package's lock order; SQLite has no row locks: its transaction (BEGIN
                    # IMMEDIATE) already holds the whole database for this writer
                    _lock_tournament(pairing.flight.tournament)
                locked = _lock_pairing(pairing, None)
                seen = SaveKey.objects.filter(key=key).first()
                if seen is not None:
                    return _replay(seen, locked)
                try:
                    with transaction.atomic():
                        status, body = write(locked)
                    answer = SaveAnswer(status, body)
                except PermissionDenied:
                    raise
                except (ValidationError, ScoringError, ConflictError) as error:
                    answer = refusal_answer(error)
                SaveKey.objects.create(key=key, pairing=locked, status=answer.status, body=answer.body)
                return answer
        except IntegrityError:
            # The same key was stored meanwhile by a request for another match: read it again.
            seen = SaveKey.objects.filter(key=key).first()
            if seen is not None:
                return _replay(seen, pairing)
    raise ConflictError(_("Someone else was saving with the same key at the same moment: try again."))


def _replay(seen: SaveKey, pairing: Pairing) -> SaveAnswer:
    if seen.pairing_id != pairing.pk:
        return SaveAnswer(409, {"error": "key_reused", "message": _(
            "This Idempotency-Key was already used for another match: a new result needs a new key.")})
    return SaveAnswer(seen.status, seen.body, replayed=True)


def result_report_once(
    *, key: str, pairing: Pairing, by=None, code: str | None = None, score_a: int, score_b: int, note: str = "",
    improbable_confirmed: bool = False,
) -> SaveAnswer:
    """A final score typed at the desk or on the match's page, sent with a key (`result_report`
    once per key).

    It is judged on what the match holds when it arrives (`results.result_arrival`), not on the
    version the page had when it was typed: the same result already there answers 200 and stores
    nothing new; another one answers 409 with both scores. Body on success: `result`
    ("recorded", or "already" when the match had it), `pairing`, `slot`, `score_a`, `score_b`,
    `report_status` ("confirmed", or "pending" for a player's report waiting for the opponent).
    A TD's improbable final score answers 400 with `error` "improbable" until it is sent again,
    with a new key, `improbable_confirmed`.
    """
    def write(locked: Pairing) -> tuple[int, dict]:
        if result_arrival(pairing=locked, score_a=score_a, score_b=score_b, by=by, code=code):
            return 200, _recorded(locked, "already", score_a, score_b, ReportStatus.CONFIRMED)
        made = result_report(pairing=locked, by=by, code=code, score_a=score_a, score_b=score_b, note=note,
                             held=True, improbable_confirmed=improbable_confirmed)
        return 200, _recorded(locked, "recorded", made.score_a, made.score_b, made.status)

    return save_once(key=key, pairing=pairing, write=write)


def _recorded(pairing: Pairing, result: str, score_a: int, score_b: int, report_status: str) -> dict:
    return {"result": result, "pairing": pairing.pk, "slot": pairing.slot, "score_a": score_a, "score_b": score_b,
            "report_status": str(report_status)}


def save_keys_prune(*, days: int | None = None) -> int:
    """Forget the keys older than `days` (`SAVE_KEY_DAYS`, 30 by default); returns how many.
    A Save that arrives after that long is judged on what its match holds, as any late Save."""
    days = settings.SAVE_KEY_DAYS if days is None else days
    deleted, _by_model = SaveKey.objects.filter(created_at__lt=timezone.now() - timedelta(days=days)).delete()
    return deleted
