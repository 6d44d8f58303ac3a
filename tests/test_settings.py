"""Player settings (issue 19, point 5): stored per player, guests included; the defaults
until a player saves; a save is the whole object, checked strictly, and a bad one is
refused with 400 bad_settings and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browser import SETTINGS_DEFAULTS
from test_server import room

DEFAULTS = SETTINGS_DEFAULTS  # what a new player's settings are
CHOSEN = {
    "sound": False,
    "animation": "fast",
    "card_size": "large",
    "hand_order": "suits_desc",
    "auto_play": False,
    "preselect": False,
}


def test_a_guest_gets_the_defaults_saves_and_reads_back_their_own(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann, bob = r.guest("Ann"), r.guest("Bob")
        assert ann.get("/api/me/settings").json() == DEFAULTS
        saved = ann.put("/api/me/settings", json=CHOSEN)
        assert saved.status_code == 200 and saved.json() == CHOSEN
        assert ann.get("/api/me/settings").json() == CHOSEN
        assert bob.get("/api/me/settings").json() == DEFAULTS  # per player
        again = {**CHOSEN, "animation": "off", "card_size": "small", "hand_order": "suits"}
        assert ann.put("/api/me/settings", json=again).json() == again
        assert ann.get("/api/me/settings").json() == again


def test_settings_survive_a_restart_of_the_server(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann = r.guest("Ann")
        assert ann.put("/api/me/settings", json=CHOSEN).status_code == 200
        cookies = dict(ann.cookies)
    with room(tmp_path) as r:
        ann = r.browser()
        ann.cookies.update(cookies)
        assert ann.get("/api/me/settings").json() == CHOSEN


BAD: dict[str, Any] = {
    "unknown key": {**DEFAULTS, "volume": 3},
    "missing key": {k: v for k, v in DEFAULTS.items() if k != "preselect"},
    "number for a boolean": {**DEFAULTS, "sound": 1},
    "string for a boolean": {**DEFAULTS, "auto_play": "true"},
    "null": {**DEFAULTS, "preselect": None},
    "unknown animation": {**DEFAULTS, "animation": "turbo"},
    "unknown card size": {**DEFAULTS, "card_size": "huge"},
    "unknown hand order": {**DEFAULTS, "hand_order": "random"},
    "wrong case": {**DEFAULTS, "animation": "Normal"},
    "NUL": {**DEFAULTS, "animation": "normal\x00"},
    "a list": [DEFAULTS],
    "empty object": {},
}


@pytest.mark.parametrize("body", BAD.values(), ids=BAD.keys())
def test_a_bad_save_is_refused_and_changes_nothing(tmp_path: Path, body: Any) -> None:
    with room(tmp_path) as r:
        ann = r.guest("Ann")
        assert ann.put("/api/me/settings", json=CHOSEN).status_code == 200
        refused = ann.put("/api/me/settings", json=body)
        assert refused.status_code == 400, refused.text
        error = refused.json()
        assert set(error) == {"code", "message"} and error["code"] == "bad_settings"
        assert error["message"]
        assert ann.get("/api/me/settings").json() == CHOSEN


def test_a_body_that_is_not_json_is_bad_settings(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann = r.guest("Ann")
        for raw in (b"", b"{", b"sound=true", json.dumps(DEFAULTS).encode()[:-1]):
            refused = ann.put(
                "/api/me/settings", content=raw, headers={"Content-Type": "application/json"}
            )
            assert refused.status_code == 400 and refused.json()["code"] == "bad_settings"
        assert ann.get("/api/me/settings").json() == DEFAULTS


def test_settings_need_a_signed_in_player(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        nobody = r.browser()
        for response in (
            nobody.get("/api/me/settings"),
            nobody.put("/api/me/settings", json=DEFAULTS),
        ):
            assert response.status_code == 401
            assert response.json()["code"] == "not_signed_in"
