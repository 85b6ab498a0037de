"""What the TD does at the desk besides results: tables, walkovers and no-shows, pasted entry lists.

Same contract as every service here: keyword-only, atomic, validating; the lock order of the
package (`tournaments.services`) holds: the tournament first, then the pairing.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from django import forms
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import ConflictError
from config.fields import typed_text
from config.languages import list_join
from games import services as games
from games.models import Player
from games.names import fold
from games.selectors import player_matcher

from ..models import DECIDED, Entry, Flight, Pairing, PairingStatus, Tournament
from ..permissions import require_td
from ._base import (
    _check_playable,
    _lock_pairing,
    _lock_tournament,
    _results_changed,
    _walkover,
)
from .entries import entry_add
from .notifications import pairings_announce
from .rounds import _advance

OPEN = (PairingStatus.PENDING, PairingStatus.PLAYING)


# -- tables --------------------------------------------------------------------------------------


def _clean_reserved(tournament: Tournament, count: int, reserved) -> list[dict]:
    flights = set(Flight.objects.filter(tournament=tournament).values_list("name", flat=True))
    out, seen = [], set()
    for item in reserved or []:
        if not isinstance(item, dict):
            raise ValidationError({"reserved_tables": [_("Each reservation names a table and a flight or a player.")]})
        table = item.get("table")
        if not isinstance(table, int) or isinstance(table, bool) or not 1 <= table <= count:
            raise ValidationError({"reserved_tables": [_("Table %(table)s does not exist: tables run from 1 "
                      "to %(count)s.")
                    % {"table": table, "count": count}]})
        if table in seen:
            raise ValidationError({"reserved_tables": [_("Table %(table)s is reserved twice.") % {"table": table}]})
        seen.add(table)
        flight, player = item.get("flight"), item.get("player")
        if bool(flight) == bool(player):
            raise ValidationError({"reserved_tables": [_("Reserve table %(table)s for one flight or one player.")
                    % {"table": table}]})
        if flight and flight not in flights:
            raise ValidationError({"reserved_tables": [_("Table %(table)s: there is no flight called %(flight)s.")
                    % {"table": table, "flight": flight}]})
        if player and not Player.objects.filter(pk=player).exists():
            raise ValidationError({"reserved_tables": [_("Table %(table)s: there is no player %(player)s.")
                    % {"table": table, "player": player}]})
        out.append({"table": table, "flight": flight} if flight else {"table": table, "player": player})
    return sorted(out, key=lambda r: r["table"])


def tables_set(*, tournament: Tournament, count: int, reserved=None, by) -> Tournament:
    """How many tables the venue has, and which are kept for one flight or one player."""
    require_td(by, tournament)
    if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 500:
        raise ValidationError({"tables": [_("Give the number of tables, from 0 to 500.")]})
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        tournament.reserved_tables = _clean_reserved(tournament, count, reserved)
        tournament.tables = count
        tournament.version += 1
        tournament._history_user = by
        tournament.save(update_fields=["tables", "reserved_tables", "version"])
    return tournament


def _bracket_place(pairing: Pairing) -> tuple:
    """A match's place in its bracket: its flight, its round (a flight's rounds are made in their
    order), then its slot's number (R2-1 before R2-2 before R2-10), whenever its result arrived."""
    number = pairing.slot.rpartition("-")[2]
    return (pairing.flight.position, pairing.flight_id, pairing.round_id,
            int(number) if number.isdigit() else 0, pairing.slot)


def table_offers(tournament: Tournament, pairings: list[Pairing]) -> dict[int, str]:
    """The table each open match without one would be given, in bracket order (pure: reads only
    the rows passed in), so a round's matches are seated R2-1, R2-2, … whatever order their
    players' results came in. A reserved table goes only to its flight or player; the others go
    to anyone, lowest number first."""
    taken = {p.table for p in pairings if p.table}
    reserved = {str(r["table"]): r for r in tournament.reserved_tables or []}
    free = [str(n) for n in range(1, (tournament.tables or 0) + 1) if str(n) not in taken]
    offers = {}
    for p in sorted(pairings, key=_bracket_place):
        if p.table or p.status not in OPEN or p.player_b_id is None:
            continue
        own = [t for t in free if t in reserved and (
            reserved[t].get("flight") == p.flight.name or reserved[t].get("player") in (p.player_a_id, p.player_b_id))]
        anyone = [t for t in free if t not in reserved]
        choice = (own or anyone or [None])[0]
        if choice is not None:
            offers[p.pk] = choice
            free.remove(choice)
    return offers


