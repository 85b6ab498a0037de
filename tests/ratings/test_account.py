"""The history's account, kept by the database in the writers' transactions: whatever writes the
matches (the services, a raw UPDATE, a bulk insert, two writers from stale copies), the account
read in one query equals the one counted over every rated match."""

from datetime import timedelta

import pytest
from django.db import connection

from games import services as games
from games.models import Match
from ratings import services
from ratings.models import HistoryAccountEntry
from ratings.services.account import HistoryAccount, account_term
from ratings.services.history import UNIX_EPOCH

from .conftest import OPENING

pytestmark = pytest.mark.django_db


def term(match: Match) -> int:
    """The match's term of the checksum, from the match as stored."""
    match.refresh_from_db()
    seconds = (match.played_on - UNIX_EPOCH) // timedelta(seconds=1)
    return account_term(match.pk, match.player_a_id, match.player_b_id, match.winner_id, match.length, seconds)


@pytest.fixture
def before():
    """The account and the counted account before the test's writes (a test that committed and
    emptied the tables may have left the account off by a constant: the differences count)."""
    return services.history_account(), services.history_account_counted()


def changed(before) -> HistoryAccount:
    """What the writes since `before` changed in the account, after checking that the account
    moved exactly as the count of the matches did."""
    account, counted = services.history_account(), services.history_account_counted()
    assert account - before[0] == counted - before[1]
    return account - before[0]


def test_results_entered_add_their_terms_and_an_unfinished_or_unrated_match_adds_nothing(
    make_player, finish, before
):
    a, b, c = (make_player(name=name) for name in "ABC")
    first = finish(a, b, length=5, winner="a")
    second = finish(b, c, length=3, winner="b", day=2)
    games.match_create(player_a=a, player_b=c, length=7, played_on=OPENING)  # under way
    finish(a, c, length=3, winner="b", day=3, rated=False)

    assert changed(before) == HistoryAccount(2, term(first) + term(second))


def test_a_correction_replaces_the_old_term_by_the_new_and_an_undo_takes_it_out(make_player, finish, before):
    a, b = make_player(name="A"), make_player(name="B")
    match = finish(a, b, length=5, winner="a")
    old = term(match)
    match = games.match_final_score_record(match=match, score_a=2, score_b=5, reason="corrected")  # B won

    new = term(match)
    assert new != old
    assert changed(before) == HistoryAccount(1, new)
    games.match_update(match=match, played_on=OPENING + timedelta(days=40))
    moved = term(match)
    assert changed(before) == HistoryAccount(1, moved)
    games.match_final_score_undo(match=match)
    assert changed(before) == HistoryAccount(0, 0)


def test_a_raw_update_and_delete_that_bypass_the_services_still_reach_the_account(make_player, finish, before):
    a, b = make_player(name="A"), make_player(name="B")
    kept, gone = finish(a, b, length=3, winner="a"), finish(b, a, length=3, winner="a", day=1)
    kept_before = term(kept)
    Match.objects.filter(pk=kept.pk).update(winner=b)
    Match.objects.filter(pk=gone.pk).delete()

    assert changed(before) == HistoryAccount(1, term(kept))
    assert term(kept) != kept_before


def test_two_writers_saving_stale_copies_of_the_same_match_leave_the_account_as_the_match_ends(
    make_player, finish, before
):
    a, b, c = (make_player(name=name) for name in "ABC")
    match = finish(a, b, length=5, winner="a")
    first, second = Match.objects.get(pk=match.pk), Match.objects.get(pk=match.pk)
    first.winner = b
    first.save()
    second.length = 7  # still thinks A won: its save puts A back as the winner
    second.save()
    third = Match.objects.get(pk=match.pk)
    third.player_b = c
    third.winner = c
    third.save()

    assert changed(before) == HistoryAccount(1, term(match))
    assert (match.length, match.winner_id, match.player_b_id) == (7, c.pk, c.pk)


