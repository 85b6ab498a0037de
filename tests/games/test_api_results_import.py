"""POST /api/v1/results-imports/: staff load a results CSV as the import_results command does;
the rows are checked at once and stored by a background job, polled at /api/v1/imports/{id}/."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.models import ImportJob, Match, Player

pytestmark = pytest.mark.django_db

URL = "/api/v1/results-imports/"
GOOD = ("played_on,player_a,player_b,length,score_a,score_b,event\n"
        "2025-02-01,Anna,Bo,5,5,3,Club night\n"
        "2025-02-01,Bo,Carl,7,2,7,Club night\n")


def upload(client, text, *, encoding="utf-8", name="results.csv", **fields):
    data = {"file": SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv"), **fields}
    return client.post(URL, data, format="multipart")


def import_and_poll(client, capture, text, **kwargs):
    """Upload (the job runs when the request's transaction commits), then poll the job."""
    with capture(execute=True):
        accepted = upload(client, text, **kwargs)
    assert accepted.status_code == 202, accepted.json()
    assert accepted["Location"] == f"/api/v1/imports/{accepted.json()['id']}/"
    return client.get(accepted["Location"]).json()


def test_staff_import_a_file_as_a_job_then_importing_it_again_adds_nothing(
    staff_api, django_capture_on_commit_callbacks
):
    first = import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD)
    assert (first["kind"], first["status"], first["rows_done"], first["rows_total"], first["errors"]) == (
        "results", "done", 2, 2, [])
    assert first["result"] == {"imported": 2, "already_there": 0, "players_created": ["Anna", "Bo", "Carl"],
                               "not_in_sheet": [], "note": None}
    assert first["page"] == f"/matches/imports/{first['id']}/"
    again = import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD)
    assert again["result"] == {"imported": 0, "already_there": 2, "players_created": [], "not_in_sheet": [],
                               "note": None}
    assert Match.objects.count() == 2


def test_the_answer_is_202_with_the_queued_job_before_a_worker_takes_it(staff_api):
    accepted = upload(staff_api, GOOD)
    assert accepted.status_code == 202
    body = accepted.json()
    assert (body["status"], body["rows_done"], body["rows_total"], body["result"]) == ("queued", 0, 0, None)
    assert ImportJob.objects.get(pk=body["id"]).name == "results.csv"
    assert Match.objects.count() == 0


def test_a_check_stores_nothing(staff_api):
    checked = upload(staff_api, GOOD, check="true")
    assert checked.status_code == 200
    assert checked.json() == {"rows": 2, "note": None}
    assert Match.objects.count() == 0 and Player.objects.count() == 0 and ImportJob.objects.count() == 0


def test_a_check_answers_400_with_the_bad_rows_by_line(staff_api):
    bad = GOOD + "2025-02-30,Carl,Anna,3,3,1\n2025-03-01,Dan,Eve,5,4,2\n"
    refused = upload(staff_api, bad, encoding="cp1252", check="true")
    assert refused.status_code == 400
    assert refused.json() == {
        "file": ["Nothing was imported: fix these rows."],
        "rows": [
            {"line": 4, "problem": "played_on must be a date such as 2025-03-31 or 31.03.2025, not '2025-02-30'"},
            {"line": 5, "problem": "the winner's score 4 is below the length 5"},
        ],
        "note": None,
    }
    assert Match.objects.count() == 0 and Player.objects.count() == 0 and ImportJob.objects.count() == 0


def test_bad_rows_fail_the_job_by_line_and_nothing_is_stored(staff_api, django_capture_on_commit_callbacks):
    bad = GOOD + "2025-02-30,Carl,Anna,3,3,1\n2025-03-01,Dan,Eve,5,4,2\n"
    job = import_and_poll(staff_api, django_capture_on_commit_callbacks, bad)
    assert (job["status"], job["rows_done"], job["result"]) == ("failed", 0, None)
    assert job["errors"] == [
        {"line": 4, "problem": "played_on must be a date such as 2025-03-31 or 31.03.2025, not '2025-02-30'"},
        {"line": 5, "problem": "the winner's score 4 is below the length 5"},
    ]
    assert Match.objects.count() == 0 and Player.objects.count() == 0


def test_a_name_several_players_share_fails_the_job_by_line_and_stores_nothing(
    staff_api, make_player, django_capture_on_commit_callbacks
):
    make_player(name="Bo", club="North")
    make_player(name="Bo", club="South", confirm_duplicate=True)
    job = import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD)
    assert job["status"] == "failed"
    assert job["errors"] == [
        {"line": 2, "problem": "Several players are named Bo: the file cannot say which one."},
        {"line": 3, "problem": "Several players are named Bo: the file cannot say which one."},
    ]
    assert Match.objects.count() == 0 and Player.objects.count() == 2


def test_windows_text_is_read_and_said(staff_api, django_capture_on_commit_callbacks):
    job = import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD.replace("Anna", "Åse"),
                          encoding="cp1252")
    assert job["note"] == "the file is not UTF-8: it was read as Windows-1252 (Western European)"
    assert job["result"]["note"] == job["note"]
    assert Player.objects.filter(name="Åse").exists()


def test_only_staff_import_or_see_jobs_and_a_file_is_needed(api, make_user, client_for, staff_api):
    assert upload(api, GOOD).status_code == 403
    assert upload(client_for(make_user("member")), GOOD).status_code == 403
    missing = staff_api.post(URL, {}, format="multipart")
    assert missing.status_code == 400
    assert missing.json() == {"file": ["No file was submitted."]}
    assert Match.objects.count() == 0
    job = upload(staff_api, GOOD).json()
    assert api.get(f"/api/v1/imports/{job['id']}/").status_code == 403
    assert client_for(make_user("other")).get(f"/api/v1/imports/{job['id']}/").status_code == 403


