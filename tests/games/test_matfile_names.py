"""Match files name players as the records do: a name near a player's is asked about, not made new."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from config.shared_data import SHARED_DATA
from games.models import Match, Player

MATFILES = SHARED_DATA / "matfiles"
CHARLOT = "gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.mat"
pytestmark = pytest.mark.skipif(not MATFILES.is_dir(), reason="shared/data/matfiles is not beside the checkout")


@pytest.mark.django_db
def test_a_match_file_naming_a_player_without_his_accent_is_refused_with_the_player_meant(tmp_path, make_player):
    soren = make_player("Søren", club="Copenhagen BG")
    path = tmp_path / "soren.mat"
    path.write_text((MATFILES / CHARLOT).read_text().replace("charlot1", "Soren"))
    with pytest.raises(CommandError, match="1 of 1 file"):
        call_command("import_mat", str(path), stdout=StringIO(), stderr=(err := StringIO()))
    assert f"Soren is no player here. Did you mean Søren (Copenhagen BG, player {soren.pk})?" in err.getvalue()
    assert (Match.objects.count(), Player.objects.count()) == (0, 1)
