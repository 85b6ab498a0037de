"""Only the API, so these tests do not depend on the HTML pages."""

from django.urls import include, path

urlpatterns = [path("api/v1/", include("config.api_urls"))]
