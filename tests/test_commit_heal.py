"""A COMMIT whose outcome is unknown heals by itself.

The connection to PostgreSQL is cut at the moment the server sends COMMIT, by a TCP proxy
between the server and PostgreSQL: after the COMMIT reached PostgreSQL and was stored (its
answer never comes back), or before (nothing stored). The player's act is acknowledged once
(or, while the database cannot be reached to tell, refused with ``internal`` and acked when
sent again), the table's log has neither a duplicate nor a gap, the table goes on without a
restart, and a restart finds the same state. SQLite: the same code path, the repository made
to raise after it committed.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.exc import OperationalError

from test_recovery import postgres_database
from test_server import Room, Sock, create, first_legal, over, pump, room, seat_table, socks_on
from whist.store.models import TableLog
from whist.store.repository import Append

QUIET = {"heartbeat_seconds": 3600.0}  # no heartbeat COMMIT may take the cut meant for a move
GERMAN = {"match": "single"}  # 26 tricks: room for every act of these tests


# ------------------------------------------------------------------------ the proxy
STARTUP_REQUESTS = {80877103, 80877104}  # SSLRequest, GSSENCRequest: the startup follows


def is_commit(message: bytes) -> bool:
    """A simple-protocol Query ('Q') of COMMIT, as psycopg sends it."""
    return message[:1] == b"Q" and message[5:].rstrip(b"\0").strip().upper() == b"COMMIT"


class Link:
    """One client connection through the proxy, and its connection to PostgreSQL."""

    def __init__(self, proxy: PgProxy, client: socket.socket, server: socket.socket) -> None:
        self.proxy = proxy
        self.client = client
        self.server = server
        self.swallow = False  # the COMMIT went through: cut at its answer, which never arrives
        self.then_down = False  # ... and the database is unreachable from then on
        for pump_ in (self._frontend, self._backend):
            threading.Thread(target=pump_, daemon=True).start()

    def close(self) -> None:
        for end in (self.client, self.server):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                end.close()
        self.proxy.forget(self)

    def _frontend(self) -> None:
        """Client to PostgreSQL, message by message, watching for COMMIT."""
        buffer = b""
        startup = True  # the first messages have no type byte
        try:
            while data := self.client.recv(65536):
                buffer += data
                out = b""
                while True:
                    head = 0 if startup else 1
                    if len(buffer) < head + 4:
                        break
                    size = head + int.from_bytes(buffer[head : head + 4], "big")
                    if len(buffer) < size:
                        break
                    message, buffer = buffer[:size], buffer[size:]
                    if startup:
                        startup = int.from_bytes(message[4:8], "big") in STARTUP_REQUESTS
                    elif is_commit(message) and (plan := self.proxy.take_plan()) is not None:
                        stored, then_down = plan
                        self.server.sendall(out)
                        out = b""
                        if not stored:
                            self.proxy.cut(self, then_down)
                            return
                        self.then_down = then_down
                        self.swallow = True
                    out += message
                self.server.sendall(out)
        except OSError:
            pass
        self.close()

    def _backend(self) -> None:
        """PostgreSQL to the client; after a COMMIT that went through, its answer is the
        proof that it was stored: cut there instead of passing it on."""
        try:
            while data := self.server.recv(65536):
                if self.swallow:
                    self.proxy.cut(self, self.then_down)
                    return
                self.client.sendall(data)
        except OSError:
            pass
        self.close()


class PgProxy:
    """127.0.0.1:<free port> to PostgreSQL. ``cut_next_commit`` drops the connection of the
    next COMMIT; ``then_down``: the proxy refuses every connection from then on, until
    ``come_up`` (the database is unreachable)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.lock = threading.Lock()
        self.links: set[Link] = set()
        self.plan: tuple[bool, bool] | None = None
        self.down = False
        self.cuts = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_next_commit(self, stored: bool, then_down: bool = False) -> None:
        with self.lock:
            self.plan = (stored, then_down)

    def take_plan(self) -> tuple[bool, bool] | None:
        with self.lock:
            plan, self.plan = self.plan, None
            return plan

    def cut(self, link: Link, then_down: bool) -> None:
        with self.lock:
            self.cuts += 1
            # Down before the client sees its connection go: its first look is refused too.
            self.down = self.down or then_down
            links = set(self.links) if then_down else {link}
        for each in links:
            each.close()

    def come_up(self) -> None:
        with self.lock:
            self.down = False

    def forget(self, link: Link) -> None:
        with self.lock:
            self.links.discard(link)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.close()
        for link in list(self.links):
            link.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                down = self.down
            if down:
                client.close()
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            server.settimeout(None)
            link = Link(self, client, server)
            with self.lock:
                self.links.add(link)


