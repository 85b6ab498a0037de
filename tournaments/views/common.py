"""What the desk and a player's own page share: a service's refusal in words, next to its field."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from config.errors import ConflictError
from games.engine.errors import ScoringError

from .. import services
from ..forms import ScoreForm
from ..models import Pairing, ResultReport


def error_text(error: Exception) -> str:
    if isinstance(error, ScoringError):
        return error.message
    if isinstance(error, ValidationError):
        if hasattr(error, "message_dict"):
            return " ".join(text for texts in error.message_dict.values() for text in texts)
        return " ".join(error.messages)
    return str(error)


def form_errors(form, error: ValidationError | ScoringError) -> None:
    """Put a service's refusal next to the field it names, or above the form."""
    if isinstance(error, ScoringError):
        form.add_error(error.field if error.field in form.fields else None, error.message)
        return
    for name, texts in getattr(error, "message_dict", {"non_field_errors": error.messages}).items():
        for text in texts:
            form.add_error(name if name in form.fields else None, text)


REFUSALS = (ValidationError, ScoringError, ConflictError, PermissionDenied)


def wants_json(request) -> bool:
    """A script that keeps Saves while the network is down (static/offline-queue.js) asks for JSON."""
    return "application/json" in request.headers.get("Accept", "")


def save_key(request) -> str | None:
    """The key a Save was sent with: the `Idempotency-Key` header, or the form's `idempotency_key`
    field. None when there is none; a malformed one raises ValidationError."""
    return services.save_key_clean(request.headers.get("Idempotency-Key") or request.POST.get("idempotency_key"))


def report_typed_score(request, pairing: Pairing) -> ResultReport | None:
    """Report the final score typed in a pairing's form (fields prefixed `p<id>-`); None, with a
    message, when a field is missing. The services' refusals are raised to the caller."""
    form = ScoreForm(request.POST, prefix=f"p{pairing.pk}")
    if not form.is_valid():
        messages.error(request, _("%(match)s: give both players' points.") % {"match": pairing.slot})
        return None
    data = form.cleaned_data
    return services.result_report(pairing=pairing, by=request.user, score_a=data["score_a"],
                                  score_b=data["score_b"], note=data["note"], expected_version=data["version"])


