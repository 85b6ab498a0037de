from django.urls import path

from . import views

urlpatterns = [
    path("", views.rating_list, name="rating-list"),
    path("formula/", views.rating_formula, name="rating-formula"),
    path("chances/", views.chances, name="chances"),
    path("players/", views.player_suggestions, name="player-suggestions"),
    path("runs/", views.run_progress, name="rating-runs"),
    path("lists/publish/", views.rating_list_publish, name="rating-list-publish"),
]
