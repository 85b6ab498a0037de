"""Template tags that put ratings on pages owned by other apps (the match page)."""

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("ratings/_match_changes.html")
def match_rating_changes(match):
    """How the match moved each player's rating, in every system the site keeps."""
    return {"match": match, "rows": selectors.match_rating_changes(match=match)}
