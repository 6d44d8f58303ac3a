"""Helpers of the cluster tests: a private Redis, nodes of one club, and a table socket that
behaves like the browser client (reconnects to another node, re-sends its unanswered act
with the same id, counts ``duplicate_message`` as done)."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from test_recovery import COOKIE, WAIT, Server, free_port
from whist.server.bots import exit_with_parent

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
LEASE_SECONDS = "2"  # short leases: a test's failover takes seconds, not tens of them


def redis_command(port: int, root: Path) -> list[str]:
    """A redis-server of one's own on 127.0.0.1:``port``: nothing saved (``root`` is its
    working directory)."""
    options = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(root)]
    return [REDIS_SERVER, "--port", str(port), *options]


class Redis:
    """A redis-server of the test's own (never the machine's shared one): it can be
    stopped and started again on the same port."""

    def __init__(self, root: Path) -> None:
        if not Path(REDIS_SERVER).exists():
            pytest.skip("redis-server is not installed")
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with (self.root / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                redis_command(self.port, self.root),
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=exit_with_parent,
            )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), _tcp(self.port):
                return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@contextlib.contextmanager
def _tcp(port: int) -> Iterator[None]:
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=0.5):
        yield


class Cluster:
    """``whist serve`` nodes on one PostgreSQL database and one Redis."""

    def __init__(
        self, root: Path, database_url: str, redis: Redis, nodes_url: str = "", **settings: str
    ) -> None:
        self.root = root
        self.database_url = database_url  # for the test's own reading
        self.nodes_url = nodes_url or database_url  # the nodes' (maybe through a proxy)
        self.redis = redis
        self.settings = {
            "WHIST_REDIS_URL": redis.url,
            "WHIST_LEASE_SECONDS": LEASE_SECONDS,
            **settings,
        }
        self.nodes: list[Server] = []

    def add(self, **settings: str) -> Server:
        node = Server(
            self.root / f"node{len(self.nodes)}",
            self.nodes_url,
            {**self.settings, **settings},
        )
        self.nodes.append(node)
        node.start()
        return node

    def close(self) -> None:
        for node in self.nodes:
            node.close()

    def owner(self, table_id: str) -> str | None:
        """The node id holding the table's unexpired lease (read from the database)."""
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as db:
            row = db.execute(
                "SELECT l.node FROM table_leases l JOIN cluster_nodes h ON h.node = l.node"
                " WHERE l.table_id = %s AND h.expires_at > now()",
                (table_id,),
            ).fetchone()
        return None if row is None else str(row[0])

    def node_id(self, node: Server) -> str:
        with httpx2.Client(base_url=node.url, timeout=5, trust_env=False) as client:
            return str(client.get("/healthz").json()["cluster"]["node"])


class Player:
    """A guest: its session works on every node."""

    def __init__(self, node: Server, nickname: str) -> None:
        with httpx2.Client(base_url=node.url, timeout=10.0, trust_env=False) as client:
            response = client.post("/api/guest", json={"nickname": nickname})
        assert response.status_code == 200, response.text
        self.token = response.cookies[COOKIE]
        self.id = response.json()["id"]

    def call(self, node: Server, method: str, path: str, body: Any = None) -> httpx2.Response:
        with httpx2.Client(
            base_url=node.url, cookies={COOKIE: self.token}, timeout=20.0, trust_env=False
        ) as client:
            return client.request(method, path, json=body)

    def ok(self, node: Server, method: str, path: str, body: Any = None) -> Any:
        response = self.call(node, method, path, body)
        assert response.status_code == 200, f"{method} {path}: {response.text}"
        return response.json()