@pytest.fixture
def proxied() -> Iterator[tuple[PgProxy, str]]:
    """A fresh PostgreSQL database and a proxy to it: (proxy, the server's URL)."""
    for url in postgres_database():
        parts = urlsplit(url)
        proxy = PgProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
        # No TLS: the proxy reads the messages.
        netloc = f"{parts.username}@127.0.0.1:{proxy.port}"
        through = parts._replace(netloc=netloc, query="sslmode=disable&gssencmode=disable")
        try:
            yield proxy, through.geturl()
        finally:
            proxy.close()


# ------------------------------------------------------------------------ the checks
def log_seqs(r: Room, table_id: str) -> list[int]:
    with r.repo.sessions() as db:
        query = select(TableLog.seq).where(TableLog.table_id == table_id).order_by(TableLog.seq)
        return list(db.scalars(query))


def assert_whole_log(r: Room, table_id: str, socks: list[Sock]) -> None:
    """Entries 1..n, nothing twice, nothing missing, n the version every player sees."""
    for sock in socks:
        sock.drain()
    seqs = log_seqs(r, table_id)
    assert seqs == list(range(1, len(seqs) + 1)), f"duplicate or gap: {seqs}"
    assert {sock.version for sock in socks} == {len(seqs)}


def answers(sock: Sock, message_id: str) -> list[tuple[str, Any]]:
    """Every ack and error ``sock`` got for ``message_id``, (type, version or code)."""
    return [
        (frame["type"], frame["version"] if frame["type"] == "ack" else frame["code"])
        for frame in sock.frames
        if frame["type"] in ("ack", "error") and frame.get("id") == message_id
    ]


def answered(sock: Sock, socks: list[Sock], message_id: str) -> list[tuple[str, Any]]:
    """Wait for the answer to ``message_id``, then a little more: a second one would show."""
    pump(socks, lambda: sock.pending is None)
    deadline = time.monotonic() + 0.3
    while time.monotonic() < deadline:
        sock.poll(0.05)
    return answers(sock, message_id)


def act_again(sock: Sock, action: dict[str, Any]) -> str:
    sock.acted_version = -1  # the same position: ``Sock.act`` would otherwise wait
    return sock.act(action)


def play_on(socks: list[Sock], acts: int) -> None:
    """The players make exactly ``acts`` more moves, each acknowledged, and every socket
    has the state after the last one (a move sent while the last ack was on its way would
    make the table one move ahead of what the test saw)."""
    before = sum(len(s.acks) for s in socks)
    errors = sum(len(s.errors) for s in socks)
    sent = 0

    def while_moves_left(sock: Sock) -> dict[str, Any] | None:
        nonlocal sent
        if sent == acts:
            return None
        sent += 1
        return first_legal(sock)

    def settled() -> bool:
        acked = [int(a["version"]) for s in socks for a in s.acks]
        newest = max([s.version for s in socks] + acked)
        return sum(len(s.acks) for s in socks) == before + acts and all(
            s.pending is None and s.version == newest for s in socks
        )

    pump(socks, settled, choose=while_moves_left)
    assert sum(len(s.errors) for s in socks) == errors, [s.errors for s in socks]


def states_after_restart(
    tmp_path: Path, settings: dict[str, Any], table_id: str, browsers: list[TestClient]
) -> list[dict[str, Any]]:
    """The table as each browser finds it on a server started again on the same store."""
    with room(tmp_path, **settings) as r:
        clients = []
        for browser in browsers:
            client = r.browser()
            client.cookies = browser.cookies
            clients.append(client)
        with socks_on(table_id, *clients) as socks:
            pump(socks, lambda: all(s.state is not None for s in socks))
            return [sock.state for sock in socks if sock.state is not None]


