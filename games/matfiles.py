"""Match files in and out of the database: import a verified `.mat`, export a stored match.

The reading and checking is the engine's (`engine.matfile`); this module turns a verified report
into players, a match and its games through the services, and stored games back into a file.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from . import services
from .engine.errors import InvalidNotationError
from .engine.matfile import (
    CubeWord,
    GameResult,
    GameTranscript,
    MatchFileReport,
    MatchTranscript,
    TranscriptCube,
    TranscriptRoll,
    verify_match_file,
    write_match_file,
)
from .engine.scoring import GameEnd, MatchKind, ResultKind
from .models import Match, MatchFile

_CUBE_WORDS = {word.name.lower(): word for word in CubeWord}


class MatchFileRejected(ValidationError):
    """A match file that could not be read or breaks the rules; `report` says where and why."""

    def __init__(self, message: str, *, report: MatchFileReport | None = None, errors: list[str] | None = None):
        self.report = report
        self.errors_text = errors or [message]
        super().__init__({"file": self.errors_text})


def decode_match_file(data: bytes) -> str:
    """The text of an uploaded file: UTF-8 (with or without BOM) or Latin-1; never binary."""
    if b"\x00" in data:
        raise MatchFileRejected("This is not a text file: a match file is plain text (.mat or .txt).")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if any(ord(c) < 32 and c not in "\r\n\t\f" for c in text):
        raise MatchFileRejected("This is not a text file: a match file is plain text (.mat or .txt).")
    return text


def file_digest(text: str) -> str:
    """Identity of a match file: the same text, whatever its line ends, is the same file."""
    normal = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").strip().split("\n"))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def check_match_file(text: str) -> MatchFileReport:
    """Verify a match file; raise MatchFileRejected if it cannot be read or breaks the rules."""
    try:
        report = verify_match_file(text)
    except InvalidNotationError as error:
        raise MatchFileRejected(f"This is not a match file Crawford can read: {error}") from None
    if not report.ok:
        raise MatchFileRejected(
            "The match file breaks the rules.", report=report, errors=[str(error) for error in report.errors]
        )
    if not report.games:
        raise MatchFileRejected("The match file holds no game.", report=report)
    if report.start_score != (0, 0):
        a, b = report.start_score
        raise MatchFileRejected(
            f"This file continues a match from {a}–{b}: import the file that starts the match.", report=report
        )
    return report


def _played_on(report: MatchFileReport) -> datetime:
    tags = dict(report.tags)
    for key in ("EventDate", "Date"):
        found = re.match(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})", tags.get(key, ""))
        if found:
            year, month, day = map(int, found.groups())
            try:
                return timezone.make_aware(datetime(year, month, day, 12, 0))
            except ValueError:
                continue
    return timezone.now()


def _game_input(game) -> services.GameInput | None:
    moves = [dict(turn.to_dict(), type="roll") for turn in game.turns]
    moves += [dict(event.to_dict(), type="cube", line=event.line) for event in game.cube_actions]
    moves.sort(key=lambda entry: (entry["line"], entry["side"]))  # a row: left cell, then right
    beavered = any(event.action == "beaver" for event in game.cube_actions)
    raccooned = any(event.action == "raccoon" for event in game.cube_actions)
    common = {"winner": game.winner, "cube": game.cube, "cube_owner": game.cube_owner, "beavered": beavered,
              "raccooned": raccooned, "points": game.points, "moves": moves}
    if game.result is GameResult.DROP:
        return services.GameInput(end=GameEnd.DOUBLE_REFUSED, kind=ResultKind.SINGLE, **common)
    if game.result is GameResult.RESIGN:
        return services.GameInput(end=GameEnd.RESIGNED, kind=game.kind, **common)
    if game.result in (GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON):
        return services.GameInput(end=GameEnd.PLAYED_OUT, kind=game.kind, **common)
    return None  # unfinished: the match stays in progress


def match_file_import(*, text: str, name: str = "match.mat", by=None) -> tuple[Match, bool]:
    """Store a verified match file as a match with its games. Returns (match, created).

    Importing the same file again adds nothing and returns the match it made the first time.
    """
    digest = file_digest(text)
    existing = MatchFile.objects.select_related("match").filter(sha256=digest).first()
    if existing:
        return existing.match, False
    report = check_match_file(text)
    cube_words = {event.action for game in report.games for event in game.cube_actions}
    with transaction.atomic():
        player_a, _ = services.player_get_or_create_by_name(name=report.players[0], by=by)
        player_b, _ = services.player_get_or_create_by_name(name=report.players[1], by=by)
        if player_a.pk == player_b.pk:
            raise MatchFileRejected("Both sides of the file name the same player.")
        session = report.match_length == 0
        match = services.match_create(
            player_a=player_a,
            player_b=player_b,
            kind=MatchKind.SESSION if session else MatchKind.MATCH,
            length=report.match_length,
            beavers=session and "beaver" in cube_words,
            raccoons=session and "raccoon" in cube_words,
            played_on=_played_on(report),
            source="mat",
            source_key=f"mat:{digest}",
            by=by,
        )
        for game in report.games:
            entry = _game_input(game)
            if entry is None:
                break
            match = services.game_record(match=match, number=game.number, game=entry, by=by)
        MatchFile.objects.create(match=match, name=name[:255], text=text, sha256=digest, uploaded_by=by)
    return match, True


def match_file_export(match: Match) -> str:
    """The `.mat` text of a stored match, in GNU Backgammon's layout."""
    games = []
    for game in match.games.order_by("number"):
        actions = []
        for entry in game.moves or []:
            if entry.get("type") == "roll":
                steps = tuple(tuple(step) for step in entry.get("steps", []))
                actions.append(TranscriptRoll(entry["side"], tuple(entry["dice"]), steps))
            elif entry.get("type") == "cube" and entry.get("action") in _CUBE_WORDS:
                actions.append(TranscriptCube(entry["side"], _CUBE_WORDS[entry["action"]], entry.get("to")))
        games.append(GameTranscript(game.winner, game.points, tuple(actions)))
    transcript = MatchTranscript(
        players=(match.player_a.name, match.player_b.name),
        match_length=match.length,
        games=tuple(games),
        tags=(("EventDate", match.played_on.strftime("%Y.%m.%d")),),
    )
    return write_match_file(transcript, and_the_match=match.status == "finished")