def test_a_save_that_changes_nothing_rated_writes_no_entry(make_player, finish):
    a, b = make_player(name="A"), make_player(name="B")
    match = finish(a, b, length=3, winner="a")
    entries = HistoryAccountEntry.objects.count()
    Match.objects.filter(pk=match.pk).update(source="slip", version=match.version + 1)
    games.match_create(player_a=a, player_b=b, length=3, played_on=OPENING)

    assert HistoryAccountEntry.objects.count() == entries


def test_folding_keeps_the_account_in_one_entry_read_in_one_query(
    make_player, finish, before, django_assert_num_queries
):
    a, b = make_player(name="A"), make_player(name="B")
    matches = [finish(a, b, length=3, winner="ab"[n % 2], day=n) for n in range(5)]
    account = services.history_account()
    entries = HistoryAccountEntry.objects.count()

    assert services.history_account_fold() == entries
    assert HistoryAccountEntry.objects.count() == 1
    assert services.history_account_fold() == 0
    with django_assert_num_queries(1):
        assert services.history_account() == account
    assert changed(before) == HistoryAccount(5, sum(term(match) for match in matches))


def test_the_triggers_reinstalled_after_a_migration_dropped_them_start_from_the_matches(make_player, finish):
    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=3, winner="a")
    assert services.history_account_install() is False  # in place: nothing to do
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER ratings_history_account ON games_match")
        else:
            for event in ("insert", "update", "delete"):
                cursor.execute(f"DROP TRIGGER ratings_history_account_{event}")
    finish(b, a, length=5, winner="a", day=1)  # missed by the account
    assert services.history_account() != services.history_account_counted()

    assert services.history_account_install() is True
    assert services.history_account() == services.history_account_counted()
    assert HistoryAccountEntry.objects.count() == 1
    finish(a, b, length=7, winner="b", day=2)
    assert services.history_account() == services.history_account_counted()


@pytest.mark.django_db(transaction=True)
def test_writers_on_the_same_match_at_once_and_folds_between_them_leave_the_account_as_the_matches_are(
    make_player, finish
):
    """On PostgreSQL, each writer on its own connection: the writers queue on the match's row lock,
    each trigger sees the row as the writer before left it, and a fold deletes exactly what it
    sums while the writers add entries."""
    import threading

    from django.db import connection as main_connection
    from django.db import connections

    if main_connection.vendor != "postgresql":
        pytest.skip("writers on their own connections at once: PostgreSQL (SQLite takes one writer at a time)")
    a, b = make_player(name="A"), make_player(name="B")
    match = finish(a, b, length=5, winner="a")
    before = services.history_account(), services.history_account_counted()
    was = term(match)
    errors = []

    def work(task):
        try:
            task()
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connections.close_all()

    def correct(n):
        for k in range(6):
            scores = (5, k % 5) if (n + k) % 2 else (k % 5, 5)
            games.match_final_score_record(match=Match.objects.get(pk=match.pk), score_a=scores[0],
                                           score_b=scores[1], reason="corrected")

    def fold():
        for _ in range(10):
            services.history_account_fold()

    threads = [threading.Thread(target=work, args=(lambda n=n: correct(n),)) for n in range(4)]
    threads += [threading.Thread(target=work, args=(fold,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert changed(before) == HistoryAccount(0, term(match) - was)
    assert Match.history.filter(id=match.pk).count() == 1 + 1 + 4 * 6  # created, finished, every correction


@pytest.mark.django_db(transaction=True)
def test_a_database_emptied_table_by_table_starts_its_account_again_at_nothing(make_player, finish):
    """`flush` empties the tables one after another (the tests between them do too): whatever order
    it takes, an empty history's account is nothing, and the next run's account is the count."""
    from django.core.management import call_command

    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=5, winner="a")
    finish(a, b, length=3, winner="b", day=2)
    assert services.history_account() == services.history_account_counted()
    call_command("flush", interactive=False, verbosity=0)
    assert services.history_account() == HistoryAccount(0, 0)
    a, b = make_player(name="A"), make_player(name="B")
    finish(a, b, length=7, winner="b")
    assert services.history_account() == services.history_account_counted()
