"""Events, flights, entries, rounds, pairings and result reports.

Rows hold what the TD decided (the flights, the seeds, the draw, the random seed) and what was
played (decided pairings, result reports). Everything else (who meets whom next, byes, champions,
standings) is worked out again from them by `tournaments.formats`, through `tournaments.services`
and `tournaments.selectors`.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from games.models import Match, Player
from games.people import DIRECTOR_FALLBACK, public_name  # noqa: F401 (the events name their people with it)


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    OPEN = "open", _("Open for entries")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Tournament(models.Model):
    """An event and its public rule profile."""

    name = models.CharField(max_length=200, verbose_name=_("name"))
    slug = models.SlugField(max_length=80, unique=True, verbose_name=_("slug"))
    venue = models.CharField(max_length=200, blank=True, verbose_name=_("venue"))
    start_date = models.DateField(verbose_name=_("start date"))
    end_date = models.DateField(verbose_name=_("end date"))
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="organised_tournaments",
                                        verbose_name=_("organisers"))
    cube_cap = models.PositiveIntegerField(null=True, blank=True, help_text=_("Highest cube value; empty for none."),
                                           verbose_name=_("cube cap"))
    clock = models.CharField(max_length=120, blank=True,
                             help_text=_('The clock as announced, e.g. "2 min + 12 s/move".'),
                             verbose_name=_("clock"))
    clock_seconds = models.PositiveIntegerField(null=True, blank=True,
                                                help_text=_("Reserve time per player, seconds."),
                                                verbose_name=_("clock seconds"))
    status = models.CharField(max_length=10, choices=TournamentStatus.choices, default=TournamentStatus.OPEN,
                              verbose_name=_("status"))
    tables = models.PositiveSmallIntegerField(default=0,
                                              help_text=_("How many tables the venue has (numbered from 1)."),
                                              verbose_name=_("tables"))
    reserved_tables = models.JSONField(
        default=list, blank=True,
        help_text=_('Tables kept for one flight or one player: [{"table": 1, "flight": "Consolation"}, '
                  '{"table": 2, "player": 17}].'), verbose_name=_("reserved tables"),
    )
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        verbose_name = _("tournament")
        ordering = ["-start_date", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(end_date__gte=F("start_date")), name="tournament_ends_after_start"),
            models.CheckConstraint(condition=Q(cube_cap__isnull=True) | Q(cube_cap__gte=2), name="tournament_cube_cap"),
        ]

    def __str__(self) -> str:
        return self.name

    def director_names(self) -> list[str]:
        """The directors' public names, never their logins, in the order their logins were made
        (a fixed order on every database; prefetch ORGANISER_NAMES with `organisers` to read them
        without a query each)."""
        return [public_name(user) for user in sorted(self.organisers.all(), key=lambda user: user.pk)]

    @property
    def crawford(self) -> bool:
        """Matches of an event are always played with the Crawford rule."""
        return True


class FlightFormat(models.TextChoices):
    SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS_KNOCKOUT = "swiss_knockout", _("Swiss, then knockout")


class FlightKindChoice(models.TextChoices):
    MAIN = "main", _("Main")
    CONSOLATION = "consolation", _("Consolation")
    LAST_CHANCE = "last_chance", _("Last chance")
    SIDE = "side", _("Side event")


class SeedingChoice(models.TextChoices):
    MANUAL = "manual", _("The TD's order")
    RANDOM = "random", _("Random draw")
    RATING = "rating", _("By rating")


class ScoringChoice(models.TextChoices):
    WINS = "wins", _("A point per win")
    WIN_AND_SKILL = "win_and_skill", _("A point for the win and one for skill (PR)")
    """The skill point goes to the player whose PR in the match is at least 1.0 lower, else half
    to each (`tournaments.formats.Scoring`)."""


class FlightStatus(models.TextChoices):
    DRAFT = "draft", _("Not started")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Flight(models.Model):
    """A part of an event played under one format: main, consolation, last chance or a side event.

    `feeders` lists where a fed flight's players come from:
    `[{"source_id": 12, "source_round": 1, "entry_round": 1}, ...]` (losers of round
    `source_round` of flight `source_id` of the same event enter in round `entry_round`). A
    flight without feeders takes entries.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="flights",
                                   verbose_name=_("tournament"))
    name = models.CharField(max_length=80, verbose_name=_("name"))
    kind = models.CharField(max_length=12, choices=FlightKindChoice.choices, default=FlightKindChoice.MAIN,
                            verbose_name=_("kind"))
    format = models.CharField(max_length=20, choices=FlightFormat.choices, verbose_name=_("format"))
    position = models.PositiveSmallIntegerField(default=0, help_text=_("Order of the flights in the event."),
                                                verbose_name=_("position"))
    lengths = models.JSONField(default=list, help_text=_("Match length per round, e.g. [7, 7, 9, 9, 11, 11]."),
                               verbose_name=_("lengths"))
    feeders = models.JSONField(default=list, blank=True, verbose_name=_("feeders"))
    seeding = models.CharField(max_length=8, choices=SeedingChoice.choices, default=SeedingChoice.MANUAL,
                               verbose_name=_("seeding"))
    random_seed = models.BigIntegerField(null=True, blank=True, help_text=_("The number the random draw used."),
                                         verbose_name=_("random seed"))
    first_round = models.JSONField(null=True, blank=True, help_text=_("The draw: [[player, player or null], ...]."),
                                   verbose_name=_("first round"))
    draw_rules = models.JSONField(default=dict, blank=True,
                                  help_text=_("What the TD asked of round 1 when he drew it: "
                                  '{"apart": [[player, player], ...], "fixed": [[player, player], ...], "moved": '
                                  "true when he moved seeds}."), verbose_name=_("draw rules"))
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("swiss rounds"))
    out_after_losses = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("out after losses"))
    tie_breaks = models.JSONField(default=list, blank=True, verbose_name=_("tie breaks"))
    scoring = models.CharField(max_length=16, choices=ScoringChoice.choices, default=ScoringChoice.WINS,
                               help_text=_("Swiss: a point per win, or one for the win and one for skill."),
                                           verbose_name=_("scoring"))
    qualifiers = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Swiss then knockout: how many."),
                                                  verbose_name=_("qualifiers"))
    auto_pair = models.BooleanField(default=True, help_text=_("Pair the next Swiss round when the last match ends."),
                                    verbose_name=_("auto pair"))
    check_in_opens = models.DateTimeField(null=True, blank=True, help_text=_("Players may check in from their phones "
                                          "from this time..."), verbose_name=_("check in opens"))
    check_in_closes = models.DateTimeField(null=True, blank=True, help_text=_("...until this time."),
                                           verbose_name=_("check in closes"))
    registration_closes = models.DateTimeField(null=True, blank=True,
                                               help_text=_("Players register online until this time (empty: closed)."),
                                                           verbose_name=_("registration closes"))
    registration_cap = models.PositiveIntegerField(null=True, blank=True,
                                                   help_text=_("Places; later registrations join the waiting list."),
                                                       verbose_name=_("registration cap"))
    status = models.CharField(max_length=10, choices=FlightStatus.choices, default=FlightStatus.DRAFT,
                              verbose_name=_("status"))
    champion = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                 verbose_name=_("champion"))
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    history = HistoricalRecords(excluded_fields=["version"])

    class Meta:
        verbose_name = _("flight")
        ordering = ["tournament", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="flight_name_unique_in_tournament"),
            models.CheckConstraint(
                condition=Q(status="draft") | Q(seeding__in=["manual", "rating"]) | Q(random_seed__isnull=False),
                name="flight_random_draw_keeps_its_seed",
            ),
            models.CheckConstraint(
                condition=Q(champion__isnull=True) | Q(status="finished"), name="flight_champion_only_when_finished"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.name}"

    @property
    def takes_entries(self) -> bool:
        return not self.feeders


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class Entry(models.Model):
    """A player entered in a flight that takes entries, with his seed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries",
                                   verbose_name=_("tournament"))
    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="entries", verbose_name=_("flight"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries",
                               verbose_name=_("player"))
    seed = models.PositiveIntegerField(null=True, blank=True, help_text=_("1 is the best; set at the draw."),
                                       verbose_name=_("seed"))
    status = models.CharField(max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED,
                              verbose_name=_("status"))
    late = models.BooleanField(default=False, help_text=_("Entered after the flight started."), verbose_name=_("late"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("entry")
        ordering = ["flight", "seed", "id"]
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["flight", "player"], name="entry_player_once_per_flight"),
            models.UniqueConstraint(
                fields=["flight", "seed"], condition=Q(seed__isnull=False), name="entry_seed_unique_in_flight"
            ),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1), name="entry_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player.name} in {self.flight.name}"


class RoundStatus(models.TextChoices):
    PENDING = "pending", _("Not started")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("flight"))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    length = models.PositiveSmallIntegerField(null=True, blank=True, help_text=_("Match length in this round."),
                                              verbose_name=_("length"))
    status = models.CharField(max_length=10, choices=RoundStatus.choices, default=RoundStatus.PENDING,
                              verbose_name=_("status"))
    starts_at = models.DateTimeField(null=True, blank=True, help_text=_("Announced start, for the schedule."),
                                     verbose_name=_("starts at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("round")
        ordering = ["flight", "number"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "number"], name="round_number_unique_in_flight"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.flight.name} round {self.number}"


class PairingStatus(models.TextChoices):
    PENDING = "pending", _("To play")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    WALKOVER = "walkover", _("Walkover")
    BYE = "bye", _("Bye")


DECIDED = (PairingStatus.FINISHED, PairingStatus.WALKOVER, PairingStatus.BYE)


class Pairing(models.Model):
    """A match of a draw (slot `R<round>-<n>`), a bye when `player_b` is empty."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("flight"))
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round"))
    slot = models.CharField(max_length=12, verbose_name=_("slot"))
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player a"))
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                 verbose_name=_("player b"))
    match = models.OneToOneField(Match, on_delete=models.PROTECT, null=True, blank=True, related_name="pairing",
                                 verbose_name=_("match"))
    status = models.CharField(max_length=10, choices=PairingStatus.choices, default=PairingStatus.PENDING,
                              verbose_name=_("status"))
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("winner"))
    score_a = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("score a"))
    score_b = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("score b"))
    table = models.CharField(max_length=20, blank=True, verbose_name=_("table"))
    walkover_reason = models.CharField(max_length=200, blank=True, help_text=_("Why a walkover was given."),
                                       verbose_name=_("walkover reason"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    version = models.PositiveIntegerField(default=0,
                                          help_text=_("Raised by every write; guards against lost updates."),
                                          verbose_name=_("version"))
    notified_at = models.DateTimeField(null=True, blank=True,
                                       help_text=_("When its players were e-mailed that it is theirs to play."),
                                                   verbose_name=_("notified at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("pairing")
        ordering = ["flight", "round__number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["flight", "slot"], name="pairing_slot_unique_in_flight"),
            models.CheckConstraint(condition=~Q(player_a=F("player_b")), name="pairing_two_different_players"),
            models.CheckConstraint(
                condition=Q(status="bye", player_b__isnull=True) | (~Q(status="bye") & Q(player_b__isnull=False)),
                name="pairing_bye_has_one_player",
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=F("player_a")) | Q(winner=F("player_b")),
                name="pairing_winner_played_it",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "playing"], winner__isnull=True)
                | Q(status__in=["finished", "walkover", "bye"], winner__isnull=False),
                name="pairing_decided_has_winner",
            ),
        ]
        indexes = [models.Index(fields=["flight", "status"])]

    def __str__(self) -> str:
        b = self.player_b.name if self.player_b_id else "bye"
        return f"{self.flight.name} {self.slot}: {self.player_a.name} v {b}"

    @property
    def decided(self) -> bool:
        return self.status in DECIDED

    @property
    def is_bye(self) -> bool:
        return self.player_b_id is None


class ReportStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting the opponent")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed: for the TD")
    SUPERSEDED = "superseded", _("Replaced by a later version")


