"""``whist replay FILE [--seat S]`` run as a user runs it (docs/record-format.md): exit 0 with the
JSON document, exit 1 with the document up to the last legal action plus an error object, exit 2
with one line on stderr naming the field and nothing on stdout; never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

FORMAT = "whist-record/1"
DECK = tuple(r + s for s in "SHDC" for r in "23456789TJQKA")  # sorted: card i = DECK[i]
# German Whist with this deck and dealer 0: seat 1 holds 2S 4S 6S 8S TS QS AS 3H 5H 7H 9H
# JH KH, seat 0 holds 3S 5S 7S 9S JS KS 2H 4H 6H 8H TH QH AH, 2D is turned (diamonds trump).


class Run:
    def __init__(self, proc: subprocess.CompletedProcess[str]) -> None:
        self.status = proc.returncode
        self.out = proc.stdout
        self.err = proc.stderr

    def doc(self) -> dict[str, Any]:
        doc = json.loads(self.out)
        assert isinstance(doc, dict)
        return doc


def run_replay(tmp_path: Path, content: str | bytes | dict[str, Any], *args: str) -> Run:
    path = tmp_path / "record.json"
    if isinstance(content, dict):
        path.write_text(json.dumps(content), encoding="utf-8")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "replay", str(path), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    run = Run(proc)
    assert "Traceback" not in run.err, run.err
    return run


def german(actions: list[Any], **options: Any) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": "german",
        "options": options,
        "deals": [{"dealer": 0, "deck": list(DECK), "actions": actions}],
    }


def four(variant: str, actions: list[Any], dealer: int = 0) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "variant": variant,
        "deals": [{"dealer": dealer, "deck": list(DECK), "actions": actions}],
    }


def assert_malformed(run: Run, *field_words: str) -> None:
    assert run.status == 2, (run.status, run.out, run.err)
    assert run.out == ""
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    for word in field_words:
        assert word in lines[0], (word, lines[0])


# ------------------------------------------------------------------------------ exit 0
def test_valid_record_prints_the_document(tmp_path: Path) -> None:
    run = run_replay(tmp_path, german([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}]))
    assert run.status == 0 and run.err == ""
    assert run.out.count("\n") == 1  # one JSON document
    doc = run.doc()
    assert doc["variant"] == "german" and "error" not in doc
    assert doc["deals"][0]["tricks"] == [{"leader": 1, "cards": ["AS", "3S"], "winner": 1}]
    assert doc["deals"][0]["trump"] == "D"
    assert doc["next"]["seat"] == 1 and doc["next"]["legal"][0] == {"seat": 1, "play": "2D"}


def test_alias_and_lower_case_input(tmp_path: Path) -> None:
    rec = german([{"seat": 1, "play": "as"}, {"seat": 0, "play": "3s"}])
    rec["variant"] = "tomannswhist"
    rec["options"] = {}
    rec["deals"][0]["deck"] = [c.lower() for c in DECK]
    run = run_replay(tmp_path, rec)
    assert run.status == 0
    doc = run.doc()
    assert doc["variant"] == "german"
    assert doc["options"]["scoring"] == "difference" and doc["options"]["match"] == "deals:4"
    assert doc["deals"][0]["tricks"][0]["cards"] == ["AS", "3S"]


def test_seat_option_shows_the_hand_and_hides_legal_of_others(tmp_path: Path) -> None:
    rec = german([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}])
    run = run_replay(tmp_path, rec, "--seat", "0")
    assert run.status == 0
    doc = run.doc()
    assert doc["deals"][0]["hand"] == sorted(
        ["5S", "7S", "9S", "JS", "KS", "2H", "4H", "6H", "8H", "TH", "QH", "AH", "3D"]
    )
    assert doc["next"] == {"seat": 1}
    assert "2D" not in doc["deals"][0]["hand"]
    run = run_replay(tmp_path, rec, "--seat", "1")
    doc = run.doc()
    assert "3D" not in json.dumps(doc)  # seat 0's unseen draw
    assert [a["play"] for a in doc["next"]["legal"]][:2] == ["2D", "2S"]


def test_record_from_standard_input(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "replay", "-"],
        input=json.dumps(german([{"seat": 1, "play": "AS"}])),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["next"]["seat"] == 0


def test_whist_script_entry_point(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("whist")
    if not script.exists():
        pytest.skip("no whist script next to the interpreter")
    path = tmp_path / "r.json"
    path.write_text(json.dumps(german([])), encoding="utf-8")
    proc = subprocess.run(
        [str(script), "replay", str(path)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["next"]["seat"] == 1


# ------------------------------------------------------------------------------ exit 1
@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([{"seat": 1, "play": "3S"}], 0, "card_not_available"),
        ([{"seat": 1, "play": "AS"}, {"seat": 1, "play": "QS"}], 1, "not_your_turn"),
        ([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "2H"}], 1, "must_follow_suit"),
        ([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S", "bid": "high"}], 1, None),
        ([{"seat": 1, "play": "AS"}, {"seat": 0}], 1, None),
        ([{"seat": 1, "play": "AS"}, "3S"], 1, None),
        (
            [{"seat": 1, "play": "AS"}, {"seat": 0, "play": "3S"}, {"seat": 1, "take": "keep"}],
            2,
            None,
        ),
    ],
    ids=[
        "card-not-in-hand",
        "out-of-turn",
        "revoke",
        "two-kinds",
        "no-kind",
        "not-an-object",
        "take-without-talon",
    ],
)
def test_illegal_action_exits_1_with_document_and_error(
    tmp_path: Path, actions: list[Any], index: int, code: str | None
) -> None:
    run = run_replay(tmp_path, german(actions))
    assert run.status == 1, (run.out, run.err)
    doc = run.doc()
    error = doc["error"]
    assert set(error) == {"deal", "action", "code", "message"}
    assert (error["deal"], error["action"]) == (0, index)
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    if code is not None:
        assert error["code"] == code
    # The reason on stderr too, for a user who reads the terminal, not the JSON.
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    assert lines[0].startswith(f"whist replay: deal 0, action {index}")
    assert f": {error['code']}: {error['message']}" in lines[0]
    # The document shows the deal up to the last legal action.
    played = [a["play"] for a in actions[:index] if isinstance(a, dict) and "play" in a]
    tricks = [c for t in doc["deals"][0]["tricks"] for c in t["cards"]]
    assert tricks == played[: 2 * (len(played) // 2)]
    assert doc["match"] == {"over": False, "winner": None}


def test_stderr_names_the_refused_action(tmp_path: Path) -> None:
    run = run_replay(tmp_path, german([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "2H"}]))
    assert run.status == 1
    assert run.err == (
        'whist replay: deal 0, action 1 (seat 0 play "2H"): must_follow_suit: '
        f"{run.doc()['error']['message']}\n"
    )


def test_deal_after_an_unfinished_deal_says_so_on_stderr(tmp_path: Path) -> None:
    rec = german([{"seat": 1, "play": "AS"}])
    rec["deals"].append({"dealer": 1, "deck": list(DECK), "actions": [{"seat": 0, "play": "AS"}]})
    run = run_replay(tmp_path, rec)
    assert run.status == 1
    assert run.err.startswith("whist replay: deal 1, action 0: deal_in_progress: ")
    assert len(run.err.splitlines()) == 1


def test_seat_deciding_twice_exits_1(tmp_path: Path) -> None:
    acts = [{"seat": 2, "bid": "low"}, {"seat": 3, "bid": "high"}, {"seat": 2, "bid": "high"}]
    run = run_replay(tmp_path, four("minnesota", acts))
    assert run.status == 1
    error = run.doc()["error"]
    assert (error["deal"], error["action"], error["code"]) == (0, 2, "already_decided")
    assert run.doc()["next"]["seat"] == 1


def test_swedish_bottom_card_not_in_hand_exits_1(tmp_path: Path) -> None:
    # Dealer 0: seat 1 holds cards 0, 4, 8, ... (2S 6S TS AS 5H ...); 3S is seat 2's.
    run = run_replay(tmp_path, four("swedish", [{"seat": 1, "bottom": "3S"}]))
    assert run.status == 1
    assert run.doc()["error"]["code"] == "card_not_available"


def test_deal_after_an_unfinished_deal_exits_1_at_its_action_0(tmp_path: Path) -> None:
    rec = german([{"seat": 1, "play": "AS"}])
    rec["deals"].append({"dealer": 1, "deck": list(DECK), "actions": []})
    run = run_replay(tmp_path, rec)
    assert run.status == 1
    doc = run.doc()
    assert (doc["error"]["deal"], doc["error"]["action"]) == (1, 0)
    assert len(doc["deals"]) == 1


def test_deal_after_the_match_ended_exits_1_at_its_action_0(tmp_path: Path) -> None:
    rec = four("classic", [{"seat": 2, "resign": True}])
    rec["deals"].append({"dealer": 1, "deck": list(DECK), "actions": []})
    run = run_replay(tmp_path, rec)
    assert run.status == 1
    doc = run.doc()
    assert (doc["error"]["deal"], doc["error"]["action"]) == (1, 0)
    assert doc["match"] == {"over": True, "winner": 1}
    assert doc["next"] is None


def test_action_after_resignation_exits_1(tmp_path: Path) -> None:
    run = run_replay(tmp_path, german([{"seat": 0, "resign": True}, {"seat": 1, "play": "AS"}]))
    assert run.status == 1
    doc = run.doc()
    assert (doc["error"]["deal"], doc["error"]["action"]) == (0, 1)
    assert doc["match"] == {"over": True, "winner": 1}


def test_error_message_with_seat_names_no_hidden_card(tmp_path: Path) -> None:
    # Seat 0 tries to play a card it does not hold; seat 1's document must not name it.
    rec = german([{"seat": 1, "play": "AS"}, {"seat": 0, "play": "2S"}])
    run = run_replay(tmp_path, rec, "--seat", "0")
    assert run.status == 1
    assert "2S" not in json.dumps(run.doc())  # seat 1's card, unseen by seat 0
    assert len(run.err.splitlines()) == 1 and "2S" not in run.err


# ------------------------------------------------------------------------------ exit 2
def _with(rec: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    rec = json.loads(json.dumps(rec))
    target = rec
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return rec


_DELETE = object()
_BASE = german([{"seat": 1, "play": "AS"}])
_FOUR = four("classic", [])


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", ["JSON"]),
        ("", ["JSON"]),
        ("[1, 2]", []),
        (_with(_BASE, ["format"], _DELETE), ["format"]),
        (_with(_BASE, ["format"], "whist-record/2"), ["format"]),
        (_with(_BASE, ["format"], 1), ["format"]),
        (_with(_BASE, ["variant"], "bridge"), ["variant"]),
        (_with(_BASE, ["variant"], _DELETE), ["variant"]),
        (_with(_BASE, ["variant"], "seven_houses"), ["variant"]),
        (_with(_BASE, ["options"], {"trumps": "none"}), ["options", "trumps"]),
        (_with(_BASE, ["options"], {"scoring": "points"}), ["options", "scoring"]),
        (_with(_BASE, ["options"], {"match": "target:0"}), ["options", "match"]),
        (_with(_BASE, ["options"], {"match": "deals:x"}), ["options", "match"]),
        (_with(_BASE, ["options"], {"preset": "nope"}), ["options", "preset"]),
        (_with(_BASE, ["deals", 0, "deck", 5], "1S"), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "deck", 5], 7), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "deck"], list(DECK[:51])), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "deck"], [*DECK[:51], "2S"]), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "deck"], [*DECK, "2S"]), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "deck"], _DELETE), ["deals[0].deck"]),
        (_with(_BASE, ["deals", 0, "actions", 0, "play"], "ZZ"), ["deals[0].actions[0]"]),
        (_with(_BASE, ["deals", 0, "actions", 0, "play"], "10S"), ["deals[0].actions[0]"]),
        (_with(_BASE, ["deals", 0, "dealer"], 2), ["deals[0].dealer"]),
        (_with(_BASE, ["deals", 0, "dealer"], -1), ["deals[0].dealer"]),
        (_with(_BASE, ["deals", 0, "dealer"], "0"), ["deals[0].dealer"]),
        (_with(_BASE, ["deals", 0, "dealer"], _DELETE), ["deals[0].dealer"]),
        (_with(_FOUR, ["deals", 0, "dealer"], 4), ["deals[0].dealer"]),
        (
            {**_FOUR, "deals": [*_FOUR["deals"], {"dealer": 3, "deck": list(DECK)}]},
            ["deals[1].dealer"],
        ),
        (
            four("swedish", [{"seat": 1, "bottom": "QX"}]),
            ["deals[0].actions[0]"],
        ),
    ],
    ids=[
        "invalid-json",
        "empty-file",
        "not-an-object",
        "missing-format",
        "wrong-format",
        "format-not-a-string",
        "unknown-variant",
        "missing-variant",
        "unavailable-variant",
        "unknown-option",
        "bad-option-value",
        "target-zero",
        "deals-not-a-number",
        "unknown-preset",
        "bad-card-in-deck",
        "number-in-deck",
        "deck-of-51",
        "duplicate-card",
        "deck-of-53",
        "no-deck",
        "bad-card-in-play",
        "ten-written-10",
        "dealer-out-of-range",
        "negative-dealer",
        "dealer-a-string",
        "no-dealer",
        "four-player-dealer-4",
        "dealer-not-rotating",
        "bad-card-in-bottom",
    ],
)
def test_malformed_record_exits_2_with_one_line_naming_the_field(
    tmp_path: Path, content: Any, words: list[str]
) -> None:
    run = run_replay(tmp_path, content)
    assert_malformed(run, *words)


@pytest.mark.parametrize(
    "action",
    [
        {"play": "AS"},
        {"seat": "1", "play": "AS"},
        {"seat": 1.0, "play": "AS"},
        {"seat": True, "play": "AS"},
        {"seat": None, "play": "AS"},
        {"seat": 2, "play": "AS"},
        {"seat": -1, "play": "AS"},
        {"seat": 10**30, "play": "AS"},
        {"seat": -(10**30), "resign": True},
    ],
    ids=["no-seat", "string", "float", "bool", "null", "seat-2", "negative", "huge", "huge-neg"],
)
def test_action_without_a_seat_0_to_n_is_a_malformed_record(
    tmp_path: Path, action: dict[str, Any]
) -> None:
    # Later in the deal, so that exit 1 (refused when replayed) would show a document.
    rec = german([{"seat": 1, "play": "AS"}, action])
    assert_malformed(run_replay(tmp_path, rec), "deals[0].actions[1].seat")


def test_bad_seat_in_a_four_player_record_exits_2(tmp_path: Path) -> None:
    rec = four("minnesota", [{"seat": 0, "bid": "high"}, {"seat": 4, "bid": "low"}])
    assert_malformed(run_replay(tmp_path, rec), "deals[0].actions[1].seat", "0..3")


def test_bad_dealer_in_a_later_deal_exits_2(tmp_path: Path) -> None:
    rec = german([])
    rec["deals"].append({"dealer": 0, "deck": list(DECK), "actions": []})
    assert_malformed(run_replay(tmp_path, rec), "deals[1].dealer")


def test_unreadable_or_missing_file_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "replay", str(tmp_path / "missing.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "Traceback" not in proc.stderr
    assert_malformed(run_replay(tmp_path, b"\xff\xfe{}"))


def test_seat_out_of_range_exits_2(tmp_path: Path) -> None:
    assert_malformed(run_replay(tmp_path, german([]), "--seat", "2"), "seat")
    assert_malformed(run_replay(tmp_path, four("classic", []), "--seat", "-1"), "seat")


def test_preset_that_is_not_a_string_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "replay", "-"],
        input=json.dumps(_with(_BASE, ["options"], {"preset": ["tomannswhist"]})),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1 and "preset" in proc.stderr


def test_deeply_nested_json_exits_2(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "whist.cli", "replay", "-"],
        input="[" * 100_000 + "]" * 100_000,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2 and proc.stdout == ""
    assert len(proc.stderr.splitlines()) == 1


# ------------------------------------------------------------------- no heavy imports
HEAVY = (
    "sqlalchemy",
    "fastapi",
    "starlette",
    "uvicorn",
    "numba",
    "numpy",
    "pyspiel",
    "hypothesis",
    "whist.server",
    "whist.solver",
    "whist.bots",
)


@pytest.mark.parametrize("seat", [None, 1])
def test_replay_does_not_import_heavy_modules(tmp_path: Path, seat: int | None) -> None:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(german([{"seat": 1, "play": "AS"}])), encoding="utf-8")
    argv = ["replay", str(path)] + ([] if seat is None else ["--seat", str(seat)])
    code = (
        "import sys\n"
        "from whist.cli import main\n"
        f"status = main({argv!r})\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    modules = set(proc.stderr.split())
    assert "whist.records" in modules  # the listing is real
    json.loads(proc.stdout)
    for heavy in HEAVY:
        imported = {m for m in modules if m == heavy or m.startswith(heavy + ".")}
        assert not imported, f"whist replay imports {sorted(imported)}"
