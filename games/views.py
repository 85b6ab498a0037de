"""Match pages: the score sheet, the replay of a match file, and the TD's score-sheet entry.

Views read through selectors and write through `games.services`; the rules of match play are
the services' (the form only checks the shape of what was typed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import (
    BooleanField,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Prefetch,
    Q,
)
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from config.errors import ConflictError

from . import selectors, services
from .engine.errors import EngineError, ScoringError
from .engine.position import Position
from .forms import GameEntryForm, UndoForm
from .keepers import match_writes
from .models import Game, Match, MatchFile
from .pages import match_context, match_panels, replay_notes
from .permissions import may_enter_results

KIND_WORDS = {1: pgettext_lazy("game result", "single"), 2: pgettext_lazy("game result", "gammon"),
              3: pgettext_lazy("game result", "backgammon")}


# -- reads ---------------------------------------------------------------------------------------


def _match_page_query():
    """A match with its players and its games without their moves: 2 queries. Its event, if any, is
    the tournaments' to show (`{% match_pairing %}` in the templates): games knows no events."""
    games = Game.objects.defer("moves").annotate(
        has_moves=ExpressionWrapper(Q(moves__isnull=False), output_field=BooleanField())
    ).order_by("number")
    return (
        selectors.match_list()
        .select_related("winner")
        .annotate(has_file=Exists(MatchFile.objects.filter(match=OuterRef("pk"))))
        .prefetch_related(Prefetch("games", queryset=games))
    )


def _get_match(pk: int) -> Match:
    try:
        return _match_page_query().get(pk=pk)
    except Match.DoesNotExist:
        raise Http404(_("No such match.")) from None


@dataclass
class SheetLine:
    number: int
    winner_name: str
    winner_side: int
    result: str
    cube: str
    points: int
    score_a: int
    score_b: int
    crawford: bool
    has_moves: bool
    replay_words: str = ""


def score_sheet(match: Match) -> list[SheetLine]:
    names = (match.player_a.name, match.player_b.name)
    kinds, centred = {kind: str(words) for kind, words in KIND_WORDS.items()}, pgettext("cube", "centred")
    replay = _("Replay game %(number)s")
    lines = []
    for game in match.games.all():
        result = kinds.get(game.kind, "")
        if game.end == "double_refused":
            result = _("double refused")
        elif game.end == "resigned":
            result = _("%(result)s, resigned") % {"result": result}
        if game.cube == 1:
            cube = centred
        elif game.cube_owner is not None:
            cube = _("%(cube)s, %(owner)s") % {"cube": game.cube, "owner": names[game.cube_owner]}
        else:
            cube = str(game.cube)
        lines.append(SheetLine(
            number=game.number, winner_name=names[game.winner], winner_side=game.winner, result=result, cube=cube,
            points=game.points, score_a=game.score_a_after, score_b=game.score_b_after, crawford=game.crawford,
            has_moves=getattr(game, "has_moves", False), replay_words=mark_safe(replay % {"number": game.number}),
        ))
    return lines


def match_detail(request, pk: int):
    match = _get_match(pk)
    lines = score_sheet(match)
    return render(request, "games/match_detail.html", {
        "match": match,
        "lines": lines,
        "any_moves": any(line.has_moves for line in lines),
        "can_enter": may_enter_results(request.user, match),
        "panels": match_panels(match),
        **match_context(match),
    })


# -- the replay ----------------------------------------------------------------------------------

# Board geometry (SVG user units): 12 columns of 22, a bar of 22, a tray for borne-off checkers.
COL = 22
LEFT = 8
BAR_X = LEFT + 6 * COL
RIGHT = BAR_X + COL
TRAY_X = RIGHT + 6 * COL + 4
TOP, BOTTOM, MID = 8, 242, 125
R = 10


def _column_x(point: int) -> tuple[int, bool]:
    """Left edge of the column of point `point` (numbered for player A) and whether it is on top."""
    if point <= 12:
        column, top = 12 - point, False
    else:
        column, top = point - 13, True
    x = LEFT + column * COL if column < 6 else RIGHT + (column - 6) * COL
    return x, top


POINTS_SVG = []
for _point in range(1, 25):
    _x, _top = _column_x(_point)
    _tip = TOP + 95 if _top else BOTTOM - 95
    _base = TOP if _top else BOTTOM
    POINTS_SVG.append({
        "d": f"M{_x} {_base}L{_x + COL // 2} {_tip}L{_x + COL} {_base}Z",
        "dark": _point % 2 == 0,
        "label_x": _x + COL // 2,
        "label_y": TOP + 105 if _top else BOTTOM - 100,
        "number": _point,
    })