def pairing_table_set(*, pairing: Pairing, table: str, by, expected_version: int | None = None) -> Pairing:
    """Seat a match at a table (or take it off its table with an empty value)."""
    require_td(by, pairing.flight.tournament)
    table = (table or "").strip()
    with transaction.atomic():
        tournament = _lock_tournament(pairing.flight.tournament)
        _results_changed(tournament.pk)
        pairing = _lock_pairing(pairing, expected_version)
        if pairing.decided:
            raise ValidationError({"table": [_("%(match)s is over: it needs no table.") % {"match": pairing.slot}]})
        if table:
            try:
                number = forms.IntegerField(min_value=1, max_value=max(tournament.tables, 1)).clean(table)
            except ValidationError:
                number = None
            if number is None or not tournament.tables:
                limit = (_("tables run from 1 to %(tables)s") % {"tables": tournament.tables} if tournament.tables
                         else _("set the number of tables first"))
                raise ValidationError({"table": [_("There is no table %(table)s: %(limit)s.")
                        % {"table": table[:20], "limit": limit}]})
            table = str(number)
            busy = (Pairing.objects.filter(flight__tournament=tournament, table=table, status__in=OPEN)
                    .exclude(pk=pairing.pk).select_related("flight").first())
            if busy is not None:
                raise ConflictError(_("Table %(table)s is taken by %(flight)s %(match)s: free it first.")
                        % {"table": table, "flight": busy.flight.name, "match": busy.slot})
        pairing.table = table
        pairing.version += 1
        pairing._history_user = by
        pairing.save(update_fields=["table", "version"])
        if table:
            pairings_announce(pairing_ids=[pairing.pk])
    return pairing


def tables_call(*, tournament: Tournament, pairings: list[Pairing], by) -> int:
    """Seat every listed match that has no table at the table offered to it; returns how many."""
    require_td(by, tournament)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _results_changed(tournament.pk)
        current = list(Pairing.objects.filter(flight__tournament=tournament, status__in=OPEN,
                                              player_b__isnull=False).select_related("flight").order_by("pk"))
        wanted = {p.pk for p in pairings}
        order = [p for p in current if p.table] + [p for p in current if not p.table and p.pk in wanted]
        offers = table_offers(tournament, order)
        for pairing in current:
            if pairing.pk in offers:
                pairing.table = offers[pairing.pk]
                pairing.version += 1
                pairing._history_user = by
                pairing.save(update_fields=["table", "version"])
        pairings_announce(pairing_ids=list(offers))
    return len(offers)


# -- walkovers -----------------------------------------------------------------------------------


def pairing_walkover(*, pairing: Pairing, winner: Player, reason: str, by,
                     expected_version: int | None = None) -> Pairing:
    """Give a match to one player without play (the other did not show up, or cannot play).

    The match is forfeited and never rated; the reason is kept on the pairing and in its history.
    """
    require_td(by, pairing.flight.tournament)
    reason = " ".join(typed_text(reason, field="reason").split())
    if not reason:
        raise ValidationError({"reason": [_("Say why the match is given without play.")]})
    with transaction.atomic():
        tournament = _lock_tournament(pairing.flight.tournament)
        _results_changed(tournament.pk)
        pairing = _lock_pairing(pairing, expected_version)
        _check_playable(pairing)
        if pairing.status in DECIDED:
            raise ConflictError(_("%(match)s already has a result: correct it instead.") % {"match": pairing.slot})
        if winner.pk not in (pairing.player_a_id, pairing.player_b_id):
            raise ValidationError({"winner": [_("%(winner)s does not play %(match)s.")
                    % {"winner": winner.name, "match": pairing.slot}]})
        loser_id = pairing.player_b_id if winner.pk == pairing.player_a_id else pairing.player_a_id
        pairing._change_reason = reason[:200]
        _walkover(pairing, loser_id=loser_id, by=by)
        pairing.walkover_reason = reason[:200]
        pairing.table = ""
        pairing.save(update_fields=["walkover_reason", "table"])
        _advance(tournament, pairing.flight, by=by)
    return pairing


# -- pasted entry lists --------------------------------------------------------------------------


@dataclass
class PastedLine:
    """One line of a pasted entry list and what it matched.

    `candidates` are the players of that name, or, when `near` is set, the players whose names
    are near it (an accent, a near spelling, "Surname, Given", a lone given name): those lines
    are asked about, never entered as new players without the TD's word.
    """

    number: int
    name: str
    club: str = ""
    country: str = ""
    federation_id: str = ""
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    near: bool = False
    typed: str = ""
    """The line as typed, when it was read another way ("Kowalski, Greta" read as Greta Kowalski)."""
    entered: bool = False
    error: str = ""

    @property
    def ambiguous(self) -> bool:
        return self.player is None and (len(self.candidates) > 1 or (self.near and bool(self.candidates)))

    @property
    def new(self) -> bool:
        return self.player is None and not self.candidates and not self.error


def _split(text: str) -> tuple[list[tuple[int, list[str]]], list[str]]:
    """The lines of a pasted list as cells, and its header's cells (empty without one)."""
    rows, header = [], []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        delimiter = "\t" if "\t" in line else ";" if ";" in line and "," not in line else ","
        cells = [c.strip() for c in next(csv.reader(io.StringIO(line), delimiter=delimiter))]
        if number == 1 and cells and cells[0].lower() == "name":
            header = [c.lower() for c in cells]
            continue
        rows.append((number, cells))
    return rows, header


