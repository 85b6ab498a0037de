"""Draws and rounds: a flight started, each round drawn and started, a unit advanced after a result."""

from __future__ import annotations


from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.errors import ConflictError

from .. import draws
from .. import formats as fm
from ..models import (
    Entry,
    EntryStatus,
    Flight,
    FlightFormat,
    FlightStatus,
    Pairing,
    PairingStatus,
    Round,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from ..permissions import is_td, require_td, side_of
from ._base import (
    _bracket_error,
    _check_playable,
    _lock_flight,
    _lock_pairing,
    _lock_tournament,
    _match_for,
    _results_changed,
    _walkover,
)
from .notifications import pairings_announce


def flight_start(
    *,
    flight: Flight,
    by,
    first_round=None,
    random_seed: int | None = None,
    seeds: list[int] | None = None,
    apart=(),
    fixed=(),
    expected_version: int | None = None,
) -> Flight:
    """Seed the checked-in players and draw the first round (or check the TD's own draw).

    The draw is the one `selectors.draw_preview` shows for the same inputs: `seeds` is the TD's own
    seed order (player ids, seed 1 first) in place of the seeding method's, `apart` and `fixed` are
    pairs of player ids kept apart or fixed to meet in round 1 (`formats.draw_rules`).
    `first_round` is a hand-made draw instead: for a knockout `[[a, b or None], ...]` in bracket
    order, for a Swiss `[[a, b or None], ...]` tables of round 1 (player ids). A random draw keeps
    the number it was drawn with, and the flight keeps the rules it was drawn with, so anyone can
    draw it again.
    """
    require_td(by, flight.tournament)
    if first_round and (seeds is not None or apart or fixed):
        raise ValidationError({"first_round": [
            _("Give either a hand-made draw or seeds and pairs kept apart or fixed, not both.")]})
    with transaction.atomic():
        tournament, flight = _lock_flight(flight, None)
        draws.check_startable(flight)
        if expected_version is not None and flight.version != expected_version:
            raise ConflictError(_("The settings of %(flight)s were changed by someone else since this draw "
                      "was shown: look at the draw again before you confirm it.")
                    % {"flight": flight.name})
        entries = list(Entry.objects.select_for_update().filter(flight=flight).select_related("player").order_by("id"))
        random_seed = draws.random_seed_for(flight, random_seed)
        present = [e.player_id for e in entries if e.status == EntryStatus.CHECKED_IN]
        ratings = draws.seeding_ratings(flight, present)
        names = {e.player_id: e.player.name for e in entries}
        rules = fm.DrawRules.of(apart=apart or (), fixed=fixed or ())
        plan = draws.plan_draw(flight, entries, ratings, seeds=seeds, random_seed=random_seed, rules=rules,
                               label=lambda pid: names.get(pid) or draws.player_label(pid))
        chosen = first_round or plan.first_round
        seeds_of = {c.id: c.seed for c in plan.seeded}
        Entry.objects.filter(flight=flight).update(seed=None)
        for entry in entries:
            entry.seed = seeds_of.get(entry.player_id)
            entry._history_user = by
            entry.save(update_fields=["seed"])
        flight.random_seed = random_seed
        flight.draw_rules = {**rules.as_lists(), "moved": plan.moved} if (rules or plan.moved) else {}
        flight.status = FlightStatus.RUNNING
        try:
            _draw_first_round(flight, plan.seeded, chosen)
        except fm.BracketUserError as error:
            raise _bracket_error(error, "first_round") from None
        flight.version += 1
        flight._history_user = by
        flight.save()
        if tournament.status != TournamentStatus.RUNNING:
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["status"])
        swiss_like = flight.format in (FlightFormat.SWISS, FlightFormat.SWISS_KNOCKOUT)
        if swiss_like and (chosen or not flight.auto_pair):
            entries_, stored, withdrawn = draws.load([flight])
            view = draws.unit_views([flight], entries_, stored, withdrawn)[flight.pk]
            _store_swiss_round(flight, draws.swiss_engine(view), chosen, {}, by=by)
        _advance(tournament, flight, by=by)
        # The first round is played at once, whoever starts the later ones.
        Round.objects.filter(flight__in=draws.unit_of(flight), status=RoundStatus.PENDING).update(
            status=RoundStatus.RUNNING, started_at=timezone.now())
    return flight


def _draw_first_round(flight: Flight, seeded, first_round) -> None:
    hand = [tuple(pair) if pair[1] is not None else (pair[0], None) for pair in first_round] if first_round else None
    if flight.format in (FlightFormat.SINGLE_ELIMINATION, FlightFormat.DOUBLE_ELIMINATION):
        if hand is None:
            hand = fm.seeded_first_round(seeded)
        fm.SingleElimination(seeded, first_round=hand, name=flight.name,  # checks the hand-made draw
                             label=draws.player_label)
        flight.first_round = [list(pair) for pair in hand]
        return
    if flight.format == FlightFormat.ROUND_ROBIN:
        if hand:
            raise fm.BracketUserError(
                gettext_noop("A round robin follows the Berger tables: it takes no hand-made draw."))
        return
    if hand is not None:
        length = flight.lengths[0]
        tables = [fm.Pairing(f"R1-{n}", 1, a, b, length) for n, (a, b) in enumerate(hand, start=1)]
        settings = fm.SwissSettings(rounds=flight.swiss_rounds, out_after_losses=flight.out_after_losses)
        fm.Swiss(seeded, settings, name=flight.name, label=draws.player_label).check_round(tables)
        flight.first_round = [list(pair) for pair in hand]


