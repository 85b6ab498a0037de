"""The formats package is plain Python: it imports only the standard library, itself and the rules
engine's errors (`games.engine.errors`, plain Python too: their refusals are marked one way)."""

import ast
import sys
from pathlib import Path

import tournaments.formats

PACKAGE = Path(tournaments.formats.__file__).parent


def test_the_formats_import_nothing_but_the_standard_library():
    foreign = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            foreign += [
                f"{path.name}: {name}"
                for name in names
                if name.split(".")[0] not in sys.stdlib_module_names and name not in ("__future__", "games.engine.errors")
            ]
    assert foreign == []
