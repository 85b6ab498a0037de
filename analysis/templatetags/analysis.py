"""Template tags that put the analysis on pages owned by other apps (the player page); the match
pages of games show it through `games.pages`."""

from django import template

from .. import selectors

register = template.Library()


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
