"""Languages: English, Swedish, Norwegian (bokmål) and Czech, as gettext catalogues.

The catalogues live beside this file (``<lang>/LC_MESSAGES/messages.po``, template
``messages.pot``) and are shared by the server and the browser client: ``scripts/i18n.py
compile`` writes the ``.mo`` files the server reads and ``src/whist/web/i18n/<lang>.json``
({msgid: msgstr}) that the client loads. The msgids are English; placeholders are written
``{name}``.

The wire stays English: errors carry a stable code (``whist.core.errors`` and the server's
own codes) and an English message for developers. Players see ``error:<code>`` translated:
the English text of every code is the table below, which ``scripts/i18n.py extract`` puts in
the template (``whist.i18n.extract``), and whose translations sit in the catalogues.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from whist.variants import UNAVAILABLE, VARIANTS

LOCALE_DIR = Path(__file__).resolve().parent
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
LANGUAGES: tuple[str, ...] = ("en", "sv", "nb", "cs")
# The translated languages: every msgid needs a translation in each of them.
TRANSLATED: tuple[str, ...] = ("sv", "nb", "cs")
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "sv": "Svenska",
    "nb": "Norsk bokmål",
    "cs": "Čeština",
}
ERROR_PREFIX = "error:"


def N_(msgid: str) -> str:
    """Marks a string for extraction without translating it (it is translated where shown)."""
    return msgid


# The stable error codes with the English text a player sees (msgid ``error:<code>``).
# The core's codes (whist.core.errors) first, then the server's (Refused and HTTPException
# in whist.server). A test checks that every code raised anywhere is here: never rename one.
ERROR_MESSAGES: dict[str, str] = {
    # rules core
    "not_your_turn": "It is not your turn.",
    "must_follow_suit": "You must follow suit.",
    "card_not_available": "You cannot play that card.",
    "wrong_phase": "That is not possible now.",
    "already_decided": "You have already chosen.",
    "invalid_bid": "That bid is not allowed.",
    "invalid_seat": "There is no such seat.",
    "match_over": "The match is over.",
    "deal_in_progress": "The current deal is not finished.",
    "no_deal_in_progress": "No deal is in progress.",
    "bad_dealer": "That is not the right dealer.",
    "bad_deck": "The deck is not valid.",
    "bad_action": "That action is not allowed now.",
    "unknown_variant": "Unknown variant.",
    "unknown_option": "Unknown option.",
    "bad_option_value": "One of the options is not valid.",
    "unavailable_variant": "That variant is not available.",
    # server
    "internal": "Something went wrong on the server.",
    "unavailable": "The club's servers cannot be reached just now: try again in a moment.",
    "bad_message": "The server did not understand the message.",
    "duplicate_message": "That was already sent.",
    "not_seated": "You have no seat at this table.",
    "not_signed_in": "Please sign in first.",
    "table_full": "The table is full.",
    "seat_taken": "That seat is taken.",
    "not_alone": "Only a match against computer players can be saved and left.",
    "hints_off": "Hints are not allowed at this table.",
    "hint_pending": "MASTER is still thinking about your last hint.",
    "position_changed": "The position changed: ask for a hint again.",
    "login_taken": "That login is taken.",
    "bad_login": "Wrong login or password.",
    "locked": "That is still locked.",
    "bad_settings": "Those settings cannot be saved.",
    "bad_bot": "Unknown computer player level.",
    "bad_seat": "That seat does not exist.",
    "no_table": "No such table.",
    "no_player": "No such player.",
    "no_deal": "This game has no such deal.",
    "deal_not_over": "This deal is still being played: it can be reviewed once it is over.",
    "analysis_failed": "The analysis of this deal failed: try again later.",
    "cannot_analyse": "This deal has no card play to review.",
    "rate_limited": "Too many messages: slow down.",
    "too_large": "The message is too long.",
    "bad_request": "Please check the form.",
    "http_error": "The server refused the request.",
    # set by the client itself (js/api.js)
    "invalid": "Please check the form.",
    "network": "The server cannot be reached.",
}

# Every variant's title, translated into the names players know in each language
# (Tvåmanswhist, Tomannswhist, Fyrmanswhist, ...): ``Variant.title``, or the title of a
# reserved key that cannot be played, as the server sends them in GET /api/variants
# (``extract`` puts them in the template).
VARIANT_TITLES: dict[str, str] = {
    **{key: variant.title for key, variant in VARIANTS.items()},
    **{key: unavailable.title for key, unavailable in UNAVAILABLE.items()},
}


def error_msgid(code: str) -> str:
    return ERROR_PREFIX + code


@cache
def _gettext(lang: str) -> Callable[[str], str]:
    """The catalogue of ``lang``: the compiled ``.mo`` if there is one, else the ``.po``."""
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if mo.is_file():
        with mo.open("rb") as handle:
            return gettext.GNUTranslations(handle).gettext
    po = mo.with_suffix(".po")
    if not po.is_file():
        return lambda msgid: msgid
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle)
    table = {
        str(m.id): str(m.string)
        for m in catalog
        if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy
    }
    return lambda msgid: table.get(msgid, msgid)


def translate(code_or_msgid: str, lang: str, params: dict[str, object] | None = None) -> str:
    """The text for a player: an error code (``not_your_turn``, or ``error:not_your_turn``) or
    any msgid, in ``lang`` (``en``, ``sv``, ``nb``, ``cs``; anything else gives English), with
    ``{name}`` placeholders filled from ``params``. Falls back to English, never fails."""
    code = code_or_msgid.removeprefix(ERROR_PREFIX)
    if code in ERROR_MESSAGES:
        msgid = error_msgid(code)
        english = ERROR_MESSAGES[code]
    else:
        msgid = english = code_or_msgid
    text = english
    if lang in LANGUAGES and lang != SOURCE_LANGUAGE:
        found = _gettext(lang)(msgid)
        if found and found != msgid:
            text = found
    for name, value in (params or {}).items():
        text = text.replace("{" + name + "}", str(value))
    return text
