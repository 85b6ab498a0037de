"""How fast the pages render: a 256-player event and a rating list of 20,000 players.

    .venv/bin/python bench/pages.py            # a scratch SQLite database
    DATABASE_URL=postgres://... .venv/bin/python bench/pages.py   # a scratch test_ database there
    BENCH_MATCHES=500000 DATABASE_URL=postgres://... .venv/bin/python bench/pages.py --keep
    ... bench/pages.py --readers 20 --writers 5 [--seconds 30] [--only-load]   # under load

`--keep` leaves the test_ database in place afterwards and, when it already holds data built
with the same BENCH_PLAYERS, BENCH_EVENT and BENCH_MATCHES, measures it again without building
(new migrations are applied to it first); with other sizes it is emptied and built afresh.
Federation scale (500,000 matches) took 2.5 minutes to build on PostgreSQL.

Builds the data with bulk_create (the event itself through the tournament services, so that its
draw is real), then renders each page with the Django test client and prints the median and
p95 time and the number of queries. The target is a p95 under 50 ms per page.

With `--readers N --writers M` it then rates the built history for real (checkpoints, as a site
has them; `build` only writes a published list) and, for `--seconds`, N processes read the
player page and the list search in random turn (`--read-pause` seconds apart on average, 0.5)
while M processes save results at the end of the history through the services, as a desk does
(`match_final_score_record`, `--write-pause` seconds apart, 1; their ratings run as the site
runs them, after each Save or on a worker): it prints each page's median, p95 and worst under
that load, the Saves' the same, and how long the ratings took to catch up after the last Save.
The issue's target: player page and list search at 500,000 matches, p95 under 50 ms with 20
readers and 5 writers. On SQLite the database is then a file (the processes share it), not the
usual one in memory. `--only-load` skips the pages one by one. The player measured
plays one match in a hundred: 5,000 of them at federation scale, 400 rating changes.

At federation scale on PostgreSQL 15 (27 Nov 2026, two cores shared with other work; load
average 3.6 to 6.7 throughout), the code before and after the player page's and the search's
speed work run in turn on the same kept database, twice each in three sessions (median,
queries from the cache; the club search as finally changed in the last session only):

    page                              before              after
    player (5,000 matches)            81-144 ms, 10       28-35 ms, 9 (55 ms at a load of 6.4)
    rating list, search + country     18-36 ms, 7         15-35 ms, 6
    rating list, a rare part of name  11-18 ms, 7         9-15 ms, 6
    rating list, part of a club       18-31 ms, 7         21-28 ms, 7
    the other public pages            3-29 ms             3-34 ms (the replay 45 ms once)
    event drawn afresh                33-65 ms            32-87 ms
    TD desk / its htmx fragment       42-84 / 37-63 ms    42-81 / 40-94 ms
    match slips (kept / encoded)      36-91 / 129-313 ms  39-76 / 131-258 ms

The event drawn afresh, the desk and the slips do not grow with the matches (this work left
them alone); under this load they pass 50 ms before and after alike. On the freshly built
database, before the new indexes, the player page took 146 ms (load 6.5). On SQLite at the
default sizes (load 3.9 to 4.5): the player page 20-37 ms (29-37 before), a search by name
32-59 ms (42-71 before).
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import secrets
import statistics
import sys
import time
import warnings
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_URL", "sqlite:////tmp/crawford-bench-pages.sqlite3")
# Measured as production runs (DEBUG off), with a throwaway key and no HTTPS redirect.
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("SITE_URL", "http://localhost:8000")
os.environ.setdefault("SECURE_HTTPS", "0")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

PLAYERS = int(os.environ.get("BENCH_PLAYERS", 20_000))
EVENT = int(os.environ.get("BENCH_EVENT", 256))
MATCHES = int(os.environ.get("BENCH_MATCHES", 40_000))
REPEAT = int(os.environ.get("BENCH_REPEAT", 25))
COUNTRIES = ["DK", "SE", "NO", "DE", "IT", "JP", "US", "TR", "GB", "FR", "ES", "NL"]


def build(rng: random.Random) -> dict:
    from games import services as games
    from games.engine import Position, legal_plays
    from games.models import Match, Player
    from ratings.models import Rating, RatingChange, RatingRun, RatingSystemState, RunStage, RunStatus
    from tournaments import services as events
    from tournaments.models import Entry, Pairing

    started = time.perf_counter()
    now = timezone.now()
    # The event first, while the history is empty: each result asks for a ratings recompute.
    users = get_user_model()
    staff = users.objects.create_user("bench-staff", is_staff=True, is_superuser=True)
    td = users.objects.create_user("bench-td")
    tournament = events.tournament_create(name="Bench Open", start_date=date(2026, 11, 20), organisers=[td],
                                          by=staff)
    main = events.flight_create(tournament=tournament, name="Main", format="single_elimination",
                                lengths=[7, 7, 9, 9, 11, 11, 13, 13, 15], seeding="random", random_seed=99, by=td)
    events.flight_create(tournament=tournament, name="Consolation", kind="consolation", format="single_elimination",
                         lengths=[5, 5, 7, 7, 9, 9, 11, 11], by=td,
                         feeders=[{"source": "Main", "source_round": 1, "entry_round": 1}])
    field = Player.objects.bulk_create([Player(name=f"Entrant {i:03d}", country=rng.choice(COUNTRIES))
                                        for i in range(EVENT)])
    Entry.objects.bulk_create([Entry(tournament=tournament, flight=main, player=p, status="checked_in")
                               for p in field])
    events.flight_start(flight=main, by=td)
    for i, pairing in enumerate(Pairing.objects.filter(flight=main, round__number=1, status="pending")
                                .select_related("round", "flight__tournament")):
        events.result_report(pairing=pairing, by=td, score_a=7 if i % 3 else 2, score_b=4 if i % 3 else 7)
    # Sixty-four tables, the last four kept for the consolation; round 2 called to its tables.
    events.tables_set(tournament=tournament, count=64, by=td,
                      reserved=[{"table": n, "flight": "Consolation"} for n in range(61, 65)])
    events.tables_call(tournament=tournament, pairings=list(Pairing.objects.filter(
        flight__tournament=tournament, status="pending", player_b__isnull=False)), by=td)

    position, side, moves = Position.initial(), 0, []
    for move in range(60):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = legal_plays(position, dice)[0]
        moves.append({"type": "roll", "side": side, "dice": list(dice), "notation": play.notation,
                      "steps": [list(s) for s in play.steps], "position_id_before": position.position_id(),
                      "position_id_after": play.result_id(), "move": move // 2 + 1, "line": move})
        position, side = play.position.swap(), 1 - side
    sheet = games.match_create(player_a=field[0], player_b=field[1],
                               length=11)
    for number in range(1, 11):
        sheet = games.game_record(match=sheet, number=number, game=games.GameInput(
            winner=number % 2, moves=moves if number == 1 else None))
    Player.objects.bulk_create(
        [Player(name=f"Player {i:05d} {rng.choice(['Berg', 'Sato', 'Rossi', 'Novak', 'Holm'])}",
                country=rng.choice(COUNTRIES), club=f"Club {i % 400}") for i in range(PLAYERS)],
        batch_size=2000,
    )
    ids = list(Player.objects.filter(name__startswith="Player ").order_by("id").values_list("id", flat=True))
    star = ids[0]
    matches = []
    for i in range(MATCHES):
        a, b = (star, rng.choice(ids[1:])) if i % 100 == 0 else rng.sample(ids, 2)
        length = rng.choice([1, 3, 5, 7, 9, 11])
        won_a = rng.random() < 0.5
        matches.append(Match(player_a_id=a, player_b_id=b, kind="match", length=length, status="finished",
                             score_a=length if won_a else rng.randrange(length), winner_id=a if won_a else b,
                             score_b=rng.randrange(length) if won_a else length,
                             played_on=now - timedelta(minutes=MATCHES - i), finished_at=now))
    Match.objects.bulk_create(matches, batch_size=2000)

    for system in ("fibs", "crawford"):
        run = RatingRun.objects.create(system=system, status=RunStatus.DONE, stage=RunStage.PUBLISHED,
                                       requested_at=now, finished_at=now, matches_total=MATCHES,
                                       matches_done=MATCHES, players=PLAYERS, published=True)
        RatingSystemState.objects.update_or_create(system=system, defaults={"published_run": run})
        Rating.objects.bulk_create([
            Rating(run=run, system=system, player_id=pid, rating=rng.gauss(1500, 150),
                   deviation=rng.uniform(40, 300) if system == "crawford" else None,
                   volatility=0.005 if system == "crawford" else None, experience=rng.randrange(1, 2000),
                   matches=rng.randrange(1, 300), last_played=now, provisional=rng.random() < 0.3)
            for pid in ids
        ], batch_size=2000)
        rating = 1500.0
        changes = []
        for sequence in range(400):
            delta = rng.uniform(-8, 8)
            changes.append(RatingChange(run=run, sequence=sequence, match_id=1, player_id=star,
                                        opponent_id=ids[1 + sequence], played_on=now - timedelta(days=400 - sequence),
                                        length=7, won=delta > 0, rating_before=rating, rating_after=rating + delta,
                                        deviation_before=80.0, deviation_after=79.0, expected=0.5))
            rating += delta
        RatingChange.objects.bulk_create(changes, batch_size=2000)

    print(f"built {PLAYERS:,} players, {MATCHES:,} matches, ratings in 2 systems, a {EVENT}-player event "
          f"in {time.perf_counter() - started:.1f} s on {connection.vendor}")
    return {"tournament": tournament, "star": star, "sheet": sheet, "td": td, "other": ids[2]}


def settle() -> None:
    """What a live database's autovacuum has done: the planner's statistics, and on PostgreSQL the
    visibility map, without which an index-only read visits the table anyway."""
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")


def built() -> dict | None:
    """The cast of data a previous `--keep` run left, if it was built with the same sizes."""
    from games.models import Match, Player
    from tournaments.models import Entry, Tournament

    tournament = Tournament.objects.filter(name="Bench Open").first()
    if (tournament is None or Entry.objects.filter(tournament=tournament).count() != EVENT
            or Player.objects.filter(name__startswith="Player ").count() != PLAYERS
            or Match.objects.filter(pairing__isnull=True, length__gt=0).count() != MATCHES + 1):
        return None
    ids = list(Player.objects.filter(name__startswith="Player ").order_by("id").values_list("id", flat=True)[:3])
    sheet = (Match.objects.filter(pairing__isnull=True, player_a__name="Entrant 000", length=11)
             .order_by("id").first())
    print(f"kept {PLAYERS:,} players, {MATCHES:,} matches, ratings in 2 systems, a {EVENT}-player event "
          f"on {connection.vendor}")
    td = get_user_model().objects.get(username="bench-td")
    return {"tournament": tournament, "star": ids[0], "sheet": sheet, "td": td, "other": ids[2]}


def measure(client: Client, label: str, url: str, *, afresh: bool = False, headers=None) -> None:
    """Print the median and p95 time of `url`, one reader alone; `afresh` empties the cache
    before each request (not timed)."""
    headers = headers or {}
    response = client.get(url, headers=headers)
    if any(part and part in label for part in os.environ.get("BENCH_PROFILE", "").split("|")):
        import cProfile
        import pstats

        profile = cProfile.Profile()
        if afresh:
            cache.clear()
        profile.runcall(client.get, url)
        pstats.Stats(profile).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(25)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        for query in sorted(queries.captured_queries, key=lambda q: -float(q["time"]))[:3]:
            print(f"  {float(query['time']) * 1000:7.1f} ms  {query['sql'][:400]}")
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(REPEAT):
        if afresh:
            cache.clear()
        start = time.perf_counter()
        client.get(url, headers=headers)
        times.append((time.perf_counter() - start) * 1000)
    if afresh:
        cache.clear()
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers)
    median, p95 = statistics.median(times), percentile(times, 0.95)
    mark = "" if p95 < 50 else "  p95 over 50 ms"
    print(f"{label:<34} {median:8.1f} ms median  p95 {p95:6.1f} ms  {len(queries):3d} queries  "
          f"{len(response.content) / 1024:7.1f} kB{mark}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


UNDER_LOAD = (("player page", "/players/{star}/"), ("list search", "/ratings/?q=Sato&country=DK"))
"""The pages read under load: the measured player's page and a search of the rating list."""