class Seat:
    """A table socket for one seat that, like the browser client, reconnects to the next
    node when its socket closes, and then re-sends its unanswered act (same id)."""

    def __init__(self, player: Player, nodes: list[Server], table_id: str) -> None:
        self.player = player
        self.nodes = nodes
        self.table_id = table_id
        self.at = 0  # index of the node it is connected to
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.table: dict[str, Any] = {}  # the newest table object (clocks)
        self.acks: dict[str, int] = {}
        self.errors: list[dict[str, Any]] = []
        self.pending: tuple[str, dict[str, Any]] | None = None
        self.reconnects = 0
        self.versions: list[int] = []  # of every state frame, in arrival order per socket
        self.hints: list[dict[str, Any]] = []  # hint frames (advice, or why none)
        self._connect()
        self.wait(lambda: bool(self.state), "the first state")

    def _connect(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            node = self.nodes[self.at % len(self.nodes)]
            if node.process is not None:
                try:
                    self.ws = connect(
                        f"ws://127.0.0.1:{node.port}/ws/tables/{self.table_id}",
                        additional_headers={"Cookie": f"{COOKIE}={self.player.token}"},
                        open_timeout=5,
                        close_timeout=1,
                        ping_interval=None,
                        proxy=None,
                        legacy=True,
                    )
                    return
                except (OSError, InvalidStatus, TimeoutError):
                    pass
            assert time.monotonic() < deadline, "no node took the socket"
            self.at += 1
            time.sleep(0.1)

    def _reconnect(self) -> None:
        self.reconnects += 1
        self.at += 1
        self._connect()
        if self.pending is not None:  # as the browser does: the same act, the same id
            message_id, action = self.pending
            self._send({"type": "act", "id": message_id, "action": action})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(message))
        except ConnectionClosed:
            self._reconnect()

    @property
    def version(self) -> int:
        return int(self.state["version"])

    @property
    def view(self) -> dict[str, Any]:
        return self.state["view"]  # type: ignore[no-any-return]

    def _read(self, deadline: float) -> None:
        assert self.ws is not None
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise TimeoutError
        try:
            frame = json.loads(self.ws.recv(timeout=timeout))
        except ConnectionClosed:
            self._reconnect()
            return
        kind = frame["type"]
        if kind == "state":
            self.state = frame
            self.table = frame["table"]
            self.versions.append(frame["version"])
        elif kind == "table" and frame["version"] >= self.state.get("version", 0):
            self.table = frame["table"]  # newer clocks
        elif kind == "ack":
            self._answered(frame["id"], frame["version"])
        elif kind == "hint":
            self.hints.append(frame)
        elif kind == "error":
            if frame.get("code") == "duplicate_message":  # stored before: done
                self._answered(frame["id"], frame["version"])
            else:
                self.errors.append(frame)
                if self.pending is not None and frame.get("id") == self.pending[0]:
                    self.pending = None

    def _answered(self, message_id: str, version: int) -> None:
        self.acks[message_id] = version
        if self.pending is not None and self.pending[0] == message_id:
            self.pending = None

    def wait(self, done: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            try:
                self._read(deadline)
            except TimeoutError:
                raise AssertionError(
                    f"{self.table_id}: no {what} within {timeout} s (version "
                    f"{self.state.get('version')})"
                ) from None

    def my_turn(self) -> bool:
        view = self.state.get("view")
        if not view or view["over"]:
            return False
        return view["seat"] in view["to_act"] and bool(view["legal"])

    def act(self, action: dict[str, Any], timeout: float = 30.0) -> int:
        """Send one action; wait for its ack (or ``duplicate_message``) and return its
        version. A refusal fails the test."""
        action = {k: v for k, v in action.items() if k != "seat"}
        message_id = uuid.uuid4().hex
        self.pending = (message_id, action)
        errors = len(self.errors)
        self._send({"type": "act", "id": message_id, "action": action})
        self.wait(
            lambda: message_id in self.acks or len(self.errors) > errors,
            f"answer to {action}",
            timeout,
        )
        assert message_id in self.acks, f"{action} refused: {self.errors[errors:]}"
        return self.acks[message_id]

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
