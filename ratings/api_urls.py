"""The ratings API. Its names start with "api-": `rating-list` and `rating-runs` name the pages."""

from django.urls import path

from .api import (
    OfficialListCsvView,
    OfficialListDetailView,
    OfficialListsView,
    PredictView,
    RatingHistoryView,
    RatingListView,
    RatingRunListView,
    RatingStartsView,
    RecomputeView,
)

urlpatterns = [
    path("ratings/", RatingListView.as_view(), name="api-rating-list"),
    path("ratings/history/<int:player_id>/", RatingHistoryView.as_view(), name="api-rating-history"),
    path("ratings/runs/", RatingRunListView.as_view(), name="api-rating-runs"),
    path("ratings/recompute/", RecomputeView.as_view(), name="api-rating-recompute"),
    path("ratings/starts/", RatingStartsView.as_view(), name="api-rating-starts"),
    path("ratings/predict/", PredictView.as_view(), name="api-rating-predict"),
    path("ratings/lists/", OfficialListsView.as_view(), name="api-official-lists"),
    path("ratings/lists/<int:pk>/", OfficialListDetailView.as_view(), name="api-official-list"),
    path("ratings/lists/<int:pk>/csv/", OfficialListCsvView.as_view(), name="api-official-list-csv"),
]
