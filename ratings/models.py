"""Published ratings, their history match by match, and the runs that compute them.

A run rates the whole history with one system (`ratings.systems`) and writes its own rows,
tagged with the run. Nothing a run writes is visible until the run is published: the system's
`RatingSystemState.published_run` pointer is flipped in one short transaction, and every reader
selects the rows of the run that pointer names in the same statement (`selectors`). The rows of
older runs are deleted afterwards.
"""

from django.conf import settings
from django.db import models
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.db.models import Q

from games.models import Match, Player


class SystemChoice(models.TextChoices):
    FIBS = "fibs", _("FIBS Elo")
    CRAWFORD = "crawford", _("Variance-adjusted (Glicko-2)")
    SKILL = "skill", _("Crawford, luck-adjusted")


class RunStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")
    SUPERSEDED = "superseded", _("Superseded")


class RunStage(models.TextChoices):
    WAITING = "waiting", _("Waiting")
    LOADING = "loading", _("Loading the history")
    RATING = "rating", _("Rating the matches")
    WRITING = "writing", _("Writing the results")
    PUBLISHED = "published", _("Published")


class RatingRun(models.Model):
    """One recompute of one system from the whole history."""

    system = models.CharField(max_length=20, choices=SystemChoice.choices, verbose_name=_("system"))
    status = models.CharField(max_length=12, choices=RunStatus.choices, default=RunStatus.QUEUED,
                              verbose_name=_("status"))
    stage = models.CharField(max_length=12, choices=RunStage.choices, default=RunStage.WAITING, verbose_name=_("stage"))
    requested_at = models.DateTimeField(verbose_name=_("requested at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Touched while the run works; a stale one means its worker died."),
        verbose_name=_("heartbeat at")
    )
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    matches_total = models.PositiveIntegerField(default=0, verbose_name=_("matches total"))
    matches_done = models.PositiveIntegerField(default=0, verbose_name=_("matches done"))
    players = models.PositiveIntegerField(default=0, verbose_name=_("players"))
    covers_requests = models.PositiveBigIntegerField(
        default=0, help_text=_("The system's request counter when the run was claimed: the requests it answers."),
        verbose_name=_("covers requests")
    )
    published = models.BooleanField(default=False, verbose_name=_("published"))
    error = models.TextField(blank=True, verbose_name=_("error"))
    note = models.TextField(blank=True, help_text=_("What the run found worth saying, e.g. why it rated in full."),
                            verbose_name=_("note"))
    history_matches = models.PositiveBigIntegerField(
        null=True, blank=True, help_text=_("The rated matches its published ratings account for (`history_account`)."),
        verbose_name=_("history matches")
    )
    history_checksum = models.BigIntegerField(
        null=True, blank=True, help_text=_("Their checksum (`history_account`): a lost change shows as a difference."),
        verbose_name=_("history checksum")
    )

    class Meta:
        verbose_name = _("rating run")
        verbose_name_plural = _("rating runs")
        ordering = ["-requested_at", "-id"]
        constraints = [
            # Two workers never rate the same system at once: the claim that would make a
            # second run of a system "running" fails on this index.
            models.UniqueConstraint(
                fields=["system"], condition=Q(status=RunStatus.RUNNING), name="one_running_run_per_system"
            ),
            models.CheckConstraint(condition=Q(matches_done__lte=models.F("matches_total")), name="run_done_le_total"),
        ]
        indexes = [models.Index(fields=["system", "-requested_at"], name="run_system_latest")]

    def __str__(self) -> str:
        return gettext("%(system)s run %(id)s (%(status)s)") % {
            "system": self.system, "id": self.pk, "status": self.get_status_display()}

    @property
    def progress(self) -> float | None:
        """The share of the matches rated so far, 0 to 1 (None before the history is loaded)."""
        if not self.matches_total:
            return 1.0 if self.status == RunStatus.DONE else None
        return self.matches_done / self.matches_total


