"""GNU Backgammon's analysis of a stored match: per player figures and the worst decisions."""

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.db.models import F, Q
from django.utils import timezone

from config.languages import list_join
from games.engine.errors import MarkedRefusal, marked_read
from games.models import Match, Player


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


def error_fields(error: Exception) -> tuple[str, dict]:
    """How an analysis's error is stored: its English text (`error`, cut to 2,000 characters), and,
    for a marked refusal (`MarkedRefusal`), its message and values (`error_marked`), which are read
    in each reader's language. A value that is not plain data (another refusal) is kept as its
    English text."""
    if not isinstance(error, MarkedRefusal):
        return str(error)[:2000], {}
    template = error.template
    marked: dict = (
        {"message": template[0], "plural": template[1], "count": template[2]}
        if isinstance(template, tuple) else {"message": template}
    )
    params = {key: _plain(value) for key, value in error.params.items()}
    if params:
        marked["params"] = params
    return error.args[0][:2000], marked


def _plain(value):
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    return value.args[0] if isinstance(value, MarkedRefusal) else str(value)


def marked_message(marked: dict) -> str | tuple[str, str, int]:
    """The marked message of a stored `error_marked`: the message, or (singular, plural, count)."""
    if "plural" in marked:
        return marked["message"], marked["plural"], marked["count"]
    return marked["message"]


