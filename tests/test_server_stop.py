"""``whist serve`` stopped by a signal while it is still importing the app: the signal's
exception may come back wrapped, and is still a clean stop."""

from __future__ import annotations

import dataclasses
import signal
from pathlib import Path
from typing import Any

import pytest

from test_recovery import free_port
from whist.server import main


class Interrupted:
    """A field default whose ``__set_name__`` is where the signal lands."""

    def __set_name__(self, owner: type, name: str) -> None:
        main.stop(signal.SIGTERM, None)


def import_interrupted(*_args: Any) -> None:
    """What the import of the app does when SIGTERM comes while a dataclass is made."""

    @dataclasses.dataclass
    class Made:
        field: Interrupted = Interrupted()  # noqa: RUF009 (the point of the test)


def test_a_signal_during_a_class_s_creation_is_a_clean_stop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # (Python wraps the Stopped of the handler in a RuntimeError there)
    with pytest.raises(RuntimeError) as raised:
        import_interrupted()
    assert isinstance(raised.value.__cause__, main.Stopped)
    monkeypatch.setattr(main, "serve", import_interrupted)
    assert main.run_server("127.0.0.1", free_port(), str(tmp_path / "data")) == 0


def test_another_error_while_starting_is_not_taken_for_a_stop(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("a real bug")

    monkeypatch.setattr(main, "serve", broken)
    with pytest.raises(RuntimeError, match="a real bug"):
        main.run_server("127.0.0.1", free_port(), str(tmp_path / "data"))
