"""REST API for ratings: the list, a player's history, runs, predictions, a recompute request, and
official lists."""

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import flag
from games.models import Player
from games.people import related_names
from games.permissions import api_door

from . import selectors, services
from .models import OfficialList
from .permissions import may_import_ratings, may_publish_rating_list, may_recompute
from .serializers import (
    ForecastSerializer,
    OfficialListPublishSerializer,
    OfficialListRowSerializer,
    OfficialListSerializer,
    RatingChangeSerializer,
    RatingListQuerySerializer,
    RatingRunSerializer,
    RatingSerializer,
    RecomputeRequestSerializer,
)

SYSTEM = OpenApiParameter("system", OpenApiTypes.STR, description=gettext_lazy("fibs (default), crawford, or skill (crawford, luck-adjusted) where it is enabled"))


@extend_schema(
    parameters=[
        SYSTEM,
        OpenApiParameter("country", OpenApiTypes.STR),
        OpenApiParameter("club", OpenApiTypes.STR),
        OpenApiParameter("provisional", OpenApiTypes.BOOL),
    ],
    description=gettext_lazy("The published rating list of a system, highest first."),
)
class RatingListView(generics.ListAPIView):
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


@extend_schema(parameters=[SYSTEM], description=gettext_lazy(
    "A player's rating, match by match, as the published run rated it."))
class RatingHistoryView(generics.ListAPIView):
    serializer_class = RatingChangeSerializer
    permission_classes = [permissions.AllowAny]
    filter_backends = []

    def get_queryset(self):
        player = generics.get_object_or_404(Player.objects.only("pk"), pk=self.kwargs["player_id"])
        return selectors.rating_history(player_id=player.pk, system=self.request.query_params.get("system") or "fibs")


@extend_schema(description=gettext_lazy(
    "The latest recompute of each system, with its progress."))
class RatingRunListView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=RatingRunSerializer(many=True))
    def get(self, request):
        return Response(RatingRunSerializer(selectors.rating_runs_latest(), many=True).data)


@extend_schema(description=gettext_lazy(
    "Staff: ask for a recompute (joins a queued one when there is one)."))
class RecomputeView(APIView):
    permission_classes = [api_door(may_recompute)]

    @extend_schema(request=RecomputeRequestSerializer, responses={202: RatingRunSerializer(many=True)})
    def post(self, request):
        serializer = RecomputeRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        queued = services.rating_recompute_request(system=serializer.validated_data.get("system") or None)
        return Response(RatingRunSerializer(queued, many=True).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(description=gettext_lazy(
    "Each player's chance to win a match of `length` points, with the uncertainty."))
class PredictView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", OpenApiTypes.STR, required=True, description=gettext_lazy("Player A: id or name")),
            OpenApiParameter("b", OpenApiTypes.STR, required=True, description=gettext_lazy("Player B: id or name")),
            OpenApiParameter("length", OpenApiTypes.INT, required=True),
            SYSTEM,
            OpenApiParameter("as_of", OpenApiTypes.DATE, description=gettext_lazy(
                "YYYY-MM-DD, not after today: the players' ratings at the end of that day (results played later "
                "count for nothing). Default: the published ratings, today.")),
        ],
        responses=ForecastSerializer,
    )
    def get(self, request):
        params = request.query_params
        forecast = selectors.match_forecast(
            player_a=params.get("a", ""), player_b=params.get("b", ""), length=params.get("length", ""),
            system=params.get("system") or "fibs", as_of=params.get("as_of") or None,
        )
        return Response(ForecastSerializer(forecast.as_dict()).data)


@extend_schema(parameters=[OpenApiParameter("system", OpenApiTypes.STR, description=gettext_lazy("fibs, crawford or skill where enabled (default: every enabled system)"))], description=gettext_lazy(
    "Official rating lists, latest first (public). Staff publish one with POST: each player's "
    "published rating after his last result played by the end of `as_of`, the list's date."))
