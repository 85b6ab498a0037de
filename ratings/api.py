"""REST API for ratings: the list, a player's history, runs, predictions, and a recompute request."""

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import flag
from games.models import Player

from . import selectors, services
from .serializers import (
    ForecastSerializer,
    RatingChangeSerializer,
    RatingListQuerySerializer,
    RatingRunSerializer,
    RatingSerializer,
    RecomputeRequestSerializer,
)

SYSTEM = OpenApiParameter("system", OpenApiTypes.STR, description="fibs (default) or crawford")


@extend_schema(
    parameters=[
        SYSTEM,
        OpenApiParameter("country", OpenApiTypes.STR),
        OpenApiParameter("club", OpenApiTypes.STR),
        OpenApiParameter("provisional", OpenApiTypes.BOOL),
    ]
)
class RatingListView(generics.ListAPIView):
    """The published rating list of a system, highest first."""

    serializer_class = RatingSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends = []

    def get_queryset(self):
        query = RatingListQuerySerializer(data=self.request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        return selectors.rating_list(
            system=params["system"] or "fibs",
            country=params["country"] or None,
            club=params["club"] or None,
            provisional=flag(params["provisional"], "provisional"),
        )


@extend_schema(parameters=[SYSTEM])
class RatingHistoryView(generics.ListAPIView):
    """A player's rating, match by match, as the published run rated it."""

    serializer_class = RatingChangeSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends = []

    def get_queryset(self):
        player = generics.get_object_or_404(Player.objects.only("pk"), pk=self.kwargs["player_id"])
        return selectors.rating_history(player_id=player.pk, system=self.request.query_params.get("system") or "fibs")


class RatingRunListView(APIView):
    """The latest recompute of each system, with its progress."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=RatingRunSerializer(many=True))
    def get(self, request):
        return Response(RatingRunSerializer(selectors.rating_runs_latest(), many=True).data)


class RecomputeView(APIView):
    """Staff: ask for a recompute (joins a queued one when there is one)."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=RecomputeRequestSerializer, responses={202: RatingRunSerializer(many=True)})
    def post(self, request):
        serializer = RecomputeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        queued = services.rating_recompute_request(system=serializer.validated_data.get("system") or None)
        return Response(RatingRunSerializer(queued, many=True).data, status=status.HTTP_202_ACCEPTED)


class PredictView(APIView):
    """Each player's chance to win a match of `length` points, with the uncertainty."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", OpenApiTypes.STR, required=True, description="Player A: id or name"),
            OpenApiParameter("b", OpenApiTypes.STR, required=True, description="Player B: id or name"),
            OpenApiParameter("length", OpenApiTypes.INT, required=True),
            SYSTEM,
        ],
        responses=ForecastSerializer,
    )
    def get(self, request):
        params = request.query_params
        forecast = selectors.match_forecast(
            player_a=params.get("a", ""), player_b=params.get("b", ""), length=params.get("length", ""),
            system=params.get("system") or "fibs",
        )
        return Response(ForecastSerializer(forecast.as_dict()).data)
