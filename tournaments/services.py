"""Writes to events: the only way they change.

Every service is keyword-only, atomic and validating. Bad input raises a Django
`ValidationError` with a message per field (400), a missing right `PermissionDenied` (403), a lost
race `ConflictError` (409); nothing of a refused write is kept.

Advancement works the way the formats are built: after any result the unit (a main knockout with
its consolation and last chance flights, or one flight of another format) is worked out again from
the entries, the stored draw and the decided pairings, and whatever the format now knows (new
pairings, byes, the next Swiss round, champions) is stored.
"""

from __future__ import annotations

import contextvars
import secrets
from collections import defaultdict
from datetime import date, datetime

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.text import slugify

from config.errors import ConflictError
from games import services as games
from games.engine.errors import ScoringError
from games.engine.scoring import GameEnd, MatchRules, MatchScore, ResultKind, check_final_score
from games.models import Match, MatchStatus, Player

from . import draws
from . import formats as fm
from .models import (
    ByePolicy,
    CorrectionPolicy,
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    FlightKindChoice,
    FlightStatus,
    Pairing,
    PairingStatus,
    PlayerAccount,
    ReportStatus,
    ResultReport,
    Round,
    RoundStatus,
    SeedingChoice,
    Tournament,
    TournamentStatus,
)
from .permissions import is_td, require_td, side_of

_applying = contextvars.ContextVar("tournament_result_applying", default=False)
"""Set while these services write a pairing's match, so the match signal does not apply it twice."""


def _bracket_error(error: fm.BracketUserError, field: str = "non_field_errors") -> ValidationError:
    return ValidationError({field: [str(error)]})


# -- tournaments ---------------------------------------------------------------------------------


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
    bye_policy: str = ByePolicy.TOP_SEEDS,
    correction_policy: str = CorrectionPolicy.TD_AFTER_NEXT_ROUND,
    by,
) -> Tournament:
    """A new event; its creator is one of its TDs. Staff (or users allowed to add events) create."""
    if not (by and by.is_authenticated and (by.is_staff or by.has_perm("tournaments.add_tournament"))):
        raise PermissionDenied("Only staff may create a tournament.")
    name = " ".join((name or "").split())
    errors = {}
    if not name:
        errors["name"] = ["A tournament needs a name."]
    end_date = end_date or start_date
    if end_date < start_date:
        errors["end_date"] = ["The event cannot end before it starts."]
    if cube_cap is not None:
        try:
            MatchRules(length=1, cube_cap=cube_cap)
        except ScoringError as error:
            errors["cube_cap"] = [error.message]
    if bye_policy not in ByePolicy.values:
        errors["bye_policy"] = [f"The bye policy is one of: {', '.join(ByePolicy.values)}."]
    if correction_policy not in CorrectionPolicy.values:
        errors["correction_policy"] = [f"The correction policy is one of: {', '.join(CorrectionPolicy.values)}."]
    slug = slugify(slug or f"{name}-{start_date.year}")[:80]
    if not slug:
        errors["slug"] = ["Give the tournament a short name for its address (letters, digits, hyphens)."]
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        if Tournament.objects.filter(slug=slug).exists():
            raise ValidationError({"slug": [f'The address "{slug}" is taken by another tournament; choose another.']})
        tournament = Tournament(
            name=name, slug=slug, venue=venue, start_date=start_date, end_date=end_date, cube_cap=cube_cap,
            clock=clock, clock_seconds=clock_seconds, bye_policy=bye_policy, correction_policy=correction_policy,
        )
        tournament._history_user = by
        tournament.save()
        tournament.organisers.add(by, *organisers)
    return tournament


def tournament_organiser_add(*, tournament: Tournament, user, by) -> Tournament:
    require_td(by, tournament)
    with transaction.atomic():
        _results_changed(tournament.pk)
        tournament.organisers.add(user)
    return tournament


def player_account_link(*, player: Player, user, by) -> PlayerAccount:
    """Let `user` report the matches of `player`. Staff only."""
    if not (by and by.is_staff):
        raise PermissionDenied("Only staff link a login to a player.")
    with transaction.atomic():
        if PlayerAccount.objects.filter(user=user).exclude(player=player).exists():
            raise ValidationError({"user": [f"{user.get_username()} already belongs to another player."]})
        account, _ = PlayerAccount.objects.update_or_create(player=player, defaults={"user": user})
    return account


# -- flights -------------------------------------------------------------------------------------


def _clean_lengths(lengths) -> list[int]:
    if not isinstance(lengths, (list, tuple)) or not lengths:
        raise ValidationError({"lengths": ["Give the match length of each round, e.g. [7, 7, 9, 9, 11, 11]."]})
    out = []
    for number, length in enumerate(lengths, start=1):
        if not isinstance(length, int) or isinstance(length, bool) or not 1 <= length <= 99:
            raise ValidationError({"lengths": [f"Round {number}: a match is played to 1 to 99 points, not {length!r}."]})
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
            errors["tie_breaks"] = [f"{tb} is not a tie-break; use {', '.join(known)}."]
    return errors


def _check_rounds(format: str, swiss_rounds, out_after_losses, qualifiers) -> None:
    if format == FlightFormat.SWISS_KNOCKOUT and (not swiss_rounds or not qualifiers):
        raise ValidationError({"qualifiers": ["Swiss then knockout needs the number of Swiss rounds and of qualifiers."]})
    if format == FlightFormat.SWISS and not swiss_rounds and not out_after_losses:
        raise ValidationError({"swiss_rounds": ["Give the number of rounds, or the loss that puts a player out."]})


FLIGHT_SETTINGS = ("lengths", "seeding", "random_seed", "swiss_rounds", "out_after_losses", "tie_breaks",
                   "qualifiers", "auto_pair")
"""What a TD may change in a flight until it starts (its name, kind, format and feeders stay)."""


