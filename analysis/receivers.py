"""Signal receivers: each hands over to a service at once."""

from . import services


def match_file_saved(sender, instance, created, **kwargs) -> None:
    """A match was stored with its moves: analyse it once the transaction commits."""
    services.analysis_request(match=instance.match)