def assert_same_after_restart(
    tmp_path: Path,
    settings: dict[str, Any],
    table_id: str,
    browsers: list[TestClient],
    before: list[dict[str, Any]],
) -> None:
    after = states_after_restart(tmp_path, settings, table_id, browsers)
    assert [(s["version"], s["view"]) for s in after] == [(s["version"], s["view"]) for s in before]


def two_players(r: Room) -> tuple[str, list[TestClient]]:
    table_id, browsers = seat_table(r, "german", GERMAN, False, "one", "two")
    return table_id, browsers


def mover_of(socks: list[Sock]) -> Sock:
    pump(socks, lambda: any(s.can_act() for s in socks))
    return next(s for s in socks if s.can_act())


# ------------------------------------------------------------------- PostgreSQL, cut
@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
def test_a_commit_cut_mid_way_is_acked_once_and_the_table_goes_on(
    proxied: tuple[PgProxy, str], tmp_path: Path, stored: bool
) -> None:
    """The connection dies during the COMMIT of an act, PostgreSQL still reachable: the
    server finds out from the log whether the act was stored (else stores it again) and
    acknowledges it once; more acts follow; a restart shows the same table."""
    proxy, url = proxied
    settings = {"database_url": url, **QUIET}
    with room(tmp_path, **settings) as r:
        table_id, browsers = two_players(r)
        with socks_on(table_id, *browsers) as socks:
            mover = mover_of(socks)
            version = mover.version
            proxy.cut_next_commit(stored=stored)
            message_id = mover.act(mover.legal[0])
            assert answered(mover, socks, message_id) == [("ack", version + 1)]
            assert proxy.cuts == 1, "the COMMIT was not cut"
            assert_whole_log(r, table_id, socks)
            play_on(socks, 6)  # no restart: the table goes on
            assert_whole_log(r, table_id, socks)
            before = [sock.state for sock in socks if sock.state is not None]
    assert_same_after_restart(tmp_path, settings, table_id, browsers, before)


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
def test_a_commit_cut_while_the_database_goes_away_heals_on_the_next_act(
    proxied: tuple[PgProxy, str], tmp_path: Path, stored: bool
) -> None:
    """The database is unreachable right after the cut, so nobody can tell whether the act
    was stored: it is refused with ``internal`` and the table shows no change. Sent again
    once the database is back, it is acknowledged, stored once, and the table goes on."""
    proxy, url = proxied
    settings = {"database_url": url, **QUIET}
    with room(tmp_path, **settings) as r:
        table_id, browsers = two_players(r)
        with socks_on(table_id, *browsers) as socks:
            mover = mover_of(socks)
            version = mover.version
            action = mover.legal[0]
            proxy.cut_next_commit(stored=stored, then_down=True)
            message_id = mover.act(action)
            assert answered(mover, socks, message_id) == [("error", "unavailable")]
            assert all(s.version == version for s in socks), "nothing shown as done"
            proxy.come_up()
            again = act_again(mover, action)
            assert answered(mover, socks, again) == [("ack", version + 1)]
            assert_whole_log(r, table_id, socks)
            play_on(socks, 6)
            assert_whole_log(r, table_id, socks)
            before = [sock.state for sock in socks if sock.state is not None]
    assert_same_after_restart(tmp_path, settings, table_id, browsers, before)


