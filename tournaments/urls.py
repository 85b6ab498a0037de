from django.urls import path

from . import views

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/<slug:slug>/", views.event_detail, name="event"),
    path("events/<slug:slug>/live/", views.event_live, name="event-live"),
    path("events/<slug:slug>/m/<int:pk>/", views.event_match, name="event-match"),
    path("events/<slug:slug>/embed/", views.event_embed, name="event-embed"),
    path("events/<slug:slug>/check-in/", views.check_in_window, name="event-check-in"),
    path("events/<slug:slug>/register/", views.event_registration, name="event-register"),
    path("me/", views.my_matches, name="my-matches"),
    path("signup/", views.signup, name="signup"),
    path("signup/confirm/<str:uid>/<str:token>/", views.signup_confirm, name="signup-confirm"),
    path("welcome/", views.landing, name="landing"),
    path("account/", views.account, name="account"),
    path("account/claims/", views.claims, name="claims"),
    path("desk/", views.desk, name="desk"),
    path("desk/<slug:slug>/", views.desk_event, name="desk-event"),
    path("desk/<slug:slug>/slips/", views.desk_slips, name="desk-slips"),
    path("desk/<slug:slug>/pairings/<int:pk>/", views.desk_correct, name="desk-correct"),
    path("desk/<slug:slug>/pairings/<int:pk>/more/", views.desk_more, name="desk-more"),
    path("desk/<slug:slug>/flights/<int:pk>/entries/", views.desk_entries, name="desk-entries"),
    path("desk/<slug:slug>/flights/<int:pk>/draw/", views.desk_draw, name="desk-draw"),
    path("desk/<slug:slug>/projector/", views.desk_projector, name="desk-projector"),
]