# The players of a match may report (and re-report) its result this many times; then a TD enters
# it. Keeps one pairing's history from growing without end.
REPORTS_PER_PAIRING_MAX = 20


class ResultReport(models.Model):
    """One version of a pairing's result as someone reported it. Never edited, only superseded.

    `games` is the score sheet (a list of games as the games API takes them) or empty for a
    final-score-only report.
    """

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="reports", verbose_name=_("pairing"))
    version = models.PositiveIntegerField(verbose_name=_("version"))
    score_a = models.PositiveIntegerField(verbose_name=_("score a"))
    score_b = models.PositiveIntegerField(verbose_name=_("score b"))
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("winner"))
    games = models.JSONField(null=True, blank=True, verbose_name=_("games"))
    status = models.CharField(max_length=12, choices=ReportStatus.choices, default=ReportStatus.PENDING,
                              verbose_name=_("status"))
    by_td = models.BooleanField(default=False, help_text=_("Entered or overridden by a TD (or staff)."),
                                verbose_name=_("by td"))
    override = models.BooleanField(default=False, help_text=_("A TD's ruling that replaces earlier versions."),
                                   verbose_name=_("override"))
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        help_text=_("The login that reported it; empty when a player reported with his slip code."),
                    verbose_name=_("submitted by"),
    )
    submitted_with_code = models.BooleanField(default=False,
                                              help_text=_("Reported with the code on the player's slip."),
                                              verbose_name=_("submitted with code"))
    submitted_for = models.ForeignKey(
        Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        help_text=_("The player of the match who reported it (empty for a TD)."), verbose_name=_("submitted for"),
    )
    submitted_at = models.DateTimeField(auto_now_add=True, verbose_name=_("submitted at"))
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
            verbose_name=_("confirmed by")
    )
    confirmed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("confirmed at"))
    confirmed_with_code = models.BooleanField(default=False,
                                              help_text=_("Confirmed with the code on the player's slip."),
                                              verbose_name=_("confirmed with code"))
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
            verbose_name=_("disputed by")
    )
    dispute_reason = models.TextField(blank=True, verbose_name=_("dispute reason"))
    note = models.TextField(blank=True, verbose_name=_("note"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("result report")
        ordering = ["pairing", "version"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "version"], name="report_version_unique"),
            models.UniqueConstraint(
                fields=["pairing"], condition=Q(status__in=["pending", "disputed"]), name="report_one_open_per_pairing"
            ),
            models.UniqueConstraint(
                fields=["pairing"], condition=Q(status="confirmed"), name="report_one_confirmed_per_pairing"
            ),
            models.CheckConstraint(condition=~Q(score_a=F("score_b")), name="report_has_a_winner"),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=True) | Q(status__in=["confirmed", "superseded"]),
                name="report_confirmed_by_only_when_confirmed",
            ),
            models.CheckConstraint(
                condition=Q(submitted_by__isnull=False) | Q(submitted_with_code=True, submitted_for__isnull=False),
                name="report_has_a_reporter",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.pairing} v{self.version}: {self.score_a}-{self.score_b} ({self.status})"