def flight_update(*, flight: Flight, by, expected_version: int | None = None, **changes) -> Flight:
    """Change a flight's settings before it starts: lengths, seeding, rounds, qualifiers, tie-breaks.

    Checked as when the flight was added; a flight that has started keeps its settings (409).
    """
    require_td(by, flight.tournament)
    unknown = sorted(set(changes) - set(FLIGHT_SETTINGS))
    if unknown:
        raise ValidationError({name: ["This cannot be changed: add the flight again instead."] for name in unknown})
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        if expected_version is not None and flight.version != expected_version:
            raise ConflictError(f"{flight.name} was changed by someone else: reload it.")
        if flight.status != FlightStatus.DRAFT:
            raise ConflictError(f"{flight.name} has started: its settings are fixed.")
        if "lengths" in changes:
            changes["lengths"] = _clean_lengths(changes["lengths"])
        errors = _choice_errors(changes.get("seeding", flight.seeding), changes.get("tie_breaks") or ())
        if errors:
            raise ValidationError(errors)
        after = {name: changes.get(name, getattr(flight, name)) for name in FLIGHT_SETTINGS}
        _check_rounds(flight.format, after["swiss_rounds"], after["out_after_losses"], after["qualifiers"])
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
    by,
) -> Flight:
    """Add a flight. A consolation or last chance flight names its feeders: which losers enter where."""
    require_td(by, tournament)
    name = " ".join((name or "").split())
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["A flight needs a name, e.g. Main or Consolation."]
    if format not in FlightFormat.values:
        errors["format"] = [f"The format is one of: {', '.join(FlightFormat.values)}."]
    if kind not in FlightKindChoice.values:
        errors["kind"] = [f"The kind of flight is one of: {', '.join(FlightKindChoice.values)}."]
    errors.update(_choice_errors(seeding, tie_breaks))
    if errors:
        raise ValidationError(errors)
    lengths = _clean_lengths(lengths)
    fed = kind in (FlightKindChoice.CONSOLATION, FlightKindChoice.LAST_CHANCE)
    feeders = [dict(f) for f in feeders or ()]
    if fed and not feeders:
        raise ValidationError({"feeders": [f"A {kind.replace('_', ' ')} flight needs feeders: the losers it takes."]})
    if feeders and not fed:
        raise ValidationError({"feeders": ["Only a consolation or last chance flight takes losers of other flights."]})
    if fed and format != FlightFormat.SINGLE_ELIMINATION:
        raise ValidationError({"format": ["A consolation or last chance flight is a single elimination."]})
    _check_rounds(format, swiss_rounds, out_after_losses, qualifiers)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        _results_changed(tournament.pk)
        if tournament.status == TournamentStatus.FINISHED:
            raise ValidationError({"non_field_errors": ["The tournament is finished: no flight can be added."]})
        existing = {f.name: f for f in tournament.flights.all()}
        if name in existing:
            raise ValidationError({"name": [f"{tournament.name} already has a flight called {name}."]})
        clean = []
        for number, feeder in enumerate(feeders, start=1):
            source = existing.get(feeder.get("source"))
            where = f"Feeder {number}"
            if source is None:
                raise ValidationError({"feeders": [f"{where}: there is no earlier flight called {feeder.get('source')!r}."]})
            if source.format != FlightFormat.SINGLE_ELIMINATION:
                raise ValidationError({"feeders": [f"{where}: only the losers of a knockout can feed a flight."]})
            if source.status != FlightStatus.DRAFT:
                raise ValidationError({"feeders": [f"{where}: {source.name} has started; add fed flights before it starts."]})
            try:
                source_round, entry_round = int(feeder.get("source_round")), int(feeder.get("entry_round"))
            except (TypeError, ValueError):
                raise ValidationError({"feeders": [f"{where}: give source_round and entry_round as numbers."]}) from None
            if source_round < 1 or entry_round < 1:
                raise ValidationError({"feeders": [f"{where}: rounds are numbered from 1."]})
            clean.append({"source": source.name, "source_round": source_round, "entry_round": entry_round})
        flight = Flight(
            tournament=tournament, name=name, kind=kind, format=format, position=len(existing), lengths=lengths,
            feeders=clean, seeding=seeding, random_seed=random_seed, swiss_rounds=swiss_rounds,
            out_after_losses=out_after_losses, tie_breaks=list(tie_breaks), qualifiers=qualifiers,
            auto_pair=auto_pair,
        )
        flight._history_user = by
        flight.save()
    return flight


# -- entries -------------------------------------------------------------------------------------


def _late_entries_allowed(flight: Flight) -> bool:
    return flight.format == FlightFormat.SWISS


FORMAT_AS_NOUN = {
    FlightFormat.SINGLE_ELIMINATION: "a single elimination",
    FlightFormat.DOUBLE_ELIMINATION: "a double elimination",
    FlightFormat.SWISS: "a Swiss",
    FlightFormat.ROUND_ROBIN: "a round robin",
    FlightFormat.SWISS_KNOCKOUT: "a Swiss then knockout",
}


def entry_add(*, flight: Flight, player: Player, seed: int | None = None, by) -> Entry:
    """Enter a player. After the start only a Swiss takes late entries (he starts on 0 points)."""
    require_td(by, flight.tournament)
    if not flight.takes_entries:
        raise ValidationError({"flight": [f"{flight.name} takes the losers of other flights, not entries."]})
    if seed is not None and seed < 1:
        raise ValidationError({"seed": ["Seeds start at 1 (the best player)."]})
    with transaction.atomic():
        _results_changed(flight.tournament_id)
        flight = Flight.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=flight.pk)
        late = flight.status != FlightStatus.DRAFT
        if late and not _late_entries_allowed(flight):
            raise ValidationError({"flight": [f"{flight.name} has started: only a Swiss takes late entries, and "
                                              f"{flight.name} is {FORMAT_AS_NOUN[flight.format]}."]})
        if flight.status == FlightStatus.FINISHED:
            raise ValidationError({"flight": [f"{flight.name} is finished."]})
        if late and flight.swiss_rounds and Round.objects.filter(flight=flight).count() >= flight.swiss_rounds:
            raise ValidationError({"flight": [f"{flight.name} has drawn all its {flight.swiss_rounds} rounds: a late "
                                              "entry would have no match left to play."]})
        if Entry.objects.filter(flight=flight, player=player).exists():
            raise ValidationError({"player": [f"{player.name} is already entered in {flight.name}."]})
        if late and seed is not None:
            raise ValidationError({"seed": [f"{flight.name} has started: a late entry is seeded after everyone "
                                            "drawn so far; leave the seed out."]})
        if seed is not None and Entry.objects.filter(flight=flight, seed=seed).exists():
            raise ValidationError({"seed": [f"Seed {seed} is already given in {flight.name}."]})
        if late:
            seed = (Entry.objects.filter(flight=flight).aggregate(m=Max("seed"))["m"] or 0) + 1
        entry = Entry(tournament=flight.tournament, flight=flight, player=player, seed=seed,
                      status=EntryStatus.CHECKED_IN if late else EntryStatus.REGISTERED, late=late)
        entry._history_user = by
        try:
            with transaction.atomic():
                entry.save()
        except IntegrityError:
            raise ConflictError(f"{player.name} was just entered by someone else.") from None
    return entry


