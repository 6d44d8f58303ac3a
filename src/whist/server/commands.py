"""What a table's actor is told and asked, as typed messages.

- A socket's commands (``SocketCommand``): a connection opens or closes, asks for a fresh
  state, or acts. They carry the ``Connection`` the actor answers on.
- Questions (``Question``): an HTTP request asks the table and waits for its answer.
- The actor's own: a bot's move, a clock running out, moving the table on.

In cluster mode socket commands and questions travel between nodes as ``(kind, data)``
JSON: ``wire`` writes it and ``socket_command`` / ``question`` read it, the one place of
that format.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from whist.core.views import View

MessageId = str | int | None  # a client message's id, echoed in the answer


def _no_close(_code: int, _reason: str) -> None:
    return None


def _no_move() -> None:
    return None


@dataclass(eq=False)
class Connection:
    """One WebSocket (or test client) watching a table."""

    player_id: int | None
    send: Callable[[str], Awaitable[None]]  # one frame's JSON text
    # Close this socket with a WebSocket close code and reason (a frame for it could not
    # be encoded or sent): never dropped without the client being told.
    close: Callable[[int, str], None] = _no_close
    # Cluster mode: the table stopped running here (handed over, or its lease lost): the
    # socket finds where it runs now. One process: never called.
    moved: Callable[[], None] = _no_move


# ------------------------------------------------------------------ a socket's
@dataclass(frozen=True)
class Connect:
    connection: Connection

    def wire(self) -> tuple[str, dict[str, Any]]:
        return "connect", {}


@dataclass(frozen=True)
class Disconnect:
    connection: Connection

    def wire(self) -> tuple[str, dict[str, Any]]:
        return "disconnect", {}


@dataclass(frozen=True)
class Snapshot:
    """A fresh state for this connection alone (carrying the request's id)."""

    connection: Connection
    id: MessageId = None

    def wire(self) -> tuple[str, dict[str, Any]]:
        return "snapshot", {"type": "snapshot", "id": self.id}


@dataclass(frozen=True)
class Act:
    """The player's action, as the client sent it (the actor reads and checks it)."""

    connection: Connection
    id: MessageId
    action: Any

    def wire(self) -> tuple[str, dict[str, Any]]:
        return "act", {"type": "act", "id": self.id, "action": self.action}


@dataclass(frozen=True)
class Hint:
    """The player asks for a hint (issue 20): MASTER's choice for its seat, answered to this
    connection alone with a ``hint`` frame carrying the request's id."""

    connection: Connection
    id: MessageId

    def wire(self) -> tuple[str, dict[str, Any]]:
        return "hint", {"type": "hint", "id": self.id}


SocketCommand = Connect | Disconnect | Snapshot | Act | Hint


def socket_command(kind: str, data: dict[str, Any], connection: Connection) -> SocketCommand:
    """A socket's command from its ``wire`` form (``ValueError`` for an unknown kind)."""
    if kind == "connect":
        return Connect(connection)
    if kind == "disconnect":
        return Disconnect(connection)
    if kind == "snapshot":
        return Snapshot(connection, data.get("id"))
    if kind == "act":
        return Act(connection, data.get("id"), data.get("action"))
    if kind == "hint":
        return Hint(connection, data.get("id"))
    raise ValueError(f"unknown socket command {kind!r}")


# ------------------------------------------------------------------ questions
@dataclass(frozen=True)
class Sit:
    """Answer: ``{"seat": seat}``."""

    player_id: int | None
    seat: int | None = None  # None: the first free seat
    nickname: str = ""

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "sit", self.player_id, {"seat": self.seat, "nickname": self.nickname}


@dataclass(frozen=True)
class Leave:
    """Answer: ``{"left": seat}``."""

    player_id: int | None

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "leave", self.player_id, {}


@dataclass(frozen=True)
class Suspend:
    """Answer: ``{"suspended": True}``."""

    player_id: int | None

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "suspend", self.player_id, {}


@dataclass(frozen=True)
class Watch:
    """May this player (None: anyone), with this invitation, watch the table? A bool."""

    player_id: int | None
    invite: str | None = None

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "watch", self.player_id, {"invite": self.invite}


@dataclass(frozen=True)
class Info:
    """Answer: the table's public info (``TableActor.public_info``)."""

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "info", None, {}


@dataclass(frozen=True)
class Rematch:
    """A player who held a seat at this finished table asks for a rematch: made once (the
    same options, clock, privacy and bots; every human's seat kept for them). Answer:
    ``{"table": new table id, "seat": the asker's seat}``."""

    player_id: int | None

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "rematch", self.player_id, {}


@dataclass(frozen=True)
class Keep:
    """Keep these empty seats of a new rematch table for their players (seat -> player id
    and nickname). Answer: None."""

    seats: dict[int, tuple[int, str]]

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        kept = {str(seat): [player, nickname] for seat, (player, nickname) in self.seats.items()}
        return "keep", None, {"seats": kept}


@dataclass(frozen=True)
class Accept:
    """Take the seat a rematch keeps for this player. Answer: ``{"seat": seat}``."""

    player_id: int | None
    nickname: str = ""

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "accept", self.player_id, {"nickname": self.nickname}


@dataclass(frozen=True)
class Decline:
    """Decline a rematch: the seat kept for this player is free for anyone. Answer:
    ``{"declined": seat}``."""

    player_id: int | None

    def wire(self) -> tuple[str, int | None, dict[str, Any]]:
        return "decline", self.player_id, {}


Question = Sit | Leave | Suspend | Watch | Info | Rematch | Keep | Accept | Decline


def question(kind: str, player_id: int | None, data: dict[str, Any]) -> Question:
    """A question from its ``wire`` form (``ValueError`` for an unknown kind)."""
    if kind == "sit":
        return Sit(player_id, data.get("seat"), data.get("nickname", ""))
    if kind == "leave":
        return Leave(player_id)
    if kind == "suspend":
        return Suspend(player_id)
    if kind == "watch":
        return Watch(player_id, data.get("invite"))
    if kind == "info":
        return Info()
    if kind == "rematch":
        return Rematch(player_id)
    if kind == "keep":
        seats = data.get("seats", {})
        return Keep({int(seat): (player, nickname) for seat, (player, nickname) in seats.items()})
    if kind == "accept":
        return Accept(player_id, data.get("nickname", ""))
    if kind == "decline":
        return Decline(player_id)
    raise ValueError(f"unknown question {kind!r}")


# ------------------------------------------------------------------ the actor's own
@dataclass(frozen=True)
class BotMoved:
    seat: int
    action: dict[str, Any]  # as the bot's worker sent it


@dataclass(frozen=True)
class Advised:
    """MASTER's advice for a hint came back from a worker (``advice``), or failed
    (``failure``: the refusal's code and message): the actor checks the position is still
    the one asked about, logs the first hint, then answers the connection."""

    hint: Hint
    seat: int
    view: View  # the seat's view the advice was asked for
    advice: dict[str, Any] | None
    failure: tuple[str, str] | None = None


@dataclass(frozen=True)
class Timeout:
    """A clock may have run out."""


@dataclass(frozen=True)
class Drive:
    """Move the table on (after a failure: try again)."""


Command = SocketCommand | Question | BotMoved | Advised | Timeout | Drive
