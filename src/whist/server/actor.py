"""One actor per table: every command for a table is handled here, one at a time.

For each command: validate with the rules core → append the log entry and commit → adopt
it (``TableState.apply``) → publish each connection its own view with the new version.
Bots and clocks post their results back into the same inbox, so nothing changes a table
except this loop. A failed commit leaves the table as it was (the entry is not adopted).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import orjson
from sqlalchemy.exc import DBAPIError

from whist.core.actions import Action, Resign, action_from_json, action_to_json
from whist.core.cards import card_text
from whist.core.errors import WhistError
from whist.core.views import view_for
from whist.server.limits import printable
from whist.server.table import TableState
from whist.server.writer import Fenced, TableBehind

log = logging.getLogger("whist.table")

XP_FOR_A_WIN = 100
RETRY_SECONDS = 1.0  # a table whose append failed (the store is down?) tries again after


def frame_text(message: dict[str, Any]) -> str:
    """A wire frame's JSON text, compact. orjson: encoding the frames was a fifth of the
    event loop's time with the standard library (a state frame: 20 µs there, 2 µs here)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


UNAVAILABLE = "unavailable"


def failure(exc: BaseException) -> tuple[str, str]:
    """The code and message a client gets for a command that failed: the database out of
    reach is said so (try again shortly); anything else is a bug (``internal``)."""
    if isinstance(exc, DBAPIError | ConnectionError | TimeoutError):
        return UNAVAILABLE, "the club's database cannot be reached just now: try again shortly"
    return "internal", "internal error"


class Hub(Protocol):
    """What an actor needs from the server around it."""

    async def commit(
        self,
        table_id: str,
        seq: int,
        entries: list[tuple[str, dict[str, Any]]],
        status: str | None,
        result: dict[str, Any] | None,
        xp: dict[int, int] | None = None,
    ) -> None: ...

    async def think(self, level: str, view: Any, seed: str) -> dict[str, Any]: ...

    def clock_seconds(self) -> float: ...

    def forget(self, table_id: str) -> None: ...

    def bot_delay(self) -> float: ...


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


CLOSE_SEND_FAILED = 1011  # docs/protocol.md: the server could not encode or send a frame


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        message = printable(message)  # it may quote what a client sent
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Command:
    # connect | disconnect | snapshot | act | sit | leave | suspend | bot | timeout | drive
    # | info | watch
    kind: str
    connection: Connection | None = None
    player_id: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    reply: asyncio.Future[Any] | None = None


