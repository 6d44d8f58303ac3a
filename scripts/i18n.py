"""The translations: extract, compile, check.

    .venv/bin/python scripts/i18n.py extract   # code -> messages.pot -> update every .po
    .venv/bin/python scripts/i18n.py compile   # .po -> src/whist/web/i18n/<lang>.json + .mo
    .venv/bin/python scripts/i18n.py check     # every msgid translated, placeholders match

Catalogues: src/whist/i18n/<lang>/LC_MESSAGES/messages.po (template messages.pot beside
them), one per language of ``whist.i18n.LANGUAGES``. The msgids are the English text: the
client's ``t("...")`` calls, the data-i18n attributes of its HTML, the server's ``_()`` /
``N_()`` strings and ``error:<code>`` for every stable error code (see babel.cfg). The
English catalogue holds only the English text of the ``error:<code>`` msgids, copied from
``whist.i18n.ERROR_MESSAGES``; other English strings are their msgid.

The compiled JSON ({msgid: text}, sorted) is part of the repository, and ``compile`` is
deterministic: a missing translation falls back to the English text, so the client never
shows a bare ``error:...`` key. The ``.mo`` files (for the server) are not committed;
scripts/setup.sh compiles them.
"""

from __future__ import annotations

import argparse
import copy
import io
import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from whist.i18n import (  # noqa: E402
    DOMAIN,
    ERROR_MESSAGES,
    ERROR_PREFIX,
    LANGUAGES,
    LOCALE_DIR,
    SOURCE_LANGUAGE,
    TRANSLATED,
)

CONFIG = ROOT / "babel.cfg"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
JSON_DIR = ROOT / "src" / "whist" / "web" / "i18n"
RULES_DIR = ROOT / "src" / "whist" / "web" / "rules"
KEYWORDS = {**DEFAULT_KEYWORDS, "t": None}
# Fixed header dates keep the files byte-for-byte stable from one run to the next.
CREATED = datetime(2025, 1, 1, tzinfo=UTC)
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
IGNORED_DIRS = {".venv", ".git", "node_modules", "whist-data", "artifacts"}


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# ------------------------------------------------------------------ extract
def extract_template() -> Catalog:
    """Every msgid in the code, as a template catalogue."""
    with CONFIG.open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)  # type: ignore[no-untyped-call]

    def wanted(path: str) -> bool:
        name = Path(path).name
        return name not in IGNORED_DIRS and not name.startswith((".", "_"))

    template = Catalog(
        project="Whist Club",
        version="0.1",
        copyright_holder="Whist Club",
        creation_date=CREATED,
        revision_date=CREATED,
        charset="utf-8",
        fuzzy=False,
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT,
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=("NOTE:",),
        strip_comment_tags=True,
        directory_filter=wanted,
    ):
        template.add(
            message,
            None,
            [(filename.replace("\\", "/"), lineno)],
            auto_comments=comments,
            context=context,
        )
    return template


def write_catalog(path: Path, catalog: Catalog, template: bool = False) -> bool:
    """Write ``catalog`` as a .po/.pot (no line numbers: locations by file only); True if
    the file changed."""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, sort_by_file=True, include_lineno=False)
    data = buffer.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def read_catalog(lang: str) -> Catalog:
    path = po_path(lang)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def extract() -> int:
    template = extract_template()
    write_catalog(TEMPLATE, template, template=True)
    for lang in LANGUAGES:
        path = po_path(lang)
        if path.is_file():
            catalog = read_catalog(lang)
        else:
            catalog = Catalog(
                locale=lang,
                domain=DOMAIN,
                project="Whist Club",
                version="0.1",
                copyright_holder="Whist Club",
                creation_date=CREATED,
                revision_date=CREATED,
                charset="utf-8",
                fuzzy=False,
            )
        # No fuzzy guesses: a changed English string waits for a real translation (the old
        # one stays in the file as an obsolete entry, for the translator).
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True)
        if lang == SOURCE_LANGUAGE:
            for message in catalog:
                if isinstance(message.id, str) and message.id.startswith(ERROR_PREFIX):
                    message.string = ERROR_MESSAGES.get(message.id[len(ERROR_PREFIX) :], "")
        changed = write_catalog(path, catalog)
        total, done = count(catalog)
        print(f"{lang}: {total} msgids, {done} translated{' (updated)' if changed else ''}")
    return 0


