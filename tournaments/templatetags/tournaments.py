"""Template tags of the event pages: data kept whole in a right-to-left line (`isolated`), and the
analysis's PR table on the event page, so that the analysis never reads events. (A match's event
reaches games' match pages through `games.pages`.)"""

from django import template
from django.utils import translation
from django.utils.html import format_html

from analysis import selectors as analysis_selectors

from .. import selectors

register = template.Library()


@register.filter
def isolated(value, bidi: bool | None = None):
    """Data (a name, a slot, a clock) kept whole inside a right-to-left line: in <bdi> on a page
    that reads right to left, so that "R2-1 · 7" is not reordered with the words around it; as
    it is on any other page. `bidi`: the page's direction, when a long list has looked it up once."""
    if not (translation.get_language_bidi() if bidi is None else bidi):
        return value
    return format_html("<bdi>{}</bdi>", value)


@register.inclusion_tag("analysis/_event.html")
def event_analysis(tournament):
    """The event's PR table: each player's average over his analysed matches in it (nothing when none)."""
    return {"rows": analysis_selectors.pr_table(selectors.event_matches(tournament))}
