from django.utils.translation import gettext_lazy
from rest_framework import serializers

from .models import Decision, PlayerAnalysis


class PlayerFiguresSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = PlayerAnalysis
        fields = [
            "side", "player", "player_name", "pr", "error_rate", "snowie_error_rate", "chequer_error",
            "chequer_error_rate", "cube_error", "cube_error_rate", "total_moves", "unforced_moves", "doubtful",
            "bad", "very_bad", "total_cube_decisions", "close_cube_decisions", "doubles", "takes", "passes",
            "luck", "luck_rate", "actual_result", "luck_adjusted_result", "error_based_fibs_rating",
        ]


class DecisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Decision
        fields = ["rank", "side", "game", "move", "kind", "cube", "position_id", "match_id", "dice", "played",
                  "best", "equity_lost", "skill"]


class MatchAnalysisSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["none", "queued", "running", "done", "failed"])
    available = serializers.BooleanField(help_text=gettext_lazy("Whether this server runs GNU Backgammon's analysis."))
    plies = serializers.IntegerField(allow_null=True)
    analysed_at = serializers.DateTimeField(allow_null=True)
    error = serializers.CharField(allow_blank=True)
    players = PlayerFiguresSerializer(many=True)
    worst = DecisionSerializer(many=True)


class TrendPointSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="analysis__match_id")
    played_on = serializers.DateTimeField(source="analysis__match__played_on")
    length = serializers.IntegerField(source="analysis__match__length")
    pr = serializers.FloatField()
    luck = serializers.FloatField()
    luck_adjusted_result = serializers.FloatField()


class PlayerAnalysisSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    matches = serializers.IntegerField(help_text=gettext_lazy("Analysed matches."))
    pr = serializers.FloatField(allow_null=True, help_text=gettext_lazy("Average PR over the analysed matches."))
    luck = serializers.FloatField(help_text=gettext_lazy("Luck total over the analysed matches (EMG)."))
    trend = TrendPointSerializer(many=True)


class EventPlayerPRSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player__name")
    matches = serializers.IntegerField()
    pr = serializers.FloatField()
    luck = serializers.FloatField()
