"""``whist replay FILE [--seat S]``: exit 0 (replayed), 1 (an action was refused: the
document up to it plus an error object), 2 (malformed record: one line on stderr)."""

from __future__ import annotations

import json
import sys

from whist.core.errors import WhistError
from whist.core.match import Match
from whist.records import Record, RecordError, ReplayError, loads, replay, replay_document


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
    if error is None:
        return 0
    print(f"whist replay: {refusal(record, match, error, seat)}", file=sys.stderr)
    return 1


def refusal(record: Record, match: Match, error: ReplayError, seat: int | None) -> str:
    """One line on why the replay stopped: where, the action refused, the error's code and
    message. With ``seat`` the action's value is left out: it may name a card or bid that
    seat may not see (docs/record-format.md), like the document itself."""
    where = f"deal {error.deal}, action {error.action}"
    actions = record.deals[error.deal].actions
    # A deal that never started (listed after an unfinished deal or the match's end) has no
    # action to blame; nor has an action that could not be read.
    started = error.deal < len(match.deals)
    action = actions[error.action] if started and error.action < len(actions) else None
    if action is not None and not isinstance(action, WhistError):
        value = "" if seat is not None else " " + json.dumps(action.value_json())
        where += f" (seat {action.seat} {action.kind}{value})"
    return f"{where}: {error.code}: {error.message}"
