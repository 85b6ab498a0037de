"""match_update: whether a match is rated and when it was played, changed through one service."""

from datetime import datetime, timezone

import pytest
from django.core.exceptions import ValidationError

from config.errors import ConflictError
from games import services

pytestmark = pytest.mark.django_db


def test_a_match_is_marked_unrated_and_moved_with_its_history_kept(make_match, staff):
    match = make_match(length=3, played_on=datetime(2026, 1, 5, 18, tzinfo=timezone.utc))
    updated = services.match_update(match=match, by=staff, rated=False,
                                    played_on=datetime(2026, 1, 6, 18, tzinfo=timezone.utc))
    assert (updated.rated, updated.played_on.day, updated.version) == (False, 6, match.version + 1)
    latest = updated.history.first()
    assert (latest.history_user, latest.history_change_reason) == (staff, "rated and played on changed")
    again = services.match_update(match=updated, by=staff, rated=False)
    assert again.version == updated.version and updated.history.count() == 2


def test_match_update_refuses_what_it_cannot_store(make_match):
    match = make_match(length=3)
    with pytest.raises(ValidationError) as error:
        services.match_update(match=match, rated="no", played_on="yesterday")
    assert error.value.message_dict == {
        "rated": ["Say whether the match is rated: true or false."],
        "played_on": ["Give the date and time the match was played."],
    }
    with pytest.raises(ConflictError):
        services.match_update(match=match, rated=False, expected_version=match.version + 1)


def test_the_reasons_a_match_keeps_are_in_the_sites_language_whatever_the_writer_reads(make_match, staff,
                                                                                        settings):
    from django.utils import translation

    settings.LANGUAGE_CODE = "el"
    match = make_match(length=3)
    with translation.override("ja"):  # the writer reads Japanese
        match = services.game_record(match=match, number=1, game=services.GameInput(winner=0), by=staff)
        match = services.match_update(match=match, by=staff, rated=False)
    assert list(match.history.order_by("-history_id").values_list("history_change_reason", flat=True)[:2]) == [
        "άλλαξε: rated", "καταχωρίστηκε το παιχνίδι 1"]
