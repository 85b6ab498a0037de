"""REST API of the analysis: a match's figures, a player's averages, an event's PR table."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Match, MatchFile, Player
from games.permissions import api_door, is_site_admin

from . import selectors, services
from .serializers import MatchAnalysisSerializer, PlayerAnalysisSerializer


def _match_body(match: Match) -> dict:
    view = selectors.match_analysis(match)
    analysis = view.analysis
    return {
        "match": match.pk,
        "status": view.status,
        "available": view.available,
        "plies": analysis.plies if analysis else None,
        "analysed_at": analysis.finished_at if analysis and view.status == "done" else None,
        "error": analysis.error_text if analysis and view.status == "failed" else "",
        "players": view.sides,
        "worst": [w["decision"] for w in view.worst],
    }


@extend_schema(description=gettext_lazy(
    "GNU Backgammon's analysis of a match stored with its moves; staff may ask for it again."))
class MatchAnalysisView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    def get_permissions(self):
        if self.request.method == "POST":
            return [api_door(is_site_admin)()]
        return super().get_permissions()

    @extend_schema(responses=MatchAnalysisSerializer)
    def get(self, request, pk: int):
        match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=pk)
        return Response(MatchAnalysisSerializer(_match_body(match)).data)

    @extend_schema(request=None, responses={202: MatchAnalysisSerializer})
    def post(self, request, pk: int):
        match = get_object_or_404(Match.objects.select_related("player_a", "player_b"), pk=pk)
        if services.analysis_program() is None:
            return Response({"detail": _("Analysis is off on this server: GNU Backgammon is not installed.")},
                            status=status.HTTP_409_CONFLICT)
        if services.analysis_request(match=match, force=True) is None:
            if MatchFile.objects.filter(match=match).exists():
                return Response({"detail": _("The games of this match were corrected after its match file was"
                                             " stored: the file no longer describes them, so it is not analysed.")},
                                status=status.HTTP_400_BAD_REQUEST)
            return Response({"detail": _("This match has no moves to analyse: only matches stored from a match"
                                         " file can be analysed.")}, status=status.HTTP_400_BAD_REQUEST)
        match.refresh_from_db()
        return Response(MatchAnalysisSerializer(_match_body(match)).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(description=gettext_lazy(
    "A player's average PR and luck over his analysed matches, with the recent trend."))
class PlayerAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerAnalysisSerializer)
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        data = selectors.player_analysis(player.pk)
        return Response(PlayerAnalysisSerializer(dict(data, player=player.pk)).data)
