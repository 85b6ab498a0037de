"""Shapes of players, matches and games in the API. No rules here: the services hold them."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_noop
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from config.api import id_field

from .engine.scoring import GameEnd, MatchKind, ResultKind
from .models import Game, ImportJob, Match, MatchKindChoice, Player, ResultKindChoice
from .services import GameInput


class PlayerSerializer(serializers.ModelSerializer):
    confirm_duplicate = serializers.BooleanField(
        write_only=True, required=False, default=False,
        help_text=gettext_lazy("Add this player even though one of the same name and club exists."),
    )
    create = serializers.BooleanField(
        write_only=True, required=False, default=False,
        help_text=gettext_lazy("Add a new player even though the name is near other players' (without it, such a name is"
                  " refused with the candidates, to use one of them instead)."),
    )

    class Meta:
        model = Player
        fields = ["id", "name", "country", "club", "federation_id", "confirm_duplicate", "create"]
        extra_kwargs = {"federation_id": {"validators": []}}


class PlayerBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "country", "club"]


class GameSerializer(serializers.ModelSerializer):
    winner = serializers.SerializerMethodField(help_text=gettext_lazy("Player id of the winner."))
    cube_owner = serializers.SerializerMethodField(help_text=gettext_lazy("Player id of the cube's owner; null if centred."))
    kind = serializers.SerializerMethodField()
    score_after = serializers.SerializerMethodField()
    has_moves = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "number", "winner", "end", "kind", "cube", "cube_owner", "beavered", "raccooned",
            "automatic_doubles", "points", "crawford", "score_after", "has_moves",
        ]

    def _player_id(self, game: Game, side):
        if side is None:
            return None
        return game.match.player_a_id if side == 0 else game.match.player_b_id

    def get_winner(self, game: Game) -> int:
        return self._player_id(game, game.winner)

    def get_cube_owner(self, game: Game) -> int | None:
        return self._player_id(game, game.cube_owner)

    @extend_schema_field(serializers.ChoiceField(choices=ResultKindChoice.choices))
    def get_kind(self, game: Game) -> str:
        return ResultKind(game.kind).label

    def get_score_after(self, game: Game) -> list[int]:
        return [game.score_a_after, game.score_b_after]

    def get_has_moves(self, game: Game) -> bool:
        return bool(game.moves)


class MatchSerializer(serializers.ModelSerializer):
    player_a = PlayerBriefSerializer()
    player_b = PlayerBriefSerializer()
    score = serializers.SerializerMethodField()
    winner = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    forfeited_by = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    next_game = serializers.SerializerMethodField(help_text=gettext_lazy("Number of the next game; null once the match is over."))
    next_game_is_crawford = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id", "player_a", "player_b", "kind", "length", "crawford_rule", "variation", "cube_cap", "jacoby",
            "beavers", "raccoons", "automatic_doubles", "automatic_double_cap", "played_on", "rated", "source", "status", "score",
            "crawford_game", "post_crawford", "next_game", "next_game_is_crawford", "winner", "forfeited_by",
            "finished_at", "version",
        ]

    def get_score(self, match: Match) -> list[int]:
        return [match.score_a, match.score_b]

    def get_next_game(self, match: Match) -> int | None:
        if match.finished:
            return None
        count = getattr(match, "game_count", None)
        if count is None:
            count = len(match.games.all())
        return count + 1

    def get_next_game_is_crawford(self, match: Match) -> bool:
        next_game = self.get_next_game(match)
        return next_game is not None and match.crawford_game == next_game


RATINGS_FOLLOW = gettext_noop("Saved. Its ratings are recomputed in the background and follow shortly.")


class MatchDetailSerializer(MatchSerializer):
    games = GameSerializer(many=True, read_only=True)
    ratings = serializers.SerializerMethodField(
        help_text=gettext_lazy("What happens to the ratings: a rated result is rated in the background, after the answer "
        "(also when the worker or its broker is down for a while: it is rated once they are back).")
    )

    class Meta(MatchSerializer.Meta):
        fields = MatchSerializer.Meta.fields + ["games", "ratings"]

    def get_ratings(self, match) -> str:
        if not match.rated:
            return _("This match is not rated.")
        if match.status == "forfeited":
            return _("A forfeit is never rated.")
        if match.status != "finished":
            return _("It is rated once the match is over.")
        return _(RATINGS_FOLLOW)


class MatchCreateSerializer(serializers.Serializer):
    player_a = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), pk_field=id_field())
    player_b = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), pk_field=id_field())
    kind = serializers.ChoiceField(choices=MatchKindChoice.choices, default=MatchKind.MATCH.value)
    length = serializers.IntegerField(min_value=0, max_value=99, default=0)
    cube_cap = serializers.IntegerField(min_value=2, required=False, allow_null=True, default=None)
    jacoby = serializers.BooleanField(default=False)
    beavers = serializers.BooleanField(default=False)
    raccoons = serializers.BooleanField(default=False)
    automatic_doubles = serializers.BooleanField(default=False)
    automatic_double_cap = serializers.IntegerField(min_value=0, max_value=10, default=0)
    played_on = serializers.DateTimeField(required=False)
    rated = serializers.BooleanField(default=True)


@extend_schema_serializer(description=gettext_lazy(
    "One game of a score sheet. Players are given by their ids."))
class GameInputSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        min_value=1, max_value=999,
        help_text=gettext_lazy("The game's number in the match. Two people entering the same number: one gets 409."),
    )
    winner = serializers.IntegerField(help_text=gettext_lazy("Player id of the winner."))
    end = serializers.ChoiceField(choices=[e.value for e in GameEnd], default=GameEnd.PLAYED_OUT.value)
    kind = serializers.ChoiceField(choices=ResultKindChoice.choices, default="single")
    cube = serializers.IntegerField(min_value=1, max_value=2**30, default=1)
    cube_owner = serializers.IntegerField(required=False, allow_null=True, default=None,
                                          help_text=gettext_lazy("Player id of the cube's owner; null if centred or unknown."))
    beavered = serializers.BooleanField(default=False)
    raccooned = serializers.BooleanField(default=False)
    automatic_doubles = serializers.IntegerField(min_value=0, max_value=10, default=0)
    points = serializers.IntegerField(min_value=1, max_value=2**32, required=False, allow_null=True, default=None,
                                      help_text=gettext_lazy("Points won; checked against kind × cube when given."))
    version = serializers.IntegerField(required=False, allow_null=True, default=None,
                                       help_text=gettext_lazy("The match version you saw; a different one gives 409."))
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)

    def validate(self, data):
        match = self.context["match"]
        sides = {match.player_a_id: 0, match.player_b_id: 1}
        errors = {}
        if data["winner"] not in sides:
            errors["winner"] = [_("The winner must be one of the players of this match (%(player_a)s or %(player_b)s).")
                                % {"player_a": match.player_a_id, "player_b": match.player_b_id}]
        owner = data.get("cube_owner")
        if owner is not None and owner not in sides:
            errors["cube_owner"] = [_("The cube's owner must be one of the players of this match, or null.")]
        if errors:
            raise serializers.ValidationError(errors)
        data["winner_side"] = sides[data["winner"]]
        data["cube_owner_side"] = None if owner is None else sides[owner]
        return data

    def game_input(self) -> GameInput:
        """The validated game as the services take it (players by side, the kind by its name)."""
        data = self.validated_data
        return GameInput(
            winner=data["winner_side"], end=data["end"], kind=data["kind"], cube=data["cube"],
            cube_owner=data["cube_owner_side"], beavered=data["beavered"], raccooned=data["raccooned"],
            automatic_doubles=data["automatic_doubles"], points=data["points"],
        )


class ForfeitSerializer(serializers.Serializer):
    forfeited_by = serializers.IntegerField(help_text=gettext_lazy("Player id of the player who gives the match up."))
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class UndoSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


class MatchFileUploadSerializer(serializers.Serializer):
    file = serializers.FileField(help_text=gettext_lazy("A .mat / .txt match file as GNU Backgammon, eXtreme Gammon or BGBlitz write."))


class MatchFileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    sha256 = serializers.CharField()
    uploaded_at = serializers.DateTimeField()
    match = serializers.IntegerField(source="match_id")


class FinalScoreSerializer(serializers.Serializer):
    score_a = serializers.IntegerField(min_value=0, max_value=9999)
    score_b = serializers.IntegerField(min_value=0, max_value=9999)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    version = serializers.IntegerField(required=False, allow_null=True, default=None)


@extend_schema_serializer(description=gettext_lazy(
    "One version in a match's audit trail: of the match itself, or of one of its games."))
class HistoryEntrySerializer(serializers.Serializer):
    at = serializers.DateTimeField()
    what = serializers.ChoiceField(choices=["match", "game"])
    action = serializers.ChoiceField(choices=["created", "changed", "deleted"])
    by = serializers.CharField(allow_null=True, help_text=gettext_lazy(
        "Who made the change; null when not known, or for readers other than staff, the event's TDs and the "
        "players."))
    reason = serializers.CharField(allow_null=True, help_text=gettext_lazy("Why; null as `by` is."))
    number = serializers.IntegerField(required=False, help_text=gettext_lazy("Game versions only."))
    winner = serializers.IntegerField(required=False, help_text=gettext_lazy("Game versions only: side 0 or 1."))
    end = serializers.CharField(required=False, help_text=gettext_lazy("Game versions only."))
    kind = serializers.IntegerField(required=False, help_text=gettext_lazy("Game versions only: 1, 2 or 3."))
    cube = serializers.IntegerField(required=False, help_text=gettext_lazy("Game versions only."))
    points = serializers.IntegerField(required=False, help_text=gettext_lazy("Game versions only."))
    status = serializers.CharField(required=False, help_text=gettext_lazy("Match versions only."))
    score = serializers.ListField(child=serializers.IntegerField(), required=False, help_text=gettext_lazy("Match versions only."))
    version = serializers.IntegerField(required=False, help_text=gettext_lazy("Match versions only."))


@extend_schema_serializer(description=gettext_lazy(
    "An import running in the background: poll it until `status` is done or failed."))
class ImportJobSerializer(serializers.ModelSerializer):
    stalled = serializers.SerializerMethodField(help_text=gettext_lazy("Running, but its worker stopped reporting: it is queued again."))
    page = serializers.SerializerMethodField(help_text=gettext_lazy("The page that shows its progress bar (staff)."))

    class Meta:
        model = ImportJob
        fields = [
            "id", "kind", "name", "status", "rows_done", "rows_total", "errors", "result", "note", "attempts",
            "stalled", "created_at", "started_at", "heartbeat_at", "finished_at", "page",
        ]
        read_only_fields = fields

    def get_stalled(self, job: ImportJob) -> bool:
        from .imports import import_job_stalled

        return import_job_stalled(job)

    def get_page(self, job: ImportJob) -> str:
        from django.urls import reverse

        return reverse("import-job", args=[job.pk])
