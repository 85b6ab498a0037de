"""Crawford's analysis figures equal GNU Backgammon's own `show statistics match`, to the precision
it prints, on every real match file of the shared data.

The oracle is a separate GNU Backgammon run that only imports, analyses and prints; Crawford's
runner (`analysis.gnubg`) reads the figures from the program's embedded Python instead.
"""

import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from analysis import gnubg
from config.shared_data import SHARED_DATA
from tests.support import made_once

MATFILES = SHARED_DATA / "matfiles"
GNUBG = gnubg.find_program()
pytestmark = [
    pytest.mark.gnubg,
    pytest.mark.slow,  # the module's analysis and the oracle's: some forty seconds
    pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon (gnubg) is not installed"),
    pytest.mark.skipif(not MATFILES.is_dir(), reason="the shared match files are not beside the repository"),
]

FILES = sorted(p for p in MATFILES.glob("*") if p.suffix in (".txt", ".mat")) if MATFILES.is_dir() else []

ORACLE = r'''
import gnubg
gnubg.command("set threads 1")
gnubg.command("set analysis chequerplay evaluation plies 0")
gnubg.command("set analysis cubedecision evaluation plies 0")
for name in %(names)r:
    print("=== FILE " + name, flush=True)
    try:
        gnubg.command("new session")
        gnubg.command("import mat %(folder)s/" + name)
        gnubg.command("analyse match")
        gnubg.command("show statistics match")
    except Exception as error:
        print("=== ERROR", error)
    print("=== END", flush=True)
'''

NUMBER = r"([+-]?\d+(?:\.\d+)?)"


def oracle_statistics(paths: list[Path]) -> dict[str, str]:
    """GNU Backgammon's printed statistics of each file, in one run of the program."""
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            Path(folder, path.name).write_bytes(path.read_bytes())
        script = Path(folder, "oracle.py")
        script.write_text(ORACLE % {"names": [p.name for p in paths], "folder": folder})
        out = subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(script)], capture_output=True, text=True,
                             timeout=600, cwd=folder, check=False).stdout
    return {m.group(1): m.group(2) for m in re.finditer(r"=== FILE (\S+)\n(.*?)=== END", out, re.S)}


def printed(text: str, section: str, label: str) -> list[tuple[float, int]]:
    """The two players' values of a row in a section, each with the number of decimals printed."""
    body = text.split(section, 1)[1]
    line = next(line for line in body.splitlines() if line.startswith(label))
    values = re.findall(NUMBER + r"(?:%| |\(|$)", line[len(label):])
    found = []
    for value in values[::2] if "(" in line else values:
        decimals = len(value.split(".")[1]) if "." in value else 0
        found.append((float(value), decimals))
    return found[:2]


def agrees(ours: float, shown: tuple[float, int]) -> bool:
    value, decimals = shown
    return abs(round(ours, decimals) - value) <= 10 ** -decimals * 0.5 + 1e-9 or abs(ours - value) <= 10 ** -decimals * 0.5 + 1e-9


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    def make():
        # The two runs of GNU Backgammon at once: the other test process waits for them meanwhile.
        with ThreadPoolExecutor(2) as pool:
            ours = pool.submit(gnubg.analyse_files,
                               {p.name: p.read_text(encoding="utf-8", errors="replace") for p in FILES})
            oracle = pool.submit(oracle_statistics, FILES)
            return ours.result(), oracle.result()

    return made_once(tmp_path_factory, "gnubg_agreement", make)


def test_every_shared_file_is_analysed(both):
    ours, oracle = both
    assert len(FILES) == 51
    failed = {name: str(result) for name, result in ours.items() if isinstance(result, gnubg.AnalysisError)}
    shown = {name for name, text in oracle.items() if "Overall statistics" in text}
    assert set(ours) - set(failed) == shown
    assert not failed, failed


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_figures_equal_gnubg_show_statistics_match(both, path):
    ours, oracle = both
    result, text = ours[path.name], oracle[path.name]
    rows = [
        ("Chequerplay statistics", "Unforced moves", lambda s: s.unforced_moves),
        ("Chequerplay statistics", "Moves marked doubtful", lambda s: s.doubtful),
        ("Chequerplay statistics", "Moves marked bad", lambda s: s.bad),
        ("Chequerplay statistics", "Moves marked very bad", lambda s: s.very_bad),
        ("Chequerplay statistics", "Error total EMG (MWC)", lambda s: -s.chequer_error),
        ("Chequerplay statistics", "Error rate mEMG (MWC)", lambda s: -s.chequer_error_rate),
        ("Luck statistics", "Luck total EMG (MWC)", lambda s: s.luck),
        ("Luck statistics", "Luck rate mEMG (MWC)", lambda s: s.luck_rate),
        ("Cube statistics", "Close or actual cube decisions", lambda s: s.close_cube_decisions),
        ("Cube statistics", "Error total EMG (MWC)", lambda s: -s.cube_error),
        ("Overall statistics", "Error total EMG (MWC)", lambda s: -(s.chequer_error + s.cube_error)),
        ("Overall statistics", "Error rate mEMG (MWC)", lambda s: -s.error_rate),
        ("Overall statistics", "Luck adjusted result", lambda s: s.luck_adjusted_result * 100),
        ("Overall statistics", "Error based abs. FIBS rating", lambda s: s.error_based_fibs_rating),
    ]
    for section, label, figure in rows:
        shown = printed(text, section, label)
        for side, value in zip(result.sides, shown):
            assert agrees(figure(side), value), (path.name, section, label, figure(side), value)
    # The cube decisions found one by one (the worst of them are listed) add up to gnubg's cube error.
    for listed, side in zip(result.cube_errors_listed, result.sides):
        assert abs(listed - side.cube_error) < 1e-4, (path.name, listed, side.cube_error)
    snowie = printed(text, "Overall statistics", "Snowie error rate")
    for ours_rate, value in zip(result.snowie_error_rates, snowie):
        assert agrees(-ours_rate, value), (path.name, "Snowie", ours_rate, value)
