"""``whist replay FILE [--seat S]``: exit 0 (replayed), 1 (an action was refused: the
document up to it plus an error object), 2 (malformed record: one line on stderr)."""

from __future__ import annotations

import json
import sys

from whist.records import Record, RecordError, loads, replay, replay_document


def read_record(path: str, command: str) -> Record | None:
    """The record in ``path`` (``-``: standard input), or None after one line on stderr
    saying why it cannot be read (the caller exits 2)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"whist {command}: {path}: cannot read ({exc})", file=sys.stderr)
        return None
    try:
        return loads(text)
    except RecordError as exc:
        print(f"whist {command}: {exc}", file=sys.stderr)
        return None


def run_replay(path: str, seat: int | None) -> int:
    record = read_record(path, "replay")
    if record is None:
        return 2
    players = record.variant.players
    if seat is not None and not 0 <= seat < players:
        print(f"whist replay: --seat: must be a seat 0..{players - 1}", file=sys.stderr)
        return 2
    match, error = replay(record)
    document = replay_document(match, error, seat)
    try:
        sys.stdout.write(json.dumps(document) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`: not an error of the record
        sys.stderr.close()
    return 1 if error is not None else 0
