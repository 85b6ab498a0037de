"""Signal receivers: each hands over to a service and decides nothing itself."""

from . import services


def match_result_changed(sender, match, **kwargs):
    services.pairing_match_changed(match=match)