def _may_act_for_entry(user, entry: Entry) -> bool:
    if is_td(user, entry.tournament):
        return True
    account = PlayerAccount.objects.filter(user=user).values_list("player_id", flat=True).first()
    return account is not None and account == entry.player_id


def entry_check_in(*, entry: Entry, by) -> Entry:
    """The player is here: he will be in the draw (also after a withdrawal, until the draw)."""
    if not _may_act_for_entry(by, entry):
        raise PermissionDenied("Only the player himself or a TD checks a player in.")
    with transaction.atomic():
        _results_changed(entry.tournament_id)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN and entry.flight.status != FlightStatus.DRAFT:
            raise ValidationError({"status": [f"{entry.player.name} withdrew from {entry.flight.name}, which has "
                                              "started: a withdrawal is final once the draw is made."]})
        # Before the draw a withdrawn player who is back after all is simply checked in.
        if entry.flight.status != FlightStatus.DRAFT and entry.status != EntryStatus.CHECKED_IN:
            raise ValidationError({"status": [f"{entry.flight.name} has started: check-in is closed."]})
        if entry.status == EntryStatus.CHECKED_IN:
            return entry
        entry.status = EntryStatus.CHECKED_IN
        entry._history_user = by
        entry.save()
    return entry


def entry_withdraw(*, entry: Entry, by, reason: str = "") -> Entry:
    """The player leaves (or did not show up): each match he still had to play is a walkover."""
    if not _may_act_for_entry(by, entry):
        raise PermissionDenied("Only the player himself or a TD withdraws a player.")
    with transaction.atomic():
        tournament = _lock_tournament(entry.tournament)
        _results_changed(tournament.pk)
        entry = Entry.objects.select_for_update(of=("self",)).select_related("flight", "player").get(pk=entry.pk)
        if entry.status == EntryStatus.WITHDRAWN:
            raise ConflictError(f"{entry.player.name} has already withdrawn.")
        entry.status = EntryStatus.WITHDRAWN
        entry._history_user = by
        entry._change_reason = reason or "withdrawn"
        entry.save()
        if entry.flight.status == FlightStatus.DRAFT:
            return entry
        flights = _unit_of(entry.flight)
        open_pairings = Pairing.objects.select_for_update().filter(
            Q(player_a=entry.player) | Q(player_b=entry.player),
            flight__in=flights, status__in=[PairingStatus.PENDING, PairingStatus.PLAYING],
        )
        for pairing in open_pairings:
            _walkover(pairing, loser_id=entry.player_id, by=by)
        _advance(tournament, entry.flight, by=by)
    return entry


# -- starting --------------------------------------------------------------------------------------


