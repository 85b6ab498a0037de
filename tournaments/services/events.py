"""Events and their flights: created, organised, changed until they start."""

from __future__ import annotations

from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from config.errors import ConflictError
from config.languages import list_join
from games.engine.errors import ScoringError
from games.engine.scoring import MatchRules
from games.models import Player
from games.permissions import is_site_admin

from .. import formats as fm
from ..models import (
    Flight,
    FlightFormat,
    FlightKindChoice,
    FlightStatus,
    PlayerAccount,
    Round,
    ScoringChoice,
    SeedingChoice,
    Tournament,
    TournamentStatus,
)
from ..permissions import account_link_refusal, may_create_tournament, require_td
from ._base import _results_changed


def tournament_create(
    *,
    name: str,
    start_date: date,
    end_date: date | None = None,
    slug: str = "",
    venue: str = "",
    organisers=(),
    cube_cap: int | None = None,
    clock: str = "",
    clock_seconds: int | None = None,
    by,
) -> Tournament:
    """A new event; its creator is one of its TDs. Staff (or users allowed to add events) create."""
    if not may_create_tournament(by):
        raise PermissionDenied(_("Only a site admin or a tournament director may create a tournament."))
    name = " ".join((name or "").split())
    errors = {}
    if not name:
        errors["name"] = ["A tournament needs a name."]
    end_date = end_date or start_date
    if end_date < start_date:
        errors["end_date"] = [_("The event cannot end before it starts.")]
    if cube_cap is not None:
        try:
            MatchRules(length=1, cube_cap=cube_cap)
        except ScoringError as error:
            errors["cube_cap"] = [error.message]
    slug = slugify(slug or f"{name}-{start_date.year}")[:80]
    if not slug:
        errors["slug"] = [_("Give the tournament a short name for its address (letters, digits, hyphens).")]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        tournament = Tournament(
            name=name, slug=slug, venue=venue, start_date=start_date, end_date=end_date, cube_cap=cube_cap,
            clock=clock, clock_seconds=clock_seconds,
        )
        tournament._history_user = by
        try:
            with transaction.atomic():
                tournament.save()
        except IntegrityError:
            # The database decides between two requests for one address: the later one is told.
            existing = Tournament.objects.filter(slug=slug).first()
            if existing is None:
                raise
            raise ConflictError(_('The address "%(slug)s" is taken by another tournament (%(existing)s); '
                      'choose another.')
                    % {"slug": slug, "existing": existing.name}, existing=existing) from None
        tournament.organisers.add(by, *organisers)
    return tournament


def tournament_organiser_add(*, tournament: Tournament, user, by) -> Tournament:
    require_td(by, tournament)
    with transaction.atomic():
        _results_changed(tournament.pk)
        tournament.organisers.add(user)
    return tournament


def player_account_link(*, player: Player, user, by) -> PlayerAccount:
    """Let `user` act for `player` (report his matches, register, withdraw). A site admin links
    anyone; a TD only a player entirely of his own events (`permissions.account_link_refusal`), and
    never over another login. The player is told by e-mail."""
    from .registration import account_link_store

    refusal = account_link_refusal(by, player)
    if refusal is not None:
        raise PermissionDenied(refusal)
    with transaction.atomic():
        if not is_site_admin(by) and PlayerAccount.objects.filter(player=player, user__isnull=False).exclude(
                user=user).exists():
            raise ValidationError({"player": [_("%(player)s has a login already: only a site admin changes it.")
                    % {"player": player.name}]})
        return account_link_store(player=player, user=user, by=by)


def _clean_lengths(lengths) -> list[int]:
    if not isinstance(lengths, (list, tuple)) or not lengths:
        raise ValidationError({"lengths": [_("Give the match length of each round, e.g. [7, 7, 9, 9, 11, 11].")]})
    out = []
    for number, length in enumerate(lengths, start=1):
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= 99:
            raise ValidationError({"lengths": [_("Round %(number)s: a match is played to 1 to 99 points, not "
                      "%(length)r.")
                    % {"number": number, "length": length}]})
        out.append(length)
    return out


def _choice_errors(seeding: str, tie_breaks) -> dict[str, list[str]]:
    """A flight's seeding and tie-breaks, checked against the ones there are."""
    errors = {}
    if seeding not in SeedingChoice.values:
        errors["seeding"] = ['Seed "manual" (your order), "random" or "rating".']
    known = [t.value for t in fm.TieBreak]
    for tb in tie_breaks:
        if tb not in known:
            errors["tie_breaks"] = [_("%(value)s is not a tie-break; use %(choices)s.")
                                    % {"value": tb, "choices": list_join(known)}]
    return errors


