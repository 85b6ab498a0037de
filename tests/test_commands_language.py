"""The commands of games, ratings and analysis speak their reader's language: the active one when
called from code, the shell's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when run from a shell."""

from io import StringIO

import pytest
from django.core.management import CommandError, ManagementUtility, call_command
from django.utils import translation

from config.management.base import language_of_environment
from config.shared_data import SHARED_DATA

MATFILES = SHARED_DATA / "matfiles"
CHARLOT = MATFILES / "gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.mat"
needs_matfiles = pytest.mark.skipif(not MATFILES.is_dir(), reason="shared/data/matfiles is not beside the checkout")


@pytest.mark.parametrize(("environ", "language"), [
    ({"LANG": "da_DK.UTF-8"}, "da"),
    ({"LANGUAGE": "tr:el", "LANG": "en_GB.UTF-8"}, "el"),
    ({"LC_ALL": "ja_JP.UTF-8", "LANG": "da_DK.UTF-8"}, "ja"),
    ({"LC_MESSAGES": "ar_EG.UTF-8"}, "ar"),
    ({"LANG": "C.UTF-8"}, None),
    ({"LC_ALL": "C", "LANG": "da_DK.UTF-8"}, None),
    ({"LANG": "de_DE.UTF-8"}, None),
    ({}, None),
])
def test_a_shell_s_locale_names_the_language_of_the_commands(environ, language):
    assert language_of_environment(environ) == language


@needs_matfiles
def test_check_mat_reports_in_danish():
    out = StringIO()
    with translation.override("da"):
        call_command("bg", "check-mat", str(CHARLOT), stdout=out, stderr=StringIO())
    lines = out.getvalue().splitlines()
    assert lines[0] == f"{CHARLOT}: charlot1 mod charlot2, 7-points match"
    assert lines[4] == "  Spil  4   6–2   charlot1 vinder 3  [resign, doblingsterning 1] (Crawford-spil)"
    assert lines[5:] == ["  Slutresultat 9–2", "  Alle træk er lovlige, og alle resultater stemmer med reglerne."]


@needs_matfiles
@pytest.mark.django_db
def test_import_mat_reports_each_file_and_the_batch_in_danish(tmp_path):
    missing = str(tmp_path / "missing.mat")
    out, err = StringIO(), StringIO()
    with translation.override("da"), pytest.raises(CommandError) as failed:
        call_command("import_mat", str(CHARLOT), missing, stdout=out, stderr=err)
    assert str(failed.value) == f"1 af 2 filer blev ikke importeret: {missing}"
    assert out.getvalue().splitlines()[1] == "2 filer: 1 importeret, 0 fandtes allerede, 1 fejlede."
    assert err.getvalue() == f"{missing}: ikke importeret\n  Filen findes ikke: {missing}\n"


def test_a_command_run_from_a_danish_shell_answers_in_danish(monkeypatch, capsys):
    monkeypatch.setenv("LANGUAGE", "da_DK.UTF-8")
    with pytest.raises(SystemExit) as exited:
        ManagementUtility(["manage.py", "bg", "moves", "4HPwATDgc/ABMA", "71"]).execute()
    assert exited.value.code == 1
    assert capsys.readouterr().err == 'CommandError: Terningerne er to tal fra 1 til 6, som "53" eller "5-3", ikke "71".\n'
    assert translation.get_language() == "en"  # the shell's language ends with the command


def test_analyse_without_gnu_backgammon_says_so_in_danish(settings):
    settings.CRAWFORD_ANALYSIS = False
    with translation.override("da"), pytest.raises(CommandError) as refused:
        call_command("analyse", "--all")
    assert str(refused.value).startswith("GNU Backgammon (gnubg) er ikke installeret")


@pytest.mark.django_db(transaction=True)  # the shell's command closes the connections as it ends
def test_import_results_counts_each_part_in_its_own_plural_form_in_arabic_and_japanese(tmp_path, monkeypatch, capsys):
    sheet = tmp_path / "league.csv"
    sheet.write_text("played_on,player_a,player_b,length,score_a,score_b\n2025-02-01,Anna,Bo,5,5,3\n", encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "ar")
    ManagementUtility(["manage.py", "import_results", str(sheet)]).execute()
    assert capsys.readouterr().out == (
        f"{sheet}: استُوردت مباراة واحدة (1)، 0 موجودة من قبل، لاعبان جديدان (2).\n")
    sheet.write_text(sheet.read_text() + "2025-02-08,Carl,Anna,3,4,1\n", encoding="utf-8")
    monkeypatch.setenv("LANGUAGE", "ja")
    ManagementUtility(["manage.py", "import_results", str(sheet)]).execute()
    assert capsys.readouterr().out == f"{sheet}：取り込んだマッチ 1 件、取り込み済み 1 件、新しいプレイヤー 1 人。\n"
    with translation.override("ar"):
        call_command("import_results", str(sheet))
    assert capsys.readouterr().out == f"{sheet}: استُوردت 0 مباراة، اثنتان (2) موجودتان من قبل، 0 لاعب جديد.\n"
    call_command("import_results", str(sheet))
    assert capsys.readouterr().out == f"{sheet}: imported 0 matches, 2 already there, 0 new players.\n"