def _lock_tournament(tournament: Tournament) -> Tournament:
    """Serialise the writes that change an event's draw: one at a time per tournament."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _results_changed(tournament_id: int) -> None:
    """Raise the event's results version inside the writer's transaction.

    The event page keeps its flights drawn under this version: the new one is seen together with
    the rows that changed, never before. Services that lock no tournament call it first, so the
    tournament row is locked before the rows below it, in the same order as everywhere else.
    """
    changed = Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    if changed != 1:
        raise ConflictError("The tournament is gone: reload the page.")


def _ratings(player_ids: list[int]) -> dict[int, float]:
    try:
        from ratings.selectors import rating_map
    except ImportError:
        raise ValidationError({"seeding": ["Ratings are not available on this server: seed by hand (manual)"
                                           " or draw at random."]}) from None
    return rating_map(player_ids, system="fibs")


def flight_start(
    *,
    flight: Flight,
    by,
    first_round=None,
    random_seed: int | None = None,
    expected_version: int | None = None,
) -> Flight:
    """Seed the checked-in players and draw the first round (or check the TD's own draw).

    `first_round` is a hand-made draw: for a knockout `[[a, b or None], ...]` in bracket order,
    for a Swiss `[[a, b or None], ...]` tables of round 1 (player ids). A random draw keeps the
    number it was drawn with, so anyone can draw it again.
    """
    require_td(by, flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(flight.tournament)
        _results_changed(tournament.pk)
        flight = Flight.objects.select_for_update().get(pk=flight.pk)
        if expected_version is not None and flight.version != expected_version:
            raise ConflictError(f"{flight.name} was changed by someone else: reload it.")
        if flight.status != FlightStatus.DRAFT:
            raise ConflictError(f"{flight.name} has already been started.")
        if not flight.takes_entries:
            raise ValidationError({"non_field_errors": [
                f"{flight.name} starts by itself when the losers of its feeder flights arrive."]})
        entries = list(Entry.objects.select_for_update().filter(flight=flight).order_by("id"))
        present = [e for e in entries if e.status == EntryStatus.CHECKED_IN]
        if len(present) < 2:
            raise ValidationError({"non_field_errors": [
                f"{flight.name} needs at least two checked-in players to start ({len(present)} checked in)."]})
        method = fm.SeedingMethod(flight.seeding)
        ratings = _ratings([e.player_id for e in present]) if method is fm.SeedingMethod.RATING else {}
        if method is fm.SeedingMethod.RANDOM:
            random_seed = random_seed if random_seed is not None else flight.random_seed
            if random_seed is None:
                random_seed = secrets.randbelow(2**31)
        ordered = sorted(present, key=lambda e: (e.seed is None, e.seed or 0, e.pk))
        given = [fm.Competitor(e.player_id, n, ratings.get(e.player_id)) for n, e in enumerate(ordered, start=1)]
        try:
            seeded = fm.seed_competitors(given, method, random_seed=random_seed)
        except fm.BracketUserError as error:
            raise _bracket_error(error, "seeding") from None
        seeds = {c.id: c.seed for c in seeded}
        Entry.objects.filter(flight=flight).update(seed=None)
        for entry in entries:
            entry.seed = seeds.get(entry.player_id)
            entry._history_user = by
            entry.save(update_fields=["seed"])
        flight.random_seed = random_seed
        flight.status = FlightStatus.RUNNING
        try:
            _draw_first_round(flight, seeded, first_round)
        except fm.BracketUserError as error:
            raise _bracket_error(error, "first_round") from None
        flight.version += 1
        flight._history_user = by
        flight.save()
        if tournament.status != TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["status"])
        swiss_like = flight.format in (FlightFormat.SWISS, FlightFormat.SWISS_KNOCKOUT)
        if swiss_like and (first_round or not flight.auto_pair):
            entries_, stored, withdrawn = _load([flight])
            view = _views([flight], entries_, stored, withdrawn)[flight.pk]
            _store_swiss_round(flight, draws.swiss_engine(view), first_round, {}, by=by)
        _advance(tournament, flight, by=by)
        # The first round is played at once, whoever starts the later ones.
        Round.objects.filter(flight__in=_unit_of(flight), status=RoundStatus.PENDING).update(
            status=RoundStatus.RUNNING, started_at=timezone.now())
    return flight


def _draw_first_round(flight: Flight, seeded, first_round) -> None:
    hand = [tuple(pair) if pair[1] is not None else (pair[0], None) for pair in first_round] if first_round else None
    if flight.format in (FlightFormat.SINGLE_ELIMINATION, FlightFormat.DOUBLE_ELIMINATION):
        if hand is None:
            hand = fm.seeded_first_round(seeded)
        fm.SingleElimination(seeded, first_round=hand, name=flight.name)  # checks the hand-made draw
        flight.first_round = [list(pair) for pair in hand]
        return
    if flight.format == FlightFormat.ROUND_ROBIN:
        if hand:
            raise fm.BracketUserError("A round robin follows the Berger tables: it takes no hand-made draw.")
        return
    if hand is not None:
        length = flight.lengths[0]
        tables = [fm.Pairing(f"R1-{n}", 1, a, b, length) for n, (a, b) in enumerate(hand, start=1)]
        settings = fm.SwissSettings(rounds=flight.swiss_rounds, out_after_losses=flight.out_after_losses)
        fm.Swiss(seeded, settings, name=flight.name).check_round(tables)
        flight.first_round = [list(pair) for pair in hand]


# -- advancement -------------------------------------------------------------------------------


def _unit_of(flight: Flight) -> list[Flight]:
    flights = list(Flight.objects.filter(tournament_id=flight.tournament_id).order_by("position", "id"))
    me = next(f for f in flights if f.pk == flight.pk)
    return draws.unit_flights(me, flights)


READ_ONLY_PAIRING = ("flight_id", "round_id", "slot", "status", "winner_id", "player_a_id", "player_b_id",
                     "match_id", "score_a", "score_b", "round__number", "round__length")
"""The columns a draw is worked out from (and a page shows): enough for rows that are only read."""


def _load(flights: list[Flight], *, read_only: bool = False):
    """The entries and stored pairings a unit's draw is built from, and who has withdrawn.

    `read_only` reads only the columns the draw needs, for pages that never save these rows.
    """
    roots = [f for f in flights if f.takes_entries]
    entries: dict[int, list[Entry]] = defaultdict(list)
    withdrawn = set()
    rows = Entry.objects.filter(flight__in=roots)
    for entry in rows.only("flight_id", "player_id", "seed", "status") if read_only else rows:
        entries[entry.flight_id].append(entry)
        if entry.status == EntryStatus.WITHDRAWN:
            withdrawn.add(entry.player_id)
    pairings: dict[int, list[Pairing]] = defaultdict(list)
    rows = Pairing.objects.filter(flight__in=flights).select_related("round").order_by("id")
    for pairing in rows.only(*READ_ONLY_PAIRING) if read_only else rows:
        pairings[pairing.flight_id].append(pairing)
    return entries, pairings, frozenset(withdrawn)


def _views(flights, entries, pairings, withdrawn, results=None):
    try:
        return draws.build_unit(flights, entries, pairings, results, withdrawn)
    except fm.BracketUserError as error:
        raise _bracket_error(error) from None


def _round_for(flight: Flight, number: int, name: str, length, rounds: dict) -> Round:
    key = (flight.pk, number)
    if key not in rounds:
        status = RoundStatus.RUNNING if flight.auto_pair else RoundStatus.PENDING
        rnd, _ = Round.objects.get_or_create(
            flight=flight, number=number,
            defaults={"length": length, "status": status, "started_at": timezone.now() if flight.auto_pair else None},
        )
        rnd.display_name = name
        rounds[key] = rnd
    return rounds[key]


def _advance(tournament: Tournament, flight: Flight, *, by=None) -> None:
    """Store what the format now knows about `flight`'s unit: new pairings, byes, walkovers,
    the next Swiss round, finished rounds and flights, champions. The tournament row is locked."""
    flights = _unit_of(flight)
    rounds = {(r.flight_id, r.number): r for r in Round.objects.filter(flight__in=flights)}
    for _ in range(200):
        entries, pairings, withdrawn = _load(flights)
        views = _views(flights, entries, pairings, withdrawn)
        stored = {(p.flight_id, p.slot): p for ps in pairings.values() for p in ps}
        changed = False
        for f in flights:
            view = views[f.pk]
            if view.engine is None:
                continue
            for slot in view.drawn:
                row = stored.get((f.pk, slot.slot))
                if row is not None:
                    if (row.player_a_id, row.player_b_id) != (slot.a, slot.b):
                        raise ValidationError({"non_field_errors": [
                            f"{f.name} {slot.slot}: the stored pairing no longer follows from the results;"
                            " a TD must correct the result that changed it."]})
                    continue
                rnd = _round_for(f, slot.round_number, slot.round_name, slot.length, rounds)
                pairing = Pairing(flight=f, round=rnd, slot=slot.slot, player_a_id=slot.a, player_b_id=slot.b)
                if slot.b is None:
                    pairing.status = PairingStatus.BYE
                    pairing.winner_id = slot.a
                    pairing.decided_at = timezone.now()
                pairing._history_user = by
                pairing.save()
                changed = True
                if slot.b is not None and (slot.a in withdrawn or slot.b in withdrawn):
                    _walkover(pairing, loser_id=slot.a if slot.a in withdrawn else slot.b, by=by)
            swiss = draws.swiss_engine(view)
            if (swiss is not None and f.auto_pair and swiss.round_complete and not swiss.is_finished
                    and not changed):
                _store_swiss_round(f, swiss, None, rounds, by=by)
                changed = True
        if not changed:
            _finish(tournament, flights, views, pairings, rounds, by=by)
            return
    raise AssertionError("advancement did not settle")


def _store_swiss_round(flight: Flight, swiss: fm.Swiss, hand, rounds, *, by) -> list[Pairing]:
    try:
        if hand is None:
            tables = swiss.pair_next_round()
        else:
            number = swiss.rounds_paired + 1
            length = fm.base.round_length(flight.lengths, number)
            tables = swiss.check_round(
                [fm.Pairing(f"R{number}-{n}", number, a, b, length) for n, (a, b) in enumerate(hand, start=1)]
            )
    except fm.BracketUserError as error:
        raise _bracket_error(error, "pairings") from None
    created = []
    for table in tables:
        number, name = draws.slot_round(flight, table.slot, table.round_no)
        rnd = _round_for(flight, number, name, table.length, rounds)
        pairing = Pairing(flight=flight, round=rnd, slot=table.slot, player_a_id=table.a, player_b_id=table.b)
        if table.b is None:
            pairing.status = PairingStatus.BYE
            pairing.winner_id = table.a
            pairing.decided_at = timezone.now()
        pairing._history_user = by
        pairing.save()
        created.append(pairing)
    return created


def _finish(tournament, flights, views, pairings, rounds, *, by) -> None:
    for f in flights:
        view = views[f.pk]
        if view.engine is None:
            continue
        for (flight_id, number), rnd in rounds.items():
            if flight_id != f.pk:
                continue
            complete = view.round_complete(number) and all(
                p.decided for p in pairings.get(f.pk, ()) if p.round_id == rnd.pk
            )
            if complete and rnd.status != RoundStatus.FINISHED:
                rnd.status = RoundStatus.FINISHED
                rnd.started_at = rnd.started_at or timezone.now()
                rnd.save(update_fields=["status", "started_at"])
            elif not complete and rnd.status == RoundStatus.FINISHED:
                # A correction upstream drew one of its matches again: it is being played once more.
                rnd.status = RoundStatus.RUNNING
                rnd.save(update_fields=["status"])
        champion = view.champion
        status = FlightStatus.FINISHED if view.finished else FlightStatus.RUNNING
        if (f.status, f.champion_id) != (status, champion):
            f.status = status
            f.champion_id = champion
            f.version += 1
            f._history_user = by
            f.save()
    everything = Flight.objects.filter(tournament=tournament)
    done = everything.exists() and not everything.exclude(status=FlightStatus.FINISHED).exists()
    new_status = TournamentStatus.FINISHED if done else TournamentStatus.RUNNING
    if tournament.status != new_status:
        tournament.status = new_status
        tournament.save(update_fields=["status"])


def round_start(*, flight: Flight, by, pairings=None, expected_version: int | None = None) -> Round:
    """Start the next round: a Swiss is paired (or the TD's own tables are checked); a knockout
    round already drawn is opened for play."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(flight.tournament)
        _results_changed(tournament.pk)
        flight = Flight.objects.select_for_update().get(pk=flight.pk)
        if expected_version is not None and flight.version != expected_version:
            raise ConflictError(f"{flight.name} was changed by someone else: reload it.")
        if flight.status == FlightStatus.DRAFT:
            raise ValidationError({"non_field_errors": [f"{flight.name} has not started: start the flight first."]})
        flights = _unit_of(flight)
        rounds = {(r.flight_id, r.number): r for r in Round.objects.filter(flight__in=flights)}
        waiting = Round.objects.filter(flight=flight, status=RoundStatus.PENDING).order_by("number").first()
        if waiting is not None and waiting.pairings.exists():
            if pairings:
                raise ValidationError({"pairings": [f"Round {waiting.number} is drawn already."]})
            rnd = waiting
        else:
            entries, stored, withdrawn = _load(flights)
            view = _views(flights, entries, stored, withdrawn)[flight.pk]
            swiss = draws.swiss_engine(view)
            if swiss is None:
                raise ConflictError(f"{flight.name}: every round drawn so far has started already.")
            if not swiss.round_complete:
                raise ConflictError(f"{flight.name}: round {swiss.rounds_paired} is still being played.")
            if swiss.is_finished:
                raise ValidationError({"non_field_errors": [f"{flight.name} is finished: there is no round to start."]})
            created = _store_swiss_round(flight, swiss, pairings, rounds, by=by)
            rnd = created[0].round
        if rnd.status != RoundStatus.PENDING:
            raise ConflictError(f"Round {rnd.number} of {flight.name} has already started.")
        rnd.status = RoundStatus.RUNNING
        rnd.started_at = timezone.now()
        rnd._history_user = by
        rnd.save()
        flight.version += 1
        flight.save(update_fields=["version"])
        _advance(tournament, flight, by=by)
    return rnd


# -- results ---------------------------------------------------------------------------------------


KIND_BY_NAME = {"single": ResultKind.SINGLE, "gammon": ResultKind.GAMMON, "backgammon": ResultKind.BACKGAMMON}


def _games_input(pairing: Pairing, games_list) -> list[games.GameInput]:
    """The score sheet of a report (winner and cube owner as player ids) as the games services take it."""
    sides = {pairing.player_a_id: 0, pairing.player_b_id: 1}
    out = []
    for number, game in enumerate(games_list, start=1):
        if not isinstance(game, dict):
            raise ValidationError({"games": [f"Game {number}: give winner, and optionally end, kind, cube."]})
        if game.get("winner") not in sides:
            raise ValidationError({"games": [f"Game {number}: the winner must be one of the two players (their id)."]})
        owner = game.get("cube_owner")
        if owner is not None and owner not in sides:
            raise ValidationError({"games": [f"Game {number}: the cube owner must be one of the two players."]})
        kind = game.get("kind", "single")
        if kind not in KIND_BY_NAME:
            raise ValidationError({"games": [f"Game {number}: a game is won as a single, gammon or backgammon."]})
        end = game.get("end", GameEnd.PLAYED_OUT.value)
        if end not in [e.value for e in GameEnd]:
            raise ValidationError({"games": [f'Game {number}: a game ends "played_out", "resigned" or "double_refused".']})
        out.append(games.GameInput(
            winner=sides[game["winner"]], end=end, kind=KIND_BY_NAME[kind], cube=int(game.get("cube", 1)),
            cube_owner=None if owner is None else sides[owner], points=game.get("points"),
        ))
    return out


def _check_result(pairing: Pairing, score_a, score_b, games_list) -> tuple[int, int, list | None]:
    """The final score of a report, checked against the rules of a match of this round's length."""
    length = pairing.round.length or 1
    rules = MatchRules(length=length, cube_cap=pairing.flight.tournament.cube_cap)
    if games_list:
        sheet = MatchScore(rules)
        for number, game in enumerate(_games_input(pairing, games_list), start=1):
            try:
                sheet.record(game.outcome())
            except ScoringError as error:
                raise ValidationError({"games": [f"Game {number}: {error.message}"]}) from None
        if not sheet.finished:
            a, b = sheet.score
            raise ValidationError({"games": [f"These games end {a}-{b}: the {length}-point match is not over."]})
        final = sheet.score
        if (score_a, score_b) not in ((None, None), final):
            raise ValidationError({"score_a": [f"The games add up to {final[0]}-{final[1]}, not {score_a}-{score_b}."]})
        return final[0], final[1], list(games_list)
    if score_a is None or score_b is None:
        raise ValidationError({"score_a": ["Give the final score (score_a and score_b) or the games."]})
    try:
        check_final_score(length, (score_a, score_b))
    except ScoringError as error:
        raise ValidationError({error.field: [error.message]}) from None
    return score_a, score_b, None


def _lock_pairing(pairing: Pairing, expected_version: int | None) -> Pairing:
    locked = (Pairing.objects.select_for_update(of=("self",))
              .select_related("round", "flight__tournament", "player_a", "player_b").get(pk=pairing.pk))
    if expected_version is not None and locked.version != expected_version:
        raise ConflictError(f"{locked.flight.name} {locked.slot} was changed by someone else "
                            f"(version {locked.version}, you had {expected_version}): reload it.")
    return locked


def _check_playable(pairing: Pairing) -> None:
    if pairing.is_bye:
        raise ValidationError({"non_field_errors": [f"{pairing.slot} is a bye: there is no match to report."]})
    if pairing.round.status == RoundStatus.PENDING:
        raise ValidationError({"non_field_errors": [
            f"Round {pairing.round.number} of {pairing.flight.name} has not been started by the TD yet."]})


def _next_version(pairing: Pairing) -> int:
    return (pairing.reports.aggregate(m=Max("version"))["m"] or 0) + 1


def _supersede_open(pairing: Pairing) -> None:
    pairing.reports.filter(status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED]).update(
        status=ReportStatus.SUPERSEDED)


def result_report(
    *, pairing: Pairing, by, score_a: int | None = None, score_b: int | None = None, games=None,
    note: str = "", expected_version: int | None = None,
) -> ResultReport:
    """A player of the match (or a TD) reports its result: the games, or the final score only.

    A player's report waits for the opponent to confirm or dispute it; a TD's counts at once.
    A second report before confirmation is a new version; the earlier one is kept, superseded.
    """
    with transaction.atomic():
        _results_changed(_lock_tournament(pairing.flight.tournament).pk)
        pairing = _lock_pairing(pairing, expected_version)
        td = is_td(by, pairing.flight.tournament)
        side = side_of(by, pairing)
        if side is None and not td:
            raise PermissionDenied("Only the two players of this match or a TD may report its result.")
        _check_playable(pairing)
        if pairing.decided:
            raise ConflictError(f"{pairing.slot} already has a result: ask a TD to correct it.")
        score_a, score_b, sheet = _check_result(pairing, score_a, score_b, games)
        _supersede_open(pairing)
        report = ResultReport(
            pairing=pairing, version=_next_version(pairing), score_a=score_a, score_b=score_b,
            winner_id=pairing.player_a_id if score_a > score_b else pairing.player_b_id, games=sheet,
            by_td=side is None, submitted_by=by, note=note,
            submitted_for=None if side is None else (pairing.player_a if side == 0 else pairing.player_b),
        )
        report._history_user = by
        _save_report(report)
        pairing.version += 1
        pairing.save(update_fields=["version"])
        if side is None:
            _confirm(report, pairing, by=by)
    return report


def _save_report(report: ResultReport) -> None:
    try:
        with transaction.atomic():
            report.save()
    except IntegrityError:
        raise ConflictError("Someone else reported this match at the same moment: reload it.") from None


def _confirm(report: ResultReport, pairing: Pairing, *, by) -> None:
    report.status = ReportStatus.CONFIRMED
    report.confirmed_by = by
    report.confirmed_at = timezone.now()
    report._history_user = by
    report.save()
    _apply(pairing, report, by=by)


def result_confirm(*, report: ResultReport, by) -> ResultReport:
    """The opponent (or a TD) agrees with a reported result: it counts, and the players move on."""
    with transaction.atomic():
        _results_changed(_lock_tournament(report.pairing.flight.tournament).pk)
        pairing = _lock_pairing(report.pairing, None)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        td = is_td(by, pairing.flight.tournament)
        side = side_of(by, pairing)
        reporter = None if report.submitted_for_id is None else (0 if report.submitted_for_id == pairing.player_a_id else 1)
        if not td and (side is None or side == reporter):
            raise PermissionDenied("The opponent of the player who reported it (or a TD) confirms a result.")
        if report.status != ReportStatus.PENDING and not (td and report.status == ReportStatus.DISPUTED):
            raise ConflictError(f"This report is {report.get_status_display().lower()}: it cannot be confirmed.")
        _confirm(report, pairing, by=by)
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def result_dispute(*, report: ResultReport, by, reason: str = "") -> ResultReport:
    """The opponent says the reported result is wrong: it goes to the TD's queue."""
    with transaction.atomic():
        _results_changed(report.pairing.flight.tournament_id)
        pairing = _lock_pairing(report.pairing, None)
        report = ResultReport.objects.select_for_update().get(pk=report.pk)
        side = side_of(by, pairing)
        reporter = None if report.submitted_for_id is None else (0 if report.submitted_for_id == pairing.player_a_id else 1)
        if side is None or side == reporter:
            raise PermissionDenied("Only the opponent of the player who reported it can dispute a result.")
        if report.status != ReportStatus.PENDING:
            raise ConflictError(f"This report is {report.get_status_display().lower()}: it cannot be disputed.")
        if not reason.strip():
            raise ValidationError({"reason": ["Say what is wrong with the result, for the TD."]})
        report.status = ReportStatus.DISPUTED
        report.disputed_by = by
        report.dispute_reason = reason.strip()
        report._history_user = by
        report.save()
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def result_override(
    *, pairing: Pairing, by, score_a: int | None = None, score_b: int | None = None, games=None,
    note: str = "", apply_downstream: bool = False, expected_version: int | None = None,
) -> ResultReport:
    """A TD rules on a result: settles a dispute or corrects a confirmed result.

    When the new winner changes later matches that have started, nothing is done unless
    `apply_downstream` is set (see `selectors.correction_preview` for what it changes).
    """
    require_td(by, pairing.flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(pairing.flight.tournament)
        _results_changed(tournament.pk)
        pairing = _lock_pairing(pairing, expected_version)
        _check_playable(pairing)
        if pairing.status == PairingStatus.WALKOVER:
            raise ValidationError({"non_field_errors": ["A walkover stands: the player withdrew."]})
        score_a, score_b, sheet = _check_result(pairing, score_a, score_b, games)
        winner_id = pairing.player_a_id if score_a > score_b else pairing.player_b_id
        if pairing.decided and winner_id != pairing.winner_id:
            affected = correction_affected(pairing=pairing, winner_id=winner_id)
            started = [a for a in affected if a["started"]]
            if started and not apply_downstream:
                listed = ", ".join(f"{a['flight']} {a['slot']}" for a in started)
                raise ValidationError({"apply_downstream": [
                    f"This correction changes matches already started ({listed}): look at the preview and"
                    " confirm with apply_downstream."]})
            _drop_downstream(affected, by=by)
        if pairing.decided:
            pairing.reports.filter(status=ReportStatus.CONFIRMED).update(status=ReportStatus.SUPERSEDED)
        _supersede_open(pairing)
        report = ResultReport(
            pairing=pairing, version=_next_version(pairing), score_a=score_a, score_b=score_b, winner_id=winner_id,
            games=sheet, by_td=True, override=True, submitted_by=by, note=note,
        )
        report._history_user = by
        _save_report(report)
        _confirm(report, pairing, by=by)
        pairing.version += 1
        pairing.save(update_fields=["version"])
    return report


def correction_affected(*, pairing: Pairing, winner_id: int) -> list[dict]:
    """The stored pairings a new winner of `pairing` would undo (read only).

    The unit is worked out again from the new result plus every stored result that still
    belongs to a match with the same two players; whatever is stored and no longer follows is
    listed, with whether it has started (a report, a match or a result).
    """
    flights = _unit_of(pairing.flight)
    entries, pairings, withdrawn = _load(flights)
    rows = {(p.flight_id, p.slot): p for ps in pairings.values() for p in ps}
    decided = {k: fm.Result(p.slot, p.winner_id, p.status == PairingStatus.WALKOVER)
               for k, p in rows.items() if p.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER)}
    target = (pairing.flight_id, pairing.slot)
    corrected = fm.Result(pairing.slot, winner_id, False)
    # The results that still stand are gathered from the first round on; the corrected one joins
    # once its match has its players again (a later round's match has none before that).
    kept: dict = {}
    by_flight = {f.pk: f for f in flights}
    swiss_like = by_flight[pairing.flight_id].format in (FlightFormat.SWISS, FlightFormat.ROUND_ROBIN)
    if swiss_like:
        return []
    while True:
        results = defaultdict(dict)
        for (fid, slot), result in kept.items():
            results[fid][slot] = result
        views = _views(flights, entries, pairings, withdrawn, results)
        ready = {(fid, s.slot): s for fid, v in views.items() for s in v.drawn}
        added = False
        if target not in kept and target in ready:
            kept[target] = corrected
            added = True
        for key, result in decided.items():
            if key in kept or key == target:
                continue
            slot, row = ready.get(key), rows[key]
            if slot is not None and (slot.a, slot.b) == (row.player_a_id, row.player_b_id):
                kept[key] = result
                added = True
        if not added:
            break
    affected = []
    for key, row in rows.items():
        if key == target:
            continue
        slot = ready.get(key)
        same = slot is not None and (slot.a, slot.b) == (row.player_a_id, row.player_b_id)
        if same and (key in kept or not (row.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER))):
            continue
        started = (row.status in (PairingStatus.PLAYING, PairingStatus.FINISHED, PairingStatus.WALKOVER)
                   or row.match_id is not None or row.reports.exists())
        affected.append({
            "pairing": row.pk, "flight": by_flight[row.flight_id].name, "slot": row.slot,
            "players": [row.player_a_id, row.player_b_id], "status": row.status, "started": started,
            "becomes": None if slot is None else [slot.a, slot.b],
        })
    return affected