@dataclass
class Frame:
    index: int
    caption: str
    checkers: list = field(default_factory=list)
    off: list = field(default_factory=list)
    pips: tuple[int, int] = (167, 167)
    off_counts: tuple[int, int] = (0, 0)
    cube: int = 1
    cube_owner: int | None = None
    cube_y: int = MID - 11
    dice: str = ""
    dice_side: int = 0
    short: str = ""
    pieces: str = ""
    notes: str = ""
    """What the apps built on games say about this position (`games.pages.replay_notes`)."""
    label: str = ""
    """The board's words for a screen reader, and the line under it (`frame_words`)."""
    pips_line: str = ""
    off_line: str = ""
    cube_line: str = ""


def _checkers(a_side: tuple[int, ...], b_side: tuple[int, ...]) -> list[tuple[int, int, int, str]]:
    """(cx, cy, side, label) for every checker drawn; stacks over five show their count on top."""
    drawn = []
    for side, counts in ((0, a_side), (1, b_side)):
        for index in range(24):
            count = counts[index]
            if not count:
                continue
            point = index + 1 if side == 0 else 24 - index
            x, top = _column_x(point)
            for i in range(min(count, 5)):
                cy = TOP + R + i * 2 * R if top else BOTTOM - R - i * 2 * R
                label = str(count) if count > 5 and i == 4 else ""
                drawn.append((x + COL // 2, cy, side, label))
        bar = counts[24]
        for i in range(min(bar, 3)):
            cy = MID - 24 - i * 2 * R if side == 0 else MID + 24 + i * 2 * R
            drawn.append((BAR_X + COL // 2, cy, side, str(bar) if bar > 3 and i == 2 else ""))
    return drawn


CUBE_WORDS = {"double": gettext_lazy("doubles to %(cube)s"), "beaver": gettext_lazy("beavers to %(cube)s"),
              "raccoon": gettext_lazy("raccoons to %(cube)s")}


LIGHT = 'fill="#f7f3ea" stroke="#333"'
DARK = 'fill="#1d1d1d" stroke="#ddd"'


def _pieces_svg(frame: Frame) -> str:
    """The SVG of a frame's checkers, borne-off stacks, cube and dice (numbers only, no user text)."""
    parts = []
    for x, y, side in frame.off:
        parts.append(f'<rect x="{x}" y="{y}" width="22" height="5" rx="1" {LIGHT if side == 0 else DARK}/>')
    for x, y, side, label in frame.checkers:
        parts.append(f'<circle cx="{x}" cy="{y}" r="9.5" {LIGHT if side == 0 else DARK}/>')
        if label:
            colour = "#111" if side == 0 else "#fff"
            parts.append(f'<text x="{x}" y="{y + 4}" font-size="11" font-weight="700" text-anchor="middle" '
                         f'fill="{colour}">{label}</text>')
    cube = 64 if frame.cube == 1 else frame.cube
    parts.append(f'<rect x="{BAR_X + 1}" y="{frame.cube_y}" width="20" height="22" rx="3" fill="#fff" stroke="#111"/>'
                 f'<text x="{BAR_X + 11}" y="{frame.cube_y + 15}" font-size="10" font-weight="700" '
                 f'text-anchor="middle" fill="#111">{cube}</text>')
    if frame.dice:
        for i, value in enumerate(int(d) for d in frame.dice.split("-")[:2]):
            parts.append(_die_svg(RIGHT + 44 + 26 * i, MID - 10, value, light=frame.dice_side == 0))
    return "".join(parts)


PIPS = {1: ((1, 1),), 2: ((0, 0), (2, 2)), 3: ((0, 0), (1, 1), (2, 2)), 4: ((0, 0), (2, 0), (0, 2), (2, 2)),
        5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)), 6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2))}
"""Where a die's pips sit on a 3 x 3 grid."""


def _die_svg(x: int, y: int, value: int, *, light: bool) -> str:
    """A die 20 units wide showing `value` as pips, in the colour of the player who rolled it."""
    face, pip = ("#f7f1e3", "#111") if light else ("#3b2414", "#fff")
    dots = "".join(f'<circle cx="{x + 4 + 6 * col}" cy="{y + 4 + 6 * row}" r="1.9" fill="{pip}"/>'
                   for col, row in PIPS.get(value, ()))
    return f'<rect x="{x}" y="{y}" width="20" height="20" rx="4" fill="{face}" stroke="#111"/>{dots}'


BOARD_POINT = re.compile(r"(?<![(\d])(\d+)(?![\d)])")


def board_notation(notation: str, side: int) -> str:
    """A play written with the points the board shows (player A's numbering): the second player's
    own numbering, point n, is point 25 - n on the board."""
    if side != 1:
        return notation
    return BOARD_POINT.sub(lambda m: str(25 - int(m[1])) if 1 <= int(m[1]) <= 24 else m[1], notation)


