"""Babel extraction methods of our own (named in ``babel.cfg``).

- ``python_with_errors``: Babel's Python extractor, plus one msgid ``error:<code>`` per entry
  of the ``ERROR_MESSAGES`` table, with its English text as the comment for translators.
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

Extracted = tuple[int, str | None, str | tuple[str, ...], list[str]]


def error_table(source: str) -> list[tuple[int, str, str]]:
    """(line, code, English text) of the ``ERROR_MESSAGES`` dict literal in ``source``."""
    rows: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source)):
        target: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        value = getattr(node, "value", None)
        if not (isinstance(target, ast.Name) and target.id == "ERROR_MESSAGES"):
            continue
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
    source = fileobj.read()
    for line, code, english in error_table(source.decode(encoding)):
        yield line, None, f"error:{code}", [f"English: {english}"]
    fileobj.seek(0)
    # Babel's own Python extractor for the _() / N_() strings of the same file.
    yield from extract_python(fileobj, keywords, comment_tags, options)  # type: ignore[misc, arg-type]


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