def count(catalog: Catalog) -> tuple[int, int]:
    messages = [m for m in catalog if m.id]
    return len(messages), sum(1 for m in messages if translated(m))


def translated(message: Message) -> bool:
    string = message.string
    if isinstance(string, tuple | list):
        return all(string) and not message.fuzzy
    return bool(string) and not message.fuzzy


# ------------------------------------------------------------------ compile
def compiled_json(lang: str) -> dict[str, str]:
    """{msgid: text} of ``lang``: its translation, else the English text."""
    english = read_catalog(SOURCE_LANGUAGE)
    fallback: dict[str, str] = {}
    for message in english:
        if message.id and isinstance(message.id, str):
            fallback[message.id] = str(message.string) if translated(message) else message.id
    result = dict(fallback)
    if lang != SOURCE_LANGUAGE:
        for message in read_catalog(lang):
            msgid = message.id
            if isinstance(msgid, str) and msgid in result and translated(message):
                result[msgid] = str(message.string)
    return dict(sorted(result.items()))


def json_text(lang: str) -> str:
    return json.dumps(compiled_json(lang), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def compile_all(mo: bool = True) -> int:
    JSON_DIR.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES:
        target = JSON_DIR / f"{lang}.json"
        text = json_text(lang)
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
        if mo:
            catalog = read_catalog(lang)
            with po_path(lang).with_suffix(".mo").open("wb") as handle:
                write_mo(handle, catalog, use_fuzzy=False)
        print(f"{lang}: {len(compiled_json(lang))} strings -> {target.relative_to(ROOT)}")
    return 0


# -------------------------------------------------------------------- check
def problems() -> list[str]:
    """What is wrong with the translations; empty when all is well."""
    found: list[str] = []
    in_code = {m.id for m in extract_template() if m.id}
    catalogs = {lang: read_catalog(lang) for lang in LANGUAGES}
    for lang, catalog in catalogs.items():
        known = {m.id for m in catalog if m.id}
        for msgid in sorted(in_code - known, key=str):
            found.append(f"{lang}: {msgid!r} is not in the catalogue (run extract)")
    english = catalogs[SOURCE_LANGUAGE]
    for code, text in ERROR_MESSAGES.items():
        message = english.get(ERROR_PREFIX + code)
        if message is None or message.string != text:
            found.append(f"en: error:{code} is not {text!r} (run extract)")
    for lang in TRANSLATED:
        catalog = catalogs[lang]
        for msgid in sorted(in_code, key=str):
            message = catalog.get(msgid)
            if message is None:
                continue
            if not translated(message):
                found.append(f"{lang}: {msgid!r} has no translation")
                continue
            source = msgid
            if isinstance(msgid, str) and msgid.startswith(ERROR_PREFIX):
                source = ERROR_MESSAGES.get(msgid[len(ERROR_PREFIX) :], msgid)
            want = placeholders(str(source))
            got = placeholders(str(message.string))
            if want != got:
                found.append(
                    f"{lang}: {msgid!r}: placeholders {sorted(got)} but the English has "
                    f"{sorted(want)}"
                )
    for lang in LANGUAGES:
        target = JSON_DIR / f"{lang}.json"
        if not target.is_file() or target.read_text(encoding="utf-8") != json_text(lang):
            found.append(f"{target.relative_to(ROOT)} is out of date (run compile)")
    return found


def check() -> int:
    found = problems()
    for line in found:
        print(line)
    for lang in LANGUAGES:
        total, done = count(read_catalog(lang))
        print(f"{lang}: {total} msgids, {done} translated")
    print("ok" if not found else f"{len(found)} problem(s)")
    return 1 if found else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["extract", "compile", "check"])
    parser.add_argument("--no-mo", action="store_true", help="compile: only the JSON files")
    args = parser.parse_args(argv)
    if args.command == "extract":
        return extract()
    if args.command == "compile":
        return compile_all(mo=not args.no_mo)
    return check()


if __name__ == "__main__":
    raise SystemExit(main())
