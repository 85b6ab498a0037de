"""Legal plays: every way the player on roll may play a roll of the dice.

Points are numbered from the mover's side throughout: 1..24 from his own home board, 25 is the
bar and 0 is off the board. A step ``(from, to)`` moves one checker by one die.

The rules applied (the reference rules in ``shared/rules/``):

* a checker on the bar enters before anything else moves;
* a checker may land on an open point: empty, his own, or a single opposing checker (a blot,
  which is hit and goes to the bar);
* both dice are played when possible; when only one of them can be, the higher one if it can;
* doubles are played four times, or as many times as possible;
* bearing off needs all fifteen checkers in the home board (points 1..6); a die bears off from
  its own point, otherwise moves a checker from a higher point, otherwise bears off from the
  highest occupied point when the die is larger than it. A checker hit during the bear-off must
  come home again first.

``legal_plays`` lists one ``Play`` per distinct resulting position, as GNU Backgammon does.

A roll that cannot be played at all (a dance on the bar, a closed-out blocked position) still
has exactly one play: the empty ``Play`` with no steps, notation ``""`` and the position
unchanged. So ``legal_plays`` never returns an empty list, and "no move" is a play like any
other for callers that replay games.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from games.engine.errors import IllegalPlayError, gettext_noop
from games.engine.position import Position

Step = tuple[int, int]
"""One checker moved by one die: (from, to) in the mover's numbering, 25 = bar, 0 = off."""

BAR_POINT = 25
"""The bar, as a point number in steps and notation."""
OFF_POINT = 0
"""Off the board, as a point number in steps and notation."""


@dataclass(frozen=True)
class Play:
    """One legal way to play a roll.

    ``steps`` lists one ``(from, to)`` per die used, in the mover's numbering (25 = bar,
    0 = off). ``position`` is the position after the play, *still seen from the side that
    moved* (call ``.swap()`` for the opponent to be on roll, which is how GNU Backgammon shows
    it and what its Position ID after the play describes). ``hits`` counts the opposing
    checkers sent to the bar. ``before`` is the position the play starts from. ``notation`` is
    GNU Backgammon's text for the play ("24/18 13/10", "bar/22*", "6/off", "8/4(2)"); it is
    ``""`` for the empty play of a roll that cannot be played.

    Two plays are equal when they start from the same position and take the same steps to the
    same result.
    """

    steps: tuple[Step, ...]
    position: Position
    hits: int
    before: Position

    @functools.cached_property
    def notation(self) -> str:
        """GNU Backgammon's text for the play (written on first use, then kept)."""
        return format_play(self.steps, self.before)

    @property
    def dice_used(self) -> int:
        """How many dice the play uses (0 to 4)."""
        return len(self.steps)

    @property
    def is_empty(self) -> bool:
        """True for the empty play of a roll that cannot be played."""
        return not self.steps

    def result_id(self) -> str:
        """Position ID after the play with the opponent on roll, as GNU Backgammon writes it."""
        return self.position.swap().position_id()

    def __repr__(self) -> str:
        return f"Play({self.notation or 'no play'!r} from {self.before.position_id()})"

    def __str__(self) -> str:
        return self.notation or "(no play)"


# --- the working board ---------------------------------------------------------------------
#
# Applying steps and writing notation use a list of 27 ints: [0] the mover's checkers borne
# off, [1..24] the points in the mover's numbering (positive: the mover's checkers, negative:
# the opponent's), [25] the mover's bar, [26] the opponent's bar.


def _board_of(position: Position) -> list[int]:
    mine = position.on_roll
    theirs = position.opponent
    board = [15 - sum(mine)]
    board.extend(mine[i] - theirs[23 - i] for i in range(24))
    board.append(mine[24])
    board.append(theirs[24])
    return board


def _position_of(board: tuple[int, ...] | list[int]) -> Position:
    points = board[1:25]
    mine = tuple([n if n > 0 else 0 for n in points]) + (board[25],)
    theirs = tuple([-n if n < 0 else 0 for n in reversed(points)]) + (board[26],)
    return Position._trusted(mine, theirs)


