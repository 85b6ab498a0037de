from django.urls import path

from .api import PredictView, RatingHistoryView, RatingListView, RatingRunListView, RecomputeView
from .api_imports import ResultsImportView

urlpatterns = [
    path("ratings/", RatingListView.as_view(), name="rating-list"),
    path("ratings/history/<int:player_id>/", RatingHistoryView.as_view(), name="rating-history"),
    path("ratings/runs/", RatingRunListView.as_view(), name="rating-runs"),
    path("ratings/recompute/", RecomputeView.as_view(), name="rating-recompute"),
    path("ratings/predict/", PredictView.as_view(), name="rating-predict"),
    path("results-imports/", ResultsImportView.as_view(), name="results-import"),
]
