"""Where the boxes of a drawn bracket go, and the lines between them.

Pure Python, no Django: the event page hands in the matches of a knockout (each with the
matches whose *winners* feed its two sides) and gets back a column and a row for every match to
draw, and the connector lines. Byes and void matches are not drawn: a match fed by a bye is
placed as if the bye were not there, straight after the match that feeds its other side.

Rows come from a walk of the tree from its last matches: a match with no drawn feeder takes the
next free row, any other sits halfway between its feeders. In a double elimination the grand
final is fed by the winners' final first and the losers' final second, so the winners' bracket
lands above, the losers' below, and the grand final between them at the right.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

GROUP_GAP = 0.75
"""Empty rows between two groups (winners' and losers' brackets)."""


@dataclass(frozen=True)
class Match:
    """A match of the bracket as the layout needs it."""

    slot: str
    column: int
    """Left to right, from 0."""
    feeds: tuple[str | None, str | None]
    """The slots whose winners play sides a and b (None: an entrant, or a loser from elsewhere)."""
    drawn: bool = True
    """False for a bye or a void match: it takes no box."""
    group: str = ""
    """Boxes of different groups are set apart by a small gap."""


@dataclass(frozen=True)
class Line:
    """A connector from the right of one box to the left of the box its winner goes to."""

    source: str
    target: str
    side: int
    """0 for side a of the target, 1 for side b."""


@dataclass(frozen=True)
class Layout:
    rows: dict[str, float]
    """The row (from 0) of the centre of every drawn match."""
    columns: dict[str, int]
    lines: tuple[Line, ...]
    height: float
    """Rows used, the last one included."""
    width: int
    """Columns used."""


def round_name(rounds_left: int) -> str:
    """The usual name of a knockout round from the number of rounds up to the final (0 = final)."""
    if rounds_left == 0:
        return "Final"
    if rounds_left == 1:
        return "Semi-finals"
    if rounds_left == 2:
        return "Quarter-finals"
    return f"Round of {2 ** (rounds_left + 1)}"


def layout(matches: Sequence[Match]) -> Layout:
    """Columns, rows and connectors of the drawn matches of one bracket."""
    by_slot = {m.slot: m for m in matches}

    def drawn_feeders(match: Match) -> list[tuple[int, Match]]:
        """The drawn matches whose winners reach each side of `match`, through undrawn ones."""
        out = []
        for side, ref in enumerate(match.feeds):
            stack = [ref]
            while stack:
                slot = stack.pop()
                feeder = by_slot.get(slot) if slot is not None else None
                if feeder is None:
                    continue
                if feeder.drawn:
                    out.append((side, feeder))
                else:
                    stack.extend(reversed(feeder.feeds))
        return out

    feeders = {m.slot: drawn_feeders(m) for m in matches if m.drawn}
    fed = {f.slot for rows in feeders.values() for _, f in rows}
    roots = [m for m in matches if m.drawn and m.slot not in fed]
    rows: dict[str, float] = {}
    lines: list[Line] = []
    state = {"next": 0.0, "group": None}

    def place(match: Match) -> float:
        if match.slot in rows:
            return rows[match.slot]
        mine = feeders[match.slot]
        if not mine:
            if state["group"] is not None and state["group"] != match.group:
                state["next"] += GROUP_GAP
            state["group"] = match.group
            rows[match.slot] = state["next"]
            state["next"] += 1
            return rows[match.slot]
        placed = [place(f) for _, f in mine]
        for side, f in mine:
            lines.append(Line(f.slot, match.slot, side))
        rows[match.slot] = sum(placed) / len(placed)
        return rows[match.slot]

    for root in sorted(roots, key=lambda m: -m.column):
        place(root)
    columns = {m.slot: m.column for m in matches if m.drawn}
    return Layout(
        rows=rows,
        columns=columns,
        lines=tuple(lines),
        height=max(state["next"], 1.0),
        width=max(columns.values(), default=-1) + 1,
    )
