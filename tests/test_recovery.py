"""Issue point 9, "It never loses a game", against a real ``whist serve`` process.

The server is stopped (SIGTERM) or killed (SIGKILL) in the middle of a deal and started
again on the same data, on SQLite and on PostgreSQL: every table comes back from its log,
clocks resume without charging the downtime, clients reconnect and carry on, and no
acknowledged action is lost.

PostgreSQL: a fresh database is created for every test on the server named by
``WHIST_TEST_POSTGRES_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``, trust
auth) and dropped afterwards; those tests are skipped only when that server is unreachable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from whist.core.cards import card_text
from whist.server.actor import restore
from whist.server.bots import exit_with_parent
from whist.server.deps import COOKIE
from whist.server.progress import XP_FOR_A_WIN
from whist.server.table import TableState

POSTGRES_ADMIN_URL = os.environ.get(
    "WHIST_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
START_TIMEOUT = 30.0  # seconds for a server to answer HTTP
WAIT = 15.0  # seconds any single wait for a frame may take
EASY_BOTS = {"1": "easy", "2": "easy", "3": "easy"}


# ------------------------------------------------------------------------ the process
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One ``whist serve`` on a data directory (and maybe a PostgreSQL database), which can
    be stopped, killed and started again on the same data and port."""

    def __init__(self, root: Path, database_url: str, settings: dict[str, str]) -> None:
        self.root = root
        self.data_dir = root / "data"
        self.log_path = root / "server.log"
        root.mkdir(parents=True, exist_ok=True)
        # Only what this test sets: a WHIST_* variable of the environment must not leak in.
        env = {key: value for key, value in os.environ.items() if not key.startswith("WHIST_")}
        env.update(
            {
                "PYTHONUNBUFFERED": "1",
                "WHIST_BOT_WORKERS": "0",  # bots think in threads: nothing outlives a SIGKILL
                "WHIST_BOT_BUDGET": "0.05",
                "WHIST_RATE_LIMIT_PER_SECOND": "1000",
                "WHIST_RATE_LIMIT_BURST": "1000",
            }
        )
        if database_url:
            env["WHIST_DATABASE_URL"] = database_url
        env.update(settings)
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.sockets: list[Socket] = []
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.process is None, "already running"
        for _attempt in range(3):
            self.starts += 1
            with self.log_path.open("ab") as log:
                log.write(f"----- start {self.starts} on port {self.port}\n".encode())
                log.flush()
                self.process = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "whist.cli",
                        "serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(self.port),
                        "--data-dir",
                        str(self.data_dir),
                    ],
                    cwd=self.root,
                    env=self.env,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    preexec_fn=exit_with_parent,  # a killed run leaves no server
                )
            if self._wait_ready():
                return
            # The port was taken meanwhile by someone else: try another one.
            self.port = free_port()
        raise AssertionError(f"the server would not start:\n{self.log_tail()}")

    def _wait_ready(self) -> bool:
        process = self.process
        assert process is not None
        deadline = time.monotonic() + START_TIMEOUT
        with httpx2.Client(base_url=self.url, timeout=1.0, trust_env=False) as client:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    self.process = None
                    if "address already in use" in self.log_tail().lower():
                        return False
                    raise AssertionError(
                        f"the server exited ({process.returncode}) while starting:\n"
                        + self.log_tail()
                    )
                try:
                    if client.get("/api/tables").status_code == 200:
                        return True
                except httpx2.HTTPError:
                    pass
                time.sleep(0.05)
        self.kill()
        raise AssertionError(
            f"the server did not answer within {START_TIMEOUT} s:\n{self.log_tail()}"
        )

    def stop(self) -> None:
        """Graceful stop: SIGTERM, as a service manager does."""
        process = self.process
        assert process is not None
        process.send_signal(signal.SIGTERM)
        try:
            code = process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"SIGTERM did not stop the server:\n{self.log_tail()}") from None
        self.process = None
        # uvicorn shuts down, then re-raises the signal: -SIGTERM is a clean exit too.
        assert code in (0, -signal.SIGTERM), f"exit {code} on SIGTERM:\n{self.log_tail()}"
        last_run = self.log_path.read_text(errors="replace").rsplit("----- start", 1)[-1]
        assert "Application shutdown complete" in last_run, self.log_tail()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        process = self.process
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        process.wait(timeout=20)
        self.process = None

    def close(self) -> None:
        for ws in self.sockets:
            ws.close()
        self.kill()

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])


