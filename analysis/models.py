"""GNU Backgammon's analysis of a stored match: per player figures and the worst decisions."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.db.models import F, Q
from django.utils import timezone

from games.models import Match, Player


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class MatchAnalysis(models.Model):
    """The analysis of one match's moves; at most one per match, redone when asked."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED)
    plies = models.PositiveSmallIntegerField(default=0)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    games_revision = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text="The match's games revision the analysed file describes: once the games change, the analysis is"
                  " stale (shown so, used by no rating) until a file that matches is analysed.",
    )
    error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "match analyses"
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="analysis_status_beat")]

    def __str__(self) -> str:
        return f"Analysis of match {self.match_id} ({self.status})"


class PlayerAnalysis(models.Model):
    """One player's figures in an analysed match, as GNU Backgammon's `show statistics match` has them."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="sides")
    side = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    total_moves = models.PositiveIntegerField()
    unforced_moves = models.PositiveIntegerField()
    doubtful = models.PositiveIntegerField()
    bad = models.PositiveIntegerField()
    very_bad = models.PositiveIntegerField()
    chequer_error = models.FloatField(help_text="Equity lost by chequer plays (EMG).")
    chequer_error_rate = models.FloatField(help_text="mEMG per unforced move.")
    total_cube_decisions = models.PositiveIntegerField()
    close_cube_decisions = models.PositiveIntegerField()
    doubles = models.PositiveIntegerField()
    takes = models.PositiveIntegerField()
    passes = models.PositiveIntegerField()
    cube_error = models.FloatField(help_text="Equity lost by cube decisions (EMG).")
    cube_error_rate = models.FloatField(help_text="mEMG per close or actual cube decision.")
    error_rate = models.FloatField(help_text="mEMG per decision, chequer and cube.")
    snowie_error_rate = models.FloatField()
    pr = models.FloatField(help_text="Performance rating: error rate / 2.")
    luck = models.FloatField(help_text="Luck total (EMG); positive is lucky.")
    luck_rate = models.FloatField(help_text="mEMG per move.")
    actual_result = models.FloatField(help_text="Match winning chance won: +0.5 for the winner, -0.5 for the loser.")
    luck_adjusted_result = models.FloatField()
    error_based_fibs_rating = models.FloatField()

    class Meta:
        ordering = ["analysis", "side"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "side"], name="analysis_one_row_per_side"),
            models.CheckConstraint(condition=Q(side__in=[0, 1]), name="analysis_side_is_a_side"),
        ]
        indexes = [models.Index(fields=["player", "analysis"], name="analysis_player")]


class DecisionKind(models.TextChoices):
    CHEQUER = "chequer", _("Chequer play")
    CUBE = "cube", _("Cube decision")


class Decision(models.Model):
    """One of the worst decisions of an analysed match, chequer play or cube decision, with the
    position to look at it again. Equity lost is GNU Backgammon's, in normalised equity (EMG: in
    match play, match winning chances turned into money-game equity at a cube of 1)."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions")
    rank = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    game = models.PositiveSmallIntegerField()
    move = models.PositiveSmallIntegerField(
        help_text="The roll's number in the game, from 1; a cube decision comes before that roll.")
    kind = models.CharField(max_length=12, choices=DecisionKind.choices, default=DecisionKind.CHEQUER)
    cube = models.PositiveIntegerField(default=1, help_text="The cube's value when the decision was made.")
    position_id = models.CharField(max_length=14)
    match_id = models.CharField(max_length=12)
    dice = models.CharField(max_length=3, blank=True)
    played = models.CharField(max_length=80, help_text='The play made, or the cube action: "No double", '
                              '"Double", "Redouble", "Take", "Pass".')
    best = models.CharField(max_length=80, help_text='The best play, or the right cube action: "Double, take", '
                            '"No double", "Too good to double", "Pass"...')
    equity_lost = models.FloatField(help_text="Normalised equity lost (EMG), as GNU Backgammon counts it.")
    skill = models.CharField(max_length=12, blank=True)

    class Meta:
        ordering = ["analysis", "rank"]
        constraints = [models.UniqueConstraint(fields=["analysis", "rank"], name="analysis_decision_rank_unique")]

    OFFERS = ("Double", "Redouble")
    RESPONSES = ("Take", "Pass")

    @property
    def before_roll(self) -> bool:
        """A cube decision not to double (`played` "No double", "No redouble"): it was made
        before the roll it is numbered with, in the position the player could have doubled in."""
        return self.kind == DecisionKind.CUBE and self.played not in self.OFFERS + self.RESPONSES


def current_analysis(path: str = "", *, match: str | None = None) -> Q:
    """The condition that an analysis (reached through `path`, e.g. "analysis__") is finished and still
    describes its match's games (`match`: the path to that match's fields, by default `path` + "match__";
    "" from the match itself). Figures of a failed, unfinished or stale analysis are never shown as the
    match's nor used by a rating."""
    match = f"{path}match__" if match is None else match
    return Q(**{f"{path}status": AnalysisStatus.DONE, f"{path}games_revision": F(f"{match}games_revision")})
