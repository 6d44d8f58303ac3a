"""Long work a person can stop: ``whist solve`` and ``whist analyse`` run their search in a
worker thread (the solver lets go of the interpreter while it searches) and keep the main
thread for the person: Ctrl-C ends the command at once with exit status 130, a time limit
stops the search with the bounds proved so far, and a line on stderr tells how far it got.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from whist.analysis import Limits

T = TypeVar("T")

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command ended by Ctrl-C
TICK = 0.05  # seconds between two looks at the clock and the keyboard
QUIET = 1.0  # seconds of work before the first progress line
EVERY = 1.0  # seconds between two progress lines


def watched(command: str, work: Callable[[], T], limits: Limits, status: Callable[[], str]) -> T:
    """``work()``'s result, run in a worker thread while this thread watches: past the
    time limit it stops the search (``work`` then returns what it has); each second after
    the first a line ``whist COMMAND: <status()>`` goes to stderr; Ctrl-C leaves at once."""
    result: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            result.append(work())
        except BaseException as exc:  # raised again in the watching thread
            failure.append(exc)

    # Ctrl-C reaches this thread as KeyboardInterrupt even where the command was started
    # with SIGINT ignored (a shell's background job, which a test or a script may signal).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    worker = threading.Thread(target=run, name=f"whist-{command}", daemon=True)
    started = time.monotonic()
    next_line = started + QUIET
    try:
        worker.start()
        while worker.is_alive():
            worker.join(TICK)
            limits.check()
            now = time.monotonic()
            if now >= next_line and worker.is_alive():
                print(f"whist {command}: {status()} ({now - started:.0f} s)", file=sys.stderr)
                next_line = now + EVERY
    except KeyboardInterrupt:
        limits.stop()
        print(f"whist {command}: interrupted", file=sys.stderr, flush=True)
        sys.stdout.flush()
        # At once: the search thread is not waited for (it may be deep in a solve).
        os._exit(INTERRUPTED)
    if failure:
        raise failure[0]
    return result[0]
