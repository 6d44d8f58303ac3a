"""The architecture's import rules (DESIGN.md): the rules core and the variants use the
standard library only, and nothing in them reaches I/O, clocks or global randomness."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "whist"
STDLIB = sys.stdlib_module_names
# Standard modules with side effects the pure core must not touch.
FORBIDDEN_STDLIB = {"asyncio", "random", "time", "socket", "sqlite3", "threading", "os", "io"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


CORE_FILES = sorted((SRC / "core").glob("*.py")) + sorted((SRC / "variants").glob("*.py"))


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_core_and_variants_import_only_the_standard_library_and_each_other(path: Path) -> None:
    allowed_whist = (
        ("whist.core",) if path.parent.name == "core" else ("whist.core", "whist.variants")
    )
    for name in imports_of(path):
        top = name.split(".")[0]
        if top == "whist":
            assert name.startswith(allowed_whist), f"{path.name} imports {name}"
        else:
            assert top in STDLIB, f"{path.name} imports third-party {name}"
            assert top not in FORBIDDEN_STDLIB, f"{path.name} imports {name} (side effects)"


def test_records_use_only_the_core_and_variants() -> None:
    for name in imports_of(SRC / "records.py"):
        top = name.split(".")[0]
        assert top in STDLIB or name.startswith(("whist.core", "whist.variants")), name
