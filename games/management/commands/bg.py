"""`manage.py bg moves POSITION_ID DICE` and `manage.py bg check-mat FILE`: the rules engine at hand."""

import json
from pathlib import Path

from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.management.base import TranslatedCommand

from games.engine import InvalidNotationError, Position, legal_plays
from games.engine.matfile import verify_match_file
from games.matfiles import decode_match_file


def parse_dice(text: str) -> tuple[int, int]:
    digits = [c for c in text if c.isdigit()]
    if len(digits) != 2 or not all("1" <= d <= "6" for d in digits):
        raise CommandError(_('Dice are two numbers from 1 to 6, like "53" or "5-3", not "%(text)s".') % {"text": text})
    return int(digits[0]), int(digits[1])


class Command(TranslatedCommand):
    help = gettext_lazy("Backgammon tools: legal plays of a position, verification of a match file.")
    requires_system_checks = []

    def add_arguments(self, parser):
        commands = parser.add_subparsers(dest="tool", required=True, metavar="{moves,check-mat}")
        moves = commands.add_parser("moves", help=_("The legal plays of a position and roll."))
        moves.add_argument("position_id", help=_('GNU Backgammon Position ID, e.g. "4HPwATDgc/ABMA".'))
        moves.add_argument("dice", help=_('The roll, e.g. "53".'))
        moves.add_argument("--json", action="store_true", help=_("Print JSON."))
        check = commands.add_parser("check-mat", help=_("Verify a .mat match file move by move."))
        check.add_argument("file")
        check.add_argument("--json", action="store_true", help=_("Print the report as JSON."))
        check.add_argument("--turns", action="store_true", help=_("With --json, include every play."))

    def handle(self, *args, tool, **options):
        if tool == "moves":
            return self.moves(options["position_id"], options["dice"], as_json=options["json"])
        return self.check_mat(options["file"], as_json=options["json"], turns=options["turns"])

    def moves(self, position_id: str, dice_text: str, *, as_json: bool) -> None:
        dice = parse_dice(dice_text)
        try:
            position = Position.from_position_id(position_id.strip())
        except InvalidNotationError as error:
            raise CommandError(str(error)) from None
        plays = [play for play in legal_plays(position, dice) if play.steps]
        rows = [{"notation": play.notation, "position_id": play.position.position_id()} for play in plays]
        if as_json:
            self.stdout.write(json.dumps({"position_id": position.position_id(), "dice": list(dice), "plays": rows}))
            return
        if not rows:
            self.stdout.write(_("No legal play: %(dice)s cannot be played.") % {"dice": f"{dice[0]}{dice[1]}"})
            return
        width = max(len(row["notation"]) for row in rows)
        for row in rows:
            self.stdout.write(f"{row['notation']:<{width}}  {row['position_id']}")

    def check_mat(self, path: str, *, as_json: bool, turns: bool) -> None:
        file = Path(path)
        if not file.is_file():
            raise CommandError(_("No such file: %(path)s") % {"path": path})
        try:
            text = decode_match_file(file.read_bytes())
            report = verify_match_file(text)
        except InvalidNotationError as error:
            raise CommandError(_("%(path)s: not a match file Crawford can read: %(error)s")
                               % {"path": path, "error": error}) from None
        except Exception as error:  # MatchFileRejected: binary input
            if hasattr(error, "errors_text"):
                raise CommandError(_("%(path)s: %(error)s") % {"path": path, "error": error.errors_text[0]}) from None
            raise
        if as_json:
            self.stdout.write(json.dumps(report.to_dict(turns=turns), ensure_ascii=False))
        else:
            self.print_report(path, report)
        if not report.ok:
            raise CommandError(ngettext("%(path)s: %(count)s error; see above.", "%(path)s: %(count)s errors; see above.",
                                        len(report.errors)) % {"path": path, "count": len(report.errors)}, returncode=1)

    def print_report(self, path, report) -> None:
        a, b = report.players
        length = (_("%(length)s-point match") % {"length": report.match_length} if report.match_length
                  else _("money session"))
        self.stdout.write(_("%(path)s: %(player_a)s v %(player_b)s, %(length)s")
                          % {"path": path, "player_a": a, "player_b": b, "length": length})
        unfinished, crawford = _("unfinished"), _(" (Crawford game)")
        for game in report.games:
            winner = unfinished if game.winner is None else _("%(player)s wins %(points)s") % {
                "player": report.players[game.winner], "points": game.points}
            self.stdout.write("  " + _("Game %(number)s  %(score)s  %(winner)s  [%(result)s, cube %(cube)s]%(crawford)s") % {
                "number": f"{game.number:>2}", "score": f"{game.score_before[0]:>2}–{game.score_before[1]:<2}",
                "winner": winner, "result": game.result.value, "cube": game.cube,
                "crawford": crawford if game.crawford else ""})
        self.stdout.write("  " + _("Final score %(score)s") % {"score": f"{report.final_score[0]}–{report.final_score[1]}"})
        for note in report.notes:
            self.stdout.write("  " + _("NOTE %(note)s") % {"note": note})
        for error in report.errors:
            self.stderr.write("  " + _("ERROR %(error)s") % {"error": error})
        if report.ok:
            self.stdout.write(self.style.SUCCESS("  " + _("Every play is legal and every result agrees with the rules.")))
