"""Headless Chromium for the browser tests, driven by Playwright against pytest-django's live_server.

Skipped cleanly when the `playwright` package or the Chromium binary is missing. On failure a
screenshot of the page goes to e2e-artifacts/.
"""

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests make
# around it are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CRAWFORD_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "e2e-artifacts"

_spec = importlib.util.spec_from_file_location("pages_cast", Path(__file__).resolve().parents[1] / "pages" / "conftest.py")
cast = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cast)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def _page(browser, request, width: int):
    # Waits that evaluate script (wait_for_function) need the page's Content-Security-Policy set
    # aside; test_content_security_policy.py checks the policy with a page that keeps it.
    # The service worker is kept out: a request it passes on is not seen by page.route and
    # expect_request, which these walks use to hold a Save or wait for one (a race the worker wins
    # once it controls the page). The offline walks (test_offline_desk.py) make their own contexts
    # with the worker.
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  service_workers="block")
    context.set_default_timeout(8000)
    page = context.new_page()
    yield page
    failed = getattr(request.node, "report_call", None)
    if failed is not None and failed.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{width}.png"), full_page=True)
    context.close()


@pytest.fixture
def page(browser, request):
    yield from _page(browser, request, 1280)


@pytest.fixture
def phone(browser, request):
    """A 360 px wide page, the width of a small phone."""
    yield from _page(browser, request, 360)
