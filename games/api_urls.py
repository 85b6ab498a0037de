from rest_framework.routers import DefaultRouter

from .api import ImportJobViewSet, MatchFileViewSet, MatchViewSet, PlayerViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
router.register("match-files", MatchFileViewSet, basename="match-file")
router.register("imports", ImportJobViewSet, basename="import-job")
urlpatterns = router.urls
