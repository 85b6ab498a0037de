from django.urls import path
from rest_framework.routers import DefaultRouter

from .api import ImportJobViewSet, MatchFileViewSet, MatchViewSet, PlayerViewSet
from .api_imports import ResultsImportView

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
router.register("match-files", MatchFileViewSet, basename="match-file")
router.register("imports", ImportJobViewSet, basename="import-job")
urlpatterns = [
    *router.urls,
    path("results-imports/", ResultsImportView.as_view(), name="api-results-import"),
]
