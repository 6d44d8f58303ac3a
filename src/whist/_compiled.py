"""Keeps an edited source of the rules core from being shadowed by its compiled module.

Installing compiles the core with mypyc (``setup.py``), next to the sources in an editable
install, and Python imports ``match.*.so`` before ``match.py``. After an edit, until
``scripts/setup.sh`` compiles again, that would run the old code. So when any source of
the compiled modules differs from the one it was compiled from (``_compiled.json``, written
by ``setup.py``: SHA-256 of each source), or ``WHIST_PURE=1`` is set, all of them are
imported from their sources instead: all or none, because compiled modules share their
classes with each other. Contents, not times: an installed wheel's files carry its own.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # ".cpython-311-x86_64-linux-gnu.so"
_PACKAGES = ("core", "variants")  # under whist/: where setup.py compiles modules


def compiled_sources() -> dict[str, tuple[str, str]]:
    """Module name -> (source, compiled module), for every module that has both."""
    here = os.path.dirname(__file__)
    found = {}
    for package in _PACKAGES:
        folder = os.path.join(here, package)
        for entry in os.scandir(folder):
            if entry.name.endswith(_SUFFIX):
                stem = entry.name[: -len(_SUFFIX)]
                source = os.path.join(folder, stem + ".py")
                if os.path.exists(source):
                    found[f"whist.{package}.{stem}"] = (source, entry.path)
    return found


class _Sources:
    """A meta path finder of the listed modules as their ``.py`` sources, ahead of the
    compiled ones. (Not an ``importlib.abc`` subclass: importing that costs 25 ms, and
    ``whist replay`` must start fast.)"""

    def __init__(self, sources: dict[str, str]) -> None:
        self.sources = sources

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        loader = importlib.machinery.SourceFileLoader(fullname, source)
        spec = importlib.machinery.ModuleSpec(fullname, loader, origin=source)
        spec.has_location = True  # sets __file__ (and the .pyc cache) as a file import does
        return spec


def use_sources_if_stale() -> bool:
    """Import the compiled modules from their sources where needed (see above); True when
    the compiled modules are the ones in use."""
    compiled = compiled_sources()
    if not compiled:
        return False
    try:
        with open(os.path.join(os.path.dirname(__file__), "_compiled.json"), "rb") as file:
            built: dict[str, str] = json.load(file)
    except (OSError, ValueError):
        built = {}
    stale = sorted(
        os.path.basename(source)
        for name, (source, _) in compiled.items()
        if built.get(name) != _digest(source)
    )
    pure = os.environ.get("WHIST_PURE") == "1"
    if not stale and not pure:
        return True
    if stale and not pure:
        warnings.warn(
            f"whist: {', '.join(stale)} changed since the rules core was compiled: running "
            "its sources; `bash scripts/setup.sh` compiles them again",
            RuntimeWarning,
            stacklevel=3,
        )
    sys.meta_path.insert(0, _Sources({name: source for name, (source, _) in compiled.items()}))
    return False


def _digest(path: str) -> str:
    with open(path, "rb") as file:
        return hashlib.sha256(file.read()).hexdigest()
