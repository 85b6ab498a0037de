from django.urls import path
from rest_framework.routers import SimpleRouter

from . import api

router = SimpleRouter()
router.trailing_slash = "/?"  # "entries.csv" and "schedule.ics" read better without the slash
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("flights", api.FlightViewSet, basename="flight")
router.register("entries", api.EntryViewSet, basename="entry")
router.register("rounds", api.RoundViewSet, basename="round")
router.register("pairings", api.PairingViewSet, basename="pairing")
router.register("result-reports", api.ResultReportViewSet, basename="result-report")
router.register("player-accounts", api.PlayerAccountViewSet, basename="player-account")

urlpatterns = [
    path("tournaments/<slug:slug>/analysis/", api.EventAnalysisView.as_view(), name="tournament-analysis"),
    *router.urls,
]
