"""A running event driven at random through its services: player reports, confirmations and
disputes, games entered on the score sheet, TD overrides and corrections, withdrawals and late
entries, in any order. After every step the results tell one story.

CI runs at least 750 steps over 12 events (`ci` hypothesis profile, derandomized: the same events
on every run); a laptop runs 6 smaller events at random. README, Tests, gives every budget.
"""

import datetime
import itertools
import os

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from config.errors import ConflictError
from config.shared_data import SHARED_DATA
from games import services as games
from games.engine.errors import ScoringError
from games.models import Match, MatchStatus, Player
from tournaments import services
from tournaments.models import (
    DECIDED,
    Entry,
    EntryStatus,
    Pairing,
    PairingStatus,
    PlayerAccount,
    ReportStatus,
    ResultReport,
)

pytestmark = pytest.mark.django_db

REFUSED = (ValidationError, ConflictError, PermissionDenied, ScoringError)
"""What a service may answer to a write that does not fit the event now: 400, 409 or 403."""

EXAMPLES, STEPS = (12, 100) if os.environ.get("CI") else (6, 40)
_serial = itertools.count(1)
steps_run = [0]


class RunningEvent(RuleBasedStateMachine):
    """One event per example: a knockout with a consolation, or a Swiss that takes late entries."""

    @initialize(swiss=st.booleans())
    def start(self, swiss):
        n = next(_serial)
        self.staff = get_user_model().objects.create_user(f"machine-td-{n}", is_staff=True, is_superuser=True)
        self.event = services.tournament_create(name=f"Machine {n}", start_date=datetime.date(2026, 10, 1),
                                                by=self.staff)
        self.swiss = swiss
        if swiss:
            self.main = services.flight_create(tournament=self.event, name="Swiss", format="swiss", lengths=[3],
                                               swiss_rounds=3, by=self.staff)
            players = 5
        else:
            self.main = services.flight_create(tournament=self.event, name="Main", format="single_elimination",
                                               lengths=[3, 3, 3], by=self.staff)
            services.flight_create(tournament=self.event, name="Consolation", kind="consolation",
                                   format="single_elimination", lengths=[1, 1],
                                   feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}], by=self.staff)
            players = 8
        self.users = {}
        for seed in range(1, players + 1):
            self._enter(seed)
        services.flight_start(flight=self.main, by=self.staff)

    def _enter(self, seed=None):
        player = games.player_create(name=f"Machine {self.event.pk}-{len(self.users) + 1}")
        user = get_user_model().objects.create_user(f"machine-{self.event.pk}-{player.pk}")
        PlayerAccount.objects.create(player=player, user=user)
        self.users[player.pk] = user
        entry = services.entry_add(flight=self.main, player=player, seed=seed, by=self.staff)
        if seed is not None:
            services.entry_check_in(entry=entry, by=self.staff)

    def _pick(self, rows, index):
        rows = list(rows)
        return rows[index % len(rows)] if rows else None

    def _pairings(self):
        return (Pairing.objects.filter(flight__tournament=self.event, player_b__isnull=False)
                .select_related("flight__tournament", "round", "match").order_by("id"))

    def _attempt(self, write):
        try:
            write()
        except REFUSED:
            pass

    # -- players ---------------------------------------------------------------------------

    @rule(index=st.integers(0, 63), a_wins=st.booleans(), reporter_a=st.booleans())
    def player_reports(self, index, a_wins, reporter_a):
        pairing = self._pick(self._pairings().exclude(status__in=DECIDED), index)
        if pairing is None:
            return
        user = self.users[pairing.player_a_id if reporter_a else pairing.player_b_id]
        length = pairing.round.length
        score = (length, 0) if a_wins else (0, length)
        self._attempt(lambda: services.result_report(pairing=pairing, by=user, score_a=score[0], score_b=score[1]))

    def _open_reports(self):
        return (ResultReport.objects.filter(pairing__flight__tournament=self.event)
                .exclude(status__in=[ReportStatus.CONFIRMED, ReportStatus.SUPERSEDED])
                .select_related("pairing__flight__tournament").order_by("id"))

    def _stale_reports(self):
        return (ResultReport.objects.filter(pairing__flight__tournament=self.event, status=ReportStatus.SUPERSEDED)
                .select_related("pairing__flight__tournament").order_by("-id")[:4])

    @rule(index=st.integers(0, 63), by_td=st.booleans(), stale=st.booleans())
    def opponent_confirms(self, index, by_td, stale):
        report = self._pick(self._stale_reports() if stale else self._open_reports(), index)
        if report is None:
            return
        pairing = report.pairing
        opponent = pairing.player_b_id if report.submitted_for_id == pairing.player_a_id else pairing.player_a_id
        user = self.staff if by_td else self.users[opponent]
        self._attempt(lambda: services.result_confirm(report=report, by=user))

    @rule(index=st.integers(0, 63))
    def opponent_disputes(self, index):
        report = self._pick(self._open_reports(), index)
        if report is None:
            return
        pairing = report.pairing
        opponent = pairing.player_b_id if report.submitted_for_id == pairing.player_a_id else pairing.player_a_id
        self._attempt(lambda: services.result_dispute(report=report, by=self.users[opponent], reason="wrong score"))

    # -- the TD ------------------------------------------------------------------------------

    @rule(index=st.integers(0, 63), winner=st.integers(0, 1), kind=st.integers(1, 3))
    def td_enters_a_game(self, index, winner, kind):
        """One game on the score sheet (the match is started if it was not)."""
        pairing = self._pick(self._pairings().filter(status__in=[PairingStatus.PENDING, PairingStatus.PLAYING]),
                             index)
        if pairing is None:
            return

        def write():
            started = pairing if pairing.match_id else services.pairing_start(pairing=pairing, by=self.staff)
            match = Match.objects.get(pk=started.match_id)
            services.pairing_game_record(match=match, number=match.games.count() + 1,
                                         game=games.GameInput(winner=winner, kind=kind), by=self.staff)

        self._attempt(write)

    @rule(index=st.integers(0, 63), a_wins=st.booleans(), decided=st.booleans())
    def td_overrides(self, index, a_wins, decided):
        rows = self._pairings().filter(status=PairingStatus.FINISHED) if decided else self._pairings().exclude(
            status__in=DECIDED)
        pairing = self._pick(rows, index)
        if pairing is None:
            return
        length = pairing.round.length
        score = (length, length - 1) if a_wins else (length - 1, length)
        self._attempt(lambda: services.result_override(pairing=pairing, by=self.staff, score_a=score[0],
                                                       score_b=score[1], apply_downstream=True, note="ruling"))

    @rule(index=st.integers(0, 63), by_player=st.booleans())
    def player_withdraws(self, index, by_player):
        entry = self._pick(Entry.objects.filter(tournament=self.event).exclude(status=EntryStatus.WITHDRAWN)
                           .select_related("tournament", "flight", "player").order_by("id"), index)
        if entry is None:
            return
        user = self.users[entry.player_id] if by_player else self.staff
        self._attempt(lambda: services.entry_withdraw(entry=entry, by=user))

    @precondition(lambda self: self.swiss)
    @rule()
    def late_entry(self):
        self._attempt(lambda: self._enter())

    # -- one truth ---------------------------------------------------------------------------

    @invariant()
    def results_tell_one_story(self):
        steps_run[0] += 1
        pairings = list(Pairing.objects.filter(flight__tournament=self.event).select_related("match"))
        players = {p for row in pairings for p in (row.player_a_id, row.player_b_id)} | set(self.users)
        for row in pairings:
            if row.match_id is not None:
                assert {row.match.player_a_id, row.match.player_b_id} == {row.player_a_id, row.player_b_id}
            if row.status in (PairingStatus.FINISHED, PairingStatus.WALKOVER):
                assert row.match is not None, row
                assert row.match.winner_id == row.winner_id, row
                assert row.match.status in (MatchStatus.FINISHED, MatchStatus.FORFEITED), row
            if row.status == PairingStatus.PLAYING:
                assert row.match is not None and row.match.status == MatchStatus.IN_PROGRESS, row
        open_on_decided = ResultReport.objects.filter(
            pairing__flight__tournament=self.event, pairing__status__in=DECIDED,
            status__in=[ReportStatus.PENDING, ReportStatus.DISPUTED])
        assert not open_on_decided.exists()
        matches = Match.objects.filter(Q(player_a__in=players) | Q(player_b__in=players), source="tournament")
        in_pairings = {row.match_id for row in pairings if row.match_id is not None}
        finished = set(matches.filter(status=MatchStatus.FINISHED).values_list("pk", flat=True))
        rated = set(matches.filter(rated=True, status=MatchStatus.FINISHED).values_list("pk", flat=True))
        void = set(matches.filter(rated=False).exclude(status=MatchStatus.FORFEITED).values_list("pk", flat=True))
        # Every finished match of the event is in exactly one pairing, unless a correction voided it.
        assert finished - void <= in_pairings
        assert rated == finished - void
        assert not (void & in_pairings)