def rated_for_real() -> None:
    """Rate the built history as a site would (checkpoints, the history's account), once: the
    writers' results then update the end of it, as a result at the desk does, instead of the
    first of them recomputing the whole history that `build` only pretended to rate."""
    from ratings import services as ratings
    from ratings.models import RatingCheckpoint, RatingSystemState

    for system in ratings.enabled_systems():
        published = RatingSystemState.objects.filter(system=system).values_list("published_run_id", flat=True).first()
        if not RatingCheckpoint.objects.filter(run_id=published, head=True).exists():
            started = time.perf_counter()
            ratings.rating_recompute_now(system=system)
            print(f"rated {system} for real in {time.perf_counter() - started:.1f} s")


def _reader(number: int, star: int, deadline: float, pause: float, results) -> None:
    """One reader: the player page and the search, in random turn, `pause` seconds apart on
    average, until `deadline`; puts (page, ms) pairs on `results`."""
    rng = random.Random(number)
    client = Client()
    timings = []
    try:
        while time.time() < deadline:
            label, url = rng.choice(UNDER_LOAD)
            started = time.perf_counter()
            response = client.get(url.format(star=star))
            timings.append((label, (time.perf_counter() - started) * 1000, response.status_code))
            time.sleep(pause * rng.uniform(0.5, 1.5))
    finally:
        results.put(timings)


