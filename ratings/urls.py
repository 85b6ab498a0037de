from django.urls import path

from . import views

urlpatterns = [
    path("", views.rating_list, name="rating-list"),
    path("formula/", views.rating_formula, name="rating-formula"),
    path("chances/", views.chances, name="chances"),
    path("runs/", views.run_progress, name="rating-runs"),
]