def _drop_downstream(affected: list[dict], *, by) -> None:
    """Remove the pairings a correction undoes. Their rows and reports stay in the history."""
    for item in affected:
        pairing = Pairing.objects.get(pk=item["pairing"])
        pairing._history_user = by
        pairing._change_reason = "undone by a correction upstream"
        for report in pairing.reports.all():
            report._history_user = by
            report.delete()
        pairing.delete()


def _apply(pairing: Pairing, report: ResultReport, *, by) -> None:
    """Make a confirmed report the pairing's result and move the players on."""
    token = _applying.set(True)
    try:
        if report.games:
            sheet = _games_input(pairing, report.games)
            match = pairing.match
            if match is not None and match.games.exists():
                if pairing.decided or match.finished:
                    for _ in range(match.games.count()):
                        match = games.game_delete_last(match=match, by=by, reason="result corrected by a TD")
                else:
                    raise ValidationError({"games": [
                        f"Games are being entered on match {match.pk}: finish the match there."]})
            if match is None:
                match = _match_for(pairing, by=by)
            for number, game in enumerate(sheet, start=1):
                match = games.game_record(match=match, number=number, game=game, by=by)
            pairing.match = match
        else:
            match = pairing.match
            if match is not None and match.games.exists():
                raise ValidationError({"games": [
                    f"Match {pairing.match_id} was recorded game by game: correct it with its games."]})
            if match is None:
                match = _match_for(pairing, by=by)
            pairing.match = games.match_final_score_record(
                match=match, score_a=report.score_a, score_b=report.score_b, by=by, reason="result report",
            )
    finally:
        _applying.reset(token)
    pairing.score_a, pairing.score_b = report.score_a, report.score_b
    pairing.winner_id = report.winner_id
    pairing.status = PairingStatus.FINISHED
    pairing.decided_at = timezone.now()
    pairing._history_user = by
    pairing.save()
    _advance(pairing.flight.tournament, pairing.flight, by=by)


