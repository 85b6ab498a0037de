"""Request parsers of the API (a module of its own: DRF imports it while it sets itself up)."""

from django.utils.translation import gettext
from rest_framework import exceptions, parsers

# The deepest a request body nests arrays and objects; real bodies need 3 or 4 levels.
JSON_DEPTH_MAX = 32


def _depth(value) -> int:
    """How deep `value` nests lists and dicts (without recursion, so any depth is safe)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in item)
    return deepest


class JSONParser(parsers.JSONParser):
    """JSON bodies, refused with 400 when they nest deeper than JSON_DEPTH_MAX (a body nested a
    thousand levels deep used to exhaust Python's recursion and answer 500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        too_deep = exceptions.ParseError(
            gettext("JSON parse error - the body nests arrays and objects more than %(levels)s levels deep.")
            % {"levels": JSON_DEPTH_MAX})
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise too_deep from None
        if _depth(data) > JSON_DEPTH_MAX:
            raise too_deep
        return data