class SlipCode(models.Model):
    """The one-time code printed on a player's half of a match slip: typed on the match's public
    page, it reports (or confirms, or disputes) the result as that player, without a login.

    Only a keyed hash of the code is kept (`tournaments.slipcodes.digest`). A code works while
    its pairing is undecided, its player still plays that side and it is not revoked; printing the
    slips again keeps the codes handed out, new slips asked for explicitly revoke them.
    """

    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="slip_codes",
                                verbose_name=_("pairing"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    digest = models.CharField(max_length=64, verbose_name=_("digest"))
    issued_at = models.DateTimeField(auto_now_add=True, verbose_name=_("issued at"))
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("issued by"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    class Meta:
        verbose_name = _("slip code")
        ordering = ["pairing", "id"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "player"], condition=Q(revoked_at__isnull=True),
                                    name="slip_code_one_live_per_player"),
        ]

    def __str__(self) -> str:
        return gettext("slip code of player %(player)s for pairing %(pairing)s") % {
            "player": self.player_id, "pairing": self.pairing_id}


class PlayerAccount(models.Model):
    """Links a login to the player it belongs to, so he can report his own matches."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="account", verbose_name=_("player"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="player_account",
            verbose_name=_("user")
    )
    match_emails = models.BooleanField(default=True, help_text=_("E-mail the player each new match drawn for him."),
                                       verbose_name=_("match emails"))

    def __str__(self) -> str:
        return f"{self.player.name} = {self.user}"

    class Meta:
        verbose_name = _("player account")


class PublicName(models.Model):
    """The name a login shows in public (an event's directors, the API's `organisers`), chosen by
    the person. A login name is never shown: without a chosen name, the linked player's name is,
    or a neutral title (`public_name`)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="public_name",
                                verbose_name=_("user"))
    name = models.CharField(max_length=80, help_text=_("Shown as the director of your events."),
                            verbose_name=_("name"))

    def __str__(self) -> str:
        return self.name

    class Meta:
        verbose_name = _("public name")


