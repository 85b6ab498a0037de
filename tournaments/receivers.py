"""Signal receivers: each hands over to a service and decides nothing itself."""

from . import services


def analysis_will_store(sender, match, **kwargs):
    """analysis.signals.analysis_will_store: a match's figures are about to be stored."""
    services.pairing_analysis_will_store(match=match)