class _Search:
    """Depth-first search over the ways to play the dice, collecting distinct results.

    Works on two mutable lists, ``mine`` and ``theirs``, laid out like ``Position`` sides (index
    ``p - 1`` for a side's own point ``p``, 24 for its bar); the mover's point ``p`` is the
    opponent's index ``24 - p``. Keeps only the results that use the most dice, and for each
    result the first step sequence found. For doubles the starting points never increase along
    a sequence, which reaches every distinct result without trying every permutation.
    """

    __slots__ = (
        "mine", "theirs", "dice", "double", "results", "best", "steps", "not_home", "reversed"
    )

    def __init__(self, position: Position, dice: tuple[int, ...]):
        self.mine = list(position.on_roll)
        self.theirs = list(position.opponent)
        self.dice = dice
        self.double = len(dice) == 4
        self.results: dict[tuple, tuple[Step, ...]] = {}
        self.best = 0
        self.steps: list[Step] = []
        self.not_home = sum(self.mine[6:])
        self.reversed = False

    def record(self, depth: int) -> None:
        if depth < self.best:
            return
        key = (tuple(self.mine), tuple(self.theirs))
        if depth > self.best:
            self.best = depth
            self.results = {key: tuple(self.steps)}
        elif key not in self.results:
            self.results[key] = tuple(self.steps)

    def run(self, depth: int, top: int) -> None:
        mine = self.mine
        theirs = self.theirs
        dice = self.dice
        if depth == len(dice):
            self.record(depth)
            return
        die = dice[depth]
        last = depth + 1 == len(dice)
        steps = self.steps
        double = self.double
        moved = False
        # Playing the dice the other way round, two moves of different checkers that neither
        # enter nor bear off give what the first order already found: only note they exist.
        commuting = None
        if self.reversed and depth == 1 and steps[0][0] != 25 and steps[0][1] != 0:
            commuting = steps[0][1]
        if mine[24]:
            sources: range | tuple[int, ...] = (25,)
        else:
            sources = range(top if top < 24 else 24, 0, -1)
        for source in sources:
            if not mine[source - 1]:
                continue
            target = source - die
            if target > 0:
                blockers = theirs[24 - target]
                if blockers > 1:
                    continue
                if commuting is not None and source != commuting and source != 25:
                    moved = True
                    continue
                mine[source - 1] -= 1
                mine[target - 1] += 1
                if blockers:
                    theirs[24 - target] = 0
                    theirs[24] += 1
                came_home = source > 6 >= target
                if came_home:
                    self.not_home -= 1
                steps.append((source, target))
                if last:
                    self.record(depth + 1)
                else:
                    self.run(depth + 1, source if double else 25)
                steps.pop()
                if came_home:
                    self.not_home += 1
                if blockers:
                    theirs[24] -= 1
                    theirs[24 - target] = 1
                mine[target - 1] -= 1
                mine[source - 1] += 1
                moved = True
            elif not self.not_home and (target == 0 or not any(mine[source:6])):
                mine[source - 1] -= 1
                steps.append((source, 0))
                if last:
                    self.record(depth + 1)
                else:
                    self.run(depth + 1, source if double else 25)
                steps.pop()
                mine[source - 1] += 1
                moved = True
        if not moved:
            self.record(depth)


