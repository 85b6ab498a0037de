"""REST API for players, matches and their games. Every write goes through `games.services`."""

from datetime import timezone as dt_timezone

import django_filters
from django.conf import settings
from django.db.models import ProtectedError, Q
from django.http import HttpResponse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from config.api import FlagFilter, IdFilter, IdInPath, SearchFilter
from config.fields import BIGINT_MAX, POSITIVE_INT_MAX

from . import selectors, services
from .keepers import match_writes
from .imports import import_job_stalled, import_job_submit, import_jobs_resume_stale
from .people import public_name, related_names
from .permissions import (
    VIEW_MATCH_PRIVATE,
    api_door,
    may_create_match,
    may_delete_players,
    may_create_players,
    may_edit_players,
    may_enter_results,
    may_import_history,
)
from .matfiles import (
    MatchFileRejected,
    decode_match_file,
    match_file_export,
    match_file_import,
)
from .models import Game, ImportJob, ImportKind, Match, MatchFile, MatchStatus, Player
from .serializers import (
    FinalScoreSerializer,
    ForfeitSerializer,
    GameInputSerializer,
    HistoryEntrySerializer,
    ImportJobSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchFileSerializer,
    MatchFileUploadSerializer,
    MatchSerializer,
    PlayerSerializer,
    UndoSerializer,
)


class GameAddressSerializer(serializers.Serializer):
    """The game a URL names, and (to delete it) the match version the client saw."""

    number = serializers.IntegerField(min_value=1, max_value=POSITIVE_INT_MAX)
    version = serializers.IntegerField(min_value=0, max_value=BIGINT_MAX, required=False)


class _RoleOrReadOnly(permissions.BasePermission):
    """Anyone reads; a write needs the role `games.permissions.<rule>` names."""

    rule = staticmethod(may_create_match)

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or self.rule(request.user)


class PlayersEditorOrReadOnly(_RoleOrReadOnly):
    """A TD, a rating officer or a site admin adds a player record (`may_create_players`, the rule
    the desk asks too); rating officers and site admins change them; site admins delete them."""

    rule = staticmethod(may_edit_players)

    def has_permission(self, request, view):
        if request.method == "DELETE":
            return may_delete_players(request.user)
        if request.method == "POST":
            return may_create_players(request.user)
        return super().has_permission(request, view)


class HistoryImporterOrReadOnly(_RoleOrReadOnly):
    rule = staticmethod(may_import_history)


HistoryImporter = api_door(may_import_history)
"""Import jobs, read or written: rating officers and site admins only."""


class MatchWriterOrReadOnly(permissions.BasePermission):
    """Anyone reads; a site admin creates a match; a site admin or a TD of its event enters its games
    (`games.permissions.may_enter_results`)."""

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        if view.action == "create":
            return may_create_match(request.user)
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request, view, obj):
        return request.method in permissions.SAFE_METHODS or may_enter_results(request.user, obj)


class PlayerFilter(django_filters.FilterSet):
    country = django_filters.CharFilter(lookup_expr="iexact")
    club = django_filters.CharFilter(lookup_expr="iexact")

    class Meta:
        model = Player
        fields = ["country", "club", "federation_id"]


@extend_schema(description=gettext_lazy(
    "Players. `?search=` finds them by name."))
