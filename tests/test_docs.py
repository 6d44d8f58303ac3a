"""The project's own documentation stands on its own.

``docs/rules.md`` names, under each variant's section, every option of the code with all its
values and its default, every preset with what it sets and every alias; README.md and
docs/*.md link only files of this repository (and headings that exist in them), never the
internal notes outside it; the example record of ``docs/record-format.md`` replays to the
document shown there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from pathlib import Path

import pytest

from whist.core.options import MOST, OptionSpec
from whist.core.variant import Variant
from whist.variants import UNAVAILABLE, VARIANTS

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _sections(text: str) -> dict[str, tuple[str, str]]:
    """Each ``## `` section by the keys written in backticks in its heading:
    key -> (heading, body up to the next ``## `` heading)."""
    found: dict[str, tuple[str, str]] = {}
    for part in re.split(r"^(?=## )", text, flags=re.MULTILINE):
        if not part.startswith("## "):
            continue
        heading, _, body = part.partition("\n")
        for key in re.findall(r"`([^`]+)`", heading):
            found[key] = (heading, body)
    return found


SECTIONS = _sections(RULES.read_text(encoding="utf-8"))


def _table(body: str, header: str) -> dict[str, list[str]]:
    """Rows of the table whose header row is ``header``: first cell's backticked word ->
    the row's cells."""
    lines = body.splitlines()
    starts = [i for i, line in enumerate(lines) if line.strip() == header]
    assert len(starts) <= 1, f"two tables {header!r} in one section"
    rows: dict[str, list[str]] = {}
    if not starts:
        return rows
    for line in lines[starts[0] + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        name = re.fullmatch(r"`([^`]+)`", cells[0])
        assert name, f"a row of {header!r} that does not start with a `name`: {line}"
        assert name.group(1) not in rows, f"{name.group(1)} listed twice"
        rows[name.group(1)] = cells
    return rows


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _section(key: str) -> str:
    assert key in SECTIONS, f"docs/rules.md has no '## ... `{key}`' section"
    return SECTIONS[key][1]


def test_every_variant_and_reserved_key_has_a_section() -> None:
    for key, variant in VARIANTS.items():
        heading = SECTIONS.get(key, ("", ""))[0]
        assert variant.title in heading, f"no section '## {variant.title} — `{key}`'"
    for key in UNAVAILABLE:
        _section(key)
    documented = {key for key in SECTIONS if key not in VARIANTS and key not in UNAVAILABLE}
    assert not documented, f"docs/rules.md has sections for unknown variants: {documented}"


@pytest.mark.parametrize("key", list(VARIANTS))
def test_players_and_words(key: str) -> None:
    variant = VARIANTS[key]
    body = _section(key)
    assert f"**Players:** {variant.players}" in body
    facts = getattr(variant, "facts", None)
    words = set(variant.bid_words)
    if facts is not None:
        words |= set(facts.bid_words) | set(facts.contracts)
    for word in sorted(words):
        assert f"`{word}`" in body, f"{key}: bid or contract `{word}` is not explained"


def _values_shown(spec: OptionSpec, cell: str) -> list[str]:
    """What the values cell of ``spec`` must hold."""
    if spec.kind == "bool":
        return ["`true`", "`false`"]
    if spec.kind == "count":
        return [f"whole number 1–{MOST}"]
    needed = [f"`{choice}`" for choice in spec.choices]
    if any(choice.endswith(":N") for choice in spec.choices):
        needed.append(f"N 1–{MOST}")
    return needed


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_option_value_and_default(key: str) -> None:
    variant: Variant = VARIANTS[key]
    rows = _table(_section(key), "| option | values | default | meaning |")
    names = [spec.name for spec in variant.option_set.specs]
    assert list(rows) == names, f"{key}: the options table lists {list(rows)}, the code {names}"
    for spec in variant.option_set.specs:
        cells = rows[spec.name]
        assert len(cells) == 4 and cells[3], f"{key}: option {spec.name}: four cells, a meaning"
        for needed in _values_shown(spec, cells[1]):
            assert needed in cells[1], f"{key}: option {spec.name}: {needed} missing"
        listed = set(re.findall(r"`([^`]+)`", cells[1]))
        assert listed <= set(spec.choices) | {"true", "false"}, (
            f"{key}: option {spec.name}: values the code does not accept: "
            f"{listed - set(spec.choices)}"
        )
        assert cells[2] == f"`{_text(spec.default)}`", f"{key}: option {spec.name}: default"


def _named_rows(key: str, header: str, names: Collection[str], what: str) -> dict[str, list[str]]:
    """The rows of the ``what`` table (presets, aliases) of ``key``'s section, which must
    name exactly ``names``; a variant with none says so in a sentence instead."""
    body = _section(key)
    rows = _table(body, header)
    if not names:
        none = f"{what.capitalize()}: none."
        assert not rows and none in body, f"{key}: say '{none}'"
    assert set(rows) == set(names), f"{key}: {what} table {set(rows)}, code {set(names)}"
    return rows


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_preset(key: str) -> None:
    presets = VARIANTS[key].option_set.presets
    rows = _named_rows(key, "| preset | sets |", presets, "presets")
    for name, settings in presets.items():
        cell = rows[name][1]
        if not settings:
            assert "the defaults" in cell, f"{key}: preset {name} sets nothing: 'the defaults'"
        for option, value in settings.items():
            assert f"`{option}: {_text(value)}`" in cell, f"{key}: preset {name}: {option}"
        shown = re.findall(r"`([^`:]+): [^`]+`", cell)
        assert set(shown) <= set(settings), f"{key}: preset {name} does not set {shown}"


@pytest.mark.parametrize("key", list(VARIANTS))
def test_every_alias(key: str) -> None:
    aliases = VARIANTS[key].aliases
    rows = _named_rows(key, "| alias | means |", aliases, "aliases")
    for alias, preset in aliases.items():
        cell = rows[alias][1]
        assert f"`{key}`" in cell
        if preset is None:
            assert "no preset" in cell, f"{key}: alias {alias} selects no preset: say so"
        else:
            assert f"preset `{preset}`" in cell, f"{key}: alias {alias} selects {preset}"


# ------------------------------------------------------------------------------ links
def _slug(heading: str, seen: dict[str, int]) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as
    hyphens; a repeated heading gets -1, -2..."""
    base = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    count = seen.get(base, 0)
    seen[base] = count + 1
    return base if count == 0 else f"{base}-{count}"


def _prose(text: str) -> str:
    """``text`` without fenced code blocks (a link there is no link)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)


def _anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    headings = re.findall(r"^#{1,6} (.+)$", _prose(path.read_text(encoding="utf-8")), re.M)
    return {_slug(heading, seen) for heading in headings}


def _links(text: str) -> list[str]:
    prose = _prose(text)
    inline = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", prose)
    defined = re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", prose, flags=re.MULTILINE)
    return inline + defined


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_into_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    broken: list[str] = []
    for target in _links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, flags=re.IGNORECASE):
            continue  # http:, https:, mailto: - not a file of the repository
        path_part, _, fragment = target.partition("#")
        path = (doc.parent / path_part).resolve() if path_part else doc
        if not path.is_relative_to(ROOT):
            broken.append(f"{target}: outside the repository")
        elif not path.exists():
            broken.append(f"{target}: no such file")
        elif fragment and path.suffix == ".md" and fragment not in _anchors(path):
            broken.append(f"{target}: no heading #{fragment} in {path.name}")
    # Documents named in backticks (`docs/protocol.md`) are links too, for a reader.
    for name in re.findall(r"`([\w./-]+\.md)`", _prose(text)):
        if not any((base / name).exists() for base in (ROOT, doc.parent)):
            broken.append(f"`{name}`: no such file")
    assert not broken, f"{doc.relative_to(ROOT)}: " + "; ".join(broken)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_outside_the_clone(doc: Path) -> None:
    """The project's internal notes (a sibling ``shared`` directory) are not in a clone."""
    text = doc.read_text(encoding="utf-8")
    outside = re.findall(r"\.\./shared\S*|\b(?:RULES|RECORD|DESIGN)\.md\b|\bseeds/", text)
    assert not outside, f"{doc.relative_to(ROOT)} refers to {sorted(set(outside))}"


# --------------------------------------------------------------- the record format's example
def test_record_format_examples_replay_as_shown() -> None:
    """Every record in docs/record-format.md reads and replays without an error, and the
    replay document shown after "`whist replay example.json --seat S` prints:" is what the
    example record replays to."""
    from whist import records

    text = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)
    examples = [block for block in blocks if '"format": "whist-record/1"' in block]
    assert examples, "docs/record-format.md has no example record"
    for block in examples:
        match, error = records.replay(records.loads(block))
        assert error is None, error
    shown = re.search(r"`whist replay \S+ --seat (\d)` prints:\s*```json\n(.*?)```", text, re.S)
    assert shown, "docs/record-format.md shows no replay document"
    match, _ = records.replay(records.loads(examples[0]))
    expected = records.replay_document(match, None, int(shown.group(1)))
    assert json.loads(shown.group(2)) == expected