def _search(position: Position, dice: tuple[int, int]) -> tuple[dict, int]:
    """Run the search; return the results and the number of dice they use."""
    high, low = max(dice), min(dice)
    if high == low:
        search = _Search(position, (high,) * 4)
        search.run(0, 25)
        return search.results, search.best
    search = _Search(position, (high, low))
    search.run(0, 25)
    search.dice = (low, high)
    search.reversed = True
    search.run(0, 25)
    if search.best == 1:
        # Only one die can be played: the higher one if it can be.
        alone = _Search(position, (high,))
        alone.run(0, 25)
        if alone.best == 1:
            return alone.results, 1
    return search.results, search.best


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every legal play of ``dice`` for the player on roll, one per distinct resulting position.

    Each ``Play.position`` is still seen from the mover. A roll with no legal play gives a list
    holding exactly one empty ``Play`` (no steps, notation ``""``, the position unchanged).
    """
    dice = _check_dice(dice)
    results, used = _search(position, dice)
    if used == 0:
        return [Play((), position, 0, position)]
    start_bar = position.opponent[24]
    trusted = Position._trusted
    return [
        Play(steps, trusted(mine, theirs), theirs[24] - start_bar, position)
        for (mine, theirs), steps in results.items()
    ]


def _check_dice(dice) -> tuple[int, int]:
    try:
        first, second = dice
    except (TypeError, ValueError):
        raise ValueError(f"Dice are two numbers from 1 to 6, not {dice!r}.") from None
    if not all(isinstance(die, int) and 1 <= die <= 6 for die in (first, second)):
        raise ValueError(f"Dice are two numbers from 1 to 6, not {dice!r}.")
    return first, second


def play_from_steps(position: Position, dice: tuple[int, int], steps) -> Play:
    """The legal play that the given steps make, whatever their order.

    Steps are ``(from, to)`` pairs in the mover's numbering (25 = bar, 0 = off). Raises
    ``IllegalPlayError`` (listing the legal plays) when the steps are not a legal play of the
    dice, including when they leave a die unplayed that could have been played.
    """
    plays = legal_plays(position, dice)
    target = apply_steps(position, steps)
    if target is not None:
        for play in plays:
            if play.position == target:
                return play
    raise IllegalPlayError(
        gettext_noop("%(play)s is not a legal play of %(roll)s."), legal=tuple(play.notation for play in plays),
        play=format_play(steps, position) or "no move", roll=f"{max(dice)}{min(dice)}",
    )


def complete_play(position: Position, dice: tuple[int, int], steps) -> Play | None:
    """The play these steps make when they use every die, each step one die in the order given;
    None when they do not (then only a search of every play can tell whether they are legal).

    A play that uses all the dice is always legal if each of its moves is: no rule asks for more
    than all the dice. So a match file that writes one move per die, as GNU Backgammon and the
    FIBS clients do, is checked move by move without searching every way to play the roll.
    """
    first, second = _check_dice(dice)
    remaining = [first] * 4 if first == second else [first, second]
    if len(steps) != len(remaining):
        return None
    board = _board_of(position)
    hits = 0
    for source, target in steps:
        if not (0 < source <= 25 and 0 <= target < source) or board[source] <= 0:
            return None
        if board[25] > 0 and source != 25:
            return None  # a checker on the bar enters first
        distance = source - target
        if target == 0:
            if any(board[point] > 0 for point in range(7, 26)):
                return None  # bearing off needs every checker home
            if distance in remaining:
                die = distance
            else:
                larger = [d for d in remaining if d > distance]
                if not larger or any(board[point] > 0 for point in range(source + 1, 7)):
                    return None
                die = min(larger)
        else:
            if distance not in remaining or board[target] < -1:
                return None
            die = distance
        remaining.remove(die)
        board[source] -= 1
        if target == 0:
            board[0] += 1
            continue
        if board[target] == -1:
            board[target] = 0
            board[26] += 1
            hits += 1
        board[target] += 1
    return Play(tuple(steps), _position_of(board), hits, position)


def apply_steps(position: Position, steps) -> Position | None:
    """The position after moving these checkers, still seen from the mover, or None if a step
    is impossible on its own (no checker there, a blocked point, off the board).

    This moves checkers only; it does not check the dice or the order of obligations: use
    ``play_from_steps`` or ``legal_plays`` for that.
    """
    board = _board_of(position)
    for source, target in steps:
        if not (0 < source <= 25 and 0 <= target < source) or board[source] <= 0:
            return None
        board[source] -= 1
        if target == 0:
            board[0] += 1
            continue
        if board[target] < -1:
            return None
        if board[target] == -1:
            board[target] = 0
            board[26] += 1
        board[target] += 1
    return _position_of(board)


# --- notation ------------------------------------------------------------------------------


def _point_name(point: int) -> str:
    if point == BAR_POINT:
        return "bar"
    if point == OFF_POINT:
        return "off"
    return str(point)


def format_play(steps, position: Position) -> str:
    """GNU Backgammon's notation for ``steps`` played from ``position`` (no legality check).

    Steps are listed from the highest starting point down. A checker that moves on after a
    step is written as one move ("24/13"), keeping the intermediate point only where it hit
    ("13/7*/5"). A point where a blot was hit carries ``*`` the first time it is written.
    Identical moves are written once with a count ("8/4(2)").
    """
    if not steps:
        return ""
    board = _board_of(position)
    ordered = sorted(steps, key=lambda step: (-step[0], -step[1]))
    blots = {point for point in range(1, 25) if board[point] == -1}
    # Each chain is the list of points one checker visits; steps join the first chain ending
    # where they start.
    chains: list[list[int]] = []
    for source, target in ordered:
        for chain in chains:
            if chain[-1] == source:
                if source not in blots:
                    chain.pop()
                chain.append(target)
                break
        else:
            chains.append([source, target])
    counted: list[list] = []
    for chain in chains:
        for entry in counted:
            if entry[0] == chain:
                entry[1] += 1
                break
        else:
            counted.append([chain, 1])
    starred: set[int] = set()
    parts = []
    for chain, count in counted:
        text = _point_name(chain[0])
        last = len(chain) - 1
        for index in range(1, len(chain)):
            point = chain[index]
            text += "/" + _point_name(point)
            if point in blots and (index < last or point not in starred):
                text += "*"
                starred.add(point)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)
