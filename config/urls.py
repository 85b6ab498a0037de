from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.utils.csp import CSP
from django.views.decorators.csp import csp_override
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.health import health
from config.languages import language_choose
from config.security import LoginForm
from tournaments import views as tournament_views
from tournaments.views import offline

urlpatterns = [
    path("", tournament_views.home, name="home"),
    # Players are found on the rating list (its search takes ?q=): /players/ is where people guess it is.
    path("players/", RedirectView.as_view(pattern_name="rating-list", query_string=True, http_method_names=["get", "head"]),
         name="players"),
    path("players/<int:pk>/", tournament_views.player_detail, name="player"),
    path("players/<int:pk>/calendar.ics", tournament_views.player_calendar, name="player-calendar"),
    path("matches/", include("games.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("login/", auth_views.LoginView.as_view(template_name="registration/login.html", authentication_form=LoginForm),
         name="login"),
    path("logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    path("password/reset/", tournament_views.PasswordResetView.as_view(), name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path("password/reset/<uidb64>/<token>/", tournament_views.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("language/", language_choose, name="language"),
    path("health/", health, name="health"),
    # The desk and the match pages work offline: the service worker keeps them (its scope is the site).
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's page styles itself inline; its script is a separate file (the split view).
    path("api/docs/", csp_override({**settings.SECURE_CSP, "style-src-elem": [CSP.SELF, CSP.UNSAFE_INLINE]})(
        SpectacularSwaggerSplitView.as_view(url_name="schema")), name="api-docs"),
    path("api/v1/", include("config.api_urls")),
]