ORGANISER_NAMES = ("organisers__public_name", "organisers__player_account__player")
"""What to prefetch with events whose directors are named."""


class ClaimStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for a TD")
    APPROVED = "approved", _("Approved")
    REFUSED = "refused", _("Refused")


class PlayerClaim(models.Model):
    """A login's request to be recognised as a player (his results, his matches to report).

    Staff, or a TD of an event the player has entered, approve it; approval links the login
    to the player (`PlayerAccount`)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims",
                             verbose_name=_("user"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims", verbose_name=_("player"))
    status = models.CharField(max_length=10, choices=ClaimStatus.choices, default=ClaimStatus.PENDING,
                              verbose_name=_("status"))
    note = models.CharField(max_length=300, blank=True, help_text=_("What the player says to help the TD."),
                            verbose_name=_("note"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("decided by"))
    decided_at = models.DateTimeField(null=True, blank=True, verbose_name=_("decided at"))
    reason = models.CharField(max_length=300, blank=True, help_text=_("Why a claim was refused."),
                              verbose_name=_("reason"))

    class Meta:
        verbose_name = _("player claim")
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(status="pending"),
                                    name="player_claim_one_pending_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player.name} ({self.status})"


class WaitingEntry(models.Model):
    """A player who registered online for a full flight: he gets the next place that frees up."""

    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="waiting", verbose_name=_("flight"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("waiting entry")
        ordering = ["created_at", "id"]
        verbose_name_plural = _("waiting entries")
        constraints = [models.UniqueConstraint(fields=["flight", "player"], name="waiting_player_once_per_flight")]

    def __str__(self) -> str:
        return gettext("%(player)s waits for %(flight)s") % {"player": self.player.name, "flight": self.flight.name}


class SaveKey(models.Model):
    """The key a Save of a result was sent with (the `Idempotency-Key` a browser makes when the
    result is typed), and the first answer it got: the same Save sent again (a retry after a
    dropped connection, a result kept offline and sent when the network returns) gets that answer
    again and stores nothing. Kept `SAVE_KEY_DAYS` days (`services.save_keys_prune`)."""

    key = models.CharField(max_length=64, unique=True, verbose_name=_("key"))
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="+", verbose_name=_("pairing"))
    status = models.PositiveSmallIntegerField(help_text=_("The HTTP status of the first answer."),
                                              verbose_name=_("status"))
    body = models.JSONField(help_text=_("The body of the first answer."), verbose_name=_("body"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("save key")
        constraints = [
            models.CheckConstraint(condition=Q(key__regex=r"^[A-Za-z0-9_-]{1,64}$"), name="save_key_characters"),
        ]

    def __str__(self) -> str:
        return gettext("save key %(key)s for pairing %(pairing)s") % {"key": self.key, "pairing": self.pairing_id}
