"""The architecture's import rules (issue 18, docs/architecture.md): which part of src/whist
may import which, no import circles anywhere in it, and the rules core and the variants on
the standard library alone, touching no I/O, clock or global randomness.

Every module's imports are read with ``ast``, at module level and inside functions alike: a
deferred import is a dependency all the same. Imports under ``if TYPE_CHECKING:`` are left
out: they are for the type checker only and never run.
"""

from __future__ import annotations

import ast
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
STDLIB = sys.stdlib_module_names
# Standard modules with side effects the pure core must not touch.
FORBIDDEN_STDLIB = {"asyncio", "random", "time", "socket", "sqlite3", "threading", "os", "io"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, e.g. whist.bots.hard
    name: str  # what it imports: a whist module (the most specific one named) or another top
    line: int

    def __str__(self) -> str:
        return f"{self.module} (line {self.line}) imports {self.name}"


def module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {
    module_name(path): path for path in sorted((SRC / "whist").rglob("*.py"))
}


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def whist_module(name: str) -> str:
    """The module a whist import runs: the longest prefix of ``name`` that is a module
    (``from whist.core.cards import Card`` reads whist.core.cards)."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> list[Import]:
    """What ``module`` imports, run-time imports only. ``from whist.bots import hard`` is an
    import of whist.bots.hard. The parent packages Python runs first are not counted: a
    package's ``__init__`` may import its own modules in functions (``make_bot``) without
    that making a circle of every module of the package."""
    found: list[Import] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and is_type_checking(child):
                for branch in child.orelse:
                    visit_one(branch)
            else:
                visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{module}: relative import, line {node.lineno}"
            base = node.module
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            visit(node)
            return
        for name in names:
            if name.partition(".")[0] == "whist":
                name = whist_module(name)
            found.append(Import(module, name, node.lineno))

    visit(ast.parse(MODULES[module].read_text(encoding="utf-8")))
    return found


IMPORTS: dict[str, list[Import]] = {module: imports_of(module) for module in MODULES}


def whist_imports() -> Iterator[Import]:
    for found in IMPORTS.values():
        yield from (i for i in found if i.name.partition(".")[0] == "whist")


# ------------------------------------------------------------------------ layers
def part(module: str) -> str:
    """The part of src/whist a module belongs to: its package (core, bots, server...), a
    top-level module's own name (records, terminal...), or ``whist``, the package itself."""
    names = module.split(".")
    return names[1] if len(names) > 1 else "whist"


RULES = {"core", "variants"}
PLAYERS = RULES | {"solver", "bots", "master"}
# The record format, the terminal and the command-line tools, over the rules and the players.
TOOLS = {
    "records",
    "seat_record",
    "terminal",
    "replay_cli",
    "solve_cli",
    "tournament",
    "analysis",
    "analyse_cli",
    "watch",
}
EVERY_PART = {part(module) for module in MODULES}

# Each part imports only the parts it lists (besides itself). core <- variants <- bots,
# solver, master <- records and tools <- server, cluster <- cli; the store is below the
# server, i18n beside the tools.
ALLOWED: dict[str, set[str]] = {
    "_compiled": set(),  # keeps stale compiled core modules from shadowing their sources
    "whist": {"_compiled"},  # the package: its version and whether the core runs compiled
    "core": set(),
    "variants": {"core"},
    "solver": set(),  # nothing of whist: positions are plain masks
    "bots": PLAYERS,  # make_bot builds MASTER too
    "master": PLAYERS,
    "i18n": RULES,  # variant titles
    "records": RULES,  # the record format knows the rules and nothing that plays
    **{tool: PLAYERS | TOOLS | {"i18n", "whist"} for tool in TOOLS - {"records"}},
    "store": set(),  # the database: never the server, the cluster or the players
    "server": EVERY_PART - {"cli"},
    "cluster": EVERY_PART - {"cli"},  # the server's nodes and bot workers: one layer with it
    "cli": EVERY_PART,  # the command line: the entry point, imported by none
}

# A bot decides from its view alone (whist.bots.base): it never sees the match or a deal.
NOT_FOR_BOTS = {"whist.core.match", "whist.core.state"}


def test_every_part_has_its_place_in_the_layers() -> None:
    unplaced = EVERY_PART - ALLOWED.keys()
    assert not unplaced, f"place {sorted(unplaced)} in ALLOWED"


def test_each_part_imports_only_the_parts_below_it() -> None:
    wrong = [
        f"{i} — {part(i.module)} may import only {sorted(ALLOWED[part(i.module)])}"
        for i in whist_imports()
        if part(i.name) != part(i.module) and part(i.name) not in ALLOWED[part(i.module)]
    ]
    assert not wrong, "\n".join(wrong)


def test_bots_never_import_the_match_or_the_deal_state() -> None:
    wrong = [str(i) for i in whist_imports() if part(i.module) == "bots" and i.name in NOT_FOR_BOTS]
    assert not wrong, "\n".join(wrong)


CORE_MODULES = sorted(module for module in MODULES if part(module) in RULES)


@pytest.mark.parametrize("module", CORE_MODULES)
def test_core_and_variants_use_only_the_pure_standard_library(module: str) -> None:
    for i in IMPORTS[module]:
        top = i.name.partition(".")[0]
        if top != "whist":
            assert top in STDLIB, f"{i}: third-party"
            assert top not in FORBIDDEN_STDLIB, f"{i}: side effects"


# ----------------------------------------------------------------------- circles
def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for i in whist_imports():
        if i.name != i.module:
            graph[i.module].add(i.name)
    return graph


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module: each holds at
    least one circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for name in sorted(graph[module]):
            if name not in index:
                visit(name)
                low[module] = min(low[module], low[name])
            elif name in on_stack:
                low[module] = min(low[module], index[name])
        if low[module] == index[module]:
            component = []
            while True:
                name = stack.pop()
                on_stack.discard(name)
                component.append(name)
                if name == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def circle_through(start: str, graph: dict[str, set[str]], within: set[str]) -> list[str]:
    """A shortest circle from ``start`` back to it inside one strongly connected component."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for name in sorted(graph[module] & within):
            if name == start:
                path = [module]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if name not in came_from:
                came_from[name] = module
                queue.append(name)
    raise AssertionError(f"no circle through {start}")


def test_no_import_circles() -> None:
    graph = import_graph()
    circles = [
        " -> ".join(circle_through(component[0], graph, set(component)))
        for component in strongly_connected(graph)
    ]
    assert not circles, "import circles:\n" + "\n".join(circles)
