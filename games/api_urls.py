from rest_framework.routers import DefaultRouter

from .api import MatchViewSet, PlayerViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
urlpatterns = router.urls