class OfficialListsView(generics.ListAPIView):
    serializer_class = OfficialListSerializer
    filter_backends = []

    def get_permissions(self):
        return [api_door(may_publish_rating_list)()] if self.request.method == "POST" else [permissions.AllowAny()]

    def get_queryset(self):
        return selectors.official_lists(system=self.request.query_params.get("system") or None)

    @extend_schema(request=OfficialListPublishSerializer, responses={201: OfficialListSerializer})
    def post(self, request):
        serializer = OfficialListPublishSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        official = services.rating_list_publish(system=data["system"], as_of=data["as_of"], by=request.user,
                                                note=data["note"])
        return Response(OfficialListSerializer(official).data, status=status.HTTP_201_CREATED)


def _official_list(pk: int) -> tuple[OfficialList, OfficialList | None]:
    """The list and the one before it (two queries)."""
    official = generics.get_object_or_404(OfficialList.objects.select_related(*related_names("published_by")), pk=pk)
    return official, selectors.official_list_before(list(selectors.official_lists(system=official.system)), official)


@extend_schema(description=gettext_lazy(
    "One official list: its date and, page by page, its rows best first, each with the player's "
    "rank, rating and change since the list before it (`list`, `previous_list`)."))
class OfficialListDetailView(generics.GenericAPIView):
    permission_classes = [permissions.AllowAny]
    serializer_class = OfficialListRowSerializer
    filter_backends = []

    def get(self, request, pk):
        official, previous = _official_list(pk)
        page = self.paginate_queryset(selectors.official_list_rows(official_list=official))
        then = selectors.rating_changes_since(official_list=previous, ratings=page)
        response = self.get_paginated_response(OfficialListRowSerializer(page, many=True, context={"then": then}).data)
        response.data["list"] = OfficialListSerializer(official).data
        response.data["previous_list"] = OfficialListSerializer(previous).data if previous else None
        return response


@extend_schema(description=gettext_lazy(
    "One official list as CSV (every row, best first, with the changes since the list before)."))
class OfficialListCsvView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request, pk):
        official, previous = _official_list(pk)
        return official_list_csv_response(official, previous)


def official_list_csv_response(official: OfficialList, previous: OfficialList | None) -> HttpResponse:
    response = HttpResponse(selectors.official_list_csv(official_list=official, previous=previous),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ratings-{official.system}-{official.as_of}.csv"'
    return response


@extend_schema(description=gettext_lazy(
    "A rating officer: give players their starts from another rating list (CSV: player or "
    "federation_id, rating, experience, as_of), as `manage.py import_ratings` does. Send the "
    "file as multipart `file`, or its text as `csv`; `check` says what it would do and stores "
    "nothing."))
class RatingStartsView(APIView):
    permission_classes = [api_door(may_import_ratings)]

    @extend_schema(request=None, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})
    def post(self, request):
        from datetime import date

        from django.core.exceptions import ValidationError

        from .services.starts import rating_starts_import

        upload = request.FILES.get("file")
        errors = {}
        text, source = "", ""
        if upload is not None:
            if upload.size > 20 * 1024 * 1024:
                errors["file"] = [_("The file is larger than 20 MB; split the list.")]
            else:
                try:
                    text, source = upload.read().decode("utf-8"), upload.name
                except UnicodeDecodeError:
                    errors["file"] = [_("The file is not UTF-8 text; save the list as CSV in UTF-8.")]
        else:
            text = request.data.get("csv", "")
            if not isinstance(text, str) or not text.strip():
                errors["file"] = [_("Send the list as a file (multipart, field file) or its text (field csv).")]
            source = "API"
        as_of = request.data.get("as_of") or None
        if as_of is not None:
            try:
                as_of = date.fromisoformat(str(as_of))
            except ValueError:
                errors["as_of"] = ["A date, YYYY-MM-DD."]
        if errors:
            return Response(errors, status=status.HTTP_400_BAD_REQUEST)
        check = str(request.data.get("check", "")).lower() in ("1", "true", "yes", "on")
        try:
            done = rating_starts_import(text=text, source=source, by=request.user, as_of=as_of, check=check)
        except ValidationError as error:
            return Response(error.message_dict, status=status.HTTP_400_BAD_REQUEST)
        return Response(done.as_dict())
