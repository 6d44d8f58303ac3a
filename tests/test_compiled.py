"""The rules core runs compiled (setup.py compiles it with mypyc), and an edited source is
never shadowed by its older compiled module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import whist
import whist.core.match

SRC = Path(whist.__file__).resolve().parent.parent
PROBE = (
    "import whist, whist.core.match as m; print(whist.CORE_COMPILED, m.__file__.endswith('.py'))"
)
pure = os.environ.get("WHIST_PURE") == "1"


@pytest.mark.skipif(pure, reason="WHIST_PURE=1 runs the sources")
def test_the_rules_core_runs_compiled() -> None:
    assert whist.CORE_COMPILED, "the rules core runs as Python: `bash scripts/setup.sh` compiles it"
    assert not whist.core.match.__file__.endswith(".py")


def probe(src: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        env={**os.environ, "PYTHONPATH": str(src), "WHIST_PURE": "", **env},
        capture_output=True,
        text=True,
        check=True,
    )


@pytest.mark.skipif(not whist.CORE_COMPILED, reason="the core is not compiled here")
def test_an_edited_source_runs_instead_of_its_older_compiled_module(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("web", "__pycache__", "*.egg-info"))
    assert probe(copy).stdout.split() == ["True", "False"]
    assert probe(copy, WHIST_PURE="1").stdout.split() == ["False", "True"]
    (copy / "whist" / "core" / "match.py").touch()  # a newer time alone changes nothing
    assert probe(copy).stdout.split() == ["True", "False"]
    edited = copy / "whist" / "variants" / "classic.py"
    edited.write_text(edited.read_text() + "# edited\n")
    done = probe(copy)
    assert done.stdout.split() == ["False", "True"]  # every compiled module, not just that one
    assert "classic.py changed since the rules core was compiled" in done.stderr
