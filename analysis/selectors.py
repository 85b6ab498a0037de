"""Reads of the analysis for pages and the API, each with a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, Sum
from django.template.loader import render_to_string

from games.models import Game, Match

from .models import AnalysisStatus, Decision, DecisionKind, MatchAnalysis, PlayerAnalysis, current_analysis
from .services import analysis_program


def _frame_of(moves: list[dict] | None, roll: int) -> int | None:
    """The replay frame that shows the `roll`-th roll of a game played (frame 0 is the opening)."""
    seen = 0
    for index, action in enumerate(moves or [], start=1):
        if action.get("type") != "cube":
            seen += 1
            if seen == roll:
                return index
    return None


def _cube_frame_of(moves: list[dict] | None, decision: Decision) -> int | None:
    """The replay frame of a cube decision made before its roll (`decision.move`): the double offered, the
    take or pass that answered it, or (no double) the position the player could have doubled in."""
    moves = moves or []
    seen, before = 0, 0
    for index, action in enumerate(moves, start=1):
        if action.get("type") != "cube":
            seen += 1
            if seen == decision.move:
                break
            before = index
    if decision.before_roll:
        return before
    for index in range(before + 1, len(moves) + 1):
        action = moves[index - 1]
        if action.get("type") != "cube":
            return None
        verb = action.get("action")
        if (verb == "double") == (decision.played in Decision.OFFERS):
            return index
    return None


def decision_frame(moves: list[dict] | None, decision) -> int | None:
    """The replay frame where a decision shows: after a chequer play, at (or before) a cube action."""
    if decision.kind == DecisionKind.CUBE:
        return _cube_frame_of(moves, decision)
    return _frame_of(moves, decision.move)


def _move_number(moves: list[dict] | None, decision, frame: int | None) -> int | None:
    """The decision's move number as the match file and the replay's captions count them."""
    if frame is None or not moves:
        return None
    if decision.before_roll:
        frame = _frame_of(moves, decision.move)  # no double: the move of the roll that followed
        if frame is None:
            return None
    return moves[frame - 1].get("move")


def _place(moves: list[dict] | None, decision) -> dict:
    frame = decision_frame(moves, decision)
    return {"frame": frame, "move": _move_number(moves, decision, frame)}


@dataclass
class MatchAnalysisView:
    status: str
    analysis: MatchAnalysis | None
    sides: list[PlayerAnalysis]
    worst: list[dict]
    available: bool
    """Whether this server can analyse at all (GNU Backgammon installed and analysis on)."""


def match_analysis(match: Match) -> MatchAnalysisView:
    """A match's analysis with both players' figures and its worst decisions (3–4 queries)."""
    analysis = MatchAnalysis.objects.filter(match=match).first()
    available = analysis_program() is not None
    if analysis is None:
        return MatchAnalysisView("none", None, [], [], available)
    if analysis.status != AnalysisStatus.DONE:
        return MatchAnalysisView(analysis.status, analysis, [], [], available)
    if analysis.games_revision != match.games_revision:
        return MatchAnalysisView("stale", analysis, [], [], available)
    sides = list(analysis.sides.order_by("side"))
    decisions = list(analysis.decisions.order_by("rank"))
    games = {g: moves for g, moves in Game.objects.filter(
        match=match, number__in={d.game for d in decisions}).values_list("number", "moves")}
    names = (match.player_a.name, match.player_b.name)
    worst = [
        {"decision": d, "player": names[d.side], **_place(games.get(d.game), d)}
        for d in decisions
    ]
    return MatchAnalysisView(analysis.status, analysis, sides, worst, available)


def player_analysis(player_id: int, *, recent: int = 40) -> dict:
    """A player's analysed matches: averages, the PR trend, luck by year, best and worst (3 queries;
    1 for a player with none, as most are)."""
    rows = PlayerAnalysis.objects.filter(current_analysis("analysis__"), player_id=player_id)
    summary = rows.aggregate(matches=Count("id"), pr=Avg("pr"), luck=Sum("luck"),
                             luck_adjusted=Avg("luck_adjusted_result"), actual=Avg("actual_result"))
    points = []
    by_year: dict[int, float] = {}
    if summary["matches"]:
        points = list(
            rows.order_by("-analysis__match__played_on", "-analysis_id")
            .values("pr", "luck", "luck_adjusted_result", "actual_result", "analysis__match_id",
                    "analysis__match__played_on", "analysis__match__length")[:recent]
        )
        points.reverse()
        for row in rows.values("luck", "analysis__match__played_on"):
            year = row["analysis__match__played_on"].year
            by_year[year] = by_year.get(year, 0.0) + row["luck"]
    ranked = sorted(points, key=lambda p: p["pr"])
    return {
        "matches": summary["matches"],
        "pr": summary["pr"],
        "luck": summary["luck"] or 0.0,
        "luck_by_year": sorted(by_year.items(), reverse=True),
        "trend": points,
        "best": ranked[:3],
        "worst": ranked[-3:][::-1] if len(ranked) > 3 else [],
    }


def pr_table(matches) -> list[dict]:
    """Each player's average PR over his analysed matches among `matches` (a queryset of matches,
    which this query takes as a subquery: one query), best first. An event's table is asked with
    the event's matches (`tournaments.selectors.event_matches`): the analysis knows no events."""
    rows = (
        PlayerAnalysis.objects.filter(current_analysis("analysis__"), analysis__match__in=matches)
        .values("player_id", "player__name")
        .annotate(matches=Count("id"), pr=Avg("pr"), luck=Sum("luck"), decisions=Sum("unforced_moves"))
        .order_by("pr", "player__name")
    )
    return [dict(row) for row in rows]


def replay_decisions(match: Match, game: int) -> dict[int, list[dict]]:
    """The worst decisions of one game of an analysed match by replay frame (2 queries)."""
    decisions = list(Decision.objects.filter(current_analysis("analysis__"), analysis__match=match,
                                             game=game).order_by("rank"))
    if not decisions:
        return {}
    moves = Game.objects.filter(match=match, number=game).values_list("moves", flat=True).first()
    names = (match.player_a.name, match.player_b.name)
    by_frame: dict[int, list[dict]] = {}
    for d in decisions:
        place = _place(moves, d)
        if place["frame"] is not None:
            by_frame.setdefault(place["frame"], []).append({"decision": d, "player": names[d.side], **place})
    return by_frame


def match_analysis_html(match) -> str:
    """Both players' PR, luck and luck-adjusted result, and the worst plays, as a section of games'
    match page (`games.pages`)."""
    return render_to_string("analysis/_match.html", {"match": match, "view": match_analysis(match)})


def replay_notes_html(match, game_number: int) -> dict[int, str]:
    """The analysed decisions of one game by replay frame: what was played and what was right
    (`games.pages`; empty when the game is not analysed)."""
    return {frame: render_to_string("analysis/_replay_notes.html", {"notes": notes})
            for frame, notes in replay_decisions(match, game_number).items()}