# ------------------------------------------------------------------------ the clients
class Guest:
    """A guest player: the session cookie, HTTP calls and table sockets."""

    def __init__(self, server: Server, nickname: str) -> None:
        self.server = server
        with httpx2.Client(base_url=server.url, timeout=10.0, trust_env=False) as client:
            response = client.post("/api/guest", json={"nickname": nickname})
        assert response.status_code == 200, response.text
        self.token = response.cookies[COOKIE]
        self.id = response.json()["id"]

    def request(self, method: str, path: str, body: Any = None) -> Any:
        with httpx2.Client(
            base_url=self.server.url, cookies={COOKIE: self.token}, timeout=10.0, trust_env=False
        ) as client:
            response = client.request(method, path, json=body)
        assert response.status_code == 200, f"{method} {path}: {response.text}"
        return response.json()

    def create(
        self, variant: str, options: dict[str, Any], clock: bool, bots: dict[str, str]
    ) -> str:
        body = {"variant": variant, "options": options, "clock": clock, "bots": bots}
        return str(self.request("POST", "/api/tables", body)["id"])

    def join(self, table_id: str, seat: int) -> None:
        assert self.request("POST", f"/api/tables/{table_id}/join", {"seat": seat})["you"] == seat

    def xp(self) -> int:
        return int(self.request("GET", "/api/me")["xp"])

    def socket(self, table_id: str, seat: int) -> Socket:
        ws = Socket(self.server, self.token, table_id, seat)
        self.server.sockets.append(ws)
        return ws


@dataclass(frozen=True)
class Acked:
    """An action the server acknowledged."""

    table_id: str
    seat: int
    deal: int
    action: dict[str, Any]
    version: int


