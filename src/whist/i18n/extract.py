"""Babel extraction methods of our own (named in ``babel.cfg``).

- ``python_with_errors``: Babel's Python extractor, plus one msgid ``error:<code>`` per entry
  of the ``ERROR_MESSAGES`` table, with its English text as the comment for translators, and
  the title of every variant and reserved key and the help text of every option (at the
  ``VARIANT_TITLES`` line: the client shows both, and GET /api/variants sends them in English).
- ``html``: the ``data-i18n`` attributes of the client's HTML (``data-i18n="English text"``
  and ``data-i18n-<attribute>="English text"`` for ``title``, ``placeholder``, ...).

Only ``scripts/i18n.py`` and ``pybabel`` load this module.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

from babel.messages.extract import extract_python

from whist.variants import UNAVAILABLE, VARIANTS

Extracted = tuple[int, str | None, str | tuple[str, ...], list[str]]


def _assignments(source: str, name: str) -> Iterator[tuple[int, ast.expr | None]]:
    """(line, value) of every assignment to ``name`` at any level of ``source``."""
    for node in ast.walk(ast.parse(source)):
        target: ast.expr
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == name:
            yield node.lineno, value


def error_table(source: str) -> list[tuple[int, str, str]]:
    """(line, code, English text) of the ``ERROR_MESSAGES`` dict literal in ``source``."""
    rows: list[tuple[int, str, str]] = []
    for _line, value in _assignments(source, "ERROR_MESSAGES"):
        if not isinstance(value, ast.Dict):
            continue
        for key, text in zip(value.keys, value.values, strict=True):
            if isinstance(key, ast.Constant) and isinstance(text, ast.Constant):
                rows.append((key.lineno, str(key.value), str(text.value)))
    return rows


def python_with_errors(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Extracted]:
    encoding = options.get("encoding", "utf-8")
    text = fileobj.read().decode(encoding)
    for line, code, english in error_table(text):
        yield line, None, f"error:{code}", [f"English: {english}"]
    for line, _value in _assignments(text, "VARIANT_TITLES"):
        for title in [v.title for v in VARIANTS.values()] + [u.title for u in UNAVAILABLE.values()]:
            yield line, None, title, []
        for help_text in option_help_texts():
            yield line, None, help_text, ["The help text of a table option"]
    fileobj.seek(0)
    # Babel's own Python extractor for the _() / N_() strings of the same file.
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[misc, arg-type]


def option_help_texts() -> list[str]:
    """The help text of every option of every variant (OptionSpec.help), once each."""
    found = (spec.help for v in VARIANTS.values() for spec in v.option_set.specs if spec.help)
    return list(dict.fromkeys(found))


class _DataI18n(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if value and (name == "data-i18n" or name.startswith("data-i18n-")):
                self.found.append((line, name, value))

    handle_startendtag = handle_starttag


def html(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: dict[str, Any],
) -> Iterator[Extracted]:
    parser = _DataI18n()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, attribute, text in parser.found:
        yield line, None, text, [f"HTML {attribute}"]