class TableActor:
    def __init__(
        self,
        hub: Hub,
        state: TableState,
        clock_used: dict[int, float] | None = None,
        invite: str | None = None,
    ) -> None:
        self.hub = hub
        self.state = state
        # A private table: only its players, or whoever holds the invitation, may watch it.
        self.invite = invite
        self.inbox: asyncio.Queue[Command] = asyncio.Queue()
        self.connections: set[Connection] = set()
        # Clock: seat -> monotonic deadline, for human seats to act on a table with a clock.
        self.deadlines: dict[int, float] = {}
        self._published_deadlines: dict[int, float] = {}  # what every client was last sent
        # After a restart: seconds of its clock each seat to act had used before the stop.
        self._restored_turns = clock_used or {}
        self.thinking: set[int] = set()  # seats whose bot move is being computed
        self._timer: asyncio.TimerHandle | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    # ---------------------------------------------------------------- running
    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._retry is not None:
            self._retry.cancel()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def ask(self, kind: str, player_id: int | None = None, **data: Any) -> Any:
        """Send a command and wait for its answer (raises ``Refused``)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put(Command(kind, player_id=player_id, data=data, reply=future))
        return await future

    def post(self, command: Command) -> None:
        self.inbox.put_nowait(command)

    @property
    def table_id(self) -> str:
        return self.state.table_id

    @property
    def version(self) -> int:
        return self.state.version

    async def _run(self) -> None:
        await self._drive()
        while True:
            command = await self.inbox.get()
            try:
                result = await self._handle(command)
            except Refused as refused:
                if command.reply is not None and not command.reply.done():
                    command.reply.set_exception(refused)
                elif command.connection is not None:
                    await self._send(
                        command.connection,
                        {
                            "type": "error",
                            "id": command.data.get("id"),
                            "code": refused.code,
                            "message": refused.message,
                            "version": self.state.version,
                        },
                    )
                continue
            except Fenced:
                # Another node runs the table now (the club drops it here): the sockets
                # follow it there and re-send their unanswered acts, so this one is not
                # answered; a request is asked again where the table runs.
                log.warning("table %s: %s not stored: fenced off", self.table_id, command.kind)
                if command.reply is not None and not command.reply.done():
                    message = "the table is moving to another server: try again"
                    command.reply.set_exception(Refused(UNAVAILABLE, message))
                continue
            except Exception as exc:  # a bug must not kill the table: log it, keep serving
                code, message = failure(exc)
                if isinstance(exc, TableBehind):  # not a bug: healed by _adopt already
                    log.warning("table %s: %s refused: %s", self.state.table_id, command.kind, exc)
                elif code == "unavailable":
                    log.error("table %s: %s failed: %s", self.table_id, command.kind, exc)
                else:
                    log.exception("table %s: command %s failed", self.state.table_id, command.kind)
                if command.reply is not None and not command.reply.done():
                    command.reply.set_exception(Refused(code, message))
                elif command.connection is not None and command.kind == "act":
                    # The client waits for an ack or an error for every act.
                    await self._send(
                        command.connection,
                        {
                            "type": "error",
                            "id": command.data.get("id"),
                            "code": code,
                            "message": message,
                            "version": self.state.version,
                        },
                    )
                continue
            if command.reply is not None and not command.reply.done():
                command.reply.set_result(result)

    # --------------------------------------------------------------- commands
    async def _handle(self, command: Command) -> Any:
        kind = command.kind
        if kind == "connect":
            assert command.connection is not None
            self.connections.add(command.connection)
            if self.state.status == "suspended" and command.connection.player_id in (
                self.state.humans()
            ):
                try:
                    await self._commit([("resume", {})])
                except Exception:  # still suspended: the next connection tries again
                    log.exception("table %s: could not resume", self.state.table_id)
                else:
                    # Bots whose moves were dropped think again; clocks restart.
                    await self._drive()
            await self._publish_to(command.connection)
            await self._publish_presence()
            return None
        if kind == "disconnect":
            self.connections.discard(command.connection)  # type: ignore[arg-type]
            await self._publish_presence()
            if self.state.status in ("finished", "abandoned") and not self.connections:
                # Nobody watches an ended table: it lives on in the store (my games).
                self.hub.forget(self.state.table_id)
            return None
        if kind == "snapshot":
            assert command.connection is not None
            await self._publish_to(command.connection, command.data.get("id"))
            return None
        if kind == "act":
            return await self._act(command)
        if kind == "sit":
            return await self._sit(command.player_id, command.data)
        if kind == "leave":
            return await self._leave(command.player_id)
        if kind == "suspend":
            return await self._suspend(command.player_id)
        if kind == "bot":
            return await self._bot_moved(command.data)
        if kind == "timeout":
            return await self._timeout()
        if kind == "drive":
            self._retry = None
            return await self._drive()
        if kind == "info":
            return self.public_info(None)
        if kind == "watch":
            return self.may_watch(command.player_id, command.data.get("invite"))
        raise Refused("bad_message", f"unknown command {kind!r}")

    async def _act(self, command: Command) -> dict[str, Any]:
        connection = command.connection
        assert connection is not None
        message_id = command.data.get("id")
        # Message ids are remembered per player, not per socket: an action re-sent after a
        # reconnect is recognised and never applied twice.
        seen = self.state.acked.get(connection.player_id or 0, {})
        if isinstance(message_id, str) and message_id in seen:
            raise Refused(
                "duplicate_message",
                f"message {message_id} was already handled (version {seen[message_id]})",
            )
        state = self.state
        if connection.player_id is None:
            raise Refused("not_seated", "spectators cannot act")
        seat = state.seat_of(connection.player_id)
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table")
        if state.status != "playing":
            raise Refused("wrong_phase", f"the table is {state.status}")
        action_json = command.data.get("action")
        if not isinstance(action_json, dict):
            raise Refused("bad_action", "an action must be an object")
        raw = dict(action_json)
        raw["seat"] = seat  # a player acts for its own seat only
        try:
            action = action_from_json(raw)
        except ValueError as exc:
            raise Refused("bad_action", str(exc)) from None
        except WhistError as exc:
            raise Refused(exc.code, exc.message) from None
        self._validate(action)
        entry = action_to_json(action)
        if isinstance(message_id, str):
            entry["mid"] = message_id  # TableState.acked: never applied twice
        await self._commit([("action", entry)])
        await self._send(connection, {"type": "ack", "id": message_id, "version": state.version})
        self.deadlines.pop(seat, None)  # to act again (it won the trick): a new full clock
        await self._drive()
        return {"version": state.version}

    def _validate(self, action: Action) -> None:
        """Refuse with the core's own code, changing nothing; the action is adopted only
        after its log entry is committed."""
        match = self.state.match
        if isinstance(action, Resign):
            if match.over or match.deal is None:
                raise Refused("match_over" if match.over else "no_deal_in_progress", "not now")
            return
        if action in match.legal_actions(action.seat):
            return
        # Not legal: let the core say why, on a throwaway copy (it would also raise there).
        trial = match.copy()
        try:
            trial.apply(action)
        except WhistError as exc:
            raise Refused(exc.code, exc.message) from None
        raise Refused("bad_action", "that action is not allowed now")

    async def _sit(self, player_id: int | None, data: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        if player_id is None:
            raise Refused("not_signed_in", "sign in first")
        if state.status != "open":
            raise Refused("wrong_phase", "the match has started")
        if state.seat_of(player_id) is not None:
            return {"seat": state.seat_of(player_id)}
        wanted = data.get("seat")
        free = [i for i, s in enumerate(state.seats) if s.empty]
        if wanted is None:
            if not free:
                raise Refused("table_full", "no free seat")
            wanted = free[0]
        if not isinstance(wanted, int) or wanted not in free:
            raise Refused("seat_taken", "that seat is not free")
        entries: list[tuple[str, dict[str, Any]]] = [
            (
                "seat",
                {
                    "seat": wanted,
                    "why": "join",
                    "player": player_id,
                    "nickname": data.get("nickname", ""),
                },
            )
        ]
        if len(free) == 1:
            entries.append(("start", {}))
        await self._commit(entries)
        await self._drive()
        return {"seat": wanted}

    async def _leave(self, player_id: int | None) -> dict[str, Any]:
        state = self.state
        seat = state.seat_of(player_id) if player_id is not None else None
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table")
        if state.status in ("finished", "abandoned"):
            # The match is over: nothing is left to leave, and its log is closed.
            raise Refused("wrong_phase", f"the table is {state.status}")
        entries: list[tuple[str, dict[str, Any]]] = [
            ("seat", {"seat": seat, "why": "leave", "bot": "medium", "player": player_id})
        ]
        status = None
        if state.status in ("playing", "suspended") and state.humans() == [player_id]:
            # The last human leaves: the table ends without a result.
            entries.append(("end", {"reason": "abandoned"}))
            status = "abandoned"
        await self._commit(entries, status=status)
        await self._drive()
        return {"left": seat}

    async def _suspend(self, player_id: int | None) -> dict[str, Any]:
        state = self.state
        if player_id is None or state.seat_of(player_id) is None:
            raise Refused("not_seated", "you have no seat at this table")
        if state.status != "playing":
            raise Refused("wrong_phase", f"the table is {state.status}")
        if state.humans() != [player_id]:
            raise Refused("not_alone", "only a match against bots can be saved and left")
        await self._commit([("suspend", {})], status="suspended")
        await self._drive()  # stops the clocks: a saved match is not timed
        return {"suspended": True}

    async def _bot_moved(self, data: dict[str, Any]) -> None:
        seat = data["seat"]
        self.thinking.discard(seat)
        state = self.state
        if state.status != "playing" or state.bot_level(seat) is None:
            return
        try:
            action = action_from_json({**data["action"], "seat": seat})
            self._validate(action)
        except (Refused, WhistError, ValueError):
            await self._drive()  # stale (the position moved on): think again if needed
            return
        try:
            await self._commit([("action", action_to_json(action))])
        except Exception:
            log.exception("table %s: bot move not stored", state.table_id)
            self._retry_later()  # the bot thinks again then
            return
        await self._drive()

    async def _timeout(self) -> None:
        self._timer = None
        now = time.monotonic()
        expired = {seat: d for seat, d in self.deadlines.items() if d <= now}
        entries: list[tuple[str, dict[str, Any]]] = []
        for seat in expired:
            del self.deadlines[seat]
            info = self.state.seats[seat]
            if info.human:
                entries.append(
                    (
                        "seat",
                        {"seat": seat, "why": "timeout", "bot": "medium", "player": info.player_id},
                    )
                )
        if entries:
            try:
                await self._commit(entries)
            except Exception:
                log.exception("table %s: takeover not stored", self.state.table_id)
                for seat in expired:  # still due: try again a little later
                    self.deadlines[seat] = now + RETRY_SECONDS
                self._arm_timer()
                return
        await self._drive()

    # ------------------------------------------------------------------ drive
    async def _drive(self) -> None:
        """Move the table on: deal, end the match, start clocks, ask bots. When the store
        fails meanwhile, the table stays as it was and tries again a little later."""
        try:
            await self._move_on()
        except Exception:
            log.exception("table %s: could not move on", self.state.table_id)
            self._retry_later()

    def _retry_later(self) -> None:
        if self._retry is None:
            self._retry = asyncio.get_running_loop().call_later(
                RETRY_SECONDS, lambda: self.post(Command("drive"))
            )

    async def _move_on(self) -> None:
        state = self.state
        match = state.match
        while state.status == "playing":
            if match.over:
                await self._end()
                break
            if match.needs_deal:
                deck = list(range(52))
                secrets.SystemRandom().shuffle(deck)
                dealer = match.next_dealer()
                if dealer is None:
                    dealer = secrets.randbelow(match.players)
                await self._commit(
                    [("deal", {"dealer": dealer, "deck": [card_text(c) for c in deck]})]
                )
                continue
            break
        if state.status != "playing":
            self.deadlines.clear()
            self._arm_timer()
            await self._publish_deadlines()
            return
        to_act = set(match.to_act())
        for seat in list(self.deadlines):
            if seat not in to_act or not state.seats[seat].human:
                del self.deadlines[seat]
        for seat in sorted(to_act):
            if state.bot_level(seat) is not None:
                if seat not in self.thinking:
                    self.thinking.add(seat)
                    asyncio.get_running_loop().create_task(self._think(seat, state.version))
            elif state.clock_seconds and seat not in self.deadlines:
                used = self._restored_turns.pop(seat, None)
                remaining = state.clock_seconds
                if used is not None:
                    remaining = max(1.0, state.clock_seconds - used)
                self.deadlines[seat] = time.monotonic() + remaining
        self._restored_turns.clear()
        self._arm_timer()
        await self._publish_deadlines()

    async def _publish_deadlines(self) -> None:
        """Clocks start and stop after the state was published: tell everyone the new
        deadlines (table.deadlines) if they changed since."""
        if self.deadlines != self._published_deadlines:
            await self._publish_presence()

    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.deadlines:
            return
        delay = max(0.0, min(self.deadlines.values()) - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(
            delay, lambda: self.post(Command("timeout"))
        )

    async def _think(self, seat: int, version: int) -> None:
        state = self.state
        level = state.bot_level(seat)
        if level is None:
            self.thinking.discard(seat)
            return
        view = view_for(state.match, seat)
        seed = f"{state.table_id}:{version}:{seat}"
        delay = self.hub.bot_delay()
        try:
            if delay:
                await asyncio.sleep(delay)
            action = await self.hub.think(level, view, seed)
        except Exception:
            log.exception("table %s: bot at seat %d failed", state.table_id, seat)
            self.thinking.discard(seat)
            return
        self.post(Command("bot", data={"seat": seat, "action": action}))

    async def _end(self) -> None:
        state = self.state
        match = state.match
        reason = "resigned" if match.resigned is not None else "finished"
        result = {
            "reason": reason,
            "winner": match.winner,
            "scores": list(match.scores),
            "resigned": match.resigned,
        }
        # XP for the humans of the winning side still seated, committed with the end.
        winners = {
            info.player_id: XP_FOR_A_WIN
            for seat, info in enumerate(state.seats)
            if match.winner is not None
            and info.human
            and info.player_id is not None
            and seat % 2 == match.winner
        }
        await self._commit(
            [("end", {"reason": reason})], status="finished", result=result, xp=winners
        )
        for connection in list(self.connections):
            gained = winners.get(connection.player_id or -1)
            if gained:
                await self._send(connection, {"type": "xp", "gained": gained})

    # ---------------------------------------------------------- commit/publish
    async def _commit(
        self,
        entries: list[tuple[str, dict[str, Any]]],
        status: str | None = None,
        result: dict[str, Any] | None = None,
        xp: dict[int, int] | None = None,
    ) -> None:
        state = self.state
        listing = status
        if listing is None and any(kind in ("start", "resume") for kind, _ in entries):
            listing = "playing"
        try:
            await self.hub.commit(state.table_id, state.version + 1, entries, listing, result, xp)
        except TableBehind as behind:
            # An earlier commit failed with an unknown outcome but was stored: adopt what it
            # stored. ``entries`` were made for the table before it: this command fails (a
            # player may act again, a bot or a deal is tried again later).
            await self._adopt(behind.entries)
            raise
        for kind, data in entries:
            state.apply(kind, data)
        await self._publish()

    async def _adopt(self, entries: list[tuple[str, dict[str, Any]]]) -> None:
        """Adopt log entries that are committed already, and show them."""
        for kind, data in entries:
            self.state.apply(kind, data)
        log.warning("table %s: adopted %d stored entries", self.state.table_id, len(entries))
        await self._publish()
        # The failing command will not move the table on from here (bots, deals, clocks).
        self.post(Command("drive"))

    def may_watch(self, player_id: int | None, invite: str | None) -> bool:
        if self.invite is None or (invite is not None and invite == self.invite):
            return True
        return player_id is not None and any(
            seat.player_id == player_id for seat in self.state.seats
        )

    def public_info(self, viewer: int | None) -> dict[str, Any]:
        """The table as everyone sees it: seats, status, clocks. Names no card."""
        you = self.state.seat_of(viewer) if viewer is not None else None
        return {**self._table_info(), "you": you}

    def _table_info(self) -> dict[str, Any]:
        """``public_info`` but ``you``: the same for every connection."""
        state = self.state
        connected = {c.player_id for c in self.connections}
        now = time.monotonic()
        wall = time.time()
        return {
            "id": state.table_id,
            "variant": state.variant,
            "options": state.options,
            "clock": state.clock_seconds,
            "status": state.status,
            "end_reason": state.end_reason,
            "seats": [
                {
                    "seat": index,
                    "nickname": seat.nickname if seat.player_id is not None else None,
                    "kind": "empty" if seat.empty else ("human" if seat.human else "bot"),
                    "bot": seat.bot if not seat.human else None,
                    "replaced": seat.replaced,
                    "connected": seat.human and seat.player_id in connected,
                }
                for index, seat in enumerate(state.seats)
            ],
            "deadlines": {
                str(seat): round((wall + (deadline - now)) * 1000)
                for seat, deadline in self.deadlines.items()
            },
        }

    def _seat(self, connection: Connection) -> int | None:
        player = connection.player_id
        return self.state.seat_of(player) if player is not None else None

    def _state_frame(
        self, table: dict[str, Any], seat: int | None, extra: dict[str, Any] | None = None
    ) -> str:
        """What a connection at ``seat`` (None: a spectator) is sent: the public table with
        its own ``you`` and its own view. Everything depends on the seat alone, so that a
        publish builds and encodes each at most once whoever watches."""
        return frame_text(
            {
                "type": "state",
                **(extra or {}),
                "version": self.state.version,
                "table": {**table, "you": seat},
                "view": view_for(self.state.match, seat).to_json(),
            }
        )

    async def _publish(self) -> None:
        self._published_deadlines = dict(self.deadlines)
        table = self._table_info()
        frames: dict[int | None, str | None] = {}
        for connection in list(self.connections):
            seat = self._seat(connection)
            if seat not in frames:
                frames[seat] = self._built(lambda seat=seat: self._state_frame(table, seat))
            await self._send(connection, frames[seat])

    async def _publish_to(self, connection: Connection, message_id: Any = None) -> None:
        """A state for this connection alone (on connect, or the answer to a snapshot,
        which carries the snapshot's id)."""
        seat = self._seat(connection)
        extra = {} if message_id is None else {"id": message_id}
        frame = self._built(lambda: self._state_frame(self._table_info(), seat, extra))
        await self._send(connection, frame)

    def _built(self, build: Callable[[], str]) -> str | None:
        """A frame's text, or None when it cannot be built (a bug: logged; its receivers
        are closed by ``_send``, the change itself stands and the others are served)."""
        try:
            return build()
        except Exception:
            log.exception("table %s: a frame could not be built", self.state.table_id)
            return None

    async def _publish_presence(self) -> None:
        self._published_deadlines = dict(self.deadlines)
        table = self._table_info()
        version = self.state.version
        frames: dict[int | None, str] = {}
        for connection in list(self.connections):
            seat = self._seat(connection)
            frame = frames.get(seat)
            if frame is None:
                message = {"type": "table", "version": version, "table": {**table, "you": seat}}
                frame = frames[seat] = frame_text(message)
            await self._send(connection, frame)

    async def _send(self, connection: Connection, message: dict[str, Any] | str | None) -> None:
        """Send one frame (None: one that could not be built). A frame that cannot be
        encoded or sent closes that connection with a close code and a log line: the
        player reconnects and gets a fresh state; the table and everyone else go on."""
        try:
            if message is None:
                raise ValueError("no frame")
            await connection.send(message if isinstance(message, str) else frame_text(message))
        except Exception as exc:
            log.warning(
                "table %s: closing a connection of player %s: a frame could not be sent (%s)",
                self.state.table_id,
                connection.player_id,
                printable(repr(exc)),
            )
            self.connections.discard(connection)
            connection.close(CLOSE_SEND_FAILED, "a frame could not be sent")


def restore(
    state: TableState,
    log_entries: list[tuple[str, dict[str, Any], datetime]],
    alive: Sequence[tuple[datetime | None, datetime]] | datetime | None,
) -> dict[int, float]:
    """Replay a table's log into ``state`` and work out, for every human seat still to act,
    how much of its clock it had used while the server was alive: ``alive`` holds the
    (start, last sign of life) of every run of the server (start None: since ever), or just
    the last sign of life. Downtime is not charged, even when a turn spans several runs."""
    if alive is None:
        spans: Sequence[tuple[datetime | None, datetime]] = []
    elif isinstance(alive, datetime):
        spans = [(None, alive)]
    else:
        spans = alive
    since: dict[int, datetime] = {}
    for kind, data, at in log_entries:
        state.apply(kind, data)
        to_act = set(state.match.to_act()) if state.status == "playing" else set()
        for seat in list(since):
            if seat not in to_act:
                del since[seat]
        if kind == "action":
            since.pop(data["seat"], None)  # to act again after acting: a new full clock
        for seat in to_act:
            since.setdefault(seat, at)
    used: dict[int, float] = {}
    for seat, started in since.items():
        used[seat] = 0.0
        for begin, end in spans:
            begin = started if begin is None or begin < started else begin
            if end > begin:
                used[seat] += (end - begin).total_seconds()
    return used
