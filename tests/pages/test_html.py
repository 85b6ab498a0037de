"""Every page is well-formed HTML: no parse error, no duplicate id, a label for every field, and
no colour pair on the stylesheet's palette below WCAG AA contrast."""

import re
from collections import Counter
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.models import Pairing

from .test_pages import public_urls

html5lib = pytest.importorskip("html5lib")
pytestmark = pytest.mark.django_db

LABELLED = {"hidden", "submit", "button"}


def check_page(html: str, url: str) -> None:
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    whole = html.lstrip().lower().startswith("<!doctype html>")
    try:
        document = parser.parse(html) if whole else parser.parseFragment(html)
    except html5lib.html5parser.ParseError as error:
        line = html.splitlines()[parser.errors[0][0][0] - 1] if parser.errors else ""
        raise AssertionError(f"{url}: {error}\n{line.strip()[:300]}") from None
    ids = Counter(element.get("id") for element in document.iter() if element.get("id"))
    duplicates = [i for i, n in ids.items() if n > 1]
    assert not duplicates, f"{url}: duplicate ids {duplicates}"
    labels = {label.get("for") for label in document.iter("label")}
    inside = {id(field) for label in document.iter("label") for field in label.iter()}
    for field in document.iter():
        if field.tag not in ("input", "select", "textarea") or field.get("type") in LABELLED:
            continue
        assert field.get("id") in labels or field.get("aria-label") or id(field) in inside, (
            f"{url}: a {field.tag} named {field.get('name')!r} has no label")
    assert not whole or document.find(".//h1") is not None, f"{url}: no heading"


def test_public_pages_are_valid_html(client, world):
    for url in public_urls(world):
        check_page(client.get(url).content.decode(), url)


def test_td_pages_are_valid_html(client, td, world):
    client.force_login(td)
    tournament = world["knockout"]
    pairing = Pairing.objects.filter(flight__tournament=tournament, status="finished").first()
    from tournaments import services as events

    playing = events.pairing_start(pairing=Pairing.objects.filter(
        flight__tournament=tournament, status="pending", player_b__isnull=False).first(), by=td)
    urls = ["/desk/", f"/desk/{tournament.slug}/", f"/desk/{tournament.slug}/?q=Player",
            f"/desk/{tournament.slug}/slips/", reverse("desk-correct", args=[tournament.slug, pairing.pk]),
            reverse("match-enter", args=[playing.match_id])]
    for url in urls:
        check_page(client.get(url).content.decode(), url)
    refused = client.post(reverse("match-enter", args=[playing.match_id]), {"number": 1, "version": 0, "winner": 0})
    check_page(refused.content.decode(), "refused score sheet")


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_text_colours_have_enough_contrast():
    css = (Path(__file__).resolve().parents[2] / "static" / "crawford.css").read_text()
    palette = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", css))
    pairs = [("ink", "paper"), ("soft", "paper"), ("ink", "panel"), ("soft", "panel"), ("accent", "paper"),
             ("accent", "panel"), ("accent-ink", "accent"), ("good", "paper"), ("bad", "paper"), ("ink", "warn-bg")]
    for text, background in pairs:
        ratio = contrast(palette[text], palette[background])
        assert ratio >= 4.5, f"{text} on {background}: {ratio:.2f}"