class MatchAnalysis(models.Model):
    """The analysis of one match's moves; at most one per match, redone when asked."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="analysis", verbose_name=_("match"))
    status = models.CharField(max_length=8, choices=AnalysisStatus.choices, default=AnalysisStatus.QUEUED,
                              verbose_name=_("status"))
    plies = models.PositiveSmallIntegerField(default=0, verbose_name=_("plies"))
    queued_at = models.DateTimeField(default=timezone.now, verbose_name=_("queued at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    heartbeat_at = models.DateTimeField(null=True, blank=True, verbose_name=_("heartbeat at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    attempts = models.PositiveSmallIntegerField(default=0, verbose_name=_("attempts"))
    games_revision = models.PositiveIntegerField(
        default=0, db_default=0,
        help_text=_("The match's games revision the analysed file describes: once the games change, the analysis is"
                    " stale (shown so, used by no rating) until a file that matches is analysed."),
                  verbose_name=_("games revision")
    )
    # Why the analysis failed. `error_marked` holds Crawford's marked message and its values (see
    # `error_fields`), read in each reader's language (`error_text`); `error` the same in English,
    # or the text of an unexpected error, or, for an analysis that failed before errors were
    # marked, the text as it was written then, in the site's language.
    error = models.TextField(blank=True, verbose_name=_("error"))
    error_marked = models.JSONField(default=dict, blank=True, verbose_name=_("error message and values"))

    class Meta:
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [models.Index(fields=["status", "heartbeat_at"], name="analysis_status_beat")]

    @property
    def error_text(self) -> str:
        """Why the analysis failed, in the reader's language (the active one): the marked message
        when there is one, else the text as it was stored (an analysis that failed before errors
        were marked, in the site's language then; or an unexpected error's own words)."""
        if not self.error_marked:
            return self.error
        params = {key: list_join(value) if isinstance(value, list) else value
                  for key, value in (self.error_marked.get("params") or {}).items()}
        return marked_read(marked_message(self.error_marked), params or None)

    def __str__(self) -> str:
        return gettext("Analysis of match %(match)s (%(status)s)") % {"match": self.match_id,
                                                                     "status": self.get_status_display()}


class PlayerAnalysis(models.Model):
    """One player's figures in an analysed match, as GNU Backgammon's `show statistics match` has them."""

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="sides",
                                 verbose_name=_("analysis"))
    side = models.PositiveSmallIntegerField(verbose_name=_("side"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    total_moves = models.PositiveIntegerField(verbose_name=_("total moves"))
    unforced_moves = models.PositiveIntegerField(verbose_name=_("unforced moves"))
    doubtful = models.PositiveIntegerField(verbose_name=_("doubtful"))
    bad = models.PositiveIntegerField(verbose_name=_("bad"))
    very_bad = models.PositiveIntegerField(verbose_name=_("very bad"))
    chequer_error = models.FloatField(help_text=_("Equity lost by chequer plays (EMG)."),
                                      verbose_name=_("chequer error"))
    chequer_error_rate = models.FloatField(help_text=_("mEMG per unforced move."), verbose_name=_("chequer error rate"))
    total_cube_decisions = models.PositiveIntegerField(verbose_name=_("total cube decisions"))
    close_cube_decisions = models.PositiveIntegerField(verbose_name=_("close cube decisions"))
    doubles = models.PositiveIntegerField(verbose_name=_("doubles"))
    takes = models.PositiveIntegerField(verbose_name=_("takes"))
    passes = models.PositiveIntegerField(verbose_name=_("passes"))
    cube_error = models.FloatField(help_text=_("Equity lost by cube decisions (EMG)."), verbose_name=_("cube error"))
    cube_error_rate = models.FloatField(help_text=_("mEMG per close or actual cube decision."),
                                        verbose_name=_("cube error rate"))
    error_rate = models.FloatField(help_text=_("mEMG per decision, chequer and cube."), verbose_name=_("error rate"))
    snowie_error_rate = models.FloatField(verbose_name=_("snowie error rate"))
    pr = models.FloatField(help_text=_("Performance rating: error rate / 2."), verbose_name=_("PR"))
    luck = models.FloatField(help_text=_("Luck total (EMG); positive is lucky."), verbose_name=_("luck"))
    luck_rate = models.FloatField(help_text=_("mEMG per move."), verbose_name=_("luck rate"))
    actual_result = models.FloatField(help_text=_("Match winning chance won: +0.5 for the winner, -0.5 for the loser."),
                                      verbose_name=_("actual result"))
    luck_adjusted_result = models.FloatField(verbose_name=_("luck adjusted result"))
    error_based_fibs_rating = models.FloatField(verbose_name=_("error based fibs rating"))

    class Meta:
        verbose_name = _("player analysis")
        verbose_name_plural = _("player analyses")
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

    analysis = models.ForeignKey(MatchAnalysis, on_delete=models.CASCADE, related_name="decisions",
                                 verbose_name=_("analysis"))
    rank = models.PositiveSmallIntegerField(verbose_name=_("rank"))
    side = models.PositiveSmallIntegerField(verbose_name=_("side"))
    game = models.PositiveSmallIntegerField(verbose_name=_("game"))
    move = models.PositiveSmallIntegerField(
        help_text=_("The roll's number in the game, from 1; a cube decision comes before that roll."),
        verbose_name=_("move"))
    kind = models.CharField(max_length=12, choices=DecisionKind.choices, default=DecisionKind.CHEQUER,
                            verbose_name=_("kind"))
    cube = models.PositiveIntegerField(default=1, help_text=_("The cube's value when the decision was made."),
                                       verbose_name=_("cube"))
    position_id = models.CharField(max_length=14, verbose_name=_("position ID"))
    match_id = models.CharField(max_length=12, verbose_name=_("match ID"))
    dice = models.CharField(max_length=3, blank=True, verbose_name=_("dice"))
    played = models.CharField(max_length=80, help_text=_('The play made, or the cube action: "No double", '
                                '"Double", "Redouble", "Take", "Pass".'), verbose_name=_("played"))
    best = models.CharField(max_length=80, help_text=_('The best play, or the right cube action: "Double, take", '
                              '"No double", "Too good to double", "Pass"...'), verbose_name=_("best"))
    equity_lost = models.FloatField(help_text=_("Normalised equity lost (EMG), as GNU Backgammon counts it."),
                                    verbose_name=_("equity lost"))
    skill = models.CharField(max_length=12, blank=True, verbose_name=_("skill"))

    class Meta:
        verbose_name = _("decision")
        verbose_name_plural = _("decisions")
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
