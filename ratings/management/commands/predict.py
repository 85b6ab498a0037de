"""manage.py predict A B LENGTH | --pairs FILE.csv: each player's chance to win."""

import csv
import json
from pathlib import Path

from django.core.exceptions import ValidationError
from django.utils.formats import date_format
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from config.languages import list_join
from config.management.base import TranslatedCommand

from ratings import selectors


def _problem(error: ValidationError) -> str:
    return "; ".join(f"{field}: {' '.join(messages)}" for field, messages in error.message_dict.items())


class Command(TranslatedCommand):
    help = gettext_lazy(
        "Each player's chance to win a match of LENGTH points from the published ratings (players by name or id), "
        "or for every pairing of a round with --pairs FILE.csv (columns player_a,player_b,length; JSON lines out)."
    )

    def add_arguments(self, parser):
        parser.add_argument("players", nargs="*", help=_("A B LENGTH"))
        parser.add_argument("--pairs", type=Path, help=_("a CSV of pairings: player_a,player_b,length"))
        parser.add_argument("--system", default="fibs", help=_("fibs (default) or crawford"))
        parser.add_argument("--json", action="store_true", help=_("print JSON (always with --pairs)"))
        parser.add_argument("--as-of", default=None,
                            help=_("YYYY-MM-DD, not after today: the ratings at the end of that day (default: "
                                   "today's)"))

    def handle(self, *args, players, pairs=None, system="fibs", json=False, as_of=None, **options):
        if pairs is not None:
            if players:
                raise CommandError(_("Give either A B LENGTH or --pairs FILE, not both."))
            self._pairs(pairs, system, as_of)
            return
        if len(players) != 3:
            raise CommandError(_("Give two players and a length: predict A B LENGTH"))
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
            raise CommandError(_("Cannot read %(file)s: %(error)s") % {"file": path, "error": error}) from None
        reader = csv.DictReader(text.splitlines())
        missing = {"player_a", "player_b", "length"} - set(reader.fieldnames or [])
        if missing:
            raise CommandError(_("%(file)s: the header lacks %(columns)s")
                               % {"file": path, "columns": list_join(sorted(missing))})
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
            raise CommandError(ngettext("%(count)s pairing could not be predicted (see its line).",
                                        "%(count)s pairings could not be predicted (see their lines).", failed)
                               % {"count": failed})


def _json(data: dict) -> str:
    return json.dumps(data, ensure_ascii=False)


def _text(forecast: selectors.MatchForecast) -> str:
    p = forecast.prediction

    def side(player, rating):
        deviation = f" ±{rating.deviation:.0f}" if rating.deviation is not None else ""
        mark = _(" (provisional)") if rating.provisional else ""
        return f"{player.name} {rating.rating:.1f}{deviation}{mark}"

    lines = [
        (_("%(length)s-point match, %(system)s, ratings as of %(date)s:") % {
            "length": forecast.length, "system": forecast.system, "date": date_format(forecast.as_of, "d M Y")}
         if forecast.as_of else _("%(length)s-point match, %(system)s:") % {"length": forecast.length,
                                                                            "system": forecast.system}),
        f"  {side(forecast.player_a, forecast.rating_a)}: {p.p_a:.1%}",
        f"  {side(forecast.player_b, forecast.rating_b)}: {p.p_b:.1%}",
    ]
    if p.p_a_low is not None:
        lines.append("  " + _("95%% interval for %(player)s: %(low)s to %(high)s") % {
            "player": forecast.player_a.name, "low": f"{p.p_a_low:.1%}", "high": f"{p.p_a_high:.1%}"})
    return "\n".join(lines)
