"""The table's typed messages keep their stored and wire forms: a log entry read from the
store writes back the very same JSON (kinds, keys, key order), so stored logs replay and new
entries look like old ones; commands and questions cross between nodes unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from whist.server.commands import (
    Act,
    Connect,
    Connection,
    Disconnect,
    Info,
    Leave,
    Question,
    Sit,
    Snapshot,
    SocketCommand,
    Suspend,
    Watch,
    question,
    socket_command,
)
from whist.server.entries import Acted, Dealt, Joined, entry_from_log
from whist.server.table import TableState

DECK = [rank + suit for suit in "SHDC" for rank in "23456789TJQKA"]

# Entries as the server has always stored them.
STORED: list[tuple[str, dict[str, Any]]] = [
    ("seat", {"seat": 1, "why": "bot", "bot": "medium"}),
    ("seat", {"seat": 0, "why": "join", "player": 7, "nickname": "ann"}),
    ("start", {}),
    ("deal", {"dealer": 1, "deck": DECK}),
    ("action", {"seat": 0, "play": "2S", "mid": "m-1"}),
    ("action", {"seat": 1, "bid": "pass"}),
    ("seat", {"seat": 0, "why": "leave", "bot": "medium", "player": 7}),
    ("seat", {"seat": 2, "why": "timeout", "bot": "medium", "player": 9}),
    ("suspend", {}),
    ("resume", {}),
    ("end", {"reason": "abandoned"}),
]


@pytest.mark.parametrize(("kind", "data"), STORED, ids=[kind for kind, _ in STORED])
def test_a_stored_entry_is_written_back_byte_for_byte(kind: str, data: dict[str, Any]) -> None:
    written = entry_from_log(kind, data).log()
    assert json.dumps(written) == json.dumps((kind, data))


def test_entries_are_typed() -> None:
    assert entry_from_log(*STORED[1]) == Joined(0, 7, "ann")
    dealt = entry_from_log(*STORED[3])
    assert isinstance(dealt, Dealt) and len(dealt.deck) == 52
    acted = entry_from_log(*STORED[4])
    assert isinstance(acted, Acted) and acted.mid == "m-1" and acted.action.seat == 0


def test_an_old_join_without_a_nickname_still_replays() -> None:
    assert entry_from_log("seat", {"seat": 0, "why": "join", "player": 7}) == Joined(0, 7, "")


@pytest.mark.parametrize(("kind", "data"), [("shuffle", {}), ("seat", {"seat": 0, "why": "fly"})])
def test_an_unknown_entry_is_refused(kind: str, data: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="unknown"):
        entry_from_log(kind, data)


def test_a_replayed_log_counts_every_entry_as_a_version() -> None:
    state = TableState.new("t", "minnesota", {}, None)
    state.replay(
        [
            ("seat", {"seat": 1, "why": "bot", "bot": "easy"}),
            ("seat", {"seat": 0, "why": "join", "player": 7, "nickname": "ann"}),
        ]
    )
    assert state.version == 2
    assert state.seats[1].bot == "easy" and state.seat_of(7) == 0


async def _send(_text: str) -> None:
    return None


CONNECTION = Connection(7, _send)
SOCKET_COMMANDS: list[SocketCommand] = [
    Connect(CONNECTION),
    Disconnect(CONNECTION),
    Snapshot(CONNECTION, "s-1"),
    Snapshot(CONNECTION),
    Act(CONNECTION, 12, {"play": "AS"}),
]


@pytest.mark.parametrize("command", SOCKET_COMMANDS, ids=lambda c: type(c).__name__)
def test_a_socket_command_crosses_between_nodes(command: SocketCommand) -> None:
    kind, data = command.wire()
    assert socket_command(kind, json.loads(json.dumps(data)), CONNECTION) == command


QUESTIONS: list[Question] = [
    Sit(7, 2, "ann"),
    Sit(7),
    Leave(7),
    Suspend(7),
    Watch(None, "invite-code"),
    Watch(7),
    Info(),
]


@pytest.mark.parametrize("asked", QUESTIONS, ids=repr)
def test_a_question_crosses_between_nodes(asked: Question) -> None:
    kind, player, data = asked.wire()
    assert question(kind, player, json.loads(json.dumps(data))) == asked