def _surname_first(cells: list[str], matcher, clubs: set[str]) -> bool:
    """Whether a line "Kowalski, Greta" names a player surname first rather than a player and his
    club: one word, then words that are no club's and no more columns, and no player of that one
    word's name. (A list whose header names a club column is never read so.)"""
    one, other = cells[0], cells[1]
    return (bool(one) and bool(other) and len(one.split()) == 1 and not any(cells[2:])
            and fold(other) not in clubs and not matcher.exact(one))


def entries_paste_plan(*, flight: Flight, text: str, choices: dict[int, int | str] | None = None) -> list[PastedLine]:
    """Read a pasted list (a name per line, or CSV: name, club, country, rating id) and match each
    line to a player: by rating id, else by name (and club when one name is shared), else by the
    name matcher (`games.names`), whose near names are asked about. Reads only.

    `choices` settles the lines asked about: line number -> player id, or "new".
    """
    choices = choices or {}
    matcher = player_matcher()
    clubs = {fold(k.club) for k in matcher.known if k.club}
    lines = []
    rows, header = _split(text)
    for number, cells in rows:
        cells += [""] * (4 - len(cells))
        cells = [" ".join(c.split()) for c in cells]
        line = PastedLine(number=number, name=cells[0], club=cells[1], country=cells[2].upper(),
                          federation_id=cells[3])
        if "club" not in header and _surname_first(cells, matcher, clubs):
            line.typed = f"{cells[0]}, {cells[1]}"
            line.name, line.club = f"{cells[1]} {cells[0]}", ""
        if not line.name:
            line.error = _("Line %(number)s has no name.") % {"number": number}
        lines.append(line)
        if len(lines) > 512:
            raise ValidationError({"text": [_("Paste at most 512 players at a time.")]})
    ids = {line.federation_id for line in lines if line.federation_id}
    by_fed = {p.federation_id: p for p in Player.objects.filter(federation_id__in=ids)} if ids else {}
    found = {}
    for line in lines:
        if not line.error and line.federation_id not in by_fed:
            found[line.number] = matcher.candidates(line.name, club=line.club)
    wanted = {c.key for cs in found.values() for c in cs}
    players = Player.objects.in_bulk(wanted) if wanted else {}
    from ..selectors import entry_ratings  # selectors import the services: read it when called

    ratings = entry_ratings(list(wanted)) if wanted else {}
    for player in players.values():
        player.rating_shown = ratings.get(player.pk)
    entered = set(Entry.objects.filter(flight=flight).values_list("player_id", flat=True))
    for line in lines:
        if line.error:
            continue
        if line.federation_id and line.federation_id in by_fed:
            line.player = by_fed[line.federation_id]
        else:
            offered = found[line.number]
            line.near = bool(line.typed) or any(c.why != "the same name" for c in offered)
            same = [players[c.key] for c in offered]
            if not line.near and line.club and len(same) > 1:
                same_club = [p for p in same if p.club.lower() == line.club.lower()]
                same = same_club or same
            line.candidates = same
            if not line.near and len(line.candidates) == 1:
                line.player = line.candidates[0]
        choice = choices.get(line.number)
        if line.ambiguous and choice is not None:
            if choice == "new":
                line.candidates = []
            else:
                picked = [p for p in line.candidates if p.pk == choice]
                if picked:
                    line.player = picked[0]
        if line.player is not None:
            line.entered = line.player.pk in entered
    return lines


def _question(line: PastedLine) -> str:
    """What the TD is asked about a line: which of the players is meant, or whether it is new."""
    if not line.near:
        return ngettext("%(count)s player is called %(name)s: choose one.",
                        "%(count)s players are called %(name)s: choose one.", len(line.candidates)) % {
            "count": len(line.candidates), "name": line.name}
    def one(player) -> str:
        about = list_join(str(x) for x in (player.club, getattr(player, "rating_shown", None)) if x)
        return f"{player.name} ({about})" if about else player.name
    return (_("did you mean %(players)s? Use one, or enter %(name)s as a new player.")
            % {"players": _(" or ").join(one(p) for p in line.candidates), "name": line.name})


def entries_paste(*, flight: Flight, text: str, choices: dict[int, int | str] | None = None, by) -> list[PastedLine]:
    """Enter every line of a pasted list in a flight, creating the players that are new.

    Nothing is stored while a line is unreadable or ambiguous (two players of that name and no
    choice made): the TD is asked, and sends the list again with `choices`.
    """
    require_td(by, flight.tournament)
    lines = entries_paste_plan(flight=flight, text=text, choices=choices)
    if not lines:
        raise ValidationError({"text": [_("Paste one player per line.")]})
    problems = [line.error for line in lines if line.error]
    problems += [f"Line {line.number}: {_question(line)}" for line in lines if line.ambiguous]
    if problems:
        raise ValidationError({"text": problems})
    with transaction.atomic():
        seen = set()
        for line in lines:
            if line.player is None:
                line.player = games.player_create(name=line.name, club=line.club, country=line.country,
                                                  federation_id=line.federation_id or None,
                                                  confirm_duplicate=True, by=by)
            if line.player.pk in seen or line.entered:
                line.entered = True
                continue
            seen.add(line.player.pk)
            entry_add(flight=flight, player=line.player, by=by)
    return lines
