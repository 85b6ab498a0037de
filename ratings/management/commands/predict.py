"""manage.py predict A B LENGTH | --pairs FILE.csv: each player's chance to win."""

import csv
import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ratings import selectors


def _problem(error: ValidationError) -> str:
    return "; ".join(f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items())


class Command(BaseCommand):
    help = (
        "Each player's chance to win a match of LENGTH points from the published ratings (players by name or id), "
        "or for every pairing of a round with --pairs FILE.csv (columns player_a,player_b,length; JSON lines out)."
    )

    def add_arguments(self, parser):
        parser.add_argument("players", nargs="*", help="A B LENGTH")
        parser.add_argument("--pairs", type=Path, help="a CSV of pairings: player_a,player_b,length")
        parser.add_argument("--system", default="fibs", help="fibs (default) or crawford")
        parser.add_argument("--json", action="store_true", help="print JSON (always with --pairs)")
        parser.add_argument("--as-of", default=None,
                            help="YYYY-MM-DD, not after today: the ratings at the end of that day (default: today's)")

    def handle(self, *args, players, pairs=None, system="fibs", json=False, as_of=None, **options):
        if pairs is not None:
            if players:
                raise CommandError("Give either A B LENGTH or --pairs FILE, not both.")
            self._pairs(pairs, system, as_of)
            return
        if len(players) != 3:
            raise CommandError("Give two players and a length: predict A B LENGTH")
        try:
            forecast = selectors.match_forecast(
                player_a=players[0], player_b=players[1], length=players[2], system=system, as_of=as_of
            )
        except ValidationError as error:
            raise CommandError(_problem(error)) from None
        if json:
            self.stdout.write(_json(forecast.as_dict()))
        else:
            self.stdout.write(_text(forecast))

    def _pairs(self, path: Path, system: str, as_of: str | None) -> None:
        try:
            text = path.read_text(encoding="utf-8").lstrip("\ufeff")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {path}: {error}") from None
        reader = csv.DictReader(text.splitlines())
        missing = {"player_a", "player_b", "length"} - set(reader.fieldnames or [])
        if missing:
            raise CommandError(f"{path}: the header lacks {', '.join(sorted(missing))}")
        failed = 0
        for row in reader:
            try:
                forecast = selectors.match_forecast(
                    player_a=row["player_a"] or "", player_b=row["player_b"] or "", length=row["length"] or "",
                    system=system, as_of=as_of,
                )
            except ValidationError as error:
                failed += 1
                self.stdout.write(_json({"line": reader.line_num, "error": error.message_dict}))
                continue
            self.stdout.write(_json({"line": reader.line_num, **forecast.as_dict()}))
        if failed:
            raise CommandError(f"{failed} pairing(s) could not be predicted (see their lines).")


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


def _text(forecast: selectors.MatchForecast) -> str:
    p = forecast.prediction

    def side(player, rating):
        deviation = f" ±{rating.deviation:.0f}" if rating.deviation is not None else ""
        mark = " (provisional)" if rating.provisional else ""
        return f"{player.name} {rating.rating:.1f}{deviation}{mark}"

    lines = [
        f"{forecast.length}-point match, {forecast.system}"
        + (f", ratings as of {forecast.as_of:%d %b %Y}:" if forecast.as_of else ":"),
        f"  {side(forecast.player_a, forecast.rating_a)}: {p.p_a:.1%}",
        f"  {side(forecast.player_b, forecast.rating_b)}: {p.p_b:.1%}",
    ]
    if p.p_a_low is not None:
        lines.append(f"  95% interval for {forecast.player_a.name}: {p.p_a_low:.1%} to {p.p_a_high:.1%}")
    return "\n".join(lines)
