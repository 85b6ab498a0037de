"""Template tags that put the analysis on pages owned by other apps (match, player)."""

from django import template

from .. import selectors

register = template.Library()


@register.inclusion_tag("analysis/_match.html")
def match_analysis(match):
    """Both players' PR, luck and luck-adjusted result, and the worst plays, on the match page."""
    return {"match": match, "view": selectors.match_analysis(match)}


def _trend(points: list[dict], width: int = 320, height: int = 90, pad: int = 8) -> dict | None:
    if len(points) < 2:
        return None
    values = [p["pr"] for p in points]
    top = max(max(values), 1.0)
    step = (width - 2 * pad) / (len(values) - 1)
    coords = [(pad + i * step, height - pad - (v / top) * (height - 2 * pad)) for i, v in enumerate(values)]
    return {
        "width": width, "height": height, "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        "dots": [{"x": f"{x:.1f}", "y": f"{y:.1f}", "point": p} for (x, y), p in zip(coords, points)],
        "top": top,
    }


@register.simple_tag
def replay_decisions(match, game: int) -> dict:
    """The game's worst decisions by replay frame, for `decision_notes` (empty when not analysed)."""
    return selectors.replay_decisions(match, game)


@register.inclusion_tag("analysis/_replay_notes.html")
def decision_notes(decisions: dict, frame: int):
    """The analysed decisions shown on one replay frame: what was played and what was right."""
    return {"notes": decisions.get(frame, [])}


@register.inclusion_tag("analysis/_player.html")
def player_analysis(player):
    """A player's average PR with its trend, luck by year, best and worst analysed matches."""
    data = selectors.player_analysis(player.pk)
    year = None
    if data["luck_by_year"]:
        latest, luck = data["luck_by_year"][0]
        year = {"year": latest, "luck": luck, "size": abs(luck)}
    return {"player": player, "data": data, "trend": _trend(data["trend"]), "year": year}


@register.filter
def signed_percent(value) -> str:
    """0.4947 -> "+49.47%": a share of the match won, as GNU Backgammon prints it."""
    return f"{float(value) * 100:+.2f}%"