def _round_for(flight: Flight, number: int, name: str, length, rounds: dict) -> Round:
    key = (flight.pk, number)
    if key not in rounds:
        status = RoundStatus.RUNNING if flight.auto_pair else RoundStatus.PENDING
        rnd, _created = Round.objects.get_or_create(
            flight=flight, number=number,
            defaults={"length": length, "status": status, "started_at": timezone.now() if flight.auto_pair else None},
        )
        rnd.display_name = name
        rounds[key] = rnd
    return rounds[key]


def _advance(tournament: Tournament, flight: Flight, *, by=None) -> None:
    """Store what the format now knows about `flight`'s unit: new pairings, byes, walkovers,
    the next Swiss round, finished rounds and flights, champions. The tournament row is locked."""
    flights = draws.unit_of(flight)
    rounds = {(r.flight_id, r.number): r for r in Round.objects.filter(flight__in=flights)}
    new_matches = []
    for _attempt in range(200):
        entries, pairings, withdrawn = draws.load(flights)
        views = draws.unit_views(flights, entries, pairings, withdrawn)
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
                            _("%(flight)s %(match)s: the stored pairing no longer follows from the results; a TD "
                                      "must correct the result that changed it.")
                                    % {"flight": f.name, "match": slot.slot}]})
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
                elif slot.b is not None:
                    new_matches.append(pairing.pk)
            swiss = draws.swiss_engine(view)
            if (swiss is not None and f.auto_pair and swiss.round_complete and not swiss.is_finished
                    and not changed):
                _store_swiss_round(f, swiss, None, rounds, by=by)
                changed = True
        if not changed:
            _finish(tournament, flights, views, pairings, rounds, by=by)
            pairings_announce(pairing_ids=new_matches)
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
    pairings_announce(pairing_ids=[p.pk for p in created if p.player_b_id is not None])
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
    # The event is over when its last flight is: while one of this unit's is still on, nothing to read.
    done = all(f.status == FlightStatus.FINISHED for f in flights) and not Flight.objects.filter(
        tournament=tournament).exclude(status=FlightStatus.FINISHED).exists()
    new_status = TournamentStatus.FINISHED if done else TournamentStatus.RUNNING
    if tournament.status != new_status:
        tournament.status = new_status
        tournament.save(update_fields=["status"])


def round_start(*, flight: Flight, by, pairings=None, expected_version: int | None = None) -> Round:
    """Start the next round: a Swiss is paired (or the TD's own tables are checked); a knockout
    round already drawn is opened for play."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        tournament, flight = _lock_flight(flight, expected_version)
        if flight.status == FlightStatus.DRAFT:
            raise ValidationError({"non_field_errors": [_("%(flight)s has not started: start the flight first.")
                    % {"flight": flight.name}]})
        flights = draws.unit_of(flight)
        rounds = {(r.flight_id, r.number): r for r in Round.objects.filter(flight__in=flights)}
        waiting = Round.objects.filter(flight=flight, status=RoundStatus.PENDING).order_by("number").first()
        if waiting is not None and waiting.pairings.exists():
            if pairings:
                raise ValidationError({"pairings": [_("Round %(number)s is drawn already.")
                        % {"number": waiting.number}]})
            rnd = waiting
        else:
            entries, stored, withdrawn = draws.load(flights)
            view = draws.unit_views(flights, entries, stored, withdrawn)[flight.pk]
            swiss = draws.swiss_engine(view)
            if swiss is None:
                raise ConflictError(_("%(flight)s: every round drawn so far has started already.")
                        % {"flight": flight.name})
            if not swiss.round_complete:
                raise ConflictError(_("%(flight)s: round %(rounds_paired)s is still being played.")
                        % {"flight": flight.name, "rounds_paired": swiss.rounds_paired})
            if swiss.is_finished:
                raise ValidationError({"non_field_errors": [_("%(flight)s is finished: there is no round to start.")
                        % {"flight": flight.name}]})
            created = _store_swiss_round(flight, swiss, pairings, rounds, by=by)
            rnd = created[0].round
        if rnd.status != RoundStatus.PENDING:
            raise ConflictError(_("Round %(number)s of %(flight)s has already started.")
                    % {"number": rnd.number, "flight": flight.name})
        rnd.status = RoundStatus.RUNNING
        rnd.started_at = timezone.now()
        rnd._history_user = by
        rnd.save()
        flight.version += 1
        flight.save(update_fields=["version"])
        _advance(tournament, flight, by=by)
    return rnd


def flight_advance(*, flight: Flight, by) -> Flight:
    """Work the flight out again from its results and store what follows (for the admin)."""
    require_td(by, flight.tournament)
    with transaction.atomic():
        tournament = _lock_tournament(flight.tournament)
        _results_changed(tournament.pk)
        if flight.status == FlightStatus.DRAFT:
            raise ValidationError({"non_field_errors": [_("%(flight)s has not started.") % {"flight": flight.name}]})
        _advance(tournament, flight, by=by)
    return Flight.objects.get(pk=flight.pk)


def pairing_start(*, pairing: Pairing, by, expected_version: int | None = None) -> Pairing:
    """The players sit down: the match is created so its games can be entered as they are played."""
    with transaction.atomic():
        _results_changed(pairing.flight.tournament_id)
        pairing = _lock_pairing(pairing, expected_version)
        if side_of(by, pairing) is None and not is_td(by, pairing.flight.tournament):
            raise PermissionDenied(_("Only the two players of this match or a TD may start it."))
        _check_playable(pairing)
        if pairing.status != PairingStatus.PENDING:
            raise ConflictError(_("%(match)s is %(status)s already.")
                    % {"match": pairing.slot, "status": pairing.get_status_display().lower()})
        pairing.match = _match_for(pairing, by=by)
        pairing.status = PairingStatus.PLAYING
        pairing.version += 1
        pairing._history_user = by
        pairing.save()
    return pairing
