from django.urls import path

from . import views, views_imports

urlpatterns = [
    path("<int:pk>/", views.match_detail, name="match"),
    path("<int:pk>/enter/", views.match_enter, name="match-enter"),
    path("<int:pk>/games/<int:number>/", views.game_replay, name="game-replay"),
    path("imports/<int:pk>/", views_imports.import_job, name="import-job"),
]
