"""Signal receivers: each hands over to a service at once."""

from . import services
from .models import ChangeKind


def result_changed(sender, match, **kwargs) -> None:
    """games.signals.match_result_changed: a result was entered, corrected, deleted or forfeited."""
    services.rating_recompute_for_match(match=match)


def match_deleted(sender, instance, **kwargs) -> None:
    """A match was deleted: its result leaves the history."""
    services.rating_recompute_for_match(match=instance, kind=ChangeKind.DELETED)


def analysis_stored(sender, match, **kwargs) -> None:
    """analysis.signals.analysis_stored: a match's analysis has been stored."""
    services.rating_recompute_for_analysis(match=match)
