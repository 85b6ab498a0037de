from django.urls import path

from . import views

urlpatterns = [
    path("<int:pk>/", views.match_detail, name="match"),
    path("<int:pk>/enter/", views.match_enter, name="match-enter"),
    path("<int:pk>/games/<int:number>/", views.game_replay, name="game-replay"),
]