def _match_for(pairing: Pairing, *, by, rated: bool = True) -> Match:
    return games.match_create(
        player_a=pairing.player_a, player_b=pairing.player_b, length=pairing.round.length or 1,
        cube_cap=pairing.flight.tournament.cube_cap, rated=rated, source="tournament", by=by,
    )


def _walkover(pairing: Pairing, *, loser_id: int, by) -> None:
    """The opponent of a withdrawn player goes through; the match is forfeited and not rated."""
    token = _applying.set(True)
    try:
        match = pairing.match or _match_for(pairing, by=by, rated=False)
        loser = Player.objects.get(pk=loser_id)
        if match.status == MatchStatus.IN_PROGRESS:
            match = games.match_forfeit(match=match, forfeited_by=loser, by=by, reason="withdrawal")
    finally:
        _applying.reset(token)
    pairing.match = match
    pairing.status = PairingStatus.WALKOVER
    pairing.winner_id = pairing.player_b_id if loser_id == pairing.player_a_id else pairing.player_a_id
    pairing.decided_at = timezone.now()
    pairing.version += 1
    pairing._history_user = by
    pairing._change_reason = "walkover"
    pairing.save()
    _supersede_open(pairing)


def pairing_start(*, pairing: Pairing, by, expected_version: int | None = None) -> Pairing:
    """The players sit down: the match is created so its games can be entered as they are played."""
    with transaction.atomic():
        _results_changed(pairing.flight.tournament_id)
        pairing = _lock_pairing(pairing, expected_version)
        if side_of(by, pairing) is None and not is_td(by, pairing.flight.tournament):
            raise PermissionDenied("Only the two players of this match or a TD may start it.")
        _check_playable(pairing)
        if pairing.status != PairingStatus.PENDING:
            raise ConflictError(f"{pairing.slot} is {pairing.get_status_display().lower()} already.")
        pairing.match = _match_for(pairing, by=by)
        pairing.status = PairingStatus.PLAYING
        pairing.version += 1
        pairing._history_user = by
        pairing.save()
    return pairing


