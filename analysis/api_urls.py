from django.urls import path

from . import api

urlpatterns = [
    path("matches/<int:pk>/analysis/", api.MatchAnalysisView.as_view(), name="match-analysis"),
    path("players/<int:pk>/analysis/", api.PlayerAnalysisView.as_view(), name="player-analysis"),
]
