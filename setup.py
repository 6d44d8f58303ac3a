"""Compiles the rules core with mypyc when the package is installed (``scripts/setup.sh``).

The core is plain, fully typed Python; mypyc turns these modules into C extensions that
run the same code about twice as fast, which every simulation (bots, benchmarks,
conformance tests) feels. ``WHIST_PURE=1`` installs without compiling, and ``whist``
runs the sources instead whenever one is newer than its compiled module (``whist._compiled``).
"""

import hashlib
import json
import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The modules on the hot path of card play, and the variants that subclass them (a
# compiled class can only be subclassed by classes compiled with it). Not the actions:
# compiled, ``Play(True, card)`` would quietly become seat 1 instead of being refused.
COMPILED = [
    *(f"src/whist/core/{name}.py" for name in ("cards", "errors", "match", "options")),
    *(f"src/whist/core/{name}.py" for name in ("components", "rules", "state", "variant")),
    *sorted(str(p) for p in Path("src/whist/variants").glob("*.py") if p.name != "__init__.py"),
]
# What each compiled module was built from (module -> SHA-256 of its source), installed with
# the package: ``whist._compiled`` runs the sources instead where one differs.
MANIFEST = Path("src/whist/_compiled.json")


def extensions() -> list[object]:
    # An editable install compiles next to the sources: drop what earlier builds left
    # there, or a module no longer compiled (or WHIST_PURE=1) would still shadow its source.
    for old in Path("src").rglob("*.so"):
        old.unlink()
    MANIFEST.unlink(missing_ok=True)
    if os.environ.get("WHIST_PURE") == "1":
        return []
    from mypyc.build import mypycify

    modules = list(mypycify(COMPILED, opt_level="3"))
    built = {
        ".".join(Path(path).with_suffix("").parts[1:]): hashlib.sha256(
            Path(path).read_bytes()
        ).hexdigest()
        for path in COMPILED
    }
    MANIFEST.write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")
    return modules


class OptionalBuildExt(build_ext):
    """Without a working C compiler the core is installed as plain Python, with a warning:
    slower, the same rules. Half a build is removed, since its modules need each other."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # compiler missing or failing: CCompilerError and kin
            for built in [*self.get_outputs(), *Path("src").rglob("*.so"), MANIFEST]:
                Path(built).unlink(missing_ok=True)
            print(f"warning: the rules core was not compiled ({exc}); it runs as Python")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