SKILL_FORMATS = (FlightFormat.SWISS, FlightFormat.SWISS_KNOCKOUT)
"""The formats that may score a point for skill besides the point for the win."""


def _check_scoring(format: str, scoring) -> None:
    if scoring not in ScoringChoice.values:
        raise ValidationError({"scoring": [_("Score %(choices)s.")
                % {"choices": ' or '.join(repr(v) for v in ScoringChoice.values)}]})
    if scoring == ScoringChoice.WIN_AND_SKILL and format not in SKILL_FORMATS:
        raise ValidationError({"scoring": [(_("Only a Swiss (or the Swiss of a Swiss then knockout) scores a point "
                                            "for skill; score this flight by wins."))]})


def _check_rounds(format: str, swiss_rounds, out_after_losses, qualifiers) -> None:
    if format == FlightFormat.SWISS_KNOCKOUT and (not swiss_rounds or not qualifiers):
        raise ValidationError({"qualifiers": [_("Swiss then knockout needs the number of Swiss rounds and of "
                  "qualifiers.")]})
    if format == FlightFormat.SWISS and not swiss_rounds and not out_after_losses:
        raise ValidationError({"swiss_rounds": [_("Give the number of rounds, or the loss that puts a player out.")]})


FLIGHT_SETTINGS = ("lengths", "seeding", "random_seed", "swiss_rounds", "out_after_losses", "tie_breaks",
                   "qualifiers", "auto_pair", "scoring")
"""What a TD may change in a flight until it starts (its name, kind, format and feeders stay)."""


def flight_update(*, flight: Flight, by, expected_version: int | None = None, **changes) -> Flight:
    """Change a flight's settings before it starts: lengths, seeding, rounds, qualifiers, tie-breaks,
    scoring.

    Checked as when the flight was added; a flight that has started keeps its settings (409).
    """
    require_td(by, flight.tournament)
    unknown = sorted(set(changes) - set(FLIGHT_SETTINGS))
    if unknown:
        raise ValidationError({name: [_("This cannot be changed: add the flight again instead.")] for name in unknown})
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        if expected_version is not None and flight.version != expected_version:
            raise ConflictError(_("%(flight)s was changed by someone else: reload it.") % {"flight": flight.name})
        if flight.status != FlightStatus.DRAFT:
            raise ConflictError(_("%(flight)s has started: its settings are fixed.") % {"flight": flight.name})
        if "lengths" in changes:
            changes["lengths"] = _clean_lengths(changes["lengths"])
        errors = _choice_errors(changes.get("seeding", flight.seeding), changes.get("tie_breaks") or ())
        if errors:
            raise ValidationError(errors)
        after = {name: changes.get(name, getattr(flight, name)) for name in FLIGHT_SETTINGS}
        _check_rounds(flight.format, after["swiss_rounds"], after["out_after_losses"], after["qualifiers"])
        _check_scoring(flight.format, after["scoring"])
        for name in changes:
            setattr(flight, name, list(changes[name]) if name == "tie_breaks" else changes[name])
        flight.version += 1
        flight._history_user = by
        flight.save()
    return flight


def flight_create(
    *,
    tournament: Tournament,
    name: str,
    format: str,
    lengths,
    kind: str = FlightKindChoice.MAIN,
    feeders=(),
    seeding: str = SeedingChoice.MANUAL,
    random_seed: int | None = None,
    swiss_rounds: int | None = None,
    out_after_losses: int | None = None,
    tie_breaks=(),
    qualifiers: int | None = None,
    auto_pair: bool = True,
    scoring: str = ScoringChoice.WINS,
    by,
) -> Flight:
    """Add a flight. A consolation or last chance flight names its feeders: which losers enter where.

    A feeder names its source flight by name (`source`) or id (`source_id`); it is stored by id, so
    renaming a flight later keeps the flights it feeds.
    """
    require_td(by, tournament)
    name = " ".join((name or "").split())
    _check_flight_choices(name=name, format=format, kind=kind, seeding=seeding, tie_breaks=tie_breaks)
    lengths = _clean_lengths(lengths)
    feeders = _feeders_of_kind(kind, format, feeders)
    _check_rounds(format, swiss_rounds, out_after_losses, qualifiers)
    _check_scoring(format, scoring)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _results_changed(tournament.pk)
        if tournament.status == TournamentStatus.FINISHED:
            raise ValidationError({"non_field_errors": [_("The tournament is finished: no flight can be added.")]})
        existing = {f.name: f for f in tournament.flights.all()}
        if name in existing:
            raise ValidationError({"name": [_("%(tournament)s already has a flight called %(name)s.")
                    % {"tournament": tournament.name, "name": name}]})
        by_id = {f.pk: f for f in existing.values()}
        clean = [_clean_feeder(number, feeder, tournament, existing, by_id)
                 for number, feeder in enumerate(feeders, start=1)]
        flight = Flight(
            tournament=tournament, name=name, kind=kind, format=format, position=len(existing), lengths=lengths,
            feeders=clean, seeding=seeding, random_seed=random_seed, swiss_rounds=swiss_rounds,
            out_after_losses=out_after_losses, tie_breaks=list(tie_breaks), qualifiers=qualifiers,
            auto_pair=auto_pair, scoring=scoring,
        )
        flight._history_user = by
        flight.save()
    return flight