def _frame(index: int, caption: str, a_side, b_side, cube: int, owner: int | None, dice: str = "",
           side: int = 0, short: str = "") -> Frame:
    off_a, off_b = 15 - sum(a_side), 15 - sum(b_side)
    off = [(TRAY_X, BOTTOM - 6 * (i + 1), 0) for i in range(off_a)]
    off += [(TRAY_X, TOP + 6 * i + 1, 1) for i in range(off_b)]
    pips = (sum(n * (i + 1) for i, n in enumerate(a_side)), sum(n * (i + 1) for i, n in enumerate(b_side)))
    cube_y = MID - 11 if owner is None else (MID + 40 if owner == 0 else MID - 62)
    frame = Frame(index=index, caption=caption, checkers=_checkers(a_side, b_side), off=off, pips=pips,
                  off_counts=(off_a, off_b), cube=cube, cube_owner=owner, cube_y=cube_y, dice=dice,
                  dice_side=side, short=short or caption)
    frame.pieces = mark_safe(_pieces_svg(frame))
    return frame


def replay_frames(moves: list[dict], names: tuple[str, str]) -> list[Frame]:
    """One frame for the opening position, then one per play and per cube action."""
    start = Position.initial()
    a_side, b_side = start.on_roll, start.opponent
    frames = [_frame(0, _("Opening position"), a_side, b_side, 1, None)]
    plays, no_play = _("Move %(move)s: %(player)s rolls %(dice)s and plays %(play)s"), _("cannot move")
    cube, owner = 1, None
    for action in moves:
        side = action.get("side", 0)
        who = names[side] if side in (0, 1) else "?"
        if action.get("type") == "cube":
            verb = action.get("action", "")
            if verb in ("double", "beaver", "raccoon"):
                offered = action.get("to") or cube * 2
                short = CUBE_WORDS[verb] % {"cube": offered}
                if verb != "double":
                    cube, owner = offered, side
            elif verb == "take":
                cube, owner = action.get("to") or cube * 2, side
                short = _("takes: the cube is on %(cube)s, on his side") % {"cube": cube}
            elif verb == "drop":
                short = ngettext("passes and loses %(cube)s point", "passes and loses %(cube)s points",
                                 cube) % {"cube": cube}
            else:
                short = verb
            text = _("%(player)s %(action)s") % {"player": who, "action": short}
            caption = _("Move %(move)s: %(action)s") % {"move": action.get("move", ""), "action": text}
            frames.append(_frame(len(frames), caption, a_side, b_side, cube, owner, side=side, short=short))
            continue
        try:
            after = Position.from_position_id(action["position_id_after"])
        except (KeyError, EngineError):
            continue
        # After the play the opponent of the mover is on roll.
        if side == 0:
            a_side, b_side = after.opponent, after.on_roll
        else:
            a_side, b_side = after.on_roll, after.opponent
        dice = "-".join(str(d) for d in action.get("dice", []))
        play = board_notation(action.get("notation") or "", side) or no_play
        caption = plays % {"move": action.get("move", ""), "player": who, "dice": dice, "play": play}
        frames.append(_frame(len(frames), caption, a_side, b_side, cube, owner, dice=dice, side=side,
                             short=f"{dice.replace('-', '')}: {play}"))
    return frames


def frame_words(frames: list[Frame], names: tuple[str, str]) -> None:
    """Each frame's words for a screen reader and under its board, written as the template's
    `blocktranslate` writes them (the values escaped, the translation not), each message
    translated once for all the frames of a game instead of once per frame."""
    label = _("%(caption)s. Pips: %(a)s %(pips_a)s, %(b)s %(pips_b)s. Borne off: %(off_a)s and %(off_b)s.")
    pips, off, cube = _("Pips: %(a)s %(pips_a)s · %(b)s %(pips_b)s"), _("off: %(a)s–%(b)s"), _("cube %(cube)s")
    a, b = conditional_escape(names[0]), conditional_escape(names[1])
    for frame in frames:
        (pips_a, pips_b), (off_a, off_b) = frame.pips, frame.off_counts
        frame.label = mark_safe(label % {"caption": conditional_escape(frame.caption), "a": a, "pips_a": pips_a,
                                         "b": b, "pips_b": pips_b, "off_a": off_a, "off_b": off_b})
        frame.pips_line = mark_safe(pips % {"a": a, "pips_a": pips_a, "b": b, "pips_b": pips_b})
        if off_a or off_b:
            frame.off_line = mark_safe(off % {"a": off_a, "b": off_b})
        if frame.cube > 1:
            frame.cube_line = mark_safe(cube % {"cube": frame.cube})


