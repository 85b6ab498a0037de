"""Players, matches and games. Rows hold what was recorded; the rules live in `engine.scoring`.

A match's score, Crawford game, winner and state are derived from its games by the services
(`games.services`) through `MatchScore`, and stored here only so that lists can filter on them.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from simple_history.models import HistoricalRecords

from .engine.scoring import GameEnd, MatchKind, MatchRules, ResultKind, SessionRules


class Player(models.Model):
    name = models.CharField(max_length=120, db_index=True)
    country = models.CharField(max_length=2, blank=True, help_text="ISO 3166 two-letter code, e.g. DK.")
    club = models.CharField(max_length=120, blank=True)
    federation_id = models.CharField(
        max_length=40, blank=True, null=True, unique=True, help_text="The player's number at his federation."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name", "id"]
        indexes = [models.Index(Lower("name"), name="player_name_lower")]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


class MatchKindChoice(models.TextChoices):
    MATCH = MatchKind.MATCH.value, "Match to N points"
    SESSION = MatchKind.SESSION.value, "Money session"


class ResultKindChoice(models.TextChoices):
    """Result kinds by name, as the API spells them."""

    SINGLE = "single", "Single"
    GAMMON = "gammon", "Gammon"
    BACKGAMMON = "backgammon", "Backgammon"


class MatchStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    FORFEITED = "forfeited", "Forfeited"


class Match(models.Model):
    """Two players, the rules they play under, and the state derived from their games."""

    player_a = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=MatchKindChoice.choices)
    length = models.PositiveSmallIntegerField(help_text="Points to win; 0 for a money session.")
    cube_cap = models.PositiveIntegerField(null=True, blank=True, help_text="Highest cube value; empty for none.")
    jacoby = models.BooleanField(default=False)
    beavers = models.BooleanField(default=False)
    raccoons = models.BooleanField(default=False)
    automatic_doubles = models.BooleanField(default=False)
    automatic_double_cap = models.PositiveSmallIntegerField(default=0)
    played_on = models.DateTimeField(db_index=True)
    rated = models.BooleanField(default=True, help_text="Unrated matches (friendlies) never count for ratings.")
    source = models.CharField(max_length=20, default="manual", help_text="manual, mat, csv …")
    source_key = models.CharField(
        max_length=200, null=True, blank=True, unique=True, help_text="Identity of an imported match, for idempotence."
    )

    # Derived from the games by the services.
    status = models.CharField(max_length=12, choices=MatchStatus.choices, default=MatchStatus.IN_PROGRESS)
    score_a = models.PositiveIntegerField(default=0)
    score_b = models.PositiveIntegerField(default=0)
    crawford_game = models.PositiveSmallIntegerField(null=True, blank=True)
    post_crawford = models.BooleanField(default=False)
    winner = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    forfeited_by = models.ForeignKey(Player, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0, help_text="Raised by every write; guards against lost updates.")

    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["-played_on", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(condition=~Q(player_a=models.F("player_b")), name="match_two_different_players"),
            models.CheckConstraint(
                condition=Q(kind=MatchKind.MATCH, length__gte=1) | Q(kind=MatchKind.SESSION, length=0),
                name="match_length_fits_kind",
            ),
        ]
        indexes = [models.Index(fields=["status", "played_on"])]

    def __str__(self) -> str:
        what = f"{self.length}-point match" if self.kind == MatchKind.MATCH else "money session"
        return f"{self.player_a.name} v {self.player_b.name}, {what}"

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

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField(choices=[(0, "Player A"), (1, "Player B")])
    end = models.CharField(max_length=16, choices=[(e.value, e.name.replace("_", " ").capitalize()) for e in GameEnd])
    kind = models.PositiveSmallIntegerField(choices=[(k.value, k.name.title()) for k in ResultKind])
    cube = models.PositiveIntegerField(default=1)
    cube_owner = models.PositiveSmallIntegerField(null=True, blank=True, choices=[(0, "Player A"), (1, "Player B")])
    beavered = models.BooleanField(default=False)
    raccooned = models.BooleanField(default=False)
    automatic_doubles = models.PositiveSmallIntegerField(default=0)
    points = models.PositiveIntegerField()
    crawford = models.BooleanField(default=False)
    score_a_after = models.PositiveIntegerField()
    score_b_after = models.PositiveIntegerField()
    moves = models.JSONField(null=True, blank=True, help_text="The game's turns, when a match file gave them.")
    recorded_at = models.DateTimeField(auto_now=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(condition=Q(winner__in=[0, 1]), name="game_winner_is_a_side"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number}"


class MatchFile(models.Model):
    """An uploaded or imported match file, kept with the match it verified."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="match_file")
    name = models.CharField(max_length=255)
    text = models.TextField()
    sha256 = models.CharField(max_length=64, unique=True)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    def __str__(self) -> str:
        return self.name
