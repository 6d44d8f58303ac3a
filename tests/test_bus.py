"""The cluster bus's framing: frames for one node travel together, in order, and a message
between them keeps its place."""

from __future__ import annotations

import orjson

from whist.cluster.bus import FRAMES, pack, unpack


def test_frames_for_one_node_travel_together_and_keep_their_order() -> None:
    a, b = "whist:node:a", "whist:node:b"
    moved = orjson.dumps({"op": "moved", "conn": "k" * 16})
    queued = [
        (a, b"1" * 16, b'{"type":"state","version":1}'),
        (a, b"2" * 16, '{"type":"state","version":1,"x":"Tvåmanswhist ♠"}'.encode()),
        (b, b"3" * 16, b'{"type":"ack"}'),
        (a, None, moved),  # a message between frames keeps its place
        (a, b"1" * 16, b'{"type":"state","version":2}'),
    ]
    messages = pack(queued)
    assert [name for name, _data in messages] == [a, b, a, a]
    first, second, third, fourth = (data for _name, data in messages)
    assert first[0] == FRAMES and unpack(first) == [
        ("1" * 16, '{"type":"state","version":1}'),
        ("2" * 16, '{"type":"state","version":1,"x":"Tvåmanswhist ♠"}'),
    ]
    assert unpack(second) == [("3" * 16, '{"type":"ack"}')]
    assert third == moved and third[0] != FRAMES  # JSON starts with "{"
    assert unpack(fourth) == [("1" * 16, '{"type":"state","version":2}')]
