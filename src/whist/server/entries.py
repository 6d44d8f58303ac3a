"""A table's log entries as typed messages, and their stored form.

The log stores each entry as ``(kind, data)`` JSON: ``entry_from_log`` reads it and
``Entry.log`` writes it, the one place of that format. Stored logs are replayed at every
start, so the stored form never changes: the same kinds, keys, key order and values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from whist.core.actions import Action, action_from_json, action_to_json
from whist.core.cards import Card, card_text, parse_card

Logged = tuple[str, dict[str, Any]]  # an entry as the store holds it


@dataclass(frozen=True)
class Joined:
    """A person sits down (before the start)."""

    seat: int
    player: int
    nickname: str = ""

    def log(self) -> Logged:
        data = {"seat": self.seat, "why": "join", "player": self.player, "nickname": self.nickname}
        return "seat", data


@dataclass(frozen=True)
class BotSeated:
    """The host gives a seat to a bot."""

    seat: int
    bot: str

    def log(self) -> Logged:
        return "seat", {"seat": self.seat, "why": "bot", "bot": self.bot}


@dataclass(frozen=True)
class SeatLost:
    """A person leaves, or runs out of time: before the start the seat is freed, after it
    the bot ``bot`` takes it over for good."""

    seat: int
    why: Literal["leave", "timeout"]
    bot: str
    player: int | None

    def log(self) -> Logged:
        data = {"seat": self.seat, "why": self.why, "bot": self.bot, "player": self.player}
        return "seat", data


@dataclass(frozen=True)
class Reserved:
    """A seat of a rematch is kept for the player who held it at the finished table: only
    that player may sit there (``Joined``) until they decline (``Declined``)."""

    seat: int
    player: int
    nickname: str

    def log(self) -> Logged:
        data = {"seat": self.seat, "why": "reserve", "player": self.player}
        return "seat", {**data, "nickname": self.nickname}


@dataclass(frozen=True)
class Declined:
    """The player a seat was kept for declines the rematch: the seat is free for anyone."""

    seat: int
    player: int

    def log(self) -> Logged:
        return "seat", {"seat": self.seat, "why": "decline", "player": self.player}


@dataclass(frozen=True)
class Rematched:
    """A finished table's rematch was made (once): the new table, and who asked for it."""

    table: str
    by: int  # the seat of the player who asked

    def log(self) -> Logged:
        return "rematch", {"table": self.table, "by": self.by}


@dataclass(frozen=True)
class HintsAllowed:
    """The host allowed hints at this table (issue 20), with its creation: the option is
    set then or never, so nobody at the table sees it turned on after they sat down. Hints
    are given only while the asking player is the only human seated
    (``TableState.hints_open``)."""

    def log(self) -> Logged:
        return "hints", {"allowed": True}


@dataclass(frozen=True)
class HintShown:
    """A hint is about to be shown to the player at ``seat``: the first of the match is
    logged (committed before the hint is sent), and makes the match unrated."""

    seat: int

    def log(self) -> Logged:
        return "hint", {"seat": self.seat}


@dataclass(frozen=True)
class Started:
    def log(self) -> Logged:
        return "start", {}


@dataclass(frozen=True)
class Dealt:
    dealer: int
    deck: tuple[Card, ...]

    def log(self) -> Logged:
        return "deal", {"dealer": self.dealer, "deck": [card_text(c) for c in self.deck]}


@dataclass(frozen=True)
class Acted:
    """A seat's action; ``mid`` the message id of a player's act, so that an act re-sent
    after a reconnect is recognised (``TableState.acked``) by whichever process runs the
    table then."""

    action: Action
    mid: str | None = None

    def log(self) -> Logged:
        data = action_to_json(self.action)
        if self.mid is not None:
            data["mid"] = self.mid
        return "action", data


@dataclass(frozen=True)
class Suspended:
    def log(self) -> Logged:
        return "suspend", {}


@dataclass(frozen=True)
class Resumed:
    def log(self) -> Logged:
        return "resume", {}


@dataclass(frozen=True)
class Ended:
    reason: str  # finished | resigned | abandoned

    def log(self) -> Logged:
        return "end", {"reason": self.reason}


Entry = (
    Joined
    | BotSeated
    | SeatLost
    | Reserved
    | Declined
    | Started
    | Dealt
    | Acted
    | Suspended
    | Resumed
    | Ended
    | Rematched
    | HintsAllowed
    | HintShown
)


def _seat(data: dict[str, Any]) -> Entry:
    why = data["why"]
    if why == "join":
        return Joined(data["seat"], data["player"], data.get("nickname", ""))
    if why == "bot":
        return BotSeated(data["seat"], data["bot"])
    if why in ("leave", "timeout"):
        return SeatLost(data["seat"], why, data["bot"], data.get("player"))
    if why == "reserve":
        return Reserved(data["seat"], data["player"], data["nickname"])
    if why == "decline":
        return Declined(data["seat"], data["player"])
    raise ValueError(f"unknown seat change {why!r}")


def _action(data: dict[str, Any]) -> Entry:
    mid = data.get("mid")
    action = action_from_json({key: value for key, value in data.items() if key != "mid"})
    return Acted(action, mid if isinstance(mid, str) else None)


_READERS: dict[str, Callable[[dict[str, Any]], Entry]] = {
    "seat": _seat,
    "start": lambda _data: Started(),
    "deal": lambda data: Dealt(data["dealer"], tuple(parse_card(t) for t in data["deck"])),
    "action": _action,
    "suspend": lambda _data: Suspended(),
    "resume": lambda _data: Resumed(),
    "end": lambda data: Ended(data["reason"]),
    "rematch": lambda data: Rematched(data["table"], data["by"]),
    "hints": lambda _data: HintsAllowed(),
    "hint": lambda data: HintShown(data["seat"]),
}


def entry_from_log(kind: str, data: dict[str, Any]) -> Entry:
    """The entry a stored ``(kind, data)`` holds (``ValueError`` for one it cannot be)."""
    reader = _READERS.get(kind)
    if reader is None:
        raise ValueError(f"unknown log entry {kind!r}")
    return reader(data)
