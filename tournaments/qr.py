"""QR codes for the match slips, as inline SVG.

segno encodes the code; the SVG is written here straight from its matrix, the same markup that
segno's `svg_inline(scale=2, border=1, omitsize=True)` writes, in half the time. A code
depends on its address alone, so each is kept in the cache by address: printing the slips of a
round again, or the next round's slips beside the tables still open, encodes only the new ones.
"""

from __future__ import annotations

import hashlib
import re

import segno
from django.core.cache import cache

SCALE = 2
BORDER = 1
KEEP_SECONDS = 30 * 24 * 3600

_DARK_RUN = re.compile(rb"[^\x00]+")


def svg(url: str) -> str:
    """The QR code of `url` as an `<svg>` element: one path, a line per run of dark modules."""
    qr = segno.make_qr(url, error="m", boost_error=False, mask=0)  # one fixed mask keeps it quick
    parts = []
    px, py = 0, 0.0
    for number, row in enumerate(qr.matrix):
        y = BORDER + 0.5 + number
        for run in _DARK_RUN.finditer(row):
            x1, x2 = run.start() + BORDER, run.end() + BORDER
            dy = y - py
            parts.append(f"{'m' if parts else 'M'}{x1 - px} {int(dy) if dy == int(dy) else dy}h{x2 - x1}")
            px, py = x2, y
    side = (len(qr.matrix) + 2 * BORDER) * SCALE
    return (f'<svg viewBox="0 0 {side} {side}" class="segno"><path transform="scale({SCALE})" class="qrline" '
            f'stroke="#000" d="{"".join(parts)}"/></svg>')


def _key(url: str) -> str:
    return "qr-svg:" + hashlib.sha256(url.encode()).hexdigest()


def svgs(urls: list[str]) -> dict[str, str]:
    """The QR code of each address, from the cache where it was drawn before."""
    keys = {url: _key(url) for url in urls}
    found = cache.get_many(list(keys.values()))
    codes, missing = {}, {}
    for url, key in keys.items():
        if key in found:
            codes[url] = found[key]
        else:
            codes[url] = missing[key] = svg(url)
    if missing:
        cache.set_many(missing, KEEP_SECONDS)
    return codes
