"""Translations: the catalogues compile, every client string and error code is translated into
Swedish, Norwegian and Czech with the same placeholders, and every variant has a rules page in
every language.

The client's strings are found here with a regular expression over src/whist/web, on purpose
independently of Babel's extractor: a t("...") call that the extractor misses fails here."""

from __future__ import annotations

import ast
import gettext
import importlib.util
import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from whist.i18n import (
    ERROR_MESSAGES,
    LANGUAGES,
    TRANSLATED,
    VARIANT_TITLES,
    translate,
)
from whist.variants import UNAVAILABLE, VARIANTS

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "whist"
WEB = SRC / "web"
LOCALES = SRC / "i18n"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
# t("...") or t('...') not preceded by a name character or a dot (so not format( or x.t().
T_CALL = re.compile(r"""(?<![\w.$])t\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")
DATA_I18N = re.compile(r"""\sdata-i18n(?:-[\w-]+)?\s*=\s*("[^"]*"|'[^']*')""")


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def catalogue(lang: str) -> Catalog:
    with (LOCALES / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def compiled(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def js_string(literal: str) -> str:
    body = literal[1:-1]
    if literal[0] == "'":
        body = body.replace('\\"', '"').replace('"', '\\"')
    return str(json.loads('"' + body.replace("\\'", "'") + '"'))


def without_comments(source: str) -> str:
    """JavaScript source with // and /* */ comments blanked out (strings kept)."""
    out: list[str] = []
    i, n = 0, len(source)
    quote = ""
    while i < n:
        c = source[i]
        if quote:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(source[i + 1])
                i += 2
                continue
            if c == quote:
                quote = ""
            i += 1
        elif c in "\"'`":
            quote = c
            out.append(c)
            i += 1
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def client_msgids() -> set[str]:
    found: set[str] = set()
    for path in sorted((WEB / "js").rglob("*.js")):
        text = without_comments(path.read_text(encoding="utf-8"))
        found.update(js_string(m.group(1)) for m in T_CALL.finditer(text))
    for path in sorted(WEB.rglob("*.html")):
        if "rules" in path.relative_to(WEB).parts:
            continue
        text = path.read_text(encoding="utf-8")
        found.update(m.group(1)[1:-1] for m in DATA_I18N.finditer(text))
    return found


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def english(msgid: str) -> str:
    if msgid.startswith("error:"):
        return ERROR_MESSAGES[msgid.removeprefix("error:")]
    return msgid


# ----------------------------------------------------------------- catalogues
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_compiles_to_mo_and_json(lang: str) -> None:
    script = load_script()
    buffer = io.BytesIO()
    write_mo(buffer, catalogue(lang), use_fuzzy=False)
    buffer.seek(0)
    translations = gettext.GNUTranslations(buffer)
    assert translations.gettext("error:not_your_turn") == translate("not_your_turn", lang)
    # The committed JSON is exactly what `scripts/i18n.py compile` makes of the catalogue.
    assert script.compiled_json(lang) == compiled(lang)
    assert (WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8") == script.json_text(lang)


def test_the_check_command_finds_nothing_wrong() -> None:
    assert load_script().problems() == []


def test_the_client_uses_translated_strings() -> None:
    msgids = client_msgids()
    if not msgids:
        pytest.skip("no client strings yet")
    for lang in TRANSLATED:
        messages = catalogue(lang)
        missing = sorted(
            msgid
            for msgid in msgids
            if (m := messages.get(msgid)) is None or not m.string or m.fuzzy
        )
        assert not missing, f"{lang}: no translation for {missing}"
        table = compiled(lang)
        assert not sorted(msgids - table.keys()), f"{lang}.json is out of date"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_option_help_text_is_translated(lang: str) -> None:
    """The help texts of the options reach the client in English (GET /api/variants) and are
    translated there with t(spec.help): each must be a translated msgid, found here from the
    variants themselves, not from what the extractor found."""
    texts = {spec.help for v in VARIANTS.values() for spec in v.option_set.specs if spec.help}
    assert "first team to N points" in texts
    messages = catalogue(lang)
    missing = sorted(
        text for text in texts if (m := messages.get(text)) is None or not m.string or m.fuzzy
    )
    assert not missing, f"{lang}: no translation for {missing}"
    table = compiled(lang)
    assert all(table.get(text) for text in texts), f"{lang}.json is out of date"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match(lang: str) -> None:
    for message in catalogue(lang):
        if not message.id or not message.string:
            continue
        assert isinstance(message.id, str) and isinstance(message.string, str)
        want = placeholders(english(message.id))
        assert placeholders(message.string) == want, (lang, message.id, message.string)


def test_the_json_catalogues_are_flat_string_tables() -> None:
    english_table = compiled("en")
    for lang in LANGUAGES:
        table = compiled(lang)
        assert table.keys() == english_table.keys(), lang
        assert all(isinstance(v, str) and v for v in table.values()), lang


# ---------------------------------------------------------------- error codes
def core_codes() -> set[str]:
    tree = ast.parse((SRC / "core" / "errors.py").read_text(encoding="utf-8"))
    return {
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets)
    }


def server_codes() -> set[str]:
    codes: set[str] = set()
    for path in sorted((SRC / "server").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        codes.update(re.findall(r"""Refused\(\s*["'](\w+)["']""", text))
        codes.update(re.findall(r"""["']code["']\s*:\s*["'](\w+)["']""", text))
        codes.update(re.findall(r"""return \(["'](\w+)["'],""", text))  # check_message
        for a, b in re.findall(r"""Refused\(\s*["'](\w+)["'] if .+? else ["'](\w+)["']""", text):
            codes.update((a, b))
    return codes


def test_every_error_code_has_a_human_message() -> None:
    codes = core_codes() | server_codes()
    assert len(codes) > 25
    assert not sorted(codes - ERROR_MESSAGES.keys())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_is_translated(lang: str) -> None:
    table = compiled(lang)
    messages = catalogue(lang)
    for code, text in ERROR_MESSAGES.items():
        msgid = f"error:{code}"
        assert table.get(msgid), (lang, msgid)
        if lang == "en":
            assert table[msgid] == text
        else:
            message = messages.get(msgid)
            assert message is not None and message.string and not message.fuzzy, (lang, msgid)
        assert translate(code, lang) == table[msgid]
        assert translate(msgid, lang) == table[msgid]


def test_translate_falls_back_to_english_and_fills_placeholders() -> None:
    assert translate("not_your_turn", "xx") == ERROR_MESSAGES["not_your_turn"]
    assert translate("no such msgid", "sv") == "no such msgid"
    assert translate("Seat {n}", "sv", {"n": 3}) == "Plats 3"
    assert translate("Seat {n}", "en", {"n": 3}) == "Seat 3"
    assert translate("German Whist", "nb") == "Tomannswhist"
    assert translate("Swedish Whist", "sv") == "Fyrmanswhist"


# ----------------------------------------------------------------- rules pages
class Page(HTMLParser):
    VOID = {"br", "hr", "img", "wbr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.options: set[str] = set()
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)
        for name, value in attrs:
            if name == "data-option" and value:
                self.options.add(value)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


RULE_KEYS = [*VARIANTS, *UNAVAILABLE]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", RULE_KEYS)
def test_every_variant_has_a_rules_page(lang: str, key: str) -> None:
    path = WEB / "rules" / lang / f"{key}.html"
    assert path.is_file(), path
    source = path.read_text(encoding="utf-8")
    page = Page()
    page.feed(source)
    page.close()
    assert page.stack == [], f"unclosed {page.stack}"
    assert page.tags[0] == "h1"
    assert not {"script", "style", "html", "body", "head"} & set(page.tags)
    text = " ".join(" ".join(page.text).split())
    assert len(text) > (100 if key in UNAVAILABLE else 1000)
    name = compiled(lang)[VARIANT_TITLES[key]]
    assert name in text, (lang, key, name)
    if key in VARIANTS:
        # Every house rule is explained, marked with the option it describes.
        names = {spec.name for spec in VARIANTS[key].option_set.specs}
        assert page.options == names, (lang, key)


def test_the_rules_pages_mention_seven_little_houses() -> None:
    for lang in LANGUAGES:
        name = compiled(lang)[VARIANT_TITLES["seven_houses"]]
        source = (WEB / "rules" / lang / "german.html").read_text(encoding="utf-8")
        assert name in " ".join(source.split()), lang