def test_a_file_over_the_limit_is_refused(staff_api, settings):
    settings.CRAWFORD_MAX_RESULTS_FILE_BYTES = 100
    refused = upload(staff_api, GOOD)
    assert refused.status_code == 400
    assert refused.json() == {"file": [f"The file is {len(GOOD):,} bytes; results files up to 100 bytes are accepted."]}
    assert Match.objects.count() == 0


def test_a_file_with_nul_bytes_is_refused_as_not_text_and_stores_nothing(staff_api):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from games.models import ImportJob

    upload = SimpleUploadedFile("x\x00.csv", b"played_on,player_a,player_b,length,score_a,score_b\n\x00\n")
    response = staff_api.post("/api/v1/results-imports/", {"file": upload}, format="multipart")
    assert response.status_code == 400
    assert response.json()["rows"] == [
        {"line": 1, "problem": "this is not a text file (it holds NUL bytes): save it as CSV UTF-8"}]
    assert not ImportJob.objects.exists()


def test_another_files_identical_results_are_stored_and_its_new_player_column_is_read(
    staff_api, django_capture_on_commit_callbacks
):
    import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD, name="morning.csv")
    near = GOOD.replace(",event\n", ",event,new_player\n") + "2025-02-01,Ana,Bo,5,5,1,Club night,yes\n"
    evening = import_and_poll(staff_api, django_capture_on_commit_callbacks, near, name="evening.csv")
    assert evening["result"] == {"imported": 3, "already_there": 0, "players_created": ["Ana"], "not_in_sheet": [],
                                 "note": None}
    again = import_and_poll(staff_api, django_capture_on_commit_callbacks, near, name="evening.csv")
    assert (again["result"]["imported"], again["result"]["already_there"]) == (0, 3)
    assert Match.objects.count() == 5


def test_a_sheet_sent_again_with_a_row_corrected_names_the_match_it_no_longer_holds(
    staff, staff_api, client, django_capture_on_commit_callbacks
):
    import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD, name="morning.csv")
    wrong = Match.objects.get(player_b__name="Carl")
    corrected = import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD.replace("7,2,7", "7,3,7"),
                                name="morning.csv")
    assert corrected["result"] == {"imported": 1, "already_there": 1, "players_created": [],
                                   "not_in_sheet": [wrong.pk], "note": None}
    client.force_login(staff)
    page = client.get(corrected["page"]).content.decode()
    assert (f'<dt>Imported from this sheet before, not in it now</dt><dd><a href="/matches/{wrong.pk}/">match '
            f'{wrong.pk}</a>. They stay stored: if the sheet corrects them, correct or withdraw those matches.</dd>'
            ) in page


def test_the_import_says_which_near_names_are_new_players_and_names_its_sheet(
    staff_api, django_capture_on_commit_callbacks
):
    import_and_poll(staff_api, django_capture_on_commit_callbacks, GOOD, name="morning.csv")
    near = GOOD + "2025-02-01,Ana,Bo,5,5,1,Club night\n2025-02-01,Carll,Bo,5,5,2,Club night\n"
    refused = import_and_poll(staff_api, django_capture_on_commit_callbacks, near, name="evening.csv")
    assert (refused["status"], [error["line"] for error in refused["errors"]]) == ("failed", [4, 5])
    named = import_and_poll(staff_api, django_capture_on_commit_callbacks, near, name="evening.csv",
                            new_players="Ana, Carll", sheet="Evening sheet")
    assert named["result"]["imported"] == 4 and sorted(named["result"]["players_created"]) == ["Ana", "Carll"]
    again = import_and_poll(staff_api, django_capture_on_commit_callbacks, near, name="evening (2).csv",
                            sheet="evening SHEET", accept_new_names="true")
    assert (again["result"]["imported"], again["result"]["already_there"]) == (0, 4)
    assert Match.objects.count() == 6


def test_a_blank_sheet_name_is_refused_by_field(staff_api):
    response = upload(staff_api, GOOD, sheet="  ")
    assert (response.status_code, response.json()) == (400, {"sheet": ["This field may not be blank."]})
    assert ImportJob.objects.count() == 0


def test_a_job_writes_its_problems_in_the_language_of_whoever_sent_the_file(
    staff_api, django_capture_on_commit_callbacks
):
    from django.utils import translation

    bad = GOOD + "2025-02-30,Carl,Anna,3,3,1\n2025-03-01,Dan,Eve,5,4,2\n"
    with django_capture_on_commit_callbacks() as callbacks:
        accepted = staff_api.post(URL, {"file": SimpleUploadedFile("results.csv", bad.encode(), content_type="text/csv")},
                                  format="multipart", HTTP_ACCEPT_LANGUAGE="da")
    assert accepted.status_code == 202
    with translation.override("en"):  # the worker's own language
        for callback in callbacks:
            callback()
    job = staff_api.get(accepted["Location"]).json()
    assert job["status"] == "failed"
    assert job["errors"] == [
        {"line": 4, "problem": "played_on skal være en dato som 2025-03-31 eller 31.03.2025, ikke '2025-02-30'"},
        {"line": 5, "problem": "vinderens score 4 er under længden 5"},
    ]