def game_replay(request, pk: int, number: int):
    match = _get_match(pk)
    games = list(match.games.all())
    if not 1 <= number <= len(games):
        raise Http404(_("No such game."))
    moves = Game.objects.filter(match=match, number=number).values_list("moves", flat=True).first() or []
    names = (match.player_a.name, match.player_b.name)
    game = games[number - 1]
    frames = replay_frames(moves, names)
    frame_words(frames, names)
    if len(frames) > 1:
        notes = replay_notes(match, number)
        for frame in frames:
            frame.notes = notes.get(frame.index, "")
    return render(request, "games/replay.html", {
        "match": match,
        "game": game,
        "line": score_sheet(match)[number - 1],
        "frames": frames,
        "points_svg": POINTS_SVG,
        "previous_game": games[number - 2] if number > 1 else None,
        "next_game": games[number] if number < len(games) else None,
        "geometry": {"bar_x": BAR_X, "tray_x": TRAY_X, "right": RIGHT, "col": COL, "mid": MID},
    })


# -- the TD's score-sheet entry ------------------------------------------------------------------


def _add_service_error(form: GameEntryForm, error: Exception) -> None:
    """Put the service's message next to the field it names (or above the form)."""
    if isinstance(error, ScoringError):
        target = error.field if error.field in form.fields and error.field not in ("number", "version") else None
        form.add_error(target, error.message)
    elif isinstance(error, ValidationError) and hasattr(error, "message_dict"):
        for name, texts in error.message_dict.items():
            target = name if name in form.fields and name not in ("number", "version") else None
            for text in texts:
                form.add_error(target, text)
    else:
        form.add_error(None, "; ".join(getattr(error, "messages", [str(error)])))


def _crawford_next(match: Match, next_number: int) -> int | None:
    """The number of the next game when it is the Crawford game (the sheet then offers no cube)."""
    return next_number if match.crawford_game == next_number and not match.finished else None


@login_required(login_url="login")
def match_enter(request, pk: int):
    match = _get_match(pk)
    if not may_enter_results(request.user, match):
        raise PermissionDenied(_("Only a TD of this event (or staff) may enter its results."))
    names = (match.player_a.name, match.player_b.name)
    lines = score_sheet(match)
    next_number = len(lines) + 1
    form = None
    if request.method == "POST" and request.POST.get("action") == "undo":
        undo = UndoForm(request.POST)
        if undo.is_valid() and lines:
            try:
                match_writes(match).game_delete_last(match=match, by=request.user,
                                                     expected_version=undo.cleaned_data["version"])
                messages.success(request, _("Game %(number)s removed.") % {"number": len(lines)})
            except ConflictError as error:
                messages.error(request, str(error))
            except (ValidationError, ScoringError) as error:
                messages.error(request, getattr(error, "message", None) or "; ".join(error.messages))
        return redirect("match-enter", pk=match.pk)
    if request.method == "POST":
        form = GameEntryForm(request.POST, names=names, crawford_game=_crawford_next(match, next_number))
        if form.is_valid():
            data = form.cleaned_data
            game = services.GameInput(
                winner=data["winner"], end=data["end"], kind=data["kind"], cube=data["cube"],
                cube_owner=data["cube_owner"],
            )
            try:
                updated = match_writes(match).game_record(
                    match=match, number=data["number"], game=game, by=request.user,
                    expected_version=data["version"],
                )
            except ConflictError as error:
                form.add_error(None, _("%(error)s (The sheet below has been reloaded.)") % {"error": error})
                match = _get_match(pk)
                lines = score_sheet(match)
                next_number = len(lines) + 1
            except (ScoringError, ValidationError) as error:
                _add_service_error(form, error)
            else:
                sheet = f"{updated.score_a}–{updated.score_b}"
                if updated.finished:
                    messages.success(request, _("Game %(number)s recorded. Match over: %(winner)s wins %(score)s.") % {
                        "number": data["number"], "winner": updated.winner.name, "score": sheet})
                else:
                    messages.success(request, _("Game %(number)s recorded: %(a)s %(score)s %(b)s.") % {
                        "number": data["number"], "a": names[0], "score": sheet, "b": names[1]})
                return redirect("match-enter", pk=match.pk)
    if form is None or not form.is_bound:
        form = GameEntryForm(initial={"number": next_number, "version": match.version}, names=names,
                             crawford_game=_crawford_next(match, next_number))
    else:
        # Keep what was typed, but always submit against the sheet shown.
        form.data = form.data.copy()
        form.data["number"] = next_number
        form.data["version"] = match.version
    crawford_next = _crawford_next(match, next_number) is not None
    return render(request, "games/match_enter.html", {
        "match": match,
        "lines": lines,
        "form": form,
        "next_number": next_number,
        "crawford_next": crawford_next,
        "nav": "desk",
        **match_context(match),
    }, status=400 if form.is_bound and form.errors else 200)
