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
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any, Protocol, assert_never

import orjson
from sqlalchemy.exc import DBAPIError

from whist.core.actions import Action, Resign, action_from_json
from whist.core.errors import WhistError
from whist.core.views import View, view_for
from whist.server.commands import (
    Accept,
    Act,
    Advised,
    BotMoved,
    Command,
    Connect,
    Connection,
    Decline,
    Disconnect,
    Drive,
    Hint,
    Info,
    Keep,
    Leave,
    Question,
    Rematch,
    Sit,
    Snapshot,
    Suspend,
    Timeout,
    Watch,
)
from whist.server.entries import (
    Acted,
    Dealt,
    Declined,
    Ended,
    Entry,
    HintShown,
    Joined,
    Logged,
    Rematched,
    Reserved,
    Resumed,
    SeatLost,
    Started,
    Suspended,
    entry_from_log,
)
from whist.server.limits import printable
from whist.server.progress import XP_FOR_A_WIN
from whist.server.ratings import end_rating, leave_rating
from whist.server.table import Seat, TableState
from whist.server.writer import Fenced, TableBehind
from whist.store.ratings import RatedMatch

log = logging.getLogger("whist.table")

TAKEOVER_BOT = "medium"  # the bot that takes a seat over from a player who left or timed out
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


def seat_kind(seat: Seat) -> str:
    """A seat as the table info names it (``reserved``: empty, kept for a rematch's player)."""
    if seat.empty:
        return "empty" if seat.reserved_for is None else "reserved"
    return "human" if seat.human else "bot"


class Hub(Protocol):
    """What an actor needs from the server around it."""

    async def commit(
        self,
        table_id: str,
        seq: int,
        entries: list[Logged],
        status: str | None,
        result: dict[str, Any] | None,
        xp: dict[int, int] | None = None,
        rating: RatedMatch | None = None,
    ) -> None: ...

    async def think(self, level: str, view: Any, seed: str) -> dict[str, Any]: ...

    async def advise(self, view: Any, seed: str) -> dict[str, Any]: ...

    def clock_seconds(self) -> float: ...

    def forget(self, table_id: str) -> None: ...

    def bot_delay(self) -> float: ...

    async def create_table(
        self,
        host_id: int,
        variant: str,
        options: dict[str, Any],
        clock: bool,
        private: bool,
        bots: dict[int, str],
        hints: bool = False,
    ) -> TableActor: ...


CLOSE_SEND_FAILED = 1011  # docs/protocol.md: the server could not encode or send a frame


class Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        message = printable(message)  # it may quote what a client sent
        super().__init__(message)
        self.code = code
        self.message = message


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
        # Each command with the future its answer goes to (None: nobody waits for one).
        self.inbox: asyncio.Queue[tuple[Command, asyncio.Future[Any] | None]] = asyncio.Queue()
        self.connections: set[Connection] = set()
        # Clock: seat -> monotonic deadline, for human seats to act on a table with a clock.
        self.deadlines: dict[int, float] = {}
        self._published_deadlines: dict[int, float] = {}  # what every client was last sent
        # After a restart: seconds of its clock each seat to act had used before the stop.
        self._restored_turns = clock_used or {}
        self.thinking: set[int] = set()  # seats whose bot move is being computed
        self.hinting: set[int] = set()  # seats whose hint is being worked out
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

    async def ask(self, question: Question) -> Any:
        """Ask the table and wait for its answer (raises ``Refused``)."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await self.inbox.put((question, future))
        return await future

    def post(self, command: Command) -> None:
        self.inbox.put_nowait((command, None))

    @property
    def table_id(self) -> str:
        return self.state.table_id

    @property
    def version(self) -> int:
        return self.state.version

    async def _run(self) -> None:
        await self._drive()
        while True:
            command, reply = await self.inbox.get()
            what = type(command).__name__  # for the log
            try:
                result = await self._handle(command)
            except Refused as refused:
                if reply is not None and not reply.done():
                    reply.set_exception(refused)
                elif isinstance(command, Act):
                    await self._refuse(command, refused.code, refused.message)
                elif isinstance(command, Hint | Advised):
                    await self._refuse_hint(command, refused.code, refused.message)
                continue
            except Fenced:
                # Another node runs the table now (the club drops it here): the sockets
                # follow it there and re-send their unanswered acts, so this one is not
                # answered; a request is asked again where the table runs.
                log.warning("table %s: %s not stored: fenced off", self.table_id, what)
                if reply is not None and not reply.done():
                    message = "the table is moving to another server: try again"
                    reply.set_exception(Refused(UNAVAILABLE, message))
                continue
            except Exception as exc:  # a bug must not kill the table: log it, keep serving
                code, message = failure(exc)
                if isinstance(exc, TableBehind):  # not a bug: healed by _adopt already
                    log.warning("table %s: %s refused: %s", self.table_id, what, exc)
                elif code == "unavailable":
                    log.error("table %s: %s failed: %s", self.table_id, what, exc)
                else:
                    log.exception("table %s: command %s failed", self.table_id, what)
                if reply is not None and not reply.done():
                    reply.set_exception(Refused(code, message))
                elif isinstance(command, Act):
                    await self._refuse(command, code, message)  # every act gets an answer
                elif isinstance(command, Hint | Advised):
                    await self._refuse_hint(command, code, message)
                continue
            if reply is not None and not reply.done():
                reply.set_result(result)

    async def _refuse(self, act: Act, code: str, message: str) -> None:
        """The error frame answering an act (the client waits for an ack or an error)."""
        frame = {
            "type": "error",
            "id": act.id,
            "code": code,
            "message": message,
            "version": self.state.version,
        }
        await self._send(act.connection, frame)

    # --------------------------------------------------------------- commands
    async def _handle(self, command: Command) -> Any:
        """Every command is decided here, one at a time."""
        match command:
            case Connect(connection):
                return await self._connect(connection)
            case Disconnect(connection):
                return await self._disconnect(connection)
            case Snapshot(connection, message_id):
                return await self._publish_to(connection, message_id)
            case Act():
                return await self._act(command)
            case Hint():
                return self._hint(command)
            case Advised():
                return await self._advised(command)
            case Sit(player_id, seat, nickname):
                return await self._sit(player_id, seat, nickname)
            case Leave(player_id):
                return await self._leave(player_id)
            case Suspend(player_id):
                return await self._suspend(player_id)
            case Watch(player_id, invite):
                return self.may_watch(player_id, invite)
            case Info():
                return self.public_info(None)
            case Rematch(player_id):
                return await self._rematch(player_id)
            case Keep(seats):
                return await self._keep(seats)
            case Accept(player_id, nickname):
                return await self._accept(player_id, nickname)
            case Decline(player_id):
                return await self._decline(player_id)
            case BotMoved(seat, action):
                return await self._bot_moved(seat, action)
            case Timeout():
                return await self._timeout()
            case Drive():
                self._retry = None
                return await self._drive()
            case _:
                assert_never(command)  # mypy: every command has its case

    async def _connect(self, connection: Connection) -> None:
        self.connections.add(connection)
        if self.state.status == "suspended" and connection.player_id in self.state.humans():
            try:
                await self._commit([Resumed()])
            except Exception:  # still suspended: the next connection tries again
                log.exception("table %s: could not resume", self.state.table_id)
            else:
                # Bots whose moves were dropped think again; clocks restart.
                await self._drive()
        await self._publish_to(connection)
        await self._publish_presence()

    async def _disconnect(self, connection: Connection) -> None:
        self.connections.discard(connection)
        await self._publish_presence()
        if self.state.status in ("finished", "abandoned") and not self.connections:
            # Nobody watches an ended table: it lives on in the store (my games).
            self.hub.forget(self.state.table_id)

    async def _act(self, command: Act) -> dict[str, Any]:
        connection = command.connection
        message_id = command.id
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
        action_json = command.action
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
        # The message id is logged with the action (TableState.acked): never applied twice.
        await self._commit([Acted(action, message_id if isinstance(message_id, str) else None)])
        await self._send(connection, {"type": "ack", "id": message_id, "version": state.version})
        self.deadlines.pop(seat, None)  # to act again (it won the trick): a new full clock
        await self._drive()
        return {"version": state.version}

    # ------------------------------------------------------------------ hints
    def _hint_seat(self, player_id: int | None, turn: bool = True) -> int:
        """The seat a hint may be given for now, or the refusal saying why not (``turn``:
        also that the seat has a decision to make). Nothing changes here: a refused hint
        leaves the table as it was."""
        state = self.state
        seat = state.seat_of(player_id) if player_id is not None else None
        if seat is None:
            raise Refused("not_seated", "you have no seat at this table")
        if not state.hints_allowed:
            raise Refused("hints_off", "the host did not allow hints at this table")
        if not state.hints_open():
            raise Refused(
                "not_alone", "hints are given only while you are the only person at the table"
            )
        if state.status != "playing" or state.match.over:
            raise Refused("wrong_phase", f"the table is {state.status}")
        if turn and not state.match.legal_actions(seat):
            raise Refused("not_your_turn", "a hint is for a decision of yours: wait for your turn")
        return seat

    def _hint(self, hint: Hint) -> None:
        """A hint is asked for: MASTER thinks about the seat's own view in a worker
        (``Hub.advise``), never here, so a slow hint delays nothing at the table; the advice
        comes back into the inbox (``Advised``)."""
        seat = self._hint_seat(hint.connection.player_id)
        if seat in self.hinting:
            raise Refused("hint_pending", "a hint is being worked out already")
        self.hinting.add(seat)
        view = view_for(self.state.match, seat)  # what the seat may see, and no more
        seed = f"{self.state.table_id}:{self.state.version}:{seat}:hint"
        asyncio.get_running_loop().create_task(self._advise(hint, seat, view, seed))

    async def _advise(self, hint: Hint, seat: int, view: View, seed: str) -> None:
        try:
            advice = await self.hub.advise(view, seed)
        except Exception as exc:
            log.warning("table %s: no hint for seat %d: %r", self.table_id, seat, exc)
            failed = (UNAVAILABLE, "no hint could be worked out just now: try again")
            self.post(Advised(hint, seat, view, None, failed))
            return
        self.post(Advised(hint, seat, view, advice))

    async def _advised(self, advised: Advised) -> None:
        """Answer a hint: only for the position it was asked about and while hints are
        still allowed; the first hint of the match is logged before it is sent."""
        self.hinting.discard(advised.seat)
        if advised.hint.connection not in self.connections:
            return  # the asker's socket is gone: nothing is shown, so nothing is logged
        if advised.failure is not None:
            raise Refused(*advised.failure)
        # The same view (but for others' secret choices locked meanwhile): the same
        # decision to make (its legal actions are in it).
        seat = self._hint_seat(advised.hint.connection.player_id, turn=False)
        if seat != advised.seat or not advised.view.same_decision(view_for(self.state.match, seat)):
            raise Refused("position_changed", "the position changed: ask again")
        if not self.state.hints_shown:
            await self._commit([HintShown(seat)])  # saved, then shown: the match is unrated
        assert advised.advice is not None
        frame = {
            "type": "hint",
            "id": advised.hint.id,
            "version": self.state.version,
            "action": advised.advice["action"],
            "estimate": advised.advice["estimate"],
        }
        await self._send(advised.hint.connection, frame)

    async def _refuse_hint(self, command: Hint | Advised, code: str, message: str) -> None:
        """A hint's refusal: a ``hint`` frame with the code and message instead of advice
        (error frames answer acts)."""
        hint = command if isinstance(command, Hint) else command.hint
        frame = {
            "type": "hint",
            "id": hint.id,
            "version": self.state.version,
            "code": code,
            "message": message,
        }
        await self._send(hint.connection, frame)

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

    async def _sit(
        self, player_id: int | None, wanted: int | None, nickname: str
    ) -> dict[str, Any]:
        state = self.state
        if player_id is None:
            raise Refused("not_signed_in", "sign in first")
        if state.status != "open":
            raise Refused("wrong_phase", "the match has started")
        if state.seat_of(player_id) is not None:
            return {"seat": state.seat_of(player_id)}
        free = state.open_to(player_id)  # seats a rematch keeps for others are not
        kept = state.kept_for(player_id)
        if wanted is None:
            if not free:
                raise Refused("table_full", "no free seat")
            wanted = free[0] if kept is None else kept
        if not isinstance(wanted, int) or wanted not in free:
            raise Refused("seat_taken", "that seat is not free")
        if kept is not None and wanted != kept:
            raise Refused("seat_taken", f"seat {kept} is kept for you: sit there")
        entries: list[Entry] = [Joined(wanted, player_id, nickname)]
        if sum(seat.empty for seat in state.seats) == 1:
            entries.append(Started())
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
        entries: list[Entry] = [SeatLost(seat, "leave", TAKEOVER_BOT, player_id)]
        # Leaving a match under way is rated as a loss, stored with the leave.
        rating = leave_rating(state, seat)
        status = None
        if state.status in ("playing", "suspended") and state.humans() == [player_id]:
            # The last human leaves: the table ends without a result.
            entries.append(Ended("abandoned"))
            status = "abandoned"
        await self._commit(entries, status=status, rating=rating)
        await self._drive()
        return {"left": seat}

    # ---------------------------------------------------------------- rematch
    async def _rematch(self, player_id: int | None) -> dict[str, Any]:
        """A new table like this finished one, made once: a second ask answers the same
        table. Every human's seat there is kept for them; the others are asked on this
        table's sockets (a ``rematch`` frame)."""
        state = self.state
        seat = state.seat_of(player_id) if player_id is not None else None
        if player_id is None or seat is None:
            raise Refused("not_seated", "you had no seat at this table")
        if state.status != "finished":
            raise Refused("wrong_phase", "the match is not finished")
        if state.rematch is None:
            # A seat whose human left or timed out keeps the bot that took it over.
            bots = {
                i: info.bot for i, info in enumerate(state.seats) if info.bot and not info.human
            }
            table = await self.hub.create_table(
                player_id,
                state.variant,
                state.options,
                state.clock_seconds is not None,
                self.invite is not None,
                bots,
                state.hints_allowed,
            )
            humans = {
                i: (info.player_id, info.nickname)
                for i, info in enumerate(state.seats)
                if info.human and info.player_id is not None
            }
            await table.ask(Keep(humans))
            await self._commit([Rematched(table.table_id, seat)])
            frame = {"type": "rematch", "table": table.table_id, "by": seat}
            for connection in list(self.connections):
                await self._send(connection, frame)
        assert state.rematch is not None  # made above, or before
        return {"table": state.rematch.table, "seat": seat}

    async def _keep(self, seats: dict[int, tuple[int, str]]) -> None:
        state = self.state
        if state.status != "open" or any(not state.seats[s].empty for s in seats):
            raise Refused("wrong_phase", "only empty seats of an open table can be kept")
        await self._commit([Reserved(s, player, name) for s, (player, name) in seats.items()])

    async def _accept(self, player_id: int | None, nickname: str) -> dict[str, Any]:
        state = self.state
        if player_id is not None and state.seat_of(player_id) is not None:
            return {"seat": state.seat_of(player_id)}  # accepted already
        kept = state.kept_for(player_id) if player_id is not None else None
        if kept is None:
            raise Refused("not_seated", "no seat at this table is kept for you")
        return await self._sit(player_id, kept, nickname)

    async def _decline(self, player_id: int | None) -> dict[str, Any]:
        kept = self.state.kept_for(player_id) if player_id is not None else None
        if player_id is None or kept is None:
            raise Refused("not_seated", "no seat at this table is kept for you")
        await self._commit([Declined(kept, player_id)])
        return {"declined": kept}

    async def _suspend(self, player_id: int | None) -> dict[str, Any]:
        state = self.state
        if player_id is None or state.seat_of(player_id) is None:
            raise Refused("not_seated", "you have no seat at this table")
        if state.status != "playing":
            raise Refused("wrong_phase", f"the table is {state.status}")
        if state.humans() != [player_id]:
            raise Refused("not_alone", "only a match against bots can be saved and left")
        await self._commit([Suspended()], status="suspended")
        await self._drive()  # stops the clocks: a saved match is not timed
        return {"suspended": True}

    async def _bot_moved(self, seat: int, action_json: dict[str, Any]) -> None:
        self.thinking.discard(seat)
        state = self.state
        if state.status != "playing" or state.bot_level(seat) is None:
            return
        try:
            action = action_from_json({**action_json, "seat": seat})
            self._validate(action)
        except (Refused, WhistError, ValueError):
            await self._drive()  # stale (the position moved on): think again if needed
            return
        try:
            await self._commit([Acted(action)])
        except Exception:
            log.exception("table %s: bot move not stored", state.table_id)
            self._retry_later()  # the bot thinks again then
            return
        await self._drive()

    async def _timeout(self) -> None:
        self._timer = None
        now = time.monotonic()
        expired = {seat: d for seat, d in self.deadlines.items() if d <= now}
        entries: list[Entry] = []
        for seat in expired:
            del self.deadlines[seat]
            info = self.state.seats[seat]
            if info.human:
                entries.append(SeatLost(seat, "timeout", TAKEOVER_BOT, info.player_id))
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
                RETRY_SECONDS, lambda: self.post(Drive())
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
                await self._commit([Dealt(dealer, tuple(deck))])
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
        self._timer = asyncio.get_running_loop().call_later(delay, lambda: self.post(Timeout()))

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
        self.post(BotMoved(seat, action))

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
        # The ratings it moves, in the same transaction (server/ratings.py: the rules).
        rating = end_rating(state)
        await self._commit(
            [Ended(reason)], status="finished", result=result, xp=winners, rating=rating
        )
        for connection in list(self.connections):
            gained = winners.get(connection.player_id or -1)
            if gained:
                await self._send(connection, {"type": "xp", "gained": gained})

    # ---------------------------------------------------------- commit/publish
    async def _commit(
        self,
        entries: list[Entry],
        status: str | None = None,
        result: dict[str, Any] | None = None,
        xp: dict[int, int] | None = None,
        rating: RatedMatch | None = None,
    ) -> None:
        state = self.state
        listing = status
        if listing is None and any(isinstance(e, Started | Resumed) for e in entries):
            listing = "playing"
        logged = [entry.log() for entry in entries]
        try:
            await self.hub.commit(
                state.table_id, state.version + 1, logged, listing, result, xp, rating
            )
        except TableBehind as behind:
            # An earlier commit failed with an unknown outcome but was stored: adopt what it
            # stored. ``entries`` were made for the table before it: this command fails (a
            # player may act again, a bot or a deal is tried again later).
            await self._adopt(behind.entries)
            raise
        for entry in entries:
            state.apply(entry)
        await self._publish()

    async def _adopt(self, logged: list[Logged]) -> None:
        """Adopt log entries that are committed already, and show them."""
        self.state.replay(logged)
        log.warning("table %s: adopted %d stored entries", self.state.table_id, len(logged))
        await self._publish()
        # The failing command will not move the table on from here (bots, deals, clocks).
        self.post(Drive())

    @property
    def listed(self) -> bool:
        """The lobby lists this table: open and public."""
        return self.state.status == "open" and self.invite is None

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
                    "nickname": (
                        seat.nickname
                        if seat.player_id is not None or seat.reserved_for is not None
                        else None
                    ),
                    "kind": seat_kind(seat),
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
            "rematch": (
                {"table": state.rematch.table, "by": state.rematch.by} if state.rematch else None
            ),
            # Hints (issue 20): allowed by the host; open now (one human seated: the seated
            # player may ask); shown at least once (the match is not rated).
            "hints": {
                "allowed": state.hints_allowed,
                "open": state.hints_open(),
                "shown": state.hints_shown,
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
                frames[seat] = self._built(partial(self._state_frame, table, seat))
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
        entry = entry_from_log(kind, data)
        state.apply(entry)
        to_act = set(state.match.to_act()) if state.status == "playing" else set()
        for seat in list(since):
            if seat not in to_act:
                del since[seat]
        if isinstance(entry, Acted):  # to act again after acting: a new full clock
            since.pop(entry.action.seat, None)
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
