"""Signal receivers: each hands over to a service at once."""

from . import services
from .models import ChangeKind


def result_changed(sender, match, **kwargs) -> None:
    """games.signals.match_result_changed: a result was entered, corrected, deleted or forfeited."""
    services.rating_recompute_for_match(match=match)


def match_deleted(sender, instance, **kwargs) -> None:
    """A match was deleted: its result leaves the history."""
    services.rating_recompute_for_match(match=instance, kind=ChangeKind.DELETED)


def results_imported(sender, **kwargs) -> None:
    """games.signals.results_imported: a chunk of a results import is being stored."""
    services.rating_import_record()


def results_import_finished(sender, imported, **kwargs) -> None:
    """games.signals.results_import_finished: a results import ended."""
    services.rating_import_finish(imported=imported)


def analysis_stored(sender, match, **kwargs) -> None:
    """analysis.signals.analysis_stored: a match's analysis has been stored."""
    services.rating_recompute_for_analysis(match=match)
