from django.urls import path

from . import views

urlpatterns = [
    path("events/", views.event_list, name="events"),
    path("events/<slug:slug>/", views.event_detail, name="event"),
    path("events/<slug:slug>/live/", views.event_live, name="event-live"),
    path("me/", views.my_matches, name="my-matches"),
    path("desk/", views.desk, name="desk"),
    path("desk/<slug:slug>/", views.desk_event, name="desk-event"),
    path("desk/<slug:slug>/slips/", views.desk_slips, name="desk-slips"),
    path("desk/<slug:slug>/pairings/<int:pk>/", views.desk_correct, name="desk-correct"),
]
