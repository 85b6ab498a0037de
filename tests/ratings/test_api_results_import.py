"""POST /api/v1/results-imports/: staff load a results CSV as the import_results command does."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import Match, Player

pytestmark = pytest.mark.django_db

URL = "/api/v1/results-imports/"
GOOD = ("played_on,player_a,player_b,length,score_a,score_b,event\n"
        "2025-02-01,Anna,Bo,5,5,3,Club night\n"
        "2025-02-01,Bo,Carl,7,2,7,Club night\n")


def upload(client, text, *, encoding="utf-8", **fields):
    data = {"file": SimpleUploadedFile("results.csv", text.encode(encoding), content_type="text/csv"), **fields}
    return client.post(URL, data, format="multipart")


def test_staff_import_a_file_then_importing_it_again_adds_nothing(staff_api):
    first = upload(staff_api, GOOD)
    assert first.status_code == 201
    assert first.json() == {"imported": 2, "already_there": 0, "players_created": ["Anna", "Bo", "Carl"],
                            "note": None}
    again = upload(staff_api, GOOD)
    assert again.status_code == 200
    assert again.json() == {"imported": 0, "already_there": 2, "players_created": [], "note": None}
    assert Match.objects.count() == 2


def test_a_check_stores_nothing(staff_api):
    checked = upload(staff_api, GOOD, check="true")
    assert checked.status_code == 200
    assert checked.json() == {"rows": 2, "note": None}
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_bad_rows_are_a_400_by_line_and_nothing_is_stored(staff_api):
    bad = GOOD + "2025-02-30,Carl,Anna,3,3,1\n2025-03-01,Dan,Eve,5,4,2\n"
    refused = upload(staff_api, bad, encoding="cp1252")
    assert refused.status_code == 400
    assert refused.json() == {
        "file": ["Nothing was imported: fix these rows."],
        "rows": [
            {"line": 4, "problem": "played_on must be a date such as 2025-03-31 or 31.03.2025, not '2025-02-30'"},
            {"line": 5, "problem": "the winner's score 4 is below the length 5"},
        ],
        "note": None,
    }
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_windows_text_is_read_and_said(staff_api):
    imported = upload(staff_api, GOOD.replace("Anna", "Åse"), encoding="cp1252")
    assert imported.status_code == 201
    assert imported.json()["note"] == "the file is not UTF-8: it was read as Windows-1252 (Western European)"
    assert Player.objects.filter(name="Åse").exists()


def test_only_staff_import_and_a_file_is_needed(api, make_user, client_for, staff_api):
    assert upload(api, GOOD).status_code == 403
    assert upload(client_for(make_user("member")), GOOD).status_code == 403
    missing = staff_api.post(URL, {}, format="multipart")
    assert missing.status_code == 400
    assert missing.json() == {"file": ["No file was submitted."]}
    assert Match.objects.count() == 0


def test_a_file_over_the_limit_is_refused(staff_api, settings):
    settings.CRAWFORD_MAX_RESULTS_FILE_BYTES = 100
    refused = upload(staff_api, GOOD)
    assert refused.status_code == 400
    assert refused.json() == {"file": [f"The file is {len(GOOD):,} bytes; results files up to 100 bytes are accepted."]}
    assert Match.objects.count() == 0