class PlayerViewSet(IdInPath, viewsets.ModelViewSet):
    serializer_class = PlayerSerializer
    permission_classes = [PlayersEditorOrReadOnly]
    filterset_class = PlayerFilter
    filter_backends = [django_filters.rest_framework.DjangoFilterBackend, SearchFilter]
    search_fields = ["name"]
    queryset = Player.objects.all()

    def get_queryset(self):
        return selectors.player_list()

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        create = data.pop("create", False)
        serializer.instance = services.player_create(by=self.request.user, ask_near=not create, **data)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        data.pop("confirm_duplicate", None)
        data.pop("create", None)
        serializer.instance = services.player_update(player=serializer.instance, by=self.request.user, **data)

    def perform_destroy(self, instance):
        try:
            instance.delete()
        except ProtectedError:
            raise serializers.ValidationError(
                {"non_field_errors": [_("%(player)s has played matches: a player with results is never deleted.") % {"player": instance.name}]}
            ) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 moment with any offset Python reads (`+23:59` included), compared in UTC:
    PostgreSQL refuses offsets past 15:59."""

    def filter(self, qs, value):
        if value is not None and value.tzinfo is not None:
            try:
                value = value.astimezone(dt_timezone.utc)
            except OverflowError:
                raise serializers.ValidationError({self.field_name: [_("This moment is outside the calendar.")]}) from None
        return super().filter(qs, value)


class MatchFilter(django_filters.FilterSet):
    player = IdFilter(method="filter_player", help_text=gettext_lazy("Matches of this player id."))
    played_after = UtcDateTimeFilter(field_name="played_on", lookup_expr="gte")
    played_before = UtcDateTimeFilter(field_name="played_on", lookup_expr="lte")
    state = django_filters.ChoiceFilter(field_name="status", choices=MatchStatus.choices)
    rated = FlagFilter(help_text=gettext_lazy("true or false."))

    class Meta:
        model = Match
        fields = ["kind", "rated", "length"]

    def filter_player(self, queryset, name, value):
        return queryset.filter(Q(player_a_id=value) | Q(player_b_id=value))


@extend_schema_view(
    create=extend_schema(request=MatchCreateSerializer, responses={201: MatchDetailSerializer}),
)
@extend_schema(description=gettext_lazy(
    "Matches and money sessions, with their games and the score derived from them."))
class MatchViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin,
                   viewsets.GenericViewSet):
    permission_classes = [MatchWriterOrReadOnly]
    filterset_class = MatchFilter
    queryset = Match.objects.none()

    def get_queryset(self):
        if self.action == "list":
            return selectors.match_list()
        return selectors.match_detail()

    def get_serializer_class(self):
        if self.action == "list":
            return MatchSerializer
        if self.action == "create":
            return MatchCreateSerializer
        return MatchDetailSerializer

    def _detail(self, match: Match, code=status.HTTP_200_OK) -> Response:
        fresh = selectors.match_detail().get(pk=match.pk)
        return Response(MatchDetailSerializer(fresh, context=self.get_serializer_context()).data, status=code)

    def create(self, request, *args, **kwargs):
        serializer = MatchCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        match = services.match_create(by=request.user, **serializer.validated_data)
        return self._detail(match, status.HTTP_201_CREATED)

    @extend_schema(request=GameInputSerializer, responses={201: MatchDetailSerializer}, description=gettext_lazy(
        "Record the next game; the answer is the new match state."))
    @action(detail=True, methods=["post"], url_path="games")
    def games(self, request, pk=None):
        match = self.get_object()
        serializer = GameInputSerializer(data=request.data, context={"match": match})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = match_writes(match).game_record(
            match=match, number=data["number"], game=serializer.game_input(), by=request.user,
            expected_version=data["version"],
        )
        return self._detail(match, status.HTTP_201_CREATED)

    @extend_schema(request=GameInputSerializer, responses={200: MatchDetailSerializer}, description=gettext_lazy(
        "PUT corrects game `number` (the earlier version is kept); DELETE removes the last game."))
    @action(detail=True, methods=["put", "delete"], url_path=r"games/(?P<number>\d+)")
    def game(self, request, pk=None, number=None):
        match = self.get_object()
        path = GameAddressSerializer(data={"number": number, **request.query_params.dict()})
        path.is_valid(raise_exception=True)
        number = path.validated_data["number"]
        if request.method == "DELETE":
            match = match_writes(match).game_delete_last(
                match=match, number=number, by=request.user, expected_version=path.validated_data.get("version"),
            )
            return self._detail(match)
        body = dict(request.data.items()) if hasattr(request.data, "items") else {}
        body["number"] = number
        serializer = GameInputSerializer(data=body, context={"match": match})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = match_writes(match).game_correct(
            match=match, number=number, game=serializer.game_input(), by=request.user, reason=data["reason"],
            expected_version=data["version"],
        )
        return self._detail(match)

    @extend_schema(request=FinalScoreSerializer, responses={200: MatchDetailSerializer}, description=gettext_lazy(
        "Finish a match from its final score alone (no games); again to correct it."))
    @action(detail=True, methods=["post"], url_path="final-score")
    def final_score(self, request, pk=None):
        match = self.get_object()
        serializer = FinalScoreSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = match_writes(match).match_final_score_record(
            match=match, score_a=data["score_a"], score_b=data["score_b"], by=request.user, reason=data["reason"],
            expected_version=data["version"],
        )
        return self._detail(match)

    @extend_schema(request=ForfeitSerializer, responses={200: MatchDetailSerializer}, description=gettext_lazy(
        "A player gives the match up: the opponent wins and the match is not rated."))
    @action(detail=True, methods=["post"])
    def forfeit(self, request, pk=None):
        match = self.get_object()
        serializer = ForfeitSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = next((p for p in (match.player_a, match.player_b) if p.pk == data["forfeited_by"]), None)
        if player is None:
            raise serializers.ValidationError({"forfeited_by": [_("Give the id of one of the two players.")]})
        match = match_writes(match).match_forfeit(match=match, forfeited_by=player, by=request.user,
                                                  reason=data["reason"], expected_version=data["version"])
        return self._detail(match)

    @extend_schema(request=UndoSerializer, responses={200: MatchDetailSerializer}, description=gettext_lazy(
        "Take back a forfeit given by mistake: the match goes on from its games (the forfeit "
        "stays in the history). A match that decides a tournament pairing is undone through the "
        "pairing."))
    @action(detail=True, methods=["post"], url_path="forfeit-undo")
    def forfeit_undo(self, request, pk=None):
        match = self.get_object()
        serializer = UndoSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        match = match_writes(match).match_forfeit_undo(match=match, by=request.user, reason=data["reason"],
                                                       expected_version=data["version"])
        return self._detail(match)

    @extend_schema(responses={(200, "text/plain"): str}, description=gettext_lazy(
        "The match as a .mat file (GNU Backgammon's layout), with its moves where they are known."))
    @action(detail=True, methods=["get"])
    def mat(self, request, pk=None):
        match = self.get_object()
        response = HttpResponse(match_file_export(match), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="crawford-match-{match.pk}.mat"'
        return response

    @extend_schema(responses={200: HistoryEntrySerializer(many=True)}, description=gettext_lazy(
        "The audit trail: every version of the match and its games, who changed it and when. Who "
        "(`by`) and why (`reason`) are null except for staff, the TDs of its event and its "
        "players."))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def history(self, request, pk=None):
        match = self.get_object()
        private = request.user.has_perm(VIEW_MATCH_PRIVATE, match)
        entries = []
        who = related_names("history_user")
        for row in match.history.select_related("history_user", *who).order_by("history_date"):
            entries.append(_history_entry(row, "match", None, private))
        for row in Game.history.filter(match_id=match.pk).select_related("history_user", *who).order_by("history_date"):
            entries.append(_history_entry(row, "game", row.number, private))
        entries.sort(key=lambda e: e["at"])
        return Response(entries)


def _history_entry(row, what, number, private):
    kinds = {"+": "created", "~": "changed", "-": "deleted"}
    entry = {
        "at": row.history_date.isoformat(),
        "what": what,
        "action": kinds[row.history_type],
        "by": public_name(row.history_user) if row.history_user and private else None,
        "reason": row.history_change_reason if private else None,
    }
    if what == "game":
        entry.update(number=number, winner=row.winner, end=row.end, kind=row.kind, cube=row.cube, points=row.points)
    else:
        entry.update(status=row.status, score=[row.score_a, row.score_b], version=row.version)
    return entry




@extend_schema(description=gettext_lazy(
    "Match files: upload one to verify it move by move and store it as a match.\n\n"
    "A file up to `CRAWFORD_MATCH_FILE_JOB_BYTES` (256 KB, a few hundred games) is imported in "
    "the request: 201 with the match. A larger one becomes a background import: 202 with the job "
    "to poll at `/api/v1/imports/{id}/`."))
class MatchFileViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [HistoryImporterOrReadOnly]
    serializer_class = MatchFileSerializer
    parser_classes = [MultiPartParser, FormParser]
    queryset = MatchFile.objects.order_by("-uploaded_at", "-id").only("id", "name", "sha256", "uploaded_at", "match_id")

    @extend_schema(request={"multipart/form-data": MatchFileUploadSerializer},
                   responses={201: MatchDetailSerializer, 202: ImportJobSerializer, 400: None, 409: None})
    def create(self, request, *args, **kwargs):
        upload = request.FILES.get("file")
        if upload is None:
            raise serializers.ValidationError({"file": [_("Attach the match file as the form field “file”.")]})
        limit = settings.CRAWFORD_MAX_MATCH_FILE_BYTES
        if upload.size > limit:
            raise serializers.ValidationError(
                {"file": [_("The file is %(size)s bytes; match files up to %(limit)s bytes are accepted.")
                          % {"size": number_format(upload.size, force_grouping=True), "limit": number_format(limit, force_grouping=True)}]}
            )
        name = upload.name or "match.mat"
        try:
            text = decode_match_file(upload.read())
            if upload.size > settings.CRAWFORD_MATCH_FILE_JOB_BYTES:
                job = import_job_submit(kind=ImportKind.MATCH_FILE, name=name, text=text, by=request.user)
                return import_job_response(job)
            match, created = match_file_import(text=text, name=name, by=request.user)
        except MatchFileRejected as rejected:
            body = {"file": rejected.errors_text}
            if rejected.report is not None:
                body["report"] = rejected.report.to_dict()
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        if not created:
            return Response(
                {"detail": _("This match file was already imported as match %(match)s.") % {"match": match.pk}, "match": match.pk},
                status=status.HTTP_409_CONFLICT,
            )
        fresh = selectors.match_detail().get(pk=match.pk)
        return Response(MatchDetailSerializer(fresh).data, status=status.HTTP_201_CREATED)


def import_job_response(job: ImportJob) -> Response:
    """202 with the job (already done where no broker runs the tasks apart)."""
    job.refresh_from_db()
    response = Response(ImportJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)
    response["Location"] = f"/api/v1/imports/{job.pk}/"
    return response


@extend_schema(description=gettext_lazy(
    "Staff: imports running in the background (results files, large match files) and how they "
    "ended: status, rows done of the total, errors by line, result. Looking at a job whose "
    "worker stopped queues it again."))
class ImportJobViewSet(IdInPath, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    permission_classes = [HistoryImporter]
    serializer_class = ImportJobSerializer
    queryset = ImportJob.objects.defer("text").order_by("-created_at", "-id")

    def retrieve(self, request, *args, **kwargs):
        job = self.get_object()
        if import_job_stalled(job):
            import_jobs_resume_stale()
            job = self.get_object()
        return Response(self.get_serializer(job).data)