class Socket:
    """A table's WebSocket for one seat: the newest state, acks, errors and XP frames."""

    def __init__(self, server: Server, token: str, table_id: str, seat: int) -> None:
        self.table_id = table_id
        self.seat = seat
        self.ws: ClientConnection = connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
            additional_headers={"Cookie": f"{COOKIE}={token}"},
            open_timeout=10,
            close_timeout=1,
            ping_interval=None,
            proxy=None,
            legacy=True,
        )
        self.state: dict[str, Any] = {}
        self.table: dict[str, Any] = {}
        self.table_at = 0.0  # time.time() when ``table`` arrived
        self.acks: dict[str, int] = {}
        self.errors: dict[str, dict[str, Any]] = {}
        self.xp_gained = 0
        self.closed = False
        self.wait(lambda: bool(self.state), "the first state")

    @property
    def version(self) -> int:
        return int(self.state["version"])

    @property
    def view(self) -> dict[str, Any]:
        return self.state["view"]  # type: ignore[no-any-return]

    def _read(self, deadline: float) -> None:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise TimeoutError
        frame = json.loads(self.ws.recv(timeout=timeout))
        kind = frame["type"]
        if kind == "state":
            if self.state:
                assert frame["version"] >= self.version, "versions go back"
            self.state = frame
            self.table, self.table_at = frame["table"], time.time()
        elif kind == "table":
            if frame["version"] >= self.state.get("version", 0):
                self.table, self.table_at = frame["table"], time.time()
        elif kind == "ack":
            self.acks[frame["id"]] = frame["version"]
        elif kind == "error":
            self.errors[str(frame.get("id"))] = frame
        elif kind == "xp":
            self.xp_gained += frame["gained"]

    def wait(self, done: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            try:
                self._read(deadline)
            except TimeoutError:
                raise AssertionError(
                    f"seat {self.seat}: no {what} within {timeout} s (version "
                    f"{self.state.get('version')}, table {self.table.get('status')})"
                ) from None

    def my_turn(self) -> bool:
        view = self.view
        return not view["over"] and self.seat in view["to_act"] and bool(view["legal"])

    def act(self, action: dict[str, Any]) -> Acked:
        """Send one action, wait for its ack (an error fails the test)."""
        deal = self.view["deal"]
        action = {key: value for key, value in action.items() if key != "seat"}
        message_id = uuid.uuid4().hex
        self.ws.send(json.dumps({"type": "act", "id": message_id, "action": action}))
        self.wait(lambda: message_id in self.acks or message_id in self.errors, f"ack of {action}")
        assert message_id not in self.errors, f"{action} refused: {self.errors[message_id]}"
        version = self.acks[message_id]
        self.wait(lambda: self.version >= version, f"state of version {version}")
        return Acked(self.table_id, self.seat, deal, action, version)

    def drain(self) -> None:
        """After the server went away: read what it sent before, until the socket closes."""
        deadline = time.monotonic() + WAIT
        try:
            while True:
                self._read(deadline)
        except ConnectionClosed:
            pass
        except TimeoutError:
            raise AssertionError(f"seat {self.seat}: the socket stayed open") from None
        finally:
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(Exception):
                self.ws.close()


# ----------------------------------------------------------------------------- checks
def cards_played(view: dict[str, Any]) -> list[tuple[int, str]]:
    """(seat, card) of every card played in the current deal, in order."""
    players = len(view["hand_sizes"])
    played = [
        ((trick["leader"] + i) % players, card)
        for trick in view["tricks"]
        for i, card in enumerate(trick["cards"])
    ]
    if view["trick"]:
        played += [((view["leader"] + i) % players, c) for i, c in enumerate(view["trick"])]
    return played


def assert_present(view: dict[str, Any], acked: Acked) -> None:
    """The acknowledged action is part of this (restored) view of its seat."""
    assert view["seat"] == acked.seat
    assert view["deal"] is not None and view["deal"] >= acked.deal, f"{acked} lost: no deal"
    if view["deal"] > acked.deal:
        return  # its deal is over (and in the history)
    if "play" in acked.action:
        card = acked.action["play"]
        assert (acked.seat, card) in cards_played(view), f"{acked} lost: {view['tricks']}"
        assert card not in view["hand"], f"{acked} lost: the card is back in the hand"
    elif "bid" in acked.action:
        assert view["phase"] != "bid" or acked.seat in view["decided"], f"{acked} lost"
        for shown in view["revealed"]:
            if shown["seat"] == acked.seat:
                assert shown["choice"] == acked.action["bid"], f"{acked} lost: {shown}"
    else:
        raise AssertionError(f"no check for {acked.action}")


def assert_moved_on_by_bots_only(before: dict[str, Any], after: dict[str, Any]) -> None:
    """``after`` (a human's state after the restart) is ``before`` (the last state that
    human saw before the stop), or later by bots' moves only: the human has not moved."""
    assert after["version"] >= before["version"], "the table went back in time"
    old, new = before["view"], after["view"]
    if after["version"] == before["version"]:
        assert new == old
        return
    for key in ("seat", "deal", "dealer", "hand", "history", "scores", "contract"):
        assert new[key] == old[key], f"{key}: {old[key]} -> {new[key]}"
    old_cards, new_cards = cards_played(old), cards_played(new)
    assert new_cards[: len(old_cards)] == old_cards, "the tricks changed"
    assert all(seat != new["seat"] for seat, _ in new_cards[len(old_cards) :]), (
        "cards of the human appeared"
    )


def assert_same_table(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Seats and status of a table survive (who is connected may differ)."""

    def strip(table: dict[str, Any]) -> dict[str, Any]:
        seats = [{k: v for k, v in seat.items() if k != "connected"} for seat in table["seats"]]
        return {**table, "seats": seats, "deadlines": None}

    assert strip(after) == strip(before)


def sync(sockets: list[Socket]) -> int:
    """Wait until every socket has seen the newest version any of them has seen."""
    newest = max(ws.version for ws in sockets)
    for ws in sockets:
        ws.wait(lambda ws=ws: ws.version >= newest, f"version {newest}")
    return newest


def play(
    sockets: list[Socket], rng: random.Random, actions: int | None, timeout: float = 60.0
) -> list[Acked]:
    """The humans play on (random legal actions, whoever's turn it is): ``actions`` of them,
    or (None) until the table is finished."""
    deadline = time.monotonic() + timeout
    acked: list[Acked] = []
    while actions is None or len(acked) < actions:
        assert time.monotonic() < deadline, "the humans did not get to play in time"
        newest = sync(sockets)
        if sockets[0].table["status"] != "playing":
            assert actions is None, "the match ended early"
            break
        mover = next((ws for ws in sockets if ws.my_turn()), None)
        if mover is not None:
            acked.append(mover.act(rng.choice(mover.view["legal"])))
            continue
        # Bots to move, or the end of the match to be written: wait for the next version.
        first = sockets[0]
        first.wait(lambda f=first, n=newest: f.version > n, "move of a bot or the end")
    if actions is None:
        for ws in sockets:
            ws.wait(lambda ws=ws: ws.table["status"] == "finished", "finished table")
            assert ws.view["over"]
    return acked


def assert_result(guests: dict[int, tuple[Guest, Socket]], table_id: str) -> None:
    """The finished match: its listing, and XP for the humans of the winning side only."""
    guest, ws = next(iter(guests.values()))
    info = guest.request("GET", f"/api/tables/{table_id}")
    assert info["status"] == "finished" and info["end_reason"] == "finished", info
    winner = ws.view["winner"]
    assert winner in (0, 1), ws.view
    for seat, (guest, ws) in guests.items():
        if seat % 2 == winner:
            ws.wait(lambda ws=ws: ws.xp_gained == XP_FOR_A_WIN, "XP frame")
            assert guest.xp() == XP_FOR_A_WIN
        else:
            assert ws.xp_gained == 0
            assert guest.xp() == 0


# ---------------------------------------------------------------------------- fixtures
def postgres_database() -> Iterator[str]:
    psycopg = pytest.importorskip("psycopg")
    try:
        admin = psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL unreachable at {POSTGRES_ADMIN_URL}: {exc}")
    name = f"whist_test_{uuid.uuid4().hex[:12]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlsplit(POSTGRES_ADMIN_URL)._replace(path=f"/{name}").geturl()
    finally:
        with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True, connect_timeout=3) as admin:
            try:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            except psycopg.errors.SyntaxError:  # before PostgreSQL 13 (servers are gone)
                admin.execute(f'DROP DATABASE IF EXISTS "{name}"')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """Empty for SQLite in the data directory, else a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield ""
    else:
        yield from postgres_database()


@pytest.fixture
def launch(database_url: str, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start a server (``WHIST_*`` settings as keywords); always killed at teardown."""
    servers: list[Server] = []

    def launch(**settings: str) -> Server:
        server = Server(tmp_path / f"server{len(servers)}", database_url, settings)
        servers.append(server)
        server.start()
        return server

    yield launch
    for server in servers:
        server.close()
        print(f"--- log of {server.root}:\n{server.log_tail()}")  # shown when a test fails


# ------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("how", ["sigkill", "sigterm"])
def test_tables_come_back_mid_deal(launch: Callable[..., Server], how: str) -> None:
    """A table against bots and a table of two people, stopped mid-deal right after an ack:
    both come back from their logs, the clients reconnect and play the match to its end."""
    rng = random.Random(9)
    server = launch()
    ann, bob, cid = Guest(server, "Ann"), Guest(server, "Bob"), Guest(server, "Cid")
    minnesota = ann.create("minnesota", {"target": 1}, False, EASY_BOTS)
    german = bob.create("german", {"match": "single"}, False, {})
    cid.join(german, 1)

    def sockets() -> dict[tuple[str, int], Socket]:
        return {
            (minnesota, 0): ann.socket(minnesota, 0),
            (german, 0): bob.socket(german, 0),
            (german, 1): cid.socket(german, 1),
        }

    socks = sockets()
    # German: both seats play (stage 1: follow suit, take from the stock).
    acked = play([socks[german, 0], socks[german, 1]], rng, 7)
    # Minnesota: the bid and three cards, bots playing in between.
    acked += play([socks[minnesota, 0]], rng, 4)
    last = acked[-1].version
    # The other German seat has seen everything too (no bots there: nothing else moves).
    sync([socks[german, 0], socks[german, 1]])

    if how == "sigkill":
        server.kill()
    else:
        server.stop()
    for ws in socks.values():
        ws.drain()  # the last frames the server sent before it went away
    assert socks[minnesota, 0].version >= last
    before = {key: ws.state for key, ws in socks.items()}
    assert not before[minnesota, 0]["view"]["over"] and not before[german, 0]["view"]["over"]

    server.start()
    assert ann.request("GET", f"/api/tables/{minnesota}")["status"] == "playing"
    assert bob.request("GET", f"/api/tables/{german}")["status"] == "playing"
    socks = sockets()
    for key, ws in socks.items():
        for action in acked:
            if (action.table_id, action.seat) == key:
                assert_present(ws.view, action)
        assert_same_table(before[key]["table"], ws.table)
        assert ws.table["seats"][key[1]]["connected"]
        if key[0] == german:  # nobody could move: exactly where it was
            assert ws.state["version"] == before[key]["version"]
            assert ws.view == before[key]["view"]
        else:
            assert_moved_on_by_bots_only(before[key], ws.state)

    play([socks[minnesota, 0]], rng, None)
    play([socks[german, 0], socks[german, 1]], rng, None)
    assert_result({0: (ann, socks[minnesota, 0])}, minnesota)
    assert_result({0: (bob, socks[german, 0]), 1: (cid, socks[german, 1])}, german)


def test_no_acknowledged_action_lost(launch: Callable[..., Server]) -> None:
    """SIGKILL at once after each ack, several times over: every acked action is there, and
    so is everything else the client was sent (bots' moves): it was all committed first."""
    rng = random.Random(99)
    server = launch()
    ann = Guest(server, "Ann")
    table = ann.create("minnesota", {"target": 1}, False, EASY_BOTS)
    ws = ann.socket(table, 0)
    acked: list[Acked] = []
    for _ in range(5):
        acked += play([ws], rng, 1)
        server.kill()
        ws.drain()
        before = ws.state
        server.start()
        ws = ann.socket(table, 0)
        assert ws.version >= acked[-1].version
        for action in acked:
            assert_present(ws.view, action)
        assert_moved_on_by_bots_only(before, ws.state)
    play([ws], rng, None)
    assert_result({0: (ann, ws)}, table)


CLOCK = 3.0  # seconds: the per-move clock of this test
DOWNTIME = CLOCK + 1.0  # longer than the whole clock
HEARTBEAT = 2.0  # the server's default: how stale "last seen alive" may be after a SIGKILL


def test_clocks_resume_without_charging_downtime(launch: Callable[..., Server]) -> None:
    """Killed on a human's turn and down for longer than the clock, twice in a row: the seat
    is still the human's, with the time it had left (the server's uptime is charged, the
    downtime is not); then, the human doing nothing, a bot takes over when that runs out."""
    server = launch(WHIST_CLOCK_SECONDS=str(CLOCK), WHIST_HEARTBEAT_SECONDS=str(HEARTBEAT))
    ann = Guest(server, "Ann")
    table = ann.create("minnesota", {"target": 1}, True, EASY_BOTS)
    ws = ann.socket(table, 0)
    ws.wait(lambda: ws.my_turn() and "0" in ws.table["deadlines"], "clock")
    for restart in (1, 2):
        deadline = ws.table["deadlines"]["0"] / 1000
        server.kill()
        left = deadline - time.time()  # what the seat had left when the server died
        ws.close()
        assert left > 1.75, "the test was too slow to kill the server in time"
        time.sleep(DOWNTIME)
        started = time.time()
        server.start()
        # The tables (and their clocks) came back after ``started``, just before ``ready``.
        ready = time.time()
        ws = ann.socket(table, 0)
        seat = ws.table["seats"][0]
        assert seat["kind"] == "human" and not seat["replaced"], f"restart {restart}: replaced"
        assert ws.my_turn()
        ws.wait(lambda ws=ws: "0" in ws.table["deadlines"], "clock")
        deadline = ws.table["deadlines"]["0"] / 1000
        # No less than was left (no downtime charged) ...
        assert deadline >= started + left - 0.1, (restart, left, deadline - started)
        assert deadline >= ready + left - 1.0, (restart, left, deadline - ready)
        # ... and no more than was left plus what a stale heartbeat may give back.
        assert deadline <= ready + left + HEARTBEAT + 0.25, (restart, left, deadline - ready)
    # Ann does nothing: a bot takes her seat when the time she had left runs out.
    ws.wait(
        lambda: ws.table["seats"][0]["replaced"], "takeover", timeout=deadline - time.time() + 5
    )
    assert ws.table_at >= deadline - 0.3, f"taken over {deadline - ws.table_at:.2f} s early"
    assert ws.table_at <= deadline + 2.0, f"taken over {ws.table_at - deadline:.2f} s late"
    assert ws.table["seats"][0]["kind"] == "bot"


def test_restore_charges_only_time_the_server_was_up() -> None:
    """The clock arithmetic of ``restore`` on its own: a turn that spans two downtimes is
    charged only the time inside the server's runs (start, last heartbeat)."""
    zero = datetime(2026, 1, 1, tzinfo=UTC)

    def at(seconds: float) -> datetime:
        return zero + timedelta(seconds=seconds)

    deck = [card_text(card) for card in range(52)]
    log = [("seat", {"seat": s, "why": "bot", "bot": "easy"}, at(0)) for s in (1, 2, 3)]
    log += [
        ("seat", {"seat": 0, "why": "join", "player": 7, "nickname": "Ann"}, at(0)),
        ("start", {}, at(0)),
        ("deal", {"dealer": 0, "deck": deck}, at(10)),  # everyone to bid from 10 s on
        ("action", {"seat": 1, "bid": "low"}, at(11)),  # seat 1 bid: its clock stops
    ]

    def used(alive: Any) -> dict[int, float]:
        return restore(TableState.new("t", "minnesota", {}, 90.0), log, alive)

    # Up until 12 s (killed), down until 100 s, up until 103 s (killed), down until now.
    runs = [(at(-5), at(12)), (at(100), at(103))]
    assert used(runs) == {0: 5.0, 2: 5.0, 3: 5.0}
    # A heartbeat row of before the runs were recorded (no start): since ever.
    assert used([(None, at(12)), (at(100), at(103))]) == {0: 5.0, 2: 5.0, 3: 5.0}
    # The last sign of life alone (the old call), and a server never seen alive.
    assert used(at(12)) == {0: 2.0, 2: 2.0, 3: 2.0}
    assert used(None) == {0: 0.0, 2: 0.0, 3: 0.0}


def test_group_commit_stores_every_table_at_once_and_isolates_a_bad_append(
    database_url: str, tmp_path: Path
) -> None:
    """The one writer: appends of many tables gathered while it was busy go in one
    transaction; each caller returns only once its append is committed; a bad append (a
    duplicate sequence number: two writers) fails alone and the others are stored."""
    from sqlalchemy.exc import IntegrityError

    from whist.server.settings import Settings
    from whist.server.writer import GroupWriter
    from whist.store.db import make_engine, migrate
    from whist.store.models import Table
    from whist.store.repository import Append, Repository, now

    settings = Settings(data_dir=tmp_path, database_url=database_url)
    engine = make_engine(settings.database())
    migrate(engine)
    repo = Repository(engine)
    player = repo.create_player("Ann")
    assert player is not None
    ids = [f"t{k}" for k in range(20)]
    for table_id in ids:
        repo.create_table(
            Table(
                id=table_id, variant="german", options={}, clock_seconds=None, private=False,
                invite_code=None, host_id=player.id, status="open", created_at=now(),
                finished_at=None, result=None,
            )
        )  # fmt: skip

    def entry(k: int) -> list[tuple[str, dict[str, Any]]]:
        return [("seat", {"seat": 0, "why": "bot", "bot": f"easy{k}"})]

    async def run() -> tuple[list[Any], list[Any], int]:
        writer = GroupWriter(repo)
        writer.start()
        try:
            # The writer busy with something else while every table hands its append over.
            entered, gate = threading.Event(), threading.Event()

            def hold() -> bool:
                entered.set()
                return gate.wait(5)

            busy = asyncio.ensure_future(writer.run(hold))
            await asyncio.to_thread(entered.wait, 5)
            appends = [
                asyncio.ensure_future(writer.append(Append(t, 1, entry(1)))) for t in ids[:-1]
            ]
            appends.append(
                asyncio.ensure_future(
                    writer.append(
                        Append(ids[-1], 1, entry(1), "finished", {"winner": 0}, {player.id: 100})
                    )
                )
            )
            await asyncio.sleep(0.05)
            assert not any(task.done() for task in appends)
            gate.set()
            assert await busy
            first = await asyncio.gather(*appends)
            batches = writer.batches
            # A duplicate (t0, seq 1) among good appends: only it fails.
            second = await asyncio.gather(
                *(writer.append(Append(t, 2, entry(2))) for t in ids),
                writer.append(Append(ids[0], 1, entry(99))),
                return_exceptions=True,
            )
            return first, second, batches
        finally:
            await writer.stop()

    first, second, batches = asyncio.run(run())
    assert first == [None] * len(ids)
    assert batches == 1, "appends handed over while the writer was busy share one commit"
    assert second[:-1] == [None] * len(ids)
    assert isinstance(second[-1], IntegrityError)
    for table_id in ids:
        log = repo.log(table_id)
        assert [(kind, data["bot"]) for kind, data, _at in log] == [
            ("seat", "easy1"),
            ("seat", "easy2"),
        ]
    finished = repo.table(ids[-1])
    assert finished is not None and finished.status == "finished"
    assert finished.result == {"winner": 0} and finished.finished_at is not None
    again = repo.player(player.id)
    assert again is not None and again.xp == 100
    assert repo.award_xp(ids[-1], {player.id: 100}) == {}, "the award row went in with the end"
    engine.dispose()
