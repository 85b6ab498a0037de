"""What keeps the desk and the players' phones working while the venue's network is down: the web
app manifest (the desk installs as an app) and the service worker, served from the site's root so
that it may keep every page of the site (`templates/sw.js`; static/offline-queue.js registers it
and keeps the Saves made offline)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

SHELL = ("crawford.css", "desk.css", "words.js", "crawford.js", "desk.js", "offline-queue.js", "favicon.svg",
         "vendor/htmx-2.0.11.min.js", "vendor/idiomorph-ext-0.8.0.min.js")
"""The static files every kept page needs: fetched when the service worker is installed."""


@require_GET
@cache_control(no_cache=True)
def service_worker(request):
    shell = [static(name) for name in SHELL]
    # A new release or new static files make a new worker (its text changes), which drops the old cache.
    version = hashlib.sha256(f"{settings.CRAWFORD_VERSION} {' '.join(shell)}".encode()).hexdigest()[:12]
    config = {
        "cache": f"crawford-{version}", "shell": shell, "static": static(""),
        "kept": [reverse("desk"), reverse("events")],
        "offline_title": _("Offline"),
        "offline_text": _("There is no network, and this page was not opened on this device before: it "
                          "opens when the network is back. Pages opened before still open, and results "
                          "typed at the desk are kept and sent by themselves."),
    }
    text = render_to_string("sw.js", {"config": json.dumps(config)})
    return HttpResponse(text, content_type="text/javascript; charset=utf-8")


@require_GET
@cache_control(max_age=3600)
def manifest(request):
    data = {
        "name": _("Crawford TD desk"), "short_name": _("TD desk"),
        "description": _("Run a backgammon event: results typed at the desk are kept while the network is "
                         "down and sent when it returns."),
        "start_url": reverse("desk"), "scope": "/", "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#0d2a45",
        "icons": [{"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
    }
    return HttpResponse(json.dumps(data, indent=2), content_type="application/manifest+json; charset=utf-8")
