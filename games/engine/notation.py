"""Reading and writing checker plays as text: "24/18 13/10", "bar/22*", "6/off", "8/4(2)".

Writing follows GNU Backgammon exactly (``format_play``, from ``games.engine.plays``). Reading is
forgiving, because match files disagree on spelling:

* the bar as ``bar``, ``Bar``, ``b`` or ``25``; off as ``off``, ``Off``, ``o`` or ``0``;
* moves separated by spaces or commas, each ``from/to`` (``from-to`` is read too), possibly
  chained through the points a checker visits (``24/18/13``, ``13/7*/5``);
* a repeat count after a move: ``8/4(2)``, ``8/4 (2)``, ``6/4*(2)``;
* hits marked with ``*`` or not at all: a checker landing on a lone opposing checker hits it,
  marked or not;
* one entry per die (``13/7 13/7 8/2 8/2``) or combined (``13/1``), in any order;
* a roll that cannot be played as empty text, ``Cannot Move`` or ``no move``.

A play is recognised by the position it leaves, never by its text: the text is turned into
checker movements, applied to the position and compared with every legal play's result.
"""

from __future__ import annotations

import re

from games.engine.errors import IllegalPlayError, InvalidNotationError, gettext_noop, ngettext
from games.engine.plays import Play, apply_steps, complete_play, format_play, legal_plays
from games.engine.position import Position

_NO_MOVE = {"", "cannot move", "can't move", "no move", "(no move)", "no legal move",
            "no legal moves", "no play"}
_REPEAT = re.compile(r"\s*\(\s*(\d)\s*\)")
_MOVE = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>\d)\))?$")
_POINT = re.compile(r"^(?P<name>bar|b|off|o|\d{1,2})(?P<hit>\**)$")


def _point(text: str, move: str) -> tuple[int, bool]:
    match = _POINT.match(text)
    if not match:
        raise InvalidNotationError(gettext_noop("Cannot read the point %(point)s in %(move)s."), point=repr(text), move=repr(move))
    name = match.group("name")
    hit = bool(match.group("hit"))
    if name in ("bar", "b"):
        return 25, hit
    if name in ("off", "o"):
        return 0, hit
    point = int(name)
    if point > 25:
        raise InvalidNotationError(gettext_noop("There is no point %(point)s (in %(move)s)."), point=point, move=repr(move))
    return point, hit


def read_movements(text: str) -> tuple[list[tuple[int, int]], int]:
    """The checker movements a play's text describes, and how many hits it marks.

    Each movement is ``(from, to)`` in the mover's numbering (25 = bar, 0 = off) and may cover
    several dice (``24/13``). ``13/7*/5`` gives ``(13, 7)`` and ``(7, 5)``; ``8/4(2)`` gives
    ``(8, 4)`` twice. Raises ``InvalidNotationError`` if the text is not a play.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(gettext_noop("A play is text, not %(type)s."), type=type(text).__name__)
    cleaned = " ".join(text.lower().replace(",", " ").split())
    if cleaned in _NO_MOVE:
        return [], 0
    cleaned = _REPEAT.sub(r"(\1)", cleaned)  # "8/4 (2)" -> "8/4(2)"
    cleaned = re.sub(r"\s*([/-])\s*", r"\1", cleaned)  # "24 / 18" -> "24/18"
    movements: list[tuple[int, int]] = []
    marked = 0
    for move in cleaned.split():
        match = _MOVE.match(move)
        if not match:
            raise InvalidNotationError(gettext_noop("Cannot read the move %(move)s."), move=repr(move))
        parts = re.split(r"[/-]", match.group("path"))
        if len(parts) < 2:
            raise InvalidNotationError(gettext_noop("A move goes from one point to another, not %(move)s."), move=repr(move))
        points = [_point(part, move) for part in parts]
        if points[0][1]:
            raise InvalidNotationError(gettext_noop("A hit is marked where the checker lands, not in %(move)s."), move=repr(move))
        count = int(match.group("count") or 1)
        if count < 1:
            raise InvalidNotationError(gettext_noop("A move is repeated at least once, not in %(move)s."), move=repr(move))
        marked += count * sum(hit for _, hit in points)
        for _ in range(count):
            movements.extend((a, b) for (a, _), (b, _) in zip(points, points[1:]))
    return movements, marked


def parse_play(text: str, position: Position, dice: tuple[int, int]) -> Play:
    """The legal play of ``dice`` that ``text`` describes for the player on roll.

    Raises ``InvalidNotationError`` when the text cannot be read as a play, and
    ``IllegalPlayError`` (its ``legal`` holding every legal play's notation) when it can be
    read but is not a legal play here, or could be more than one of them.
    """
    movements, marked = read_movements(text)
    if len(movements) == 2 and dice[0] != dice[1]:
        # One move per die: the higher die first, as the search lists it, else the other way.
        first, second = sorted(movements, key=lambda step: step[1] - step[0])
        fast = complete_play(position, dice, (first, second)) or complete_play(position, dice, (second, first))
        if fast is not None:
            return fast
    plays = legal_plays(position, dice)
    candidates = _matching(plays, position, movements, marked)
    if len(candidates) == 1:
        return candidates[0]
    legal = tuple(play.notation for play in plays)
    high, low = max(dice), min(dice)
    shown = ", ".join(notation or "no move" for notation in legal[:10])
    if candidates:
        found = ", ".join(play.notation for play in candidates)
        raise IllegalPlayError(
            gettext_noop("%(play)s could be one of %(plays)s: write the point of the hit."), legal=legal,
            play=repr(text.strip()), plays=found,
        )
    params = {"play": repr(text.strip() or "No move"), "roll": f"{high}{low}", "plays": shown}
    if len(legal) > 10:
        raise IllegalPlayError(
            ngettext("%(play)s is not a legal play of %(roll)s; legal: %(plays)s and %(more)s more.",
                     "%(play)s is not a legal play of %(roll)s; legal: %(plays)s and %(more)s more.", len(legal) - 10),
            legal=legal, more=len(legal) - 10, **params,
        )
    raise IllegalPlayError(gettext_noop("%(play)s is not a legal play of %(roll)s; legal: %(plays)s."), legal=legal,
                           **params)


def _matching(plays: list[Play], position: Position, movements, marked: int) -> list[Play]:
    """The legal plays that the movements describe (one, or several if they are ambiguous)."""
    if not movements:
        return [play for play in plays if play.is_empty]
    if any(target >= source for source, target in movements):
        return []
    # A checker that passes through a point moves before the one that starts there.
    ordered = sorted(movements, key=lambda step: -step[0])
    result = apply_steps(position, ordered)
    if result is None:
        return []
    exact = [play for play in plays if play.position == result]
    if exact:
        return exact
    # The text left out a hit on the way ("24/13" for 24/18*/13): accept it when the player's
    # own checkers end where the text says and the hits are those marked, or unambiguous.
    same_checkers = [play for play in plays if play.position.on_roll == result.on_roll]
    if len(same_checkers) > 1 and marked:
        by_hits = [play for play in same_checkers if play.hits == marked]
        if by_hits:
            same_checkers = by_hits
    return same_checkers

__all__ = ["format_play", "parse_play", "read_movements"]
