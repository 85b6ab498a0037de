"""Match files in and out of the database: import a verified `.mat`, export a stored match.

The reading and checking is the engine's (`engine.matfile`); this module turns a verified report
into players, a match and its games through the services, and stored games back into a file.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError
from config.languages import in_site_language

from . import services
from .engine.errors import InvalidNotationError, ScoringError
from .engine.matfile import (
    CubeWord,
    GameResult,
    GameTranscript,
    MatchFileReport,
    MatchTranscript,
    TranscriptCube,
    TranscriptRoll,
    read_match_file,
    verify_match_file,
    write_match_file,
)
from .engine.matfile import MatchFile as MatchFileText
from .engine.scoring import GameEnd, MatchKind, ResultKind
from .imports import ImportProblems
from .models import Match, MatchFile, Player, VariationChoice

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
        raise MatchFileRejected(_("This is not a text file: a match file is plain text (.mat or .txt)."))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if any(ord(c) < 32 and c not in "\r\n\t\f" for c in text):
        raise MatchFileRejected(_("This is not a text file: a match file is plain text (.mat or .txt)."))
    return text


def file_digest(text: str) -> str:
    """Identity of a match file: the same text, whatever its line ends, is the same file."""
    normal = "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").strip().split("\n"))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()


def _checked(text: str) -> tuple[MatchFileText, MatchFileReport]:
    try:
        match_file = read_match_file(text)
        report = verify_match_file(match_file)
    except InvalidNotationError as error:
        raise MatchFileRejected(_("This is not a match file Crawford can read: %(error)s") % {"error": error}) from None
    if not report.ok:
        raise MatchFileRejected(
            _("The match file breaks the rules."), report=report, errors=[str(error) for error in report.errors]
        )
    if not report.games:
        raise MatchFileRejected(_("The match file holds no game."), report=report)
    longest = Player._meta.get_field("name").max_length
    for player in report.players:
        if len(" ".join(player.split())) > longest:
            raise MatchFileRejected(
                _("A player's name in this file is longer than %(most)s characters: %(name)s…")
                % {"most": longest, "name": player[:40]}, report=report)
    if report.start_score != (0, 0):
        a, b = report.start_score
        raise MatchFileRejected(
            _("This file continues a match from %(a)s–%(b)s: import the file that starts the match.") % {"a": a, "b": b},
            report=report,
        )
    return match_file, report


def _session_jacoby(match_file: MatchFileText, report: MatchFileReport) -> bool:
    """Whether a money session used the Jacoby rule, as the checker judged it: its `Jacoby` tag,
    or else the first centred gammon or backgammon, counted as a single (Jacoby) or in full."""
    tagged = match_file.rule_tag("Jacoby")
    if tagged is not None:
        return tagged
    for game in report.games:
        beavered = any(event.action == "beaver" for event in game.cube_actions)
        if game.kind in (ResultKind.GAMMON, ResultKind.BACKGAMMON) and game.cube == 1 and not beavered and (
            game.result is not GameResult.DROP
        ):
            return game.points == 1
    return False


def match_file_rules(match_file: MatchFileText, report: MatchFileReport) -> dict:
    """The rules a verified file was checked under, as `services.match_create` takes them."""
    variation = match_file.variation if match_file.variation in VariationChoice.values else VariationChoice.BACKGAMMON
    if report.match_length:
        return {"kind": MatchKind.MATCH, "length": report.match_length, "variation": variation,
                "crawford_rule": match_file.rule_tag("Crawford") is not False}
    beavers = match_file.rule_tag("Beaver") is not False
    return {"kind": MatchKind.SESSION, "length": 0, "variation": variation, "jacoby": _session_jacoby(match_file, report),
            "beavers": beavers, "raccoons": beavers}


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


def match_file_import(*, text: str, name: str = "match.mat", by=None, progress=None) -> tuple[Match, bool]:
    """Store a verified match file as a match with its games, under the rules the file was checked
    under (Crawford rule off, Jacoby, beavers, nackgammon). Returns (match, created).

    Importing the same file again adds nothing and returns the match it made the first time; so
    does an import that loses the race against the same file imported at that moment.
    `progress(done, total)` is told the games stored.
    """
    digest = file_digest(text)
    existing = MatchFile.objects.select_related("match").filter(sha256=digest).first()
    if existing:
        return existing.match, False
    match_file, report = _checked(text)
    entries = []
    for game in report.games:
        entry = _game_input(game)
        if entry is None:
            break
        entries.append(entry)
    if progress is not None:
        progress(0, len(entries))
    try:
        with transaction.atomic():
            try:
                ids, _ = services.players_get_or_create_by_names(names=report.players, by=by)
            except ValidationError as error:
                raise MatchFileRejected(error.messages[0]) from None
            player_a, player_b = (Player.objects.get(pk=ids[" ".join(name.split()).lower()]) for name in report.players)
            if player_a.pk == player_b.pk:
                raise MatchFileRejected(_("Both sides of the file name the same player."))
            match = services.match_create(
                player_a=player_a,
                player_b=player_b,
                played_on=_played_on(report),
                source="mat",
                source_key=f"mat:{digest}",
                by=by,
                **match_file_rules(match_file, report),
            )
            if entries:
                match = services.match_games_record(match=match, games=entries, by=by, reason=in_site_language(gettext_noop("imported from a match file")))
            MatchFile.objects.create(match=match, name=name[:255], text=text, sha256=digest, uploaded_by=by,
                                     games_revision=match.games_revision)
            if progress is not None:
                progress(len(entries), len(entries))
    except (ConflictError, IntegrityError):
        existing = MatchFile.objects.select_related("match").filter(sha256=digest).first()
        if existing is None:
            raise
        return existing.match, False
    except (ScoringError, ValidationError) as error:
        if isinstance(error, MatchFileRejected):
            raise
        messages = [str(error)] if isinstance(error, ScoringError) else error.messages
        raise MatchFileRejected(_("The match cannot be stored: %(problems)s") % {"problems": "; ".join(messages)}) from None
    return match, True


def match_file_import_job(*, job, progress) -> dict:
    """The runner of a match-file import job (`games.imports`)."""
    try:
        match, created = match_file_import(text=job.text, name=job.name, by=job.created_by, progress=progress)
    except MatchFileRejected as rejected:
        if rejected.report is not None and rejected.report.errors:
            raise ImportProblems([(error.line, str(error)) for error in rejected.report.errors]) from None
        raise ImportProblems([(None, text) for text in rejected.errors_text]) from None
    return {"match": match.pk, "created": created, "score": [match.score_a, match.score_b], "status": match.status}


def _rule_tags(match: Match) -> tuple[tuple[str, str], ...]:
    """The tags that carry a match's rules into its file, as the checker reads them back."""
    tags = [("EventDate", match.played_on.strftime("%Y.%m.%d"))]
    if match.variation == VariationChoice.NACKGAMMON:
        tags.append(("Variation", "NackGammon"))
    if match.kind == MatchKind.MATCH and not match.crawford_rule:
        tags.append(("Crawford", "Off"))
    if match.kind == MatchKind.SESSION:
        tags.append(("Jacoby", "On" if match.jacoby else "Off"))
        tags.append(("Beaver", "On" if match.beavers else "Off"))
    return tuple(tags)


def _entered_without_moves(numbers: list[int]) -> str:
    """"Game 3 was entered without its moves", "Games 1, 2 and 4 were …"."""
    if len(numbers) == 1:
        return f"Game {numbers[0]} was entered without its moves: only its result is written"
    listed = ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"
    return f"Games {listed} were entered without their moves: only their results are written"


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
    tags = _rule_tags(match)
    bare = [number for number, game in enumerate(games, start=1) if not game.actions]
    if bare:
        tags += (("Note", _entered_without_moves(bare)),)
    transcript = MatchTranscript(
        players=(match.player_a.name, match.player_b.name),
        match_length=match.length,
        games=tuple(games),
        tags=tags,
    )
    return write_match_file(transcript, and_the_match=match.status == "finished")
