"""How ratings look in the API. Read-only shapes; no rules."""

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from games.people import RATING_OFFICE, public_name

from .models import OfficialList, OfficialListRow, Rating, RatingChange, RatingRun


class RatingSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    country = serializers.CharField(source="player.country")
    club = serializers.CharField(source="player.club")

    class Meta:
        model = Rating
        fields = [
            "player", "name", "country", "club", "system", "rating", "deviation", "volatility", "experience",
            "matches", "last_played", "provisional",
        ]


class RatingChangeSerializer(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    opponent = serializers.IntegerField(source="opponent_id")
    opponent_name = serializers.CharField(source="opponent.name")
    delta = serializers.FloatField()

    class Meta:
        model = RatingChange
        fields = [
            "match", "played_on", "length", "opponent", "opponent_name", "won", "rating_before", "rating_after",
            "delta", "deviation_before", "deviation_after", "expected",
        ]


class RatingRunSerializer(serializers.ModelSerializer):
    progress = serializers.FloatField(allow_null=True)

    class Meta:
        model = RatingRun
        fields = [
            "id", "system", "status", "stage", "requested_at", "started_at", "heartbeat_at", "finished_at",
            "matches_total", "matches_done", "progress", "players", "published", "error",
        ]


class RatingListQuerySerializer(serializers.Serializer):
    """The filters of the rating list, read from the query string (empty means no filter)."""

    system = serializers.CharField(required=False, allow_blank=True, default="")
    country = serializers.CharField(required=False, allow_blank=True, default="")
    club = serializers.CharField(required=False, allow_blank=True, default="")
    provisional = serializers.CharField(required=False, allow_blank=True, default="")


class RecomputeRequestSerializer(serializers.Serializer):
    system = serializers.CharField(required=False, allow_blank=True, help_text=gettext_lazy("fibs, crawford, or skill where enabled; every enabled system by default."))


class ForecastSideSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField(allow_null=True)
    provisional = serializers.BooleanField()


class ForecastSerializer(serializers.Serializer):
    system = serializers.CharField()
    length = serializers.IntegerField()
    a = ForecastSideSerializer()
    b = ForecastSideSerializer()
    p_a = serializers.FloatField(help_text=gettext_lazy("Player A's chance to win the match."))
    p_b = serializers.FloatField(help_text=gettext_lazy("Player B's chance to win the match."))
    difference_deviation = serializers.FloatField(allow_null=True)
    p_a_low = serializers.FloatField(
        allow_null=True,
        # xgettext:no-python-format
        help_text=gettext_lazy("95% interval for p_a (variance-adjusted only)."),
    )
    p_a_high = serializers.FloatField(allow_null=True)
    as_of = serializers.DateField(allow_null=True, help_text=gettext_lazy("The day whose ratings the forecast used (null: today's)."))


class OfficialListSerializer(serializers.ModelSerializer):
    published_by = serializers.SerializerMethodField(
        help_text=gettext_lazy("The name the publisher chose to show (never his login name); null when unknown."))

    class Meta:
        model = OfficialList
        fields = ["id", "system", "as_of", "rated_at", "published_at", "published_by", "note", "players"]

    def get_published_by(self, official) -> str | None:
        return public_name(official.published_by, RATING_OFFICE) if official.published_by_id else None


@extend_schema_serializer(description=gettext_lazy(
    "What staff send to publish an official list; the rules are the service's."))
class OfficialListPublishSerializer(serializers.Serializer):
    system = serializers.CharField()
    as_of = serializers.DateField(help_text=gettext_lazy("The list's date, YYYY-MM-DD."))
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)


class OfficialListRowSerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    country = serializers.CharField(source="player.country")
    club = serializers.CharField(source="player.club")
    previous_rank = serializers.SerializerMethodField(help_text=gettext_lazy("His rank on the list before; null if unranked or new."))
    previous_rating = serializers.SerializerMethodField(help_text=gettext_lazy("His rating on the list before; null if new."))
    change = serializers.SerializerMethodField(help_text=gettext_lazy("Rating change since the list before; null if new."))

    class Meta:
        model = OfficialListRow
        fields = ["rank", "player", "name", "country", "club", "rating", "deviation", "provisional", "matches",
                  "experience", "previous_rank", "previous_rating", "change"]

    def _then(self, row):
        return self.context.get("then", {}).get(row.player_id)

    def get_previous_rank(self, row) -> int | None:
        then = self._then(row)
        return then.rank if then else None

    def get_previous_rating(self, row) -> float | None:
        then = self._then(row)
        return then.rating if then else None

    def get_change(self, row) -> float | None:
        then = self._then(row)
        return then.change if then else None
