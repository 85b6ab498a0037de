"""Signal receivers: each hands over to a service and decides nothing itself."""

from . import services


def match_result_changed(sender, match, **kwargs):
    services.pairing_match_changed(match=match)


def match_will_change(sender, match, **kwargs):
    services.pairing_match_will_change(match=match)


def analysis_will_store(sender, match, **kwargs):
    services.pairing_match_will_change(match=match)
