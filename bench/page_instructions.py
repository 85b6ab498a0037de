"""What a page costs in processor instructions, counted by valgrind's callgrind: the same count
for the same code and data whatever else the machine is doing, so two versions of the code can be
compared on a busy machine, where `bench/pages.py`'s milliseconds vary by tens of percent.

    .venv/bin/python bench/pages.py --keep                       # build the pages' database once
    .venv/bin/python bench/page_instructions.py                  # this checkout's code
    .venv/bin/python bench/page_instructions.py --code ../old    # another checkout's, same database
    ... bench/page_instructions.py --pages desk,event-emptied --requests 3

Each page is asked for three times first (caches, imports), then the garbage is collected and the
page is asked for `--requests` times, counted; it prints the instructions per request. The database is the one `bench/pages.py --keep` left
(DATABASE_URL as there; another checkout's `bench/pages.py` must know it too). Needs valgrind and
its headers (Debian's `valgrind`) and a C compiler; a run takes a minute or two a page, most of it
starting Django under valgrind. Instructions are not milliseconds (memory and caches are not in
them), but a page that asks for fewer of them is quicker, and the count does not drift.

Measured on 29 Nov 2026, instructions per request (millions, two requests each), the code before
the pages were translated and moved into templates (6f914d2) and after:

    page                      before    after
    home                        65.3     48.9   (-25%)
    event (256 players)         43.3     43.9   (+1.4%)
    event, cache emptied       325.6    330.2   (+1.4%)
    TD desk                    288.9    271.8   (-5.9%)
    desk htmx fragment         272.5    252.4   (-7.4%)
    projector                   77.1     52.5   (-32%)
    chances                     27.2     26.6   (-2.2%)
    match page                  42.8     41.9   (-2.1%)
    formula                     39.5     14.9   (-62%)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from kept_database import open_kept  # this checkout's, imported before another checkout's bench/ is on the path

HERE = Path(__file__).resolve().parent.parent

CONTROL = """
#include <valgrind/callgrind.h>
void counting_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void counting_stop(void) { CALLGRIND_DUMP_STATS; CALLGRIND_STOP_INSTRUMENTATION; }
"""
"""Callgrind's client requests, for the measured process to count its requests only."""

NOT_BUILT = 3
"""The measured process's exit status when `bench/pages.py --keep` has not built its database."""

PAGES = ("home", "event", "event-emptied", "desk", "desk-htmx", "projector", "chances", "match", "formula")


def _pages(cast: dict) -> dict:
    """Each page's (visitor or TD, address, headers, cache emptied before each request)."""
    slug, star, sheet = cast["tournament"].slug, cast["star"], cast["sheet"]
    chances = f"/ratings/chances/?player_a={star}&player_b={cast['other']}&length=11&system=crawford"
    return {
        "home": ("visitor", "/", {}, False),
        "event": ("visitor", f"/events/{slug}/", {}, False),
        "event-emptied": ("visitor", f"/events/{slug}/", {}, True),
        "desk": ("td", f"/desk/{slug}/", {}, False),
        "desk-htmx": ("td", f"/desk/{slug}/", {"HX-Request": "true"}, False),
        "projector": ("td", f"/desk/{slug}/projector/", {}, False),
        "chances": ("visitor", chances, {}, False),
        "match": ("visitor", f"/matches/{sheet.pk}/", {}, False),
        "formula": ("visitor", "/ratings/formula/", {}, False),
    }


def measured(code: Path, page: str, requests: int, control: Path) -> None:
    """In the process valgrind runs: ask for `page` with `code`'s Crawford, counting `requests`."""
    import ctypes
    import gc
    import logging
    import warnings

    os.chdir(code)
    sys.path[:0] = [str(code), str(code / "bench")]
    os.environ.pop("DEBUG", None)
    import pages  # the checkout's own bench/pages.py: its settings, and the data it built

    from django.core.cache import cache
    from django.test import Client

    logging.disable(logging.INFO)
    warnings.filterwarnings("ignore")
    cast = open_kept(pages)
    if cast is None:
        raise SystemExit(NOT_BUILT)
    who, url, headers, emptied = _pages(cast)[page]
    client = Client()
    if who == "td":
        client.force_login(cast["td"])
    for _ in range(3):
        assert client.get(url, headers=headers).status_code == 200, url
    counting = ctypes.CDLL(str(control))
    gc.collect()  # a collection the warm-up left due would otherwise fall in one code's count and not the other's
    counting.counting_start()
    for _ in range(requests):
        if emptied:
            cache.clear()
        client.get(url, headers=headers)
    counting.counting_stop()


def count(code: Path, page: str, requests: int, control: Path, folder: Path) -> int | None:
    """Instructions per request of `page`, run under callgrind (None: no database to read)."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={folder}/{page}.%p",
         sys.executable, __file__, "--measured", page, "--code", str(code), "--requests", str(requests),
         "--control", str(control)],
        capture_output=True, text=True, check=False)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if run.returncode == NOT_BUILT:
        return None
    if run.returncode or not found:
        raise SystemExit(f"{page}: callgrind run failed\n{run.stderr[-2000:]}")
    return int(found.group(1)) // requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", type=Path, default=HERE, help="the checkout whose code is measured")
    parser.add_argument("--pages", default=",".join(PAGES), help="comma-separated: " + ", ".join(PAGES))
    parser.add_argument("--requests", type=int, default=2, help="requests counted per page")
    parser.add_argument("--measured", help=argparse.SUPPRESS)
    parser.add_argument("--control", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measured:
        measured(args.code.resolve(), args.measured, args.requests, args.control)
        return
    unknown = [p for p in args.pages.split(",") if p not in PAGES]
    if unknown:
        parser.error(f"unknown pages: {', '.join(unknown)}")
    if shutil.which("valgrind") is None or shutil.which("cc") is None:
        print("nothing measured: this needs valgrind (and its headers) and a C compiler")
        return
    with tempfile.TemporaryDirectory() as folder:
        control = Path(folder) / "counting.so"
        (Path(folder) / "counting.c").write_text(CONTROL)
        subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(control), str(Path(folder) / "counting.c")],
                       check=True)
        print(f"code {args.code.resolve()}, {args.requests} requests a page")
        for page in args.pages.split(","):
            instructions = count(args.code.resolve(), page, args.requests, control, Path(folder))
            if instructions is None:
                print("nothing measured: build the pages' database first (bench/pages.py --keep, same DATABASE_URL)")
                return
            print(f"{page:<16} {instructions / 1e6:8.1f} million instructions a request", flush=True)


if __name__ == "__main__":
    main()
