"""Every app's API under /api/v1/."""

from django.urls import include, path

urlpatterns = [
    path("", include("games.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("analysis.api_urls")),
]
