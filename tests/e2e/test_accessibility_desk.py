"""axe-core finds no serious or critical violation on any page the crawl (tests/pages/test_crawl.py)
visits as the TD and as a site admin — the desk, its corrections, entries, draw and projector, the
score sheet, the claims — at 1280 px and on a 360 px phone. Django's own /admin/ is not ours."""

import pytest
from django.conf import settings
from django.test import Client

from tests.pages.test_crawl import _pages, build_cast

from .test_accessibility import AXE, RUN

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROLES = ("td", "staff")


@pytest.fixture
def crawl_cast(django_user_model):
    return build_cast(django_user_model.objects.create_user("director", password="pw-director-1"))


def log_in(context, base: str, user) -> None:
    """One login: the session of a server-side login, handed to the browser."""
    client = Client()
    client.force_login(user)
    context.clear_cookies()
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}])


@pytest.mark.slow
def test_axe_finds_nothing_serious_on_the_pages_of_the_td_and_the_site_admin(browser, live_server, crawl_cast):
    pages = _pages(crawl_cast)
    found, seen = [], 0
    for width in (1280, 360):
        context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                      service_workers="block")
        context.set_default_timeout(8000)
        page = context.new_page()
        for role in ROLES:
            log_in(context, live_server.url, crawl_cast[role])
            for path in pages[role]:
                if path.startswith("/admin/"):
                    continue
                response = page.goto(live_server.url + path)
                if "text/html" not in response.headers.get("content-type", ""):
                    continue
                page.add_script_tag(path=str(AXE))
                found += [f"{role} {width} px {path}: {v}" for v in page.evaluate(RUN)]
                seen += 1
        context.close()
    assert seen == 2 * sum(len(pages[role]) for role in ROLES)
    assert not found, "\n".join(found)