@pytest.mark.slow
def test_a_running_event_keeps_one_truth_whatever_its_people_do_in_whatever_order():
    steps_run[0] = -EXAMPLES  # the invariants run once after each event starts, then after every step
    run_state_machine_as_test(RunningEvent, settings=settings(max_examples=EXAMPLES, stateful_step_count=STEPS))
    print(f"{steps_run[0]} steps over {EXAMPLES} events")
    # At most EXAMPLES × STEPS; an event whose every entrant is out ends its example early.
    assert steps_run[0] >= (750 if os.environ.get("CI") else 1)


# -- the rated history changed beside the event, and rated --------------------------------------

RATED_EXAMPLES, RATED_STEPS = (int(n) for n in os.environ.get(
    "CRAWFORD_MACHINE_RATED_BUDGET", "3,40" if os.environ.get("CI") else "2,12").split(","))
"""Events and steps of the rated machine below: each step also recomputes both systems in full."""

MATFILES = sorted((SHARED_DATA / "matfiles").glob("bglib__*.txt"))[:3]


class RatedRunningEvent(RunningEvent):
    """The same event, while results files and match files are imported beside it, matches are
    voided and rating runs go at any moment: after every step, once the periodic check has run,
    the published ratings equal a full recompute."""

    @rule(day=st.integers(0, 60), a_wins=st.booleans(), rows=st.integers(1, 3))
    def results_imported(self, day, a_wins, rows):
        from games import results

        names = list(Player.objects.filter(pk__in=list(self.users)).order_by("pk").values_list("name", flat=True))
        serial = next(_serial)
        text = "played_on,player_a,player_b,length,score_a,score_b,source_id\n" + "".join(
            f"2026-08-{1 + (day + n) % 28:02d},{names[n % len(names)]},{names[(n + 1) % len(names)]},3,"
            f"{3 if a_wins else 1},{1 if a_wins else 3},machine-{serial}-{n}\n" for n in range(rows))
        results.results_import(rows=results.results_file_read(text=text), by=self.staff)

    @rule(index=st.integers(0, 2))
    def match_file_imported(self, index):
        from games.matfiles import match_file_import

        match_file_import(text=MATFILES[index].read_text(encoding="utf-8", errors="replace"), name="machine.mat",
                          by=self.staff)

    @rule(index=st.integers(0, 63))
    def imported_match_voided(self, index):
        match = self._pick(Match.objects.filter(rated=True, status=MatchStatus.FINISHED, source__in=["csv", "mat"])
                           .order_by("id"), index)
        if match is not None:
            games.match_void(match=match, by=self.staff, reason="entered twice")

    @rule(system=st.sampled_from(["fibs", "crawford"]))
    def rating_run(self, system):
        from ratings import services as ratings

        ratings.rating_recompute_owed(system=system)

    @invariant()
    def published_ratings_equal_a_full_recompute(self):
        from ratings import services as ratings
        from tests.ratings.conftest import differences_from_a_full_recompute

        ratings.rating_recompute_owed()  # the periodic check
        for system in ("fibs", "crawford"):
            assert differences_from_a_full_recompute(system) == [], system


def test_an_event_beside_imports_voids_and_rating_runs_keeps_published_ratings_equal_to_a_full_recompute():
    run_state_machine_as_test(RatedRunningEvent, settings=settings(max_examples=RATED_EXAMPLES,
                                                                   stateful_step_count=RATED_STEPS))
