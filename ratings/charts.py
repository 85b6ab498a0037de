"""The formula page's two pictures of how well the ratings forecast this site's matches, laid out
for an inline SVG drawn on the server: a reliability diagram (each system's forecast chance of
the favourite against the share of matches the favourite won) and crawford's log loss minus
FIBS's over time.

Only positions, sizes and numbers are worked out here; the page writes the words, so they are
translated like every other string. Both charts have a viewBox of `WIDTH` units across, small
enough that their 11-unit text stays readable on a phone 360 px wide.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

WIDTH = 360
LEFT, RIGHT, TOP = 48, 18, 14


def _n(value: float) -> float:
    return round(value, 1)


@dataclass(frozen=True)
class Dot:
    """One system's point in one tenth of forecasts: at (its mean forecast, the share won),
    its area in proportion to its matches."""

    system: str
    label: str
    matches: int
    predicted: float
    won: float
    x: float
    y: float
    r: float
    side: float
    corner_x: float
    corner_y: float
    text_y: float


def reliability_chart(accuracy: dict) -> dict | None:
    """The reliability diagram of the systems in `accuracy` (`selectors.rating_accuracy`):
    forecast 50–100% across, share won 0–100% up; None when there is nothing to draw."""
    systems = [name for name in ("fibs", "crawford") if name in accuracy]
    rows = [(name, row) for name in systems for row in accuracy[name].reliability]
    if not rows:
        return None
    height = 330
    bottom = height - 46
    plot_w, plot_h = WIDTH - LEFT - RIGHT, bottom - TOP

    def x_of(chance: float) -> float:
        return _n(LEFT + (min(max(chance, 0.5), 1.0) - 0.5) / 0.5 * plot_w)

    def y_of(share: float) -> float:
        return _n(bottom - share * plot_h)

    largest = max(row.matches for _, row in rows)
    marks = {}
    for name, row in rows:
        marks[(name, row.label)] = (row, x_of(row.predicted), y_of(row.won), _n(3.0 + 7.0 * math.sqrt(row.matches / largest)))
    dots = []
    for (name, label), (row, x, y, r) in marks.items():
        # FIBS's count above its mark, crawford's below; when the two marks of a tenth touch,
        # above and below the pair, so no count sits on the other system's mark.
        other = marks.get(("crawford" if name == "fibs" else "fibs", label))
        high, low = y - r, y + r
        if other and abs(other[1] - x) < r + other[3] + 8 and abs(other[2] - y) < r + other[3] + 14:
            high, low = min(high, other[2] - other[3]), max(low, other[2] + other[3])
        text_y = _n(high - 4) if name == "fibs" else _n(low + 11)
        text_y = min(max(text_y, TOP + 10), bottom - 4)
        side = _n(r * 1.8)
        dots.append(Dot(name, row.label, row.matches, row.predicted, row.won, x, y, r, side,
                        _n(x - side / 2), _n(y - side / 2), text_y))
    return {
        "width": WIDTH, "height": height, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": bottom,
        "x_ticks": [{"x": x_of(p / 100), "label": p} for p in (50, 60, 70, 80, 90, 100)],
        "y_ticks": [{"y": y_of(p / 100), "label": p} for p in (0, 25, 50, 75, 100)],
        "diagonal": (x_of(0.5), y_of(0.5), x_of(1.0), y_of(1.0)), "perfect": (x_of(0.9), y_of(0.83)),
        "x_title": _n(LEFT + plot_w / 2), "x_title_y": height - 8, "y_title_x": 12, "y_title_y": _n(TOP + plot_h / 2),
        "fibs": [d for d in dots if d.system == "fibs"],
        "crawford": [d for d in dots if d.system == "crawford"],
        "matches": sum(row.matches for name, row in rows if name == systems[0]),
    }


def _step(largest: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about two ticks above zero."""
    raw = max(largest, 1e-4) / 2
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


LABELS_AT_MOST = 13
"""Past this many periods only every second (third, ...) bar is labelled, so the labels never
run into each other; every bar keeps its figures in its tooltip and in the table."""


@dataclass(frozen=True)
class Bar:
    """One period's difference, drawn from the zero line: up (FIBS better) or down."""

    period: object
    x: float
    width: float
    y: float
    height: float
    centre: float
    better: str
    show_year: bool
    show_label: bool
    count_y: float


def loss_chart(monthly: bool, periods: list) -> dict | None:
    """Crawford's log loss minus FIBS's for each of `periods` (`selectors.rating_loss_over_time`)
    as bars from a zero line, each with its number of matches; None without a period."""
    if not periods:
        return None
    height = 262
    bottom = height - 70
    plot_w, plot_h = WIDTH - LEFT - RIGHT, bottom - TOP
    step = _step(max(abs(p.difference) for p in periods))
    reach = step * max(1, math.ceil(max(abs(p.difference) for p in periods) / step))
    zero = TOP + plot_h / 2

    def y_of(value: float) -> float:
        return _n(zero - value / reach * plot_h / 2)

    slot = plot_w / len(periods)
    width = _n(min(slot * 0.7, 40))
    every = math.ceil(len(periods) / LABELS_AT_MOST)
    # A count needs about 6 units a digit: when its neighbours' would touch, every other one
    # goes a line lower.
    digits = len(str(max(p.matches for p in periods)))
    staggered = 6.2 * digits + 5 > slot * every
    count_y = bottom + 42
    bars = []
    for index, period in enumerate(periods):
        centre = LEFT + slot * (index + 0.5)
        top = y_of(max(period.difference, 0.0))
        size = _n(max(abs(y_of(period.difference) - _n(zero)), 1.0))
        year_starts = index == 0 or period.first.year != periods[index - 1].first.year
        bars.append(Bar(period, _n(centre - width / 2), width, top if period.difference > 0 else _n(zero),
                        size, _n(centre), "fibs" if period.difference > 0 else "crawford", year_starts,
                        index % every == 0, count_y + (12 if staggered and (index // every) % 2 else 0)))
    ticks = []
    for k in range(-round(reach / step), round(reach / step) + 1):
        ticks.append({"y": y_of(k * step), "value": k * step})
    return {
        "width": WIDTH, "height": height, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": bottom,
        "zero": _n(zero), "ticks": ticks, "digits": max(0, -math.floor(math.log10(step) + 1e-9)), "bars": bars, "monthly": monthly,
        "label_y": bottom + 14, "year_y": bottom + 27, "count_y": count_y,
        "matches": sum(p.matches for p in periods), "first": periods[0].first, "last": periods[-1].last,
        "better": sum(1 for p in periods if p.difference < 0), "periods": len(periods),
    }