class RatingSystemState(models.Model):
    """Per system: which run is published, and the requests that call for a new one.

    `requested` counts requests; a run claims them by copying the counter into
    `RatingRun.covers_requests` and `claimed`; a request that arrives later raises `requested`
    past `claimed`, which tells the finishing run to go again. `queued_at` is set while a run
    is queued, so that a burst of requests enqueues one run.
    """

    system = models.CharField(max_length=20, choices=SystemChoice.choices, primary_key=True, verbose_name=_("system"))
    requested = models.PositiveBigIntegerField(default=0, verbose_name=_("requested"))
    claimed = models.PositiveBigIntegerField(default=0, verbose_name=_("claimed"))
    queued_at = models.DateTimeField(null=True, blank=True, verbose_name=_("queued at"))
    published_run = models.ForeignKey(RatingRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                      verbose_name=_("published run"))

    class Meta:
        verbose_name = _("rating system state")
        verbose_name_plural = _("rating system states")

    def __str__(self) -> str:
        return gettext("%(system)s: published run %(run)s") % {"system": self.system, "run": self.published_run_id}


class Rating(models.Model):
    """A player's current rating in one system, as computed by one run."""

    run = models.ForeignKey(RatingRun, on_delete=models.DB_CASCADE, related_name="+", verbose_name=_("run"))
    system = models.CharField(max_length=20, choices=SystemChoice.choices, verbose_name=_("system"))
    player = models.ForeignKey(Player, on_delete=models.DB_CASCADE, related_name="ratings", verbose_name=_("player"))
    rating = models.FloatField(verbose_name=_("rating"))
    deviation = models.FloatField(null=True, blank=True, help_text=_("Rating points; variance-adjusted only."),
                                  verbose_name=_("deviation"))
    volatility = models.FloatField(null=True, blank=True, help_text=_("Glicko-2 scale; variance-adjusted only."),
                                   verbose_name=_("volatility"))
    experience = models.PositiveIntegerField(help_text=_("Sum of the lengths of the rated matches played."),
                                             verbose_name=_("experience"))
    matches = models.PositiveIntegerField(verbose_name=_("matches"))
    last_played = models.DateTimeField(null=True, blank=True, verbose_name=_("last played"))
    provisional = models.BooleanField(verbose_name=_("provisional"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["-rating", "player_id"]
        constraints = [models.UniqueConstraint(fields=["run", "player"], name="rating_one_per_player_per_run")]
        indexes = [models.Index(fields=["system", "run", "-rating"], name="rating_list")]

    def __str__(self) -> str:
        return gettext("player %(player)s, %(system)s: %(rating)s") % {
            "player": self.player_id, "system": self.system, "rating": number_format(self.rating, 1)}


class RatingChange(models.Model):
    """How one match moved one player's rating, as computed by one run.

    Two rows per rated match. `sequence` is the match's place in the run's time order, so a
    player's history reads in the order it was rated. The match and player columns carry no
    database constraint and no index of their own (the run's neither): a run writes millions of these rows in one
    go, and they are rebuilt by the next run whenever a match changes.
    """

    run = models.ForeignKey(
        RatingRun, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+",
        verbose_name=_("run")
    )
    sequence = models.PositiveIntegerField(verbose_name=_("sequence"))
    match = models.ForeignKey(
        Match, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+",
        verbose_name=_("match")
    )
    player = models.ForeignKey(
        Player, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+",
        verbose_name=_("player")
    )
    opponent = models.ForeignKey(
        Player, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+",
        verbose_name=_("opponent")
    )
    played_on = models.DateTimeField(verbose_name=_("played on"))
    length = models.PositiveSmallIntegerField(verbose_name=_("length"))
    won = models.BooleanField(verbose_name=_("won"))
    rating_before = models.FloatField(verbose_name=_("rating before"))
    rating_after = models.FloatField(verbose_name=_("rating after"))
    deviation_before = models.FloatField(null=True, blank=True, verbose_name=_("deviation before"))
    deviation_after = models.FloatField(null=True, blank=True, verbose_name=_("deviation after"))
    expected = models.FloatField(help_text=_("The player's chance of winning as the update saw it."),
                                 verbose_name=_("expected"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["run", "player", "sequence"]
        indexes = [models.Index(fields=["run", "player", "sequence"], name="rating_change_history")]

    def __str__(self) -> str:
        return gettext("match %(match)s: player %(player)s, %(before)s → %(after)s") % {
            "match": self.match_id, "player": self.player_id, "before": number_format(self.rating_before, 1),
            "after": number_format(self.rating_after, 1)}

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


class OfficialList(models.Model):
    """A dated rating list that staff publish (monthly, say): a system's published ratings as they
    stood at the end of its date, kept for ever and never changed, which players and federations quote
    and which later lists are compared with."""

    system = models.CharField(max_length=20, choices=SystemChoice.choices, verbose_name=_("system"))
    as_of = models.DateField(help_text=_("The date the list is known by."), verbose_name=_("as of"))
    run = models.ForeignKey(
        RatingRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text=_("The recompute whose ratings were copied."), verbose_name=_("run")
    )
    rated_at = models.DateTimeField(null=True, blank=True, help_text=_("When the copied ratings were computed."),
                                    verbose_name=_("rated at"))
    published_at = models.DateTimeField(verbose_name=_("published at"))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        help_text=_("Empty when published from the command line."), verbose_name=_("published by")
    )
    note = models.CharField(max_length=500, blank=True, verbose_name=_("note"))
    players = models.PositiveIntegerField(default=0, verbose_name=_("players"))

    class Meta:
        verbose_name = _("official rating list")
        verbose_name_plural = _("official rating lists")
        ordering = ["system", "-as_of"]
        constraints = [
            # Two people publishing the same system's list for the same day: the second insert
            # fails here, whatever each of them read before.
            models.UniqueConstraint(fields=["system", "as_of"], name="official_list_one_per_system_and_day"),
        ]

    def __str__(self) -> str:
        return gettext("%(system)s list of %(date)s") % {"system": self.get_system_display(),
                                                        "date": date_format(self.as_of, "d M Y")}


class OfficialListRow(models.Model):
    """One player's line on an official list, as it stood when the list was published."""

    official_list = models.ForeignKey(OfficialList, on_delete=models.CASCADE, related_name="rows",
                                      verbose_name=_("official list"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    rank = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("Among the established players of the list; empty while provisional."),
        verbose_name=_("rank")
    )
    rating = models.FloatField(verbose_name=_("rating"))
    deviation = models.FloatField(null=True, blank=True, verbose_name=_("deviation"))
    provisional = models.BooleanField(verbose_name=_("provisional"))
    matches = models.PositiveIntegerField(verbose_name=_("matches"))
    experience = models.PositiveIntegerField(verbose_name=_("experience"))

    class Meta:
        verbose_name = _("official list row")
        verbose_name_plural = _("official list rows")
        ordering = ["-rating", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["official_list", "player"], name="official_list_one_row_per_player"),
        ]
        indexes = [models.Index(fields=["official_list", "-rating", "player"], name="official_list_order")]

    def __str__(self) -> str:
        return gettext("list %(list)s: player %(player)s, %(rating)s") % {
            "list": self.official_list_id, "player": self.player_id, "rating": number_format(self.rating, 1)}


class ChangeKind(models.TextChoices):
    RESULT = "result", _("Result entered, corrected or forfeited")
    """A game, a final score or a forfeit changed the match's result."""
    DELETED = "deleted", _("Match deleted")
    """The match is gone from the history."""
    IMPORTED = "imported", _("Results imported")
    """A chunk of a results import: matches added, known only as a whole."""
    ANALYSED = "analysed", _("Analysis stored")
    """GNU Backgammon's analysis changed what the luck-adjusted system rates."""
    REQUESTED = "requested", _("Recompute requested")
    """Staff asked for a recompute."""
    STARTS = "starts", _("Rating list imported")
    """Players' starts from another rating list changed (`import_ratings`)."""


class RatingPending(models.Model):
    """The outbox of the rated history: a change that a system's published ratings do not
    answer yet, written in the same transaction as the change itself.

    One row per system per changed match (`match_id`), or with no match when the change is not
    known match by match (an import chunk, a recompute asked for by hand): that one calls for a
    full recompute. `kind` says what changed. A run takes every pending row of its system when
    it is claimed (`run_id`) and deletes them in the transaction that publishes it; the rows of a
    run that failed or died are taken again by the next one, and the periodic check
    (`rating_recompute_owed`) finds rows no run answers. So a process that dies after the
    change commits loses nothing: the row is there."""

    system = models.CharField(max_length=20, choices=SystemChoice.choices, verbose_name=_("system"))
    match_id = models.BigIntegerField(null=True, blank=True, verbose_name=_("match ID"))
    kind = models.CharField(max_length=12, choices=ChangeKind.choices, default=ChangeKind.RESULT,
                            verbose_name=_("kind"))
    run_id = models.BigIntegerField(null=True, blank=True, verbose_name=_("run ID"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("pending rating change")
        verbose_name_plural = _("pending rating changes")
        indexes = [models.Index(fields=["system", "run_id"], name="rating_pending_run")]

    def __str__(self) -> str:
        if self.match_id is None:
            return gettext("%(system)s: every match waiting to be rated") % {"system": self.system}
        return gettext("%(system)s: match %(match)s waiting to be rated") % {"system": self.system,
                                                                            "match": self.match_id}


class RatingCheckpoint(models.Model):
    """Every player's working state at one point of a run's history, so that a later change
    reruns from it instead of from the beginning.

    The state follows the first `sequence` matches, those ordered up to (`after_on`,
    `after_match_id`): month and day checkpoints stand at the first instant of a month or a day
    (`after_match_id` −1, so matches on that instant follow), the head (`head`) after the last
    rated match. `system_key`
    names the system the states were rated with (its parameters, as settled for the history)
    and `settled_value` what its settling found (crawford: a new player's deviation).

    A change that reaches back publishes first and rewrites the checkpoints after it next: until
    then they are not `ready`, and no run resumes from them."""

    run = models.ForeignKey(RatingRun, on_delete=models.DB_CASCADE, related_name="+", verbose_name=_("run"))
    head = models.BooleanField(default=False, verbose_name=_("head"))
    sequence = models.PositiveIntegerField(verbose_name=_("sequence"))
    after_on = models.DateTimeField(null=True, blank=True, verbose_name=_("after on"))
    after_match_id = models.BigIntegerField(default=-1, verbose_name=_("after match ID"))
    system_key = models.TextField(verbose_name=_("system key"))
    settled_value = models.FloatField(null=True, blank=True, verbose_name=_("settled value"))
    ready = models.BooleanField(default=True, verbose_name=_("ready"))

    class Meta:
        verbose_name = _("rating checkpoint")
        verbose_name_plural = _("rating checkpoints")
        indexes = [models.Index(fields=["run", "sequence"], name="rating_checkpoint_run")]

    def __str__(self) -> str:
        if self.head:
            return ngettext("run %(run)s: its head, after %(count)s match", "run %(run)s: its head, after %(count)s matches",
                            self.sequence) % {"run": self.run_id, "count": self.sequence}
        return ngettext("run %(run)s: a checkpoint after %(count)s match", "run %(run)s: a checkpoint after %(count)s matches",
                        self.sequence) % {"run": self.run_id, "count": self.sequence}


class RatingPlayerState(models.Model):
    """A player's working state at a checkpoint, exactly as the engine holds it: the engine's
    floating-point columns (`state_floats`: crawford μ, φ, σ², ln σ² and the day of the last
    match on the Glicko-2 scale, FIBS the rating) in `value_0`…, his experience, matches and
    last match."""

    checkpoint = models.ForeignKey(
        RatingCheckpoint, on_delete=models.DO_NOTHING, db_constraint=False, db_index=False, related_name="+",
        verbose_name=_("checkpoint")
    )
    player_id = models.BigIntegerField(verbose_name=_("player ID"))
    value_0 = models.FloatField(null=True, blank=True, verbose_name=_("value 0"))
    value_1 = models.FloatField(null=True, blank=True, verbose_name=_("value 1"))
    value_2 = models.FloatField(null=True, blank=True, verbose_name=_("value 2"))
    value_3 = models.FloatField(null=True, blank=True, verbose_name=_("value 3"))
    value_4 = models.FloatField(null=True, blank=True, verbose_name=_("value 4"))
    experience = models.BigIntegerField(verbose_name=_("experience"))
    matches = models.PositiveIntegerField(verbose_name=_("matches"))
    last_played = models.DateTimeField(null=True, blank=True, verbose_name=_("last played"))

    class Meta:
        verbose_name = _("rating player state")
        verbose_name_plural = _("rating player states")
        indexes = [models.Index(fields=["checkpoint", "player_id"], name="rating_state_player")]


class CalibrationStatus(models.TextChoices):
    REFUSED = "refused", _("Refused: too little history")
    NOT_BETTER = "not_better", _("Not better than the parameters in force")
    CANDIDATE = "candidate", _("Candidate: wins, awaiting a staff member's confirmation")
    ADOPTED = "adopted", _("Adopted")
    SUPERSEDED = "superseded", _("Superseded by a later adoption")


class RatingCalibration(models.Model):
    """Parameters of the variance-adjusted rating fitted on this site's own history
    (`manage.py calibrate_ratings`, `ratings.calibration`), with the figures that judged them.

    A fit that wins against the parameters in force by a margin its interval supports is a
    *candidate*; a staff member adopts it, which reruns the history with it. The latest adopted
    row is what every run uses (`ratings.calibrated.system_in_force`); none: the defaults in
    `ratings/systems/params.py`. `report` keeps the held-out figures as the command printed
    them; `reason` says in a sentence why it was adopted, or why not."""

    system = models.CharField(max_length=20, choices=SystemChoice.choices, default=SystemChoice.CRAWFORD,
                              verbose_name=_("system"))
    status = models.CharField(max_length=12, choices=CalibrationStatus.choices, verbose_name=_("status"))
    parameters = models.JSONField(default=dict, blank=True, verbose_name=_("parameters"))
    matches = models.PositiveIntegerField(help_text=_("Rated matches the fit saw (its history's whole length)."),
                                          verbose_name=_("matches"))
    reason = models.TextField(verbose_name=_("reason"))
    report = models.TextField(blank=True, verbose_name=_("report"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("created by")
    )
    adopted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("adopted at"))
    adopted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("adopted by")
    )

    class Meta:
        verbose_name = _("rating calibration")
        verbose_name_plural = _("rating calibrations")
        indexes = [models.Index(fields=["system", "status", "-adopted_at"], name="rating_calibration_status")]

    def __str__(self) -> str:
        return gettext("%(system)s calibration %(id)s: %(status)s") % {
            "system": self.system, "id": self.pk, "status": self.get_status_display()}


class RatingStart(models.Model):
    """Where a player's ratings start on this site, from another rating list (a federation's, a
    club's old one): `manage.py import_ratings`, the API and the admin.

    FIBS starts him at `rating` with `experience` points played; crawford at `rating` with a
    deviation that shrinks with the experience (`ratings.services.starts.start_deviation`), grown
    from `as_of` to his first match here. A start counts before the player's first rated match
    on this site; a recompute keeps it, and changing one reruns the whole history."""

    player = models.OneToOneField("games.Player", on_delete=models.CASCADE, related_name="rating_start",
                                  verbose_name=_("player"))
    rating = models.FloatField(verbose_name=_("rating"))
    experience = models.PositiveIntegerField(help_text=_("Points played before, on the list's own count."),
                                             verbose_name=_("experience"))
    as_of = models.DateField(help_text=_("The date of the list the start comes from."), verbose_name=_("as of"))
    source = models.CharField(max_length=200, blank=True, help_text=_("The file or list it came from."),
                              verbose_name=_("source"))
    imported_at = models.DateTimeField(auto_now=True, verbose_name=_("imported at"))
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("imported by")
    )

    class Meta:
        verbose_name = _("rating start")
        verbose_name_plural = _("rating starts")

    def __str__(self) -> str:
        return ngettext("player %(player)s: %(rating)s (%(count)s point) as of %(date)s",
                        "player %(player)s: %(rating)s (%(count)s points) as of %(date)s", self.experience) % {
            "player": self.player_id, "rating": number_format(self.rating, 1), "count": self.experience,
            "date": date_format(self.as_of)}


class HistoryAccountEntry(models.Model):
    """The history's account (`ratings.services.account`), kept by the database itself: a trigger
    on the matches' table adds one entry, in the writer's transaction, for every insert, update or
    delete that changes what the rated history amounts to (how many matches, and the checksum of
    their results). The account is the sum of the entries; a run folds them into one now and then,
    so reading it costs the same at any size of the history."""

    matches = models.BigIntegerField(help_text=_("Rated matches added (negative: removed)."), verbose_name=_("matches"))
    checksum = models.BigIntegerField(help_text=_("Their checksum terms added, less those removed."),
                                      verbose_name=_("checksum"))

    class Meta:
        verbose_name = _("history account entry")
        verbose_name_plural = _("history account entries")
