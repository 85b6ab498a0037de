"""What translation costs the pages that draw long lists: a 256-player event's page and its TD desk.

    .venv/bin/python bench/i18n_render.py               # CPU time per page (time.thread_time)
    .venv/bin/python bench/i18n_render.py --callgrind   # instructions per page (valgrind), load or not

Each page is rendered in turn in four ways, in the same process and on the same data:

    off        USE_I18N=False: no translation at all (the baseline)
    en         English, the site's language (the English catalog is walked all the same)
    da-django  Danish, Jinja2's `_()` being Django's gettext (the code before its translations were kept)
    da         Danish, Jinja2's `_()` keeping each translation by language and message (tournaments/templating.py)

The event page is drawn afresh each time (the cache emptied first, as the first visitor after a
result finds it); the desk always is. `thread_time` is the CPU time of this thread only, so a
busy machine's other work does not count in it; a busy machine still slows a CPU's caches, so
`--callgrind` also counts the instructions each render executes, which no load changes: valgrind
counts a process that renders the page COUNT times more than another, in each mode (slow: two
and a half minutes a process, three a mode; `--modes off,da-django,da` leaves English out).
The data (a 256-player event as bench/pages.py builds it, with a small history) is built once in
/tmp/test_crawford-bench-i18n.sqlite3 and kept.

Measured on 29 Nov 2026 (SQLite, two cores shared with other work), instructions per render
(`--callgrind --count 3 --modes off,da-django,da`, a load of 4 to 6 throughout, which does not
change them) and CPU time (median of 15, a load of 1 at the start, 4 a minute before):

    page                          mode        instructions        CPU ms
    event (256 players), afresh   off         460.9 M             46.5
                                  en            -                 45.9  (-1.2%)
                                  da-django   460.7 M  (-0.0%)    46.8  (+0.7%)
                                  da          456.6 M  (-0.9%)    46.7  (+0.3%)
    TD desk (256 players)         off         399.4 M             46.6
                                  en            -                 46.5  (-0.2%)
                                  da-django   410.5 M  (+2.8%)    47.2  (+1.5%)
                                  da          402.8 M  (+0.9%)    47.5  (+1.9%)

Translation costs the event page nothing that can be measured (its lists translate each word once
per list already); on the desk Django's gettext on every row cost 2.8% more instructions, and
keeping the translations takes that to 0.9%: both pages stay well inside 5% of no translation at
all. The CPU times move by as much between runs as between modes (±2%). The 45-48 ms and 60-78 ms
measured before for the event page compared the code before the languages with the code after, in
wall time on a loaded machine; here the same code with translation switched off costs as much.

bench/pages.py, the code before and after `_()` kept its translations run in turn (BENCH_PLAYERS=2000
BENCH_MATCHES=4000 BENCH_REPEAT=10, SQLite, a load of 4 to 5 throughout; median ms, before / after):
event afresh 46.3 / 64.0, TD desk 56.6 / 56.2, its htmx fragment 92.9 / 43.1, the other pages within
a few ms of each other, both ways. Wall time on a machine this busy moves a page by a third from
one run to the next; that is why the figures above are CPU time and instructions.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
os.environ.setdefault("DATABASE_URL", "sqlite:////tmp/crawford-bench-i18n.sqlite3")
os.environ.setdefault("BENCH_PLAYERS", "500")
os.environ.setdefault("BENCH_MATCHES", "1000")
sys.path.insert(0, str(BENCH))

import pages  # noqa: E402  (sets Django up the way bench/pages.py measures: DEBUG off)
from kept_database import open_kept  # noqa: E402

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.utils.translation import gettext, ngettext  # noqa: E402

from tournaments import templating  # noqa: E402

MODES = ["off", "en", "da-django", "da"]
REPEAT = int(os.environ.get("BENCH_REPEAT", 15))


def prepare() -> dict:
    import logging
    import random
    import warnings

    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore", message="No directory at")
    cast = open_kept(pages)
    if cast is None:
        call_command("flush", interactive=False, verbosity=0)
        cast = pages.build(random.Random(2026))
        pages.settle()
    return cast


def pages_of(cast: dict) -> list[tuple[str, str, bool, bool]]:
    """(label, url, as the TD, empty the cache first)."""
    slug = cast["tournament"].slug
    return [("event (256 players), afresh", f"/events/{slug}/", False, True),
            ("TD desk (256 players)", f"/desk/{slug}/", True, False)]


def render(client: Client, url: str, language: str, afresh: bool) -> int:
    if afresh:
        cache.clear()
    response = client.get(url, headers={"accept-language": language})
    assert response.status_code == 200, (url, response.status_code)
    return len(response.content)


def in_mode(mode: str):
    """The settings and the Jinja2 `_()` of a mode, as a context manager, and its language."""
    env = engines["jinja2"].env
    kept = mode != "da-django"
    env.install_gettext_callables(gettext=templating.kept_gettext if kept else gettext, ngettext=ngettext,
                                  newstyle=False)
    language = "en" if mode in ("off", "en") else "da"
    return override_settings(USE_I18N=mode != "off"), language


def clients(cast: dict) -> tuple[Client, Client]:
    td = Client()
    td.force_login(cast["td"])
    return Client(), td


def cpu(cast: dict) -> None:
    visitor, td = clients(cast)
    print("load average %.2f %.2f %.2f before measuring" % os.getloadavg())
    print(f"{'page':<30} {'mode':<11} {'CPU ms':>8} {'wall ms':>8} {'kB':>7}   (median of {REPEAT}, modes in turn)")
    for label, url, as_td, afresh in pages_of(cast):
        client = td if as_td else visitor
        cpu_times = {mode: [] for mode in MODES}
        wall_times = {mode: [] for mode in MODES}
        size = {}
        for _ in range(REPEAT):
            for mode in MODES:  # in turn, so that a change of load touches every mode alike
                overridden, language = in_mode(mode)
                with overridden:
                    render(client, url, language, afresh)  # the mode's first render warms its catalogs
                    if afresh:
                        cache.clear()
                    started, wall = time.thread_time(), time.perf_counter()
                    size[mode] = render(client, url, language, False)
                    cpu_times[mode].append((time.thread_time() - started) * 1000)
                    wall_times[mode].append((time.perf_counter() - wall) * 1000)
        base = statistics.median(cpu_times["off"])
        for mode in MODES:
            median = statistics.median(cpu_times[mode])
            print(f"{label:<30} {mode:<11} {median:8.1f} {statistics.median(wall_times[mode]):8.1f} "
                  f"{size[mode] / 1024:7.1f}   {100 * (median / base - 1):+5.1f}% CPU on off")
    print("load average %.2f %.2f %.2f after" % os.getloadavg())


def one_mode_under_callgrind(cast: dict, mode: str, label: str, count: int) -> None:
    """Run by --callgrind in a process of its own under valgrind: every page rendered twice in one
    mode to warm it, then `count` more renders of the page `label` ("none": no more)."""
    visitor, td = clients(cast)
    overridden, language = in_mode(mode)
    with overridden:
        for page, url, as_td, afresh in pages_of(cast):
            for _ in range(2 + (count if page == label else 0)):
                render(td if as_td else visitor, url, language, afresh)


def instructions(mode: str, label: str, count: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        sys.executable, __file__, "--one", mode, label, str(count)], check=True, capture_output=True)
        return int(re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.MULTILINE).group(1))


def callgrind(cast: dict, count: int, modes: list[str]) -> None:
    """Two processes at a time (a run takes minutes): each mode's process without the counted
    renders, and one per page with them."""
    from concurrent.futures import ThreadPoolExecutor

    labels = [page[0] for page in pages_of(cast)]
    with ThreadPoolExecutor(2) as pool:
        runs = {(mode, label): pool.submit(instructions, mode, label, 0 if label == "none" else count)
                for mode in modes for label in ["none", *labels]}
    print(f"valgrind --tool=callgrind: instructions per render ({count} renders counted less none)")
    for label in labels:
        base = None
        for mode in modes:
            per_render = (runs[mode, label].result() - runs[mode, "none"].result()) / count
            base = base or per_render
            print(f"{label:<30} {mode:<11} {per_render / 1e6:10.1f} M   {100 * (per_render / base - 1):+5.1f}% on "
                  f"{modes[0]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--callgrind", action="store_true", help="count instructions with valgrind instead")
    parser.add_argument("--count", type=int, default=3, help="renders per page and mode under valgrind")
    parser.add_argument("--modes", default=",".join(MODES), help=f"under valgrind, these of {MODES} (default: all)")
    parser.add_argument("--one", nargs=3, metavar=("MODE", "PAGE", "COUNT"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    cast = prepare()
    if options.one:
        mode, label, count = options.one
        one_mode_under_callgrind(cast, mode, label, int(count))
    elif options.callgrind:
        callgrind(cast, options.count, options.modes.split(","))
    else:
        cpu(cast)


if __name__ == "__main__":
    main()
