"""An event as files: its entries and results as CSV, its finished matches as a results file to
import again, and its schedule as an iCalendar (RFC 5545) calendar."""

from __future__ import annotations

import io
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

from django.utils import timezone
from django.utils.translation import gettext, ngettext

from config.exports import SafeCsvWriter

from ..models import PairingStatus, Tournament
from .lists import entry_list, pairing_list, round_list


def entries_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["flight", "seed", "player_id", "name", "country", "club", "status", "late"])
    for e in entry_list().filter(tournament=tournament):
        writer.writerow([e.flight.name, e.seed or "", e.player_id, e.player.name, e.player.country, e.player.club,
                         e.status, "yes" if e.late else "no"])
    return out.getvalue()


def results_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["flight", "round", "slot", "length", "player_a", "player_b", "score_a", "score_b", "winner",
                     "status", "match_id"])
    for p in pairing_list().filter(flight__tournament=tournament):
        writer.writerow([
            p.flight.name, p.round.number, p.slot, p.round.length or "", p.player_a.name,
            p.player_b.name if p.player_b_id else "(bye)",
            "" if p.score_a is None else p.score_a, "" if p.score_b is None else p.score_b,
            p.winner.name if p.winner_id else "", p.status, p.match_id or "",
        ])
    return out.getvalue()


def results_export_csv(tournament: Tournament) -> str:
    """An event's finished matches as the results file `import_results` reads (`games.results`):
    played_on, the players, the length, the final score, the event, and a `source_id` per match
    (event, flight, slot), so that importing the file again adds nothing. Walkovers and byes were
    not played and are left out."""
    out = io.StringIO()
    writer = SafeCsvWriter(out)
    writer.writerow(["played_on", "player_a", "player_b", "length", "score_a", "score_b", "event", "source_id"])
    finished = (pairing_list().filter(flight__tournament=tournament, status=PairingStatus.FINISHED,
                                      score_a__isnull=False, score_b__isnull=False)
                .select_related("match").order_by("flight__position", "round__number", "id"))
    for p in finished:
        played = p.match.played_on if p.match_id else (p.decided_at or timezone.now())
        writer.writerow([played.isoformat(), p.player_a.name, p.player_b.name, p.round.length or 1,
                         p.score_a, p.score_b, tournament.name, f"{tournament.slug}/{p.flight.name}/{p.slot}"])
    return out.getvalue()


_ICS_CONTROL = dict.fromkeys([*range(0, 9), *range(10, 32), 127])


def ics_text(value: str) -> str:
    """TEXT of RFC 5545 (3.3.11): backslash, semicolon and comma escaped, a line break (CRLF, LF or
    CR) written as \\n, other control characters (not allowed in TEXT) left out."""
    value = value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
    value = value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n")
    return value.translate(_ICS_CONTROL)


def ics_fold(line: str) -> str:
    """RFC 5545 3.1: lines longer than 75 octets continue on the next line after a space."""
    raw = line.encode("utf-8")
    if len(raw) <= 75:
        return line
    parts, current = [], b""
    for char in line:
        encoded = char.encode("utf-8")
        if len(current) + len(encoded) > (75 if not parts else 74):
            parts.append(current.decode("utf-8"))
            current = b""
        current += encoded
    parts.append(current.decode("utf-8"))
    return "\r\n ".join(parts)


def schedule_ics(tournament: Tournament, host: str = "crawford") -> str:
    """The event and its announced rounds as an iCalendar (RFC 5545) calendar."""
    stamp = timezone.now().astimezone(dt_timezone.utc)
    stamp_text = stamp.strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Crawford//Tournament schedule//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{ics_text(tournament.name)}"]
    lines += [
        "BEGIN:VEVENT",
        f"UID:tournament-{tournament.pk}@{host}",
        f"DTSTAMP:{stamp_text}",
        f"DTSTART;VALUE=DATE:{tournament.start_date:%Y%m%d}",
        f"DTEND;VALUE=DATE:{tournament.end_date + timedelta(days=1):%Y%m%d}",
        f"SUMMARY:{ics_text(tournament.name)}",
    ]
    if tournament.venue:
        lines.append(f"LOCATION:{ics_text(tournament.venue)}")
    lines.append("END:VEVENT")
    for rnd in round_list().filter(flight__tournament=tournament, starts_at__isnull=False):
        start: datetime = rnd.starts_at.astimezone(stamp.tzinfo)
        lines += [
            "BEGIN:VEVENT",
            f"UID:round-{rnd.pk}@{host}",
            f"DTSTAMP:{stamp_text}",
            f"DTSTART:{start:%Y%m%dT%H%M%SZ}",
            f"DTEND:{start + timedelta(hours=2):%Y%m%dT%H%M%SZ}",
            "SUMMARY:" + ics_text(gettext("%(event)s: %(flight)s round %(round)s") % {
                "event": tournament.name, "flight": rnd.flight.name, "round": rnd.number}),
        ]
        if rnd.length:
            # Translators: the matches of a round; the number is their length in points.
            lines.append("DESCRIPTION:" + ics_text(ngettext("%(length)s-point matches", "%(length)s-point matches",
                                                            rnd.length) % {"length": rnd.length}))
        if tournament.venue:
            lines.append(f"LOCATION:{ics_text(tournament.venue)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "\r\n".join(ics_fold(line) for line in lines) + "\r\n"