def pairing_match_changed(*, match: Match) -> None:
    """A pairing's match changed through the games services: take its result when it ends.

    A finished pairing whose winner would change is refused here: a TD corrects it with
    `result_override`, which shows what it undoes downstream.
    """
    if _applying.get():
        return
    pairing = Pairing.objects.filter(match=match).select_related("flight__tournament", "round").first()
    if pairing is None:
        return
    if pairing.decided:
        if match.winner_id != pairing.winner_id:
            raise ValidationError({"non_field_errors": [
                f"This match decides {pairing.flight.name} {pairing.slot}: a TD corrects its result through the"
                " tournament (result override), which shows what it changes downstream."]})
        if (match.score_a, match.score_b) != (pairing.score_a, pairing.score_b):
            _results_changed(pairing.flight.tournament_id)
            pairing.score_a, pairing.score_b = match.score_a, match.score_b
            pairing.save(update_fields=["score_a", "score_b"])
        return
    if not match.finished:
        return
    tournament = _lock_tournament(pairing.flight.tournament)
    _results_changed(tournament.pk)
    pairing.score_a, pairing.score_b = match.score_a, match.score_b
    pairing.winner_id = match.winner_id
    pairing.status = PairingStatus.WALKOVER if match.status == MatchStatus.FORFEITED else PairingStatus.FINISHED
    pairing.decided_at = timezone.now()
    pairing.version += 1
    pairing.save()
    _advance(tournament, pairing.flight)


def flight_advance(*, flight: Flight, by) -> Flight:
    """Work the flight out again from its results and store what follows (for the admin)."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(flight.tournament)
        _results_changed(tournament.pk)
        if flight.status == FlightStatus.DRAFT:
            raise ValidationError({"non_field_errors": [f"{flight.name} has not started."]})
        _advance(tournament, flight, by=by)
    return Flight.objects.get(pk=flight.pk)


def schedule_round(*, round: Round, starts_at: datetime, by) -> Round:
    """Announce when a round starts (for the published schedule)."""
    require_td(by, round.flight.tournament)
    with transaction.atomic():
        _results_changed(round.flight.tournament_id)
        round.starts_at = starts_at
        round._history_user = by
        round.save(update_fields=["starts_at"])
    return round