def _writer(number: int, players: list[int], deadline: float, pause: float, results) -> None:
    """One writer, as a desk saving results: a match between two players, its final score
    recorded through the services (`match_final_score_record`, timed: the Save), `pause` seconds
    apart on average, at the end of the history; the ratings it asks for run as the site runs
    them (a worker, or a thread of this process after each Save). Puts ("save", ms) pairs."""
    from games import services as games
    from games.models import Player
    from ratings import background

    rng = random.Random(1000 + number)
    timings = []
    try:
        while time.time() < deadline:
            a, b = Player.objects.filter(pk__in=rng.sample(players, 2))
            match = games.match_create(player_a=a, player_b=b, length=rng.choice([3, 5, 7]), played_on=timezone.now())
            started = time.perf_counter()
            games.match_final_score_record(match=match, score_a=match.length, score_b=rng.randrange(match.length))
            timings.append(("save", (time.perf_counter() - started) * 1000, 200))
            time.sleep(pause * rng.uniform(0.5, 1.5))
        background.wait(600)
    finally:
        results.put(timings)


def under_load(star: int, readers: int, writers: int, seconds: float, read_pause: float,
               write_pause: float) -> None:
    """The player page and the list search read by `readers` processes at once while `writers`
    processes save results, for `seconds`: prints each page's median, p95 and worst, the Saves'
    the same, and how long after the last Save the ratings caught up."""
    import multiprocessing

    from django.db import connections

    from config.processes import wait
    from games.models import Player
    from ratings import background
    from ratings.models import RatingPending, RatingRun, RunStatus

    players = list(Player.objects.filter(name__startswith="Player ").values_list("id", flat=True)[:2000])
    background.wait(600)
    connections.close_all()  # each process opens its own
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    deadline = time.time() + seconds
    processes = [context.Process(target=_reader, args=(n, star, deadline, read_pause, results)) for n in range(readers)]
    processes += [context.Process(target=_writer, args=(n, players, deadline, write_pause, results))
                  for n in range(writers)]
    print(f"{readers} readers ({read_pause:g} s between pages) and {writers} writers ({write_pause:g} s between "
          f"Saves) for {seconds:g} s; load average %.2f %.2f %.2f" % os.getloadavg())
    for process in processes:
        process.start()
    timings = [row for _ in processes for row in results.get()]
    for process in processes:
        process.join()
    last = time.perf_counter()
    wait(lambda: not RatingPending.objects.exists() and not RatingRun.objects.filter(
        status__in=[RunStatus.QUEUED, RunStatus.RUNNING]).exists(), 600, every=0.1)
    caught_up = time.perf_counter() - last
    for label in [label for label, _ in UNDER_LOAD] + ["save"]:
        times = [ms for page, ms, _ in timings if page == label]
        failed = sum(1 for page, _, status in timings if page == label and status != 200)
        if not times:
            print(f"{label:<34} no requests")
            continue
        p95 = percentile(times, 0.95)
        mark = "" if label == "save" or p95 < 50 else "  p95 over 50 ms"
        print(f"{label + ' under load':<34} {len(times):5d} requests  median {percentile(times, 0.5):7.1f} ms  "
              f"p95 {p95:7.1f} ms  worst {max(times):7.1f} ms{f'  {failed} failed' if failed else ''}{mark}")
    print(f"ratings caught up {caught_up:.1f} s after the writers stopped; load average %.2f %.2f %.2f"
          % os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", action="store_true", help=(
        "keep the database afterwards, and measure a kept one of the same sizes without building"))
    parser.add_argument("--readers", type=int, default=0, help=(
        "processes reading the player page and the list search at once, after the pages one by one"))
    parser.add_argument("--writers", type=int, default=0, help="processes saving results meanwhile")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long readers and writers run")
    parser.add_argument("--read-pause", type=float, default=0.5, help="a reader's seconds between pages (on average)")
    parser.add_argument("--write-pause", type=float, default=1.0, help="a writer's seconds between Saves (on average)")
    parser.add_argument("--only-load", action="store_true", help="skip the pages one by one")
    args = parser.parse_args()
    keep = args.keep
    concurrent = args.readers or args.writers
    logging.disable(logging.INFO)  # the ratings runs the event's results start log each step
    warnings.filterwarnings("ignore", message="No directory at")  # static files are not collected here
    setup_test_environment()
    settings.DEBUG = False
    if (keep or concurrent) and connection.vendor == "sqlite" and not connection.settings_dict["TEST"].get("NAME"):
        # a file to keep or to share between processes, not the usual database in memory
        name = Path(connection.settings_dict["NAME"])
        connection.settings_dict["TEST"]["NAME"] = str(name.with_name(f"test_{name.name}"))
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=keep)
    try:
        cast = built() if keep else None
        if cast is None:
            if keep:
                call_command("flush", interactive=False, verbosity=0)
            cast = build(random.Random(2026))
        if concurrent:
            rated_for_real()
        settle()
        print("load average %.2f %.2f %.2f before measuring" % os.getloadavg())
        slug, star, sheet = cast["tournament"].slug, cast["star"], cast["sheet"]
        visitor = Client()
        pages = [] if args.only_load else [
            ("home", "/"),
            ("event (256 players)", f"/events/{slug}/"),
            ("event live fragment", f"/events/{slug}/live/"),
            ("player (400 rating changes)", f"/players/{star}/"),
            ("rating list, page 1", "/ratings/"),
            ("rating list, page 200 by name", "/ratings/?sort=name&page=200"),
            ("rating list, provisional, fibs", "/ratings/?system=fibs&provisional=1"),
            ("rating list, search + country", "/ratings/?q=Sato&country=DK"),
            ("rating list, a rare part of a name", "/ratings/?q=01234"),
            ("rating list, page 200 by surname", "/ratings/?sort=surname&page=200"),
            ("rating list, part of a club's name", "/ratings/?club=lub 1"),
            ("event embedded", f"/events/{slug}/embed/"),
            ("chances", f"/ratings/chances/?player_a={star}&player_b={cast['other']}&length=11&system=crawford"),
            ("formula", "/ratings/formula/"),
            ("match page (10 games)", f"/matches/{sheet.pk}/"),
            ("replay (60 positions)", f"/matches/{sheet.pk}/games/1/"),
        ]
        for label, url in pages:
            measure(visitor, label, url)
        if not args.only_load:
            measure(visitor, "event, cache emptied each time", f"/events/{slug}/", afresh=True)
            td = Client()
            td.force_login(cast["td"])
            measure(td, "TD desk (256 players)", f"/desk/{slug}/")
            measure(td, "TD desk, queue fragment (htmx)", f"/desk/{slug}/", headers={"HX-Request": "true"})
            measure(td, "projector", f"/desk/{slug}/projector/")
            measure(td, "match slips (with QR codes)", f"/desk/{slug}/slips/")
            measure(td, "slips, cache emptied each time", f"/desk/{slug}/slips/", afresh=True)
            print("load average %.2f %.2f %.2f after" % os.getloadavg())
        if concurrent:
            under_load(star, args.readers, args.writers, args.seconds, args.read_pause, args.write_pause)
    finally:
        if keep:
            connection.close()
        else:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