def _check_flight_choices(*, name: str, format: str, kind: str, seeding: str, tie_breaks) -> None:
    """A new flight's name, format, kind, seeding and tie-breaks, every wrong one said at once."""
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = [_("A flight needs a name, e.g. Main or Consolation.")]
    if format not in FlightFormat.values:
        errors["format"] = [_("The format is one of: %(choices)s.") % {"choices": list_join(FlightFormat.values)}]
    if kind not in FlightKindChoice.values:
        errors["kind"] = [_("The kind of flight is one of: %(choices)s.")
                          % {"choices": list_join(FlightKindChoice.values)}]
    errors.update(_choice_errors(seeding, tie_breaks))
    if errors:
        raise ValidationError(errors)


def _feeders_of_kind(kind: str, format: str, feeders) -> list[dict]:
    """The feeders as given, checked against the kind of flight: a consolation or last chance
    flight (a single elimination) takes the losers of others, no other flight does."""
    fed = kind in (FlightKindChoice.CONSOLATION, FlightKindChoice.LAST_CHANCE)
    feeders = [dict(f) for f in feeders or ()]
    if fed and not feeders:
        raise ValidationError({"feeders": [_("A %(kind)s flight needs feeders: the losers it takes.")
                % {"kind": kind.replace('_', ' ')}]})
    if feeders and not fed:
        raise ValidationError({"feeders": [_("Only a consolation or last chance flight takes losers of other flights.")]})
    if fed and format != FlightFormat.SINGLE_ELIMINATION:
        raise ValidationError({"format": [_("A consolation or last chance flight is a single elimination.")]})
    return feeders


def _clean_feeder(number: int, feeder: dict, tournament: Tournament, existing: dict[str, Flight],
                  by_id: dict[int, Flight]) -> dict:
    """Feeder `number` as stored: an earlier knockout of the event, not started, by id, with the
    round its losers leave and the round they enter."""
    where = _("Feeder %(number)s") % {"number": number}
    if feeder.get("source_id") is not None:
        source = by_id.get(feeder["source_id"])
        if source is None:
            raise ValidationError({"feeders": [
                _("%(where)s: flight %(source_id)s is not an earlier flight of %(tournament)s.")
                        % {"where": where, "source_id": feeder['source_id'], "tournament": tournament.name}]})
    elif not feeder.get("source"):
        raise ValidationError({"feeders": [_("%(where)s: name the flight whose losers enter (source).")
                % {"where": where}]})
    else:
        source = existing.get(feeder.get("source"))
    if source is None:
        raise ValidationError({"feeders": [_("%(where)s: there is no earlier flight called %(source)r.")
                % {"where": where, "source": feeder.get('source')}]})
    if source.format != FlightFormat.SINGLE_ELIMINATION:
        raise ValidationError({"feeders": [_("%(where)s: only the losers of a knockout can feed a flight.")
                % {"where": where}]})
    if source.status != FlightStatus.DRAFT:
        raise ValidationError({"feeders": [_("%(where)s: %(source)s has started; add fed flights "
                  "before it starts.")
                % {"where": where, "source": source.name}]})
    try:
        source_round, entry_round = int(feeder.get("source_round")), int(feeder.get("entry_round"))
    except (TypeError, ValueError):
        raise ValidationError({"feeders": [_("%(where)s: give source_round and entry_round as numbers.")
                % {"where": where}]}) from None
    if source_round < 1 or entry_round < 1:
        raise ValidationError({"feeders": [_("%(where)s: rounds are numbered from 1.") % {"where": where}]})
    return {"source_id": source.pk, "source_round": source_round, "entry_round": entry_round}


def schedule_round(*, round: Round, starts_at: datetime, by) -> Round:
    """Announce when a round starts (for the published schedule)."""
    require_td(by, round.flight.tournament)
    with transaction.atomic():
        _results_changed(round.flight.tournament_id)
        round.starts_at = starts_at
        round._history_user = by
        round.save(update_fields=["starts_at"])
    return round
