"""Players, matches and games. Rows hold what was recorded; the rules live in `engine.scoring`.

A match's score, Crawford game, winner and state are derived from its games by the services
(`games.services`) through `MatchScore`, and stored here only so that lists can filter on them.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext, pgettext_lazy
from django.db.models import Q
from django.db.models.functions import Lower
from simple_history.models import HistoricalRecords

from .engine.scoring import GameEnd, MatchKind, MatchRules, ResultKind, SessionRules


class Player(models.Model):
    name = models.CharField(max_length=120, db_index=True, verbose_name=_("name"))
    country = models.CharField(max_length=2, blank=True, help_text=_("ISO 3166 two-letter code, e.g. DK."),
                               verbose_name=_("country"))
    club = models.CharField(max_length=120, blank=True, verbose_name=_("club"))
    federation_id = models.CharField(
        max_length=40, blank=True, null=True, unique=True, help_text=_("The player's number at his federation."),
        verbose_name=_("federation ID")
    )
    imported_name = models.CharField(
        max_length=120, blank=True, null=True, unique=True, editable=False,
        help_text=_("The name (in lower case) under which an import created this player. Unique, so that imports"
          " running at once never create the same new player twice."), verbose_name=_("imported name")
    )
    twin = models.PositiveSmallIntegerField(
        default=0, editable=False,
        help_text=_("0, or 1, 2 … for each further player of the same name and club (added with confirm_duplicate)."),
        verbose_name=_("twin")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "id"]
        indexes = [models.Index(Lower("name"), name="player_name_lower")]
        constraints = [
            # Two requests adding the same person at once: the database keeps one, the other is told.
            models.UniqueConstraint(Lower("name"), Lower("club"), "twin", name="player_name_club_twin_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


SIDES = [(0, _("Player A")), (1, _("Player B"))]
"""A game's winner and cube owner: the match's first or second player."""


class MatchKindChoice(models.TextChoices):
    MATCH = MatchKind.MATCH.value, _("Match to N points")
    SESSION = MatchKind.SESSION.value, _("Money session")


class ResultKindChoice(models.TextChoices):
    """Result kinds by name, as the API spells them."""

    SINGLE = "single", pgettext_lazy("game result", "Single")
    GAMMON = "gammon", pgettext_lazy("game result", "Gammon")
    BACKGAMMON = "backgammon", pgettext_lazy("game result", "Backgammon")


class VariationChoice(models.TextChoices):
    """The opening position the games start from."""

    BACKGAMMON = "backgammon", _("Backgammon")
    NACKGAMMON = "nackgammon", _("Nackgammon")


class MatchStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    FORFEITED = "forfeited", _("Forfeited")


class Match(models.Model):
    """Two players, the rules they play under, and the state derived from their games."""

    # Each side's index is `match_player_a_record` / `match_player_b_record` below, which leads
    # with the player: a single-column index of its own would only duplicate it.
    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False,
                                 verbose_name=_("player A"))
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", db_index=False,
                                 verbose_name=_("player B"))
    kind = models.CharField(max_length=10, choices=MatchKindChoice.choices, verbose_name=_("kind"))
    length = models.PositiveSmallIntegerField(help_text=_("Points to win; 0 for a money session."),
                                              verbose_name=_("length"))
    # Defaults in the database too, so that rows written by plain SQL (bulk loads) get them.
    crawford_rule = models.BooleanField(
        default=True, db_default=True,
        help_text=_("Matches are played under the Crawford rule; off only where the players agreed so."),
        verbose_name=_("Crawford rule")
    )
    variation = models.CharField(
        max_length=12, choices=VariationChoice.choices, default=VariationChoice.BACKGAMMON,
        db_default=VariationChoice.BACKGAMMON, verbose_name=_("variation")
    )
    cube_cap = models.PositiveIntegerField(null=True, blank=True, help_text=_("Highest cube value; empty for none."),
                                           verbose_name=_("cube cap"))
    jacoby = models.BooleanField(default=False, verbose_name=_("Jacoby rule"))
    beavers = models.BooleanField(default=False, verbose_name=_("beavers"))
    raccoons = models.BooleanField(default=False, verbose_name=_("raccoons"))
    automatic_doubles = models.BooleanField(default=False, verbose_name=_("automatic doubles"))
    automatic_double_cap = models.PositiveSmallIntegerField(default=0, verbose_name=_("automatic double cap"))
    played_on = models.DateTimeField(db_index=True, verbose_name=_("played on"))
    rated = models.BooleanField(default=True, help_text=_("Unrated matches (friendlies) never count for ratings."),
                                verbose_name=_("rated"))
    source = models.CharField(max_length=20, default="manual", help_text=_("manual, mat, csv …"),
                              verbose_name=_("source"))
    source_key = models.CharField(
        max_length=200, null=True, blank=True, unique=True,
        help_text=_("Identity of an imported match, for idempotence."),
        verbose_name=_("source key")
    )

    # Derived from the games by the services.
    status = models.CharField(max_length=12, choices=MatchStatus.choices, default=MatchStatus.IN_PROGRESS,
                              verbose_name=_("status"))
    # None for both: a result imported from a list of winners, with no final score.
    score_a = models.PositiveIntegerField(default=0, null=True, blank=True, verbose_name=_("score A"))
    score_b = models.PositiveIntegerField(default=0, null=True, blank=True, verbose_name=_("score B"))
    crawford_game = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("Crawford game"))
    post_crawford = models.BooleanField(default=False, verbose_name=_("post-Crawford"))
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                               verbose_name=_("winner"))
    forfeited_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
                                     verbose_name=_("forfeited by"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    version = models.PositiveIntegerField(default=0, help_text=_("Raised by every write; guards against lost updates."),
                                          verbose_name=_("version"))
    games_revision = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text=_("Raised whenever the games or the result change: an analysis holds the revision it analysed."),
        verbose_name=_("games revision")
    )

    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("created by")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("match")
        ordering = ["-played_on", "-id"]
        verbose_name_plural = _("matches")
        constraints = [
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="match_two_different_players"),
            models.CheckConstraint(
                condition=Q(kind=MatchKind.MATCH, length__gte=1) | Q(kind=MatchKind.SESSION, length=0),
                name="match_length_fits_kind",
            ),
            models.CheckConstraint(
                condition=Q(crawford_rule=True) | Q(kind=MatchKind.MATCH), name="match_crawford_off_only_in_a_match"
            ),
        ]
        indexes = [
            models.Index(fields=["status", "played_on"]),
            # A player's matches, newest first, with what his record sums up: a player page reads
            # his record from these alone, never the table (key columns, not INCLUDE, which
            # SQLite lacks).
            models.Index(fields=["player_a", "played_on", "player_b", "winner", "length", "status", "forfeited_by"],
                         name="match_player_a_record"),
            models.Index(fields=["player_b", "played_on", "player_a", "winner", "length", "status", "forfeited_by"],
                         name="match_player_b_record"),
        ]

    def __str__(self) -> str:
        what = (gettext("%(length)s-point match") % {"length": self.length} if self.kind == MatchKind.MATCH
                else gettext("money session"))
        return gettext("%(player_a)s v %(player_b)s, %(length)s") % {
            "player_a": self.player_a.name, "player_b": self.player_b.name, "length": what}

    @property
    def rules(self) -> MatchRules | SessionRules:
        if self.kind == MatchKind.MATCH:
            return MatchRules(length=self.length, cube_cap=self.cube_cap)
        return SessionRules(
            jacoby=self.jacoby,
            beavers=self.beavers,
            raccoons=self.raccoons,
            automatic_doubles=self.automatic_doubles,
            automatic_double_cap=self.automatic_double_cap,
            cube_cap=self.cube_cap,
        )

    @property
    def finished(self) -> bool:
        return self.status != MatchStatus.IN_PROGRESS

    def side_of(self, player: Player) -> int:
        if player.pk == self.player_a_id:
            return 0
        if player.pk == self.player_b_id:
            return 1
        raise ValueError(f"{player} does not play in this match.")

    def player_at(self, side: int) -> Player:
        return self.player_a if side == 0 else self.player_b


class Game(models.Model):
    """One game of a match, as the score sheet records it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    winner = models.PositiveSmallIntegerField(choices=SIDES, verbose_name=_("winner"))
    end = models.CharField(max_length=16, choices=[(GameEnd.PLAYED_OUT.value, _("Played out")),
                                                   (GameEnd.RESIGNED.value, _("Resigned")),
                                                   (GameEnd.DOUBLE_REFUSED.value, _("Double refused"))],
                           verbose_name=_("end"))
    kind = models.PositiveSmallIntegerField(choices=[(ResultKind.SINGLE.value, pgettext_lazy("game result", "Single")),
                                                     (ResultKind.GAMMON.value, pgettext_lazy("game result", "Gammon")),
                                                     (ResultKind.BACKGAMMON.value,
                                                      pgettext_lazy("game result", "Backgammon"))],
                                            verbose_name=_("kind"))
    cube = models.PositiveIntegerField(default=1, verbose_name=_("cube"))
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True, choices=SIDES, verbose_name=_("cube owner"))
    beavered = models.BooleanField(default=False, verbose_name=_("beavered"))
    raccooned = models.BooleanField(default=False, verbose_name=_("raccooned"))
    automatic_doubles = models.PositiveSmallIntegerField(default=0, verbose_name=_("automatic doubles"))
    points = models.PositiveIntegerField(verbose_name=_("points"))
    crawford = models.BooleanField(default=False, verbose_name=_("Crawford game"))
    score_a_after = models.PositiveIntegerField(verbose_name=_("score A after"))
    score_b_after = models.PositiveIntegerField(verbose_name=_("score B after"))
    moves = models.JSONField(null=True, blank=True, help_text=_("The game's turns, when a match file gave them."),
                             verbose_name=_("moves"))
    recorded_at = models.DateTimeField(auto_now=True, verbose_name=_("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("recorded by")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(winner__in=[0, 1]), name="game_winner_is_a_side"),
        ]

    def __str__(self) -> str:
        return gettext("Game %(number)s") % {"number": self.number}


class MatchFile(models.Model):
    """An uploaded or imported match file, kept with the match it verified."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="match_file", verbose_name=_("match"))
    name = models.CharField(max_length=255, verbose_name=_("name"))
    text = models.TextField(verbose_name=_("text"))
    sha256 = models.CharField(max_length=64, unique=True, verbose_name=_("SHA-256"))
    uploaded_at = models.DateTimeField(auto_now_add=True, verbose_name=_("uploaded at"))
    games_revision = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text=_("The match's games revision the file describes; a later correction outdates it."),
        verbose_name=_("games revision")
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("uploaded by")
    )

    class Meta:
        verbose_name = _("match file")
        verbose_name_plural = _("match files")

    def __str__(self) -> str:
        return self.name


class ImportKind(models.TextChoices):
    MATCH_FILE = "match_file", _("Match file")
    RESULTS = "results", _("Results file")


class ImportStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class ImportJob(models.Model):
    """A match file or results file imported in the background (`games.imports`), with its progress.

    The file's text is kept so that a job whose worker died can be taken over and finish (an import
    adds nothing twice). `rows_done` of `rows_total` counts result rows, or games of a match file.
    """

    kind = models.CharField(max_length=12, choices=ImportKind.choices, verbose_name=_("kind"))
    status = models.CharField(max_length=8, choices=ImportStatus.choices, default=ImportStatus.QUEUED,
                              verbose_name=_("status"))
    name = models.CharField(max_length=255, help_text=_("The file's name as uploaded."), verbose_name=_("name"))
    text = models.TextField(verbose_name=_("text"))
    note = models.CharField(max_length=200, blank=True, help_text=_("How the file was read (its encoding)."),
                            verbose_name=_("note"))
    options = models.JSONField(
        default=dict, blank=True,
        help_text=_('How to import it: {"sheet": "morning.csv", "new_players": ["David L"], '
                    '"accept_new_names": false}'),
        verbose_name=_("options"))
    rows_total = models.PositiveIntegerField(default=0, verbose_name=_("rows total"))
    rows_done = models.PositiveIntegerField(default=0, verbose_name=_("rows done"))
    errors = models.JSONField(default=list, blank=True, help_text=_('[{"line": 4, "problem": "..."}]'),
                              verbose_name=_("errors"))
    result = models.JSONField(null=True, blank=True, verbose_name=_("result"))
    attempts = models.PositiveSmallIntegerField(default=0, help_text=_("Times a worker claimed it."),
                                                verbose_name=_("attempts"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("created by")
    )
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Touched while the job works; a stale one means its worker died."),
        verbose_name=_("heartbeat at")
    )
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("import job")
        verbose_name_plural = _("import jobs")
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(rows_done__lte=models.F("rows_total")), name="import_done_le_total"),
        ]
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="import_job_status")]

    def __str__(self) -> str:
        return f"import {self.pk} {self.name} ({self.status})"