def test_an_act_stored_unbeknown_shows_up_before_the_next_act(
    proxied: tuple[PgProxy, str], tmp_path: Path
) -> None:
    """Refused with ``internal`` though in fact stored, and the player then plays another
    card: that one is refused too, the first one shows up as played (it is in the log), and
    the table goes on from there."""
    proxy, url = proxied
    settings = {"database_url": url, **QUIET}
    with room(tmp_path, **settings) as r:
        table_id, browsers = two_players(r)
        with socks_on(table_id, *browsers) as socks:
            mover = mover_of(socks)
            version = mover.version
            first, other = mover.legal[:2]
            proxy.cut_next_commit(stored=True, then_down=True)
            message_id = mover.act(first)
            assert answered(mover, socks, message_id) == [("error", "unavailable")]
            proxy.come_up()
            again = act_again(mover, other)
            assert answered(mover, socks, again) == [("error", "internal")]
            pump(socks, lambda: all(s.version == version + 1 for s in socks))
            assert_whole_log(r, table_id, socks)
            kind, data, _at = r.repo.log(table_id)[-1]
            mine = {"seat": mover.view["seat"], **first, "mid": message_id}
            assert (kind, data) == ("action", mine)
            play_on(socks, 6)
            assert_whole_log(r, table_id, socks)
            before = [sock.state for sock in socks if sock.state is not None]
    assert_same_after_restart(tmp_path, settings, table_id, browsers, before)


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
def test_a_bot_move_cut_while_the_database_goes_away_is_retried_and_the_match_ends(
    proxied: tuple[PgProxy, str], tmp_path: Path, stored: bool
) -> None:
    """The same for a bot's move (or a deal): the table tries again by itself once the
    database is back, and the match is played to its end with a whole log."""
    proxy, url = proxied
    settings = {"database_url": url, **QUIET}
    with room(tmp_path, **settings) as r:
        ann = r.guest("ann")
        table_id = create(ann, variant="german", options=GERMAN, clock=False, bots={"1": "easy"})[
            "id"
        ]
        with socks_on(table_id, ann) as socks:
            (sock,) = socks
            # The bot waits a second before it moves: time to aim the cut at its COMMIT.
            r.app.state.club.settings.bot_delay = 1.0
            while True:
                mover_of(socks)
                message_id = sock.act(sock.legal[0])
                assert answered(sock, socks, message_id)[0][0] == "ack"
                if 1 in sock.view["to_act"]:
                    break
            proxy.cut_next_commit(stored=stored, then_down=True)
            pump(socks, lambda: proxy.cuts == 1, timeout=10)
            r.app.state.club.settings.bot_delay = 0.0
            time.sleep(1.5)  # down for a while: the table's retries fail meanwhile
            proxy.come_up()
            pump(socks, over(sock), choose=first_legal, timeout=60)
            assert not sock.errors
            assert_whole_log(r, table_id, socks)
            assert sock.table is not None and sock.table["status"] == "finished"


# ------------------------------------------------------------------------- SQLite
def commit_then_fail(r: Room, table_id: str, stored: bool, readable: bool) -> list[Append]:
    """The next append of ``table_id`` raises as a lost connection does, after committing
    (``stored``) or before; ``readable`` False: the log cannot be read back at that moment
    either (the store unreachable). Returns the appends that failed so."""
    repo = r.repo
    append_batch, stored_check = repo.append_batch, getattr(repo, "stored", None)
    failed: list[Append] = []

    def lost() -> OperationalError:
        return OperationalError(
            "COMMIT", {}, Exception("connection lost"), connection_invalidated=True
        )

    def flaky_append(batch: Any) -> None:
        mine = not failed and any(item.table_id == table_id for item in batch)
        if mine and not stored:
            failed.extend(batch)
            raise lost()
        append_batch(batch)
        if mine:
            failed.extend(batch)
            raise lost()

    def flaky_check(batch: Any) -> list[bool]:
        if not readable and len(failed) and not getattr(flaky_check, "done", False):
            flaky_check.done = True  # type: ignore[attr-defined]
            raise lost()
        assert stored_check is not None
        return stored_check(batch)  # type: ignore[no-any-return]

    repo.append_batch = flaky_append  # type: ignore[method-assign]
    repo.stored = flaky_check  # type: ignore[method-assign]
    return failed


@pytest.mark.parametrize("readable", [True, False], ids=["readable", "unreachable"])
@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
def test_sqlite_a_commit_lost_after_or_before_storing_heals(
    tmp_path: Path, stored: bool, readable: bool
) -> None:
    with room(tmp_path, **QUIET) as r:
        table_id, browsers = two_players(r)
        with socks_on(table_id, *browsers) as socks:
            mover = mover_of(socks)
            version = mover.version
            action = mover.legal[0]
            failed = commit_then_fail(r, table_id, stored, readable)
            message_id = mover.act(action)
            if readable:
                assert answered(mover, socks, message_id) == [("ack", version + 1)]
            else:
                assert answered(mover, socks, message_id) == [("error", "unavailable")]
                again = act_again(mover, action)
                assert answered(mover, socks, again) == [("ack", version + 1)]
            assert len(failed) == 1
            assert_whole_log(r, table_id, socks)
            play_on(socks, 6)
            assert_whole_log(r, table_id, socks)
            before = [sock.state for sock in socks if sock.state is not None]
    assert_same_after_restart(tmp_path, dict(QUIET), table_id, browsers, before)
