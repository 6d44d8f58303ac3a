"""The online room through its real HTTP API and WebSocket, in process (Starlette's
TestClient runs the lifespan, so the club, the table actors and the bots are the real ones).

Several players are several ``TestClient`` instances sharing the first one's event-loop
portal: each keeps its own cookie jar (its own browser), all talk to the same app.
Every wait has a deadline, so a test fails instead of hanging.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from whist.bots import LEVELS
from whist.core.views import View, view_for
from whist.i18n import LANGUAGE_NAMES, LANGUAGES, VARIANT_TITLES
from whist.server import bots as server_bots
from whist.server.app import create_app
from whist.server.deps import COOKIE
from whist.server.progress import CARD_BACKS, CARD_FACES, XP_FOR_A_WIN, level_for
from whist.server.settings import Settings
from whist.store.models import Player, Session, Table
from whist.store.repository import Repository, now, token_hash
from whist.variants import UNAVAILABLE, VARIANTS, new_match

RED_SUITS = ("H", "D")


# ----------------------------------------------------------------------------- harness
@dataclass
class Room:
    app: FastAPI
    client: TestClient  # the one that runs the lifespan (its portal is shared)

    def browser(self) -> TestClient:
        """Another browser: its own cookies, the same app and event loop."""
        other = TestClient(self.app)
        other.portal = self.client.portal
        return other

    def guest(self, nickname: str) -> TestClient:
        browser = self.browser()
        response = browser.post("/api/guest", json={"nickname": nickname})
        assert response.status_code == 200, response.text
        return browser

    @property
    def repo(self) -> Repository:
        return self.app.state.club.repo  # type: ignore[no-any-return]


@contextlib.contextmanager
def room(tmp_path: Path, **overrides: Any) -> Iterator[Room]:
    options: dict[str, Any] = {
        "data_dir": tmp_path,
        "bot_workers": 0,
        "clock_seconds": 0.5,
        "rate_limit_per_second": 1000,
        "rate_limit_burst": 1000,
    }
    options.update(overrides)
    app = create_app(Settings(**options))
    with TestClient(app) as client:
        yield Room(app, client)


async def _receive_within(stream: Any, timeout: float) -> Any:
    with anyio.fail_after(timeout):
        return await stream.receive()


class Sock:
    """One WebSocket on a table: keeps every frame, the newest state and table info."""

    ids = itertools.count(1)

    def __init__(self, browser: TestClient, table_id: str) -> None:
        self._cm = browser.websocket_connect(f"/ws/tables/{table_id}")
        self.ws = self._cm.__enter__()
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.pending: str | None = None
        self.acted_version = -1
        self.errors: list[dict[str, Any]] = []
        self.acks: list[dict[str, Any]] = []
        self.open = True

    def close(self) -> None:
        if self.open:
            self.open = False
            self._cm.__exit__(None, None, None)

    # -- reading
    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.close":
            self.open = False
            return
        frame = json.loads(message["text"])
        self.frames.append(frame)
        kind = frame["type"]
        if kind == "state":
            self.state = frame
            self.table = frame["table"]
        elif kind == "table":
            self.table = frame["table"]
        elif kind in ("ack", "error"):
            (self.acks if kind == "ack" else self.errors).append(frame)
            if frame.get("id") is not None and frame.get("id") == self.pending:
                self.pending = None

    def drain(self) -> None:
        """Take every frame already waiting, without blocking."""
        while self.open:
            try:
                message = self.ws.portal.call(self.ws._send_rx.receive_nowait)
            except anyio.WouldBlock:
                return
            self._take(message)

    def poll(self, timeout: float) -> None:
        """Take one frame if one comes within ``timeout``."""
        try:
            message = self.ws.portal.call(_receive_within, self.ws._send_rx, timeout)
        except TimeoutError:
            return
        self._take(message)

    # -- shortcuts
    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None
        return self.state["view"]  # type: ignore[no-any-return]

    @property
    def version(self) -> int:
        return -1 if self.state is None else int(self.state["version"])

    @property
    def legal(self) -> list[dict[str, Any]]:
        return [] if self.state is None else list(self.view["legal"])

    def can_act(self) -> bool:
        return (
            self.state is not None
            and self.pending is None
            and self.version > self.acted_version
            and self.table is not None
            and self.table["status"] == "playing"
            and bool(self.legal)
        )

    # -- writing
    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    def act(self, action: dict[str, Any]) -> str:
        message_id = f"m{next(self.ids)}"
        self.pending = message_id
        self.acted_version = self.version
        self.send({"type": "act", "id": message_id, "action": action})
        return message_id


Chooser = Callable[[Sock], dict[str, Any] | None]


def first_legal(sock: Sock) -> dict[str, Any] | None:
    return sock.legal[0]


def never(_sock: Sock) -> None:
    return None


def pump(
    socks: list[Sock],
    until: Callable[[], bool],
    timeout: float = 20.0,
    choose: Chooser | dict[int, Chooser] | None = None,
    fail: bool = True,
) -> bool:
    """Read every socket and let each seat act (``choose``: one chooser for all, or one per
    index in ``socks``; None waits only) until ``until()`` holds; after ``timeout``, fail
    (or return False with ``fail=False``)."""
    deadline = time.monotonic() + timeout
    while True:
        for sock in socks:
            sock.drain()
        if until():
            return True
        if time.monotonic() > deadline:
            if not fail:
                return False
            seen = [
                (s.version, s.table and s.table["status"], s.state and s.view["to_act"])
                for s in socks
            ]
            raise AssertionError(f"timed out waiting; (version, status, to_act): {seen}")
        acted = False
        if choose is not None:
            for index, sock in enumerate(socks):
                chooser = choose.get(index, never) if isinstance(choose, dict) else choose
                if sock.open and sock.can_act():
                    action = chooser(sock)
                    if action is not None:
                        sock.act(action)
                        acted = True
        if not acted:
            live = [s for s in socks if s.open]
            if live:
                live[0].poll(0.01)
            else:
                time.sleep(0.01)


def seat_of(sock: Sock, seat: int) -> dict[str, Any]:
    """The table info's seat (an empty dict before any table info came)."""
    return {} if sock.table is None else sock.table["seats"][seat]  # type: ignore[no-any-return]


def status_of(sock: Sock) -> str | None:
    return None if sock.table is None else sock.table["status"]


def got_xp(sock: Sock) -> bool:
    """XP is credited right after the match ends; the player's socket is told."""
    return any(f["type"] == "xp" for f in sock.frames)


def over(*socks: Sock) -> Callable[[], bool]:
    return lambda: all(status_of(s) in ("finished", "abandoned") for s in socks)


def create(browser: TestClient, **body: Any) -> dict[str, Any]:
    response = browser.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def alone_with_bots(
    player: TestClient, variant: str = "minnesota", clock: bool = True
) -> dict[str, Any]:
    """A one-deal table of ``variant`` where ``player`` sits with three EASY bots."""
    return create(
        player,
        variant=variant,
        options={"target": 1},
        clock=clock,
        bots={"1": "easy", "2": "easy", "3": "easy"},
    )


def me(browser: TestClient) -> dict[str, Any]:
    response = browser.get("/api/me")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def table_info(browser: TestClient, table_id: str) -> dict[str, Any]:
    response = browser.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def table_row(room_: Room, table_id: str) -> Table:
    row = room_.repo.table(table_id)
    assert row is not None
    return row


def set_xp(room_: Room, player_id: int, xp: int) -> None:
    with room_.repo.sessions() as db:
        db.execute(update(Player).where(Player.id == player_id).values(xp=xp))
        db.commit()


@contextlib.contextmanager
def socks_on(table_id: str, *browsers: TestClient) -> Iterator[list[Sock]]:
    opened: list[Sock] = []
    try:
        for browser in browsers:
            opened.append(Sock(browser, table_id))
        yield opened
    finally:
        for sock in opened:
            sock.close()


def seat_table(room_: Room, variant: str, options: dict[str, Any], clock: bool, *names: str):
    """A table with one human per name (seat i for names[i]) and nobody else: the match
    starts when the last one sits. Returns (table_id, browsers)."""
    browsers = [room_.guest(name) for name in names]
    info = create(browsers[0], variant=variant, options=options, clock=clock, seat=0)
    for seat, browser in enumerate(browsers[1:], start=1):
        joined = browser.post(f"/api/tables/{info['id']}/join", json={"seat": seat})
        assert joined.status_code == 200, joined.text
        assert joined.json()["you"] == seat
    return info["id"], browsers


# ----------------------------------------------------------------------- the checkers
ALLOWED_BID_PATHS = (
    ("view", "legal", int, "bid"),
    ("view", "revealed", int, "choice"),
    ("view", "contract", "mode"),
    ("view", "history", int, "contract", "mode"),
    ("view", "facts", "bid_words", int),  # the variant's words, the same in every view
    ("view", "facts", "contracts", int),
)
SECRET_KEYS = {"secret", "secrets", "bids", "choices", "bottoms", "bottom_cards", "hidden"}


def _path_allowed(path: tuple[Any, ...]) -> bool:
    for pattern in ALLOWED_BID_PATHS:
        if len(pattern) == len(path) and all(
            (isinstance(step, int) if want is int else step == want)
            for want, step in zip(pattern, path, strict=True)
        ):
            return True
    return False


def bid_leaks(frame: dict[str, Any], words: tuple[str, ...], key: str) -> list[str]:
    """Where ``frame`` carries a secret choice outside the allowed places: a ``key`` (bid
    or bottom) other than one's own legal options, a bid word outside the revealed list or
    the contract, a key that would hold secrets, or a revealed list going on after the
    first choice that stops the reveal."""
    leaks: list[str] = []

    def walk(node: Any, path: tuple[Any, ...]) -> None:
        if isinstance(node, dict):
            for name, value in node.items():
                if name in SECRET_KEYS:
                    leaks.append(f"key {name!r} at {path}")
                if name == key and not _path_allowed((*path, "bid")):
                    leaks.append(f"{name!r} at {(*path, name)}")
                walk(value, (*path, name))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, (*path, index))
        elif isinstance(node, str) and node in words and not _path_allowed(path):
            leaks.append(f"{node!r} at {path}")

    walk(frame, ())
    return leaks


def reveal_problems(frame: dict[str, Any], stops: Callable[[str], bool]) -> list[str]:
    if frame.get("type") != "state":
        return []
    view = frame["view"]
    choices = [r["choice"] for r in view["revealed"]]
    problems = []
    for index, choice in enumerate(choices):
        if stops(choice) and index != len(choices) - 1:
            problems.append(f"revealed goes on after the first stop: {view['revealed']}")
    if view["phase"] == "bid" and choices:
        problems.append(f"a choice revealed during the bidding: {view['revealed']}")
    return problems


# ================================================================================ players
def test_guest_register_login_logout_and_expiry(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        nobody = r.browser()
        assert nobody.get("/api/me").status_code == 401
        assert (
            nobody.put(
                "/api/me/appearance", json={"card_back": "classic", "card_face": "classic"}
            ).status_code
            == 401
        )

        # A guest: a nickname and a session cookie (httponly), a week long.
        guest = r.browser()
        response = guest.post("/api/guest", json={"nickname": "Gus"})
        assert response.status_code == 200
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and f"max-age={7 * 86400}" in cookie
        assert me(guest)["nickname"] == "Gus" and not me(guest)["registered"]
        assert guest.post("/api/guest", json={"nickname": ""}).status_code == 422

        # Registering: argon2 hash stored, never the password; a 30-day cookie.
        alice = r.browser()
        response = alice.post(
            "/api/register", json={"login": "alice", "password": "correct horse", "nickname": "Al"}
        )
        assert response.status_code == 200, response.text
        assert f"max-age={30 * 86400}" in response.headers["set-cookie"].lower()
        alice_id = response.json()["id"]
        assert response.json()["registered"] and response.json()["nickname"] == "Al"
        stored = r.repo.player_by_login("alice")
        assert stored is not None and stored.password_hash is not None
        assert stored.password_hash.startswith("$argon2")
        assert "correct horse" not in stored.password_hash
        again = r.browser().post("/api/register", json={"login": "alice", "password": "x" * 9})
        assert again.status_code == 409
        assert (
            r.browser()
            .post("/api/register", json={"login": "bob", "password": "short"})
            .status_code
            == 422
        )

        # Logging in from another browser.
        laptop = r.browser()
        wrong = laptop.post("/api/login", json={"login": "alice", "password": "wrong horse"})
        assert wrong.status_code == 401
        assert laptop.get("/api/me").status_code == 401
        assert (
            laptop.post(
                "/api/login", json={"login": "nobody", "password": "correct horse"}
            ).status_code
            == 401
        )
        response = laptop.post("/api/login", json={"login": "alice", "password": "correct horse"})
        assert response.status_code == 200
        assert me(laptop)["id"] == alice_id == me(alice)["id"]

        # Logout ends that session only, and the old cookie is dead on the server too.
        token = laptop.cookies.get(COOKIE)
        assert token
        assert laptop.post("/api/logout").json() == {"ok": True}
        assert laptop.get("/api/me").status_code == 401
        replay = r.browser()
        replay.cookies.set(COOKIE, token)
        assert replay.get("/api/me").status_code == 401
        assert me(alice)["id"] == alice_id

        # Sessions expire: the guest's session is stored to end in 7 days; once past, 401.
        guest_token = guest.cookies.get(COOKIE)
        assert guest_token
        with r.repo.sessions() as db:
            rows = list(db.scalars(select(Session)))
        assert guest_token not in {row.token_hash for row in rows}  # stored hashed
        assert token_hash(guest_token) in {row.token_hash for row in rows}
        guest_id = me(guest)["id"]
        ends = [row.expires_at for row in rows if row.player_id == guest_id]
        assert len(ends) == 1
        left = ends[0].replace(tzinfo=now().tzinfo) - now()
        assert timedelta(days=6.9) < left <= timedelta(days=7)
        with r.repo.sessions() as db:
            db.execute(
                update(Session)
                .where(Session.player_id == guest_id)
                .values(expires_at=now() - timedelta(seconds=1))
            )
            db.commit()
        assert guest.get("/api/me").status_code == 401
        assert r.repo.session_player(guest_token) is None
        assert me(alice)["id"] == alice_id


# ================================================================================== lobby
def test_lobby_lists_open_tables_with_variant_options_seats_and_clock(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        host, other, third = r.guest("host"), r.guest("other"), r.guest("third")
        assert r.browser().post("/api/tables", json={"variant": "minnesota"}).status_code == 401

        info = create(
            host,
            variant="minnesota",
            options={"fail_double": True, "target": 7},
            clock=True,
            seat=0,
            bots={"2": "hard", "3": "easy"},
        )
        table_id = info["id"]
        unlimited = create(host, variant="german", options={"match": "single"}, clock=False, seat=1)

        listed = {t["id"]: t for t in r.browser().get("/api/tables").json()}
        assert set(listed) == {table_id, unlimited["id"]}
        row = listed[table_id]
        assert row["variant"] == "minnesota" and row["status"] == "open"
        assert row["options"]["fail_double"] is True and row["options"]["target"] == 7
        assert row["clock"] == 0.5
        assert row["free_seats"] == [1]
        kinds = [(s["kind"], s["bot"]) for s in row["seats"]]
        assert kinds == [("human", None), ("empty", None), ("bot", "hard"), ("bot", "easy")]
        assert listed[unlimited["id"]]["clock"] is None
        assert listed[unlimited["id"]]["free_seats"] == [0]
        assert listed[unlimited["id"]]["options"]["match"] == "single"

        # A taken seat is refused; the last free seat starts the match.
        taken = other.post(f"/api/tables/{table_id}/join", json={"seat": 2})
        assert taken.status_code == 409 and taken.json()["code"] == "seat_taken"
        joined = other.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 200 and joined.json()["you"] == 1
        assert joined.json()["status"] == "playing"
        assert table_id not in {t["id"] for t in r.browser().get("/api/tables").json()}

        # Once started, nobody joins and the options stay as chosen (no way to change them).
        late = third.post(f"/api/tables/{table_id}/join", json={})
        assert late.status_code == 409
        for method in ("put", "patch"):
            response = getattr(host, method)(
                f"/api/tables/{table_id}", json={"options": {"fail_double": False}}
            )
            assert response.status_code == 405
        assert table_info(host, table_id)["options"]["fail_double"] is True
        with socks_on(table_id, host) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
            assert sock.view["options"]["fail_double"] is True
            assert sock.view["options"]["target"] == 7
            assert sock.view["variant"] == "minnesota"


def test_private_table_joins_by_invitation_only(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        host, friend, stranger = r.guest("host"), r.guest("friend"), r.guest("stranger")
        info = create(host, variant="german", options={}, clock=False, private=True)
        assert info["invite"]
        assert r.browser().get("/api/tables").json() == []
        assert stranger.post(f"/api/tables/{info['id']}/join", json={}).status_code == 404
        assert stranger.post("/api/invite/not-a-code/join", json={}).status_code == 404
        joined = friend.post(f"/api/invite/{info['invite']}/join", json={})
        assert joined.status_code == 200 and joined.json()["you"] == 1
        assert joined.json()["status"] == "playing"


def test_bad_table_requests_are_refused_and_leave_no_table(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        host = r.guest("host")
        bad = [
            {"variant": "no_such_game"},
            {"variant": "seven_houses"},
            {"variant": "minnesota", "options": {"fail_double": "maybe"}},
            {"variant": "minnesota", "options": {"no_such_option": 1}},
            {"variant": "minnesota", "bots": {"1": "genius"}},
            {"variant": "minnesota", "seat": 1, "bots": {"1": "easy"}},
            {"variant": "minnesota", "seat": 4},
            {"variant": "german", "bots": {"5": "easy"}},
            {"variant": "german", "bots": {"-1": "easy"}},
        ]
        for body in bad:
            response = host.post("/api/tables", json=body)
            assert response.status_code in (400, 422), (body, response.text)
        assert r.browser().get("/api/tables").json() == []
        assert r.repo.tables_with_status(["open", "playing"]) == []


def test_quickplay_joins_a_waiting_table_or_starts_one_against_medium_bots(
    tmp_path: Path,
) -> None:
    with room(tmp_path) as r:
        solo = r.guest("solo")
        response = solo.post("/api/quickplay", json={})
        assert response.status_code == 200, response.text
        game = response.json()
        assert game["you"] == 0 and game["status"] == "playing"
        assert game["variant"] == "minnesota" and game["clock"] == 0.5
        assert [(s["kind"], s["bot"]) for s in game["seats"][1:]] == [("bot", "medium")] * 3
        assert solo.post(f"/api/tables/{game['id']}/leave").status_code == 200

        host, guest = r.guest("host"), r.guest("guest")
        waiting = create(host, variant="german", options={"match": "single"}, clock=False)
        response = guest.post("/api/quickplay", json={"variant": "german"})
        assert response.status_code == 200, response.text
        assert response.json()["id"] == waiting["id"] and response.json()["you"] == 1
        assert response.json()["status"] == "playing"


# ============================================================== secret simultaneous choices
def test_minnesota_bids_are_secret_simultaneous_and_revealed_up_to_the_first_high(
    tmp_path: Path,
) -> None:
    with room(tmp_path) as r:
        table_id, browsers = seat_table(r, "minnesota", {"target": 1}, False, "n", "e", "s", "w")
        with socks_on(table_id, *browsers, r.browser()) as socks:
            players, spectator = socks[:4], socks[4]
            everyone = [*players, spectator]
            pump(everyone, lambda: all(s.legal for s in players))
            # All four may bid at once; nobody has chosen yet.
            for seat, sock in enumerate(players):
                assert sock.view["phase"] == "bid"
                assert sorted(sock.view["to_act"]) == [0, 1, 2, 3]
                assert sorted(a["bid"] for a in sock.legal) == ["high", "low"]
                assert all(a["seat"] == seat for a in sock.legal)
                assert sock.view["decided"] == [] and sock.view["revealed"] == []
            assert spectator.view["legal"] == []

            dealer = players[0].view["dealer"]
            order = [(dealer + 1 + i) % 4 for i in range(4)]
            bids = {order[0]: "low", order[1]: "high", order[2]: "high", order[3]: "low"}

            # The last seat in reveal order bids first (claiming another seat: ignored).
            first = order[3]
            victim = order[0]
            players[first].act({"seat": victim, "bid": bids[first]})
            pump(everyone, lambda: all(first in s.view["decided"] for s in everyone))
            for seat, sock in enumerate(players):
                assert sock.view["decided"] == [first]
                assert sock.view["revealed"] == []
                assert (sock.legal == []) == (seat == first)
            assert victim in players[victim].view["to_act"]
            assert players[first].pending is None

            # Acting a second time is refused (already chosen); a spectator cannot act.
            players[first].send(
                {"type": "act", "id": "twice", "action": {"seat": first, "bid": "high"}}
            )
            spectator.send({"type": "act", "id": "spy", "action": {"seat": 0, "bid": "high"}})
            pump(
                everyone,
                lambda: (
                    any(e.get("id") == "twice" for e in players[first].errors)
                    and any(e.get("id") == "spy" for e in spectator.errors)
                ),
            )
            assert [e["code"] for e in spectator.errors if e.get("id") == "spy"] == ["not_seated"]

            for seat in order[:3]:
                players[seat].act({"seat": seat, "bid": bids[seat]})
            pump(everyone, lambda: all(s.view["phase"] == "play" for s in everyone))
            expected = [{"seat": order[0], "choice": "low"}, {"seat": order[1], "choice": "high"}]
            for sock in everyone:
                assert sock.view["revealed"] == expected
                assert sock.view["contract"] == {"mode": "high", "grander": order[1]}

            pump(players, over(*players), choose=first_legal, timeout=30)
            pump(everyone, over(spectator))

        for sock in everyone:
            assert sock.frames
            for frame in sock.frames:
                assert bid_leaks(frame, ("high", "low"), "bid") == [], frame
                assert reveal_problems(frame, lambda c: c == "high") == [], frame
        # The two bids after the first high went to nobody, in no frame at all.
        text = "\n".join(json.dumps(f) for s in everyone for f in s.frames)
        for seat in order[2:]:
            assert f'"seat":{seat},"choice"' not in text.replace(" ", "")


def test_swedish_bottom_cards_are_secret_and_revealed_up_to_the_first_red(
    tmp_path: Path,
) -> None:
    with room(tmp_path) as r:
        table_id, browsers = seat_table(r, "swedish", {}, False, "n", "e", "s", "w")
        with socks_on(table_id, *browsers, r.browser()) as socks:
            players, everyone = socks[:4], socks
            pump(everyone, lambda: all(s.legal for s in players))
            for seat, sock in enumerate(players):
                assert sock.view["phase"] == "bid"
                assert sorted(sock.view["to_act"]) == [0, 1, 2, 3]
                assert {a["bottom"] for a in sock.legal} == set(sock.view["hand"])
                assert all(a["seat"] == seat for a in sock.legal)

            dealer = players[0].view["dealer"]
            order = [(dealer + 1 + i) % 4 for i in range(4)]

            def pick(seat: int, red: bool) -> str | None:
                hand = players[seat].view["hand"]
                cards = [c for c in hand if (c[-1] in RED_SUITS) == red]
                return cards[0] if cards else None

            wanted = [False, True, True, False]
            chosen: dict[int, str] = {}
            for seat, red in zip(order, wanted, strict=True):
                card = pick(seat, red) or players[seat].view["hand"][0]
                chosen[seat] = card

            # Lock them in the reverse of the reveal order; each stays secret.
            for count, seat in enumerate(reversed(order), start=1):
                players[seat].act({"seat": seat, "bottom": chosen[seat]})
                if count < 4:
                    pump(
                        everyone, lambda n=count: all(len(s.view["decided"]) == n for s in everyone)
                    )
                    for sock in everyone:
                        assert sock.view["revealed"] == []
                        assert sock.view["phase"] == "bid"
            pump(everyone, lambda: all(s.view["phase"] == "play" for s in everyone))

            colours = [(seat, chosen[seat][-1] in RED_SUITS) for seat in order]
            stop = next((i for i, (_, red) in enumerate(colours) if red), 3)
            expected = [{"seat": seat, "choice": chosen[seat]} for seat in order[: stop + 1]]
            for sock in everyone:
                assert sock.view["revealed"] == expected
                assert sock.view["decided"] == []

        for sock in everyone:
            for frame in sock.frames:
                assert bid_leaks(frame, ("spel", "pass"), "bottom") == [], frame
                assert reveal_problems(frame, lambda c: c[-1] in RED_SUITS) == [], frame
                if frame["type"] == "state":
                    for action in frame["view"]["legal"]:
                        assert action["seat"] == frame["view"]["seat"]


# ===================================================================== clocks, takeover
def _deadline_seen(sock: Sock, seat: int) -> bool:
    return sock.table is not None and str(seat) in sock.table["deadlines"]


def test_clock_runs_out_and_a_medium_bot_takes_over_for_good(tmp_path: Path) -> None:
    with room(tmp_path, clock_seconds=1.0) as r:
        idle = r.guest("idle")
        info = alone_with_bots(idle)
        table_id = info["id"]
        with socks_on(table_id, idle, r.browser()) as (sock, watcher):
            # The clock lives on the server; clients get the deadline of the seat to act.
            pump([sock, watcher], lambda: bool(sock.legal) and _deadline_seen(sock, 0), timeout=5)
            started = time.time()
            deadline_ms = sock.table["deadlines"]["0"]
            assert started * 1000 - 100 < deadline_ms <= (started + 1.0) * 1000 + 100
            assert watcher.table is not None and "0" in watcher.table["deadlines"]

            pump([sock, watcher], lambda: seat_of(sock, 0).get("kind") == "bot", timeout=5)
            seat = sock.table["seats"][0]
            assert seat == {**seat, "kind": "bot", "bot": "medium", "replaced": True}
            assert time.time() >= deadline_ms / 1000 - 0.05  # not before the deadline
            assert sock.table["you"] is None  # no longer this player's seat

            # The bot plays the rest of the match; the replaced player can no longer act.
            sock.send({"type": "act", "id": "late", "action": {"seat": 0, "bid": "high"}})
            pump([sock, watcher], over(sock, watcher), timeout=30)
            assert [e["code"] for e in sock.errors if e.get("id") == "late"] == ["not_seated"]
            assert sock.table["status"] == "finished"
            assert sock.table["deadlines"] == {}
        assert me(idle)["xp"] == 0
        row = table_row(r, table_id)
        assert row.status == "finished" and row.result is not None


def test_unlimited_time_has_no_countdown_and_no_takeover(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        slow = r.guest("slow")
        info = alone_with_bots(slow, clock=False)
        assert info["clock"] is None
        with socks_on(info["id"], slow) as (sock,):
            pump([sock], lambda: bool(sock.legal))
            time.sleep(1.2)  # more than twice the clock of clocked tables
            sock.drain()
            assert sock.table is not None and sock.table["deadlines"] == {}
            assert sock.table["seats"][0]["kind"] == "human"
            assert all(f["table"]["deadlines"] == {} for f in sock.frames if "table" in f)
            assert table_info(slow, info["id"])["deadlines"] == {}
            message_id = sock.act(sock.legal[0])
            pump([sock], lambda: any(a["id"] == message_id for a in sock.acks))
            pump([sock], over(sock), choose=first_legal, timeout=30)
            assert all(not s["replaced"] for s in sock.table["seats"])
            assert all(f["table"]["deadlines"] == {} for f in sock.frames if "table" in f)


def test_each_move_gets_a_fresh_clock(tmp_path: Path) -> None:
    """A seat that acts and is to act again (it won the trick it followed to) gets a new
    full clock, not what was left of the previous one."""
    with room(tmp_path, clock_seconds=5.0) as r:
        human = r.guest("human")
        info = create(
            human, variant="german", options={"match": "single"}, clock=True, bots={"1": "easy"}
        )
        checked = 0
        with socks_on(info["id"], human) as (sock,):
            while checked < 2:
                pump([sock], lambda: sock.can_act() or status_of(sock) == "finished")
                if status_of(sock) == "finished":
                    break
                assert pump([sock], lambda: _deadline_seen(sock, 0), timeout=2, fail=False), (
                    "the seat to act was never sent its deadline"
                )
                before = sock.table["deadlines"]["0"]
                time.sleep(0.05)
                message_id = sock.act(sock.legal[0])
                pump([sock], lambda: sock.pending is None)
                acked = next(a["version"] for a in sock.acks if a["id"] == message_id)
                pump([sock], lambda acked=acked: sock.version >= acked)
                if sock.version == acked and sock.legal:
                    # Still this seat's turn right after its own move: a new full clock.
                    renewed = pump(
                        [sock],
                        lambda before=before: sock.table["deadlines"].get("0", before) != before,
                        timeout=1,
                        fail=False,
                    )
                    assert renewed, "the clock went on from the previous move"
                    assert sock.table["deadlines"]["0"] >= before + 40
                    checked += 1
        assert checked, "the human never had two turns in a row"


@pytest.mark.parametrize("clock", [True, False])
def test_a_player_who_leaves_is_replaced_by_a_bot_whatever_the_clock(
    tmp_path: Path, clock: bool
) -> None:
    with room(tmp_path, clock_seconds=20.0) as r:
        table_id, (stayer, leaver) = seat_table(
            r, "german", {"match": "single"}, clock, "stayer", "leaver"
        )
        with socks_on(table_id, stayer, leaver) as (stay, gone):
            pump([stay, gone], lambda: stay.state is not None and gone.state is not None)
            response = leaver.post(f"/api/tables/{table_id}/leave")
            assert response.status_code == 200 and response.json() == {"left": 1}
            pump([stay], lambda: seat_of(stay, 1).get("kind") == "bot")
            seat = stay.table["seats"][1]
            assert seat["bot"] == "medium" and seat["replaced"] is True
            assert stay.table["seats"][0]["kind"] == "human"
            assert stay.table["status"] == "playing"
            # The one who left acts no more and cannot come back to that seat.
            gone.send({"type": "act", "id": "back", "action": {"seat": 1, "resign": True}})
            pump([gone], lambda: any(e.get("id") == "back" for e in gone.errors))
            assert leaver.post(f"/api/tables/{table_id}/leave").status_code == 409
            pump([stay], over(stay), choose=first_legal, timeout=30)
            assert stay.table["status"] == "finished"
            winner = stay.view["winner"]
            if winner == 0:
                pump([stay], lambda: got_xp(stay))
        assert me(leaver)["xp"] == 0
        assert me(stayer)["xp"] == (100 if winner == 0 else 0)


def test_short_drop_then_reconnect_keeps_the_seat(tmp_path: Path) -> None:
    with room(tmp_path, clock_seconds=3.0) as r:
        player = r.guest("player")
        info = alone_with_bots(player)
        table_id = info["id"]
        first = Sock(player, table_id)
        try:
            pump([first], lambda: bool(first.legal) and seat_of(first, 0).get("connected"))
        finally:
            first.close()
        listing = table_info(player, table_id)
        assert listing["seats"][0]["connected"] is False
        assert listing["seats"][0]["kind"] == "human"
        time.sleep(0.3)
        with socks_on(table_id, player) as (again,):
            pump([again], lambda: bool(again.legal))
            assert again.table["seats"][0] == {
                **again.table["seats"][0],
                "kind": "human",
                "replaced": False,
                "connected": True,
            }
            assert again.table["you"] == 0
            message_id = again.act(again.legal[0])
            pump([again], lambda: any(a["id"] == message_id for a in again.acks), timeout=5)
            assert not again.errors


def test_reconnect_after_takeover_finds_the_seat_gone(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        player = r.guest("player")
        info = create(
            player,
            variant="german",
            options={"match": "single"},
            clock=True,
            bots={"1": "easy"},
        )
        table_id = info["id"]
        with socks_on(table_id, player) as (first,):
            pump([first], lambda: first.state is not None)
        watcher = r.browser()
        with socks_on(table_id, watcher) as (watch,):
            pump([watch], lambda: seat_of(watch, 0).get("kind") == "bot", timeout=10)
        with socks_on(table_id, player) as (again,):
            pump([again], lambda: again.state is not None)
            assert again.table["you"] is None and again.view["seat"] is None
            assert again.table["seats"][0]["replaced"] is True
            again.send({"type": "act", "id": "x", "action": {"seat": 0, "resign": True}})
            pump([again], lambda: any(e.get("id") == "x" for e in again.errors))
            assert again.errors[-1]["code"] == "not_seated"


def test_nobody_can_act_for_another_player(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (one, two) = seat_table(r, "german", {"match": "single"}, False, "one", "two")
        outsider = r.guest("outsider")
        with socks_on(table_id, one, two, outsider) as (s1, s2, so):
            pump([s1, s2, so], lambda: bool(s1.legal or s2.legal))
            mover, waiter = (s1, s2) if s1.legal else (s2, s1)
            waiter_seat = waiter.view["seat"]
            before = waiter.version
            # The waiter claims the mover's seat and card: it acts for its own seat only.
            card = mover.legal[0]["play"]
            waiter.send(
                {
                    "type": "act",
                    "id": "spoof",
                    "action": {"seat": mover.view["seat"], "play": card},
                }
            )
            so.send({"type": "act", "id": "out", "action": {"seat": 0, "resign": True}})
            pump(
                [s1, s2, so],
                lambda: (
                    any(e.get("id") == "spoof" for e in waiter.errors)
                    and any(e.get("id") == "out" for e in so.errors)
                ),
            )
            assert so.errors[-1]["code"] == "not_seated"
            assert waiter.version == before and mover.legal
            assert waiter_seat != mover.view["seat"]
            # HTTP too: an outsider cannot leave or suspend someone else's table.
            assert outsider.post(f"/api/tables/{table_id}/leave").status_code == 409
            assert outsider.post(f"/api/tables/{table_id}/suspend").status_code == 409
            assert r.browser().post(f"/api/tables/{table_id}/leave").status_code == 401
            assert all(s["kind"] == "human" for s in table_info(one, table_id)["seats"])


# ========================================================================= end of a match
def test_xp_goes_once_to_the_human_members_of_the_winning_side(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        browsers = [r.guest(name) for name in ("a", "b", "c")]
        info = create(
            browsers[0], variant="minnesota", options={"target": 1}, clock=False, bots={"3": "easy"}
        )
        table_id = info["id"]
        for seat in (1, 2):
            assert (
                browsers[seat].post(f"/api/tables/{table_id}/join", json={"seat": seat}).status_code
                == 200
            )
        ids = [me(b)["id"] for b in browsers]
        with socks_on(table_id, *browsers) as socks:
            pump(socks, over(*socks), choose=first_legal, timeout=30)
            winner = socks[0].view["winner"]
            assert winner in (0, 1)
            pump(socks, lambda: all(got_xp(s) for s in socks if s.view["seat"] % 2 == winner))
            time.sleep(0.1)
            for sock in socks:
                sock.drain()
            for seat, sock in enumerate(socks):
                xp_frames = [f for f in sock.frames if f["type"] == "xp"]
                assert xp_frames == ([{"type": "xp", "gained": 100}] if seat % 2 == winner else [])
        for seat, browser in enumerate(browsers):
            mine = me(browser)
            assert mine["xp"] == (100 if seat % 2 == winner else 0)
        winners = {ids[seat]: 100 for seat in range(3) if seat % 2 == winner}
        # Crediting the same match again credits nothing.
        assert r.repo.award_xp(table_id, winners) == {}
        for seat, browser in enumerate(browsers):
            assert me(browser)["xp"] == (100 if seat % 2 == winner else 0)
        row = table_row(r, table_id)
        assert row.status == "finished" and row.result["winner"] == winner


def test_two_player_winner_gets_xp_and_unlocks_a_back_and_a_face(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, browsers = seat_table(r, "german", {"match": "single"}, False, "p0", "p1")
        with socks_on(table_id, *browsers) as socks:
            pump(socks, over(*socks), choose=first_legal, timeout=30)
            winner = socks[0].view["winner"]
            assert winner in (0, 1)
            pump(socks, lambda: got_xp(socks[winner]))
        won, lost = me(browsers[winner]), me(browsers[1 - winner])
        assert (won["xp"], won["level"]) == (100, 2)
        assert (lost["xp"], lost["level"]) == (0, 1)
        assert won["unlocked"] == {
            "card_backs": ["classic", "blue"],
            "card_faces": ["classic", "four_colour"],
        }
        assert r.repo.award_xp(table_id, {won["id"]: 100, lost["id"]: 100}) == {lost["id"]: 100}
        assert me(browsers[winner])["xp"] == 100


def test_resigning_is_a_loss_without_xp(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (quitter, other) = seat_table(
            r, "german", {"match": "single"}, False, "quitter", "other"
        )
        with socks_on(table_id, quitter, other) as (sq, so):
            pump([sq, so], lambda: sq.state is not None and sq.view["deal"] is not None)
            sq.act({"seat": 0, "resign": True})
            pump([sq, so], lambda: over(sq, so)() and got_xp(so))
            assert sq.view["resigned"] == 0 and sq.view["winner"] == 1
            assert not [f for f in sq.frames if f["type"] == "xp"]
        assert me(quitter)["xp"] == 0
        assert me(other)["xp"] == 100
        row = table_row(r, table_id)
        assert row.status == "finished" and row.result["reason"] == "resigned"

        # Alone against bots: resigning gives nobody anything.
        solo = r.guest("solo")
        info = alone_with_bots(solo, variant="classic", clock=False)
        with socks_on(info["id"], solo) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
            sock.act({"seat": 0, "resign": True})
            pump([sock], over(sock))
            assert sock.view["winner"] == 1 and sock.table["status"] == "finished"
        assert me(solo)["xp"] == 0


def test_the_clock_stops_when_the_match_ends(tmp_path: Path) -> None:
    """A resignation during the secret bids ends the match while another human's clock
    runs: that clock stops, nobody is replaced after the end."""
    # A clock long enough that a busy machine still sees both bids asked for before it runs
    # out (with 1 s, a loaded CI machine once saw bots take over and finish the match first).
    with room(tmp_path, clock_seconds=4.0) as r:
        quitter, other = r.guest("quitter"), r.guest("other")
        info = create(
            quitter,
            variant="minnesota",
            options={"target": 1},
            clock=True,
            bots={"2": "easy", "3": "easy"},
        )
        assert other.post(f"/api/tables/{info['id']}/join", json={"seat": 1}).status_code == 200
        with socks_on(info["id"], quitter, other) as (sq, so):
            pump([sq, so], lambda: bool(sq.legal and so.legal) and _deadline_seen(so, 1))
            deadline = so.table["deadlines"]["1"] / 1000
            sq.act({"seat": 0, "resign": True})
            pump([sq, so], over(sq, so))
            pump([sq, so], lambda: so.table["deadlines"] == {}, timeout=1)
            version = so.version
            time.sleep(max(0.0, deadline - time.time()) + 0.3)  # past the other's deadline
            so.drain()
            assert so.version == version
            assert [s["kind"] for s in so.table["seats"]] == ["human", "human", "bot", "bot"]
        listing = table_info(other, info["id"])
        assert listing["seats"][1]["replaced"] is False and listing["deadlines"] == {}


def test_all_humans_leaving_abandons_the_table_without_result_or_xp(tmp_path: Path) -> None:
    with room(tmp_path, bot_delay=0.02) as r:
        table_id, (one, two) = seat_table(r, "german", {"match": "single"}, False, "one", "two")
        watcher = r.browser()
        with socks_on(table_id, watcher) as (watch,):
            pump([watch], lambda: watch.state is not None and watch.view["deal"] is not None)
            assert one.post(f"/api/tables/{table_id}/leave").status_code == 200
            pump([watch], lambda: seat_of(watch, 0).get("kind") == "bot")
            assert watch.table["status"] == "playing"
            assert two.post(f"/api/tables/{table_id}/leave").status_code == 200
            pump([watch], lambda: status_of(watch) == "abandoned")
            assert watch.table["end_reason"] == "abandoned"
            version = watch.version
            time.sleep(0.3)
            watch.drain()
            assert watch.version == version  # the bots stopped
            assert watch.view["winner"] is None and not watch.view["over"]
        assert table_info(one, table_id)["status"] == "abandoned"
        row = table_row(r, table_id)
        assert row.status == "abandoned" and row.result is None and row.finished_at is not None
        assert me(one)["xp"] == 0 and me(two)["xp"] == 0

        # Alone against bots: leaving abandons the table at once.
        solo = r.guest("solo")
        info = alone_with_bots(solo)
        assert solo.post(f"/api/tables/{info['id']}/leave").status_code == 200
        assert table_info(solo, info["id"])["status"] == "abandoned"
        assert table_row(r, info["id"]).result is None


def test_appearance_tracks_unlock_separately_and_refuse_locked_choices(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        player = r.guest("player")
        pid = me(player)["id"]

        def choose(back: str, face: str) -> int:
            response = player.put("/api/me/appearance", json={"card_back": back, "card_face": face})
            return response.status_code

        assert me(player)["unlocked"] == {"card_backs": ["classic"], "card_faces": ["classic"]}
        assert choose("blue", "classic") == 403
        assert choose("classic", "four_colour") == 403
        assert choose("no_such_back", "classic") == 403
        assert choose("classic", "classic") == 200

        set_xp(r, pid, 300)  # level 3
        mine = me(player)
        assert mine["level"] == 3
        assert mine["unlocked"]["card_backs"] == ["classic", "blue", "green"]
        assert mine["unlocked"]["card_faces"] == ["classic", "four_colour"]
        assert choose("green", "large_index") == 403  # the face track is behind
        assert choose("lattice", "four_colour") == 403
        assert choose("green", "four_colour") == 200
        mine = me(player)
        assert (mine["card_back"], mine["card_face"]) == ("green", "four_colour")

        set_xp(r, pid, 600)  # level 4: a face unlocks, no new back
        mine = me(player)
        assert mine["unlocked"]["card_backs"] == ["classic", "blue", "green"]
        assert mine["unlocked"]["card_faces"] == ["classic", "four_colour", "large_index"]
        assert choose("green", "large_index") == 200
        assert choose("lattice", "large_index") == 403
        assert (me(player)["card_back"], me(player)["card_face"]) == ("green", "large_index")


# ====================================================================== suspend and resume
def test_a_match_against_bots_can_be_suspended_and_resumed(tmp_path: Path) -> None:
    with room(tmp_path, clock_seconds=1.0) as r:
        player = r.guest("player")
        info = alone_with_bots(player)
        table_id = info["id"]
        with socks_on(table_id, player) as (sock,):
            pump([sock], lambda: bool(sock.legal) and _deadline_seen(sock, 0))
            deadline = sock.table["deadlines"]["0"] / 1000
            response = player.post(f"/api/tables/{table_id}/suspend")
            assert response.status_code == 200 and response.json() == {"suspended": True}
            pump([sock], lambda: status_of(sock) == "suspended")
            version = sock.version
        assert table_info(player, table_id)["status"] == "suspended"
        assert table_row(r, table_id).status == "suspended"
        time.sleep(max(0.0, deadline - time.time()) + 0.3)  # a saved match is not timed
        listing = table_info(player, table_id)
        assert listing["status"] == "suspended"
        assert listing["seats"][0]["kind"] == "human" and listing["deadlines"] == {}

        with socks_on(table_id, player) as (sock,):
            pump([sock], lambda: status_of(sock) == "playing" and bool(sock.legal))
            assert sock.table["seats"][0]["kind"] == "human"
            assert sock.version > version
            pump([sock], over(sock), choose=first_legal, timeout=30)
            assert sock.table["status"] == "finished"
            pump([sock], lambda: sock.table["deadlines"] == {}, timeout=1)
            assert not table_info(player, table_id)["seats"][0]["replaced"]


def test_suspended_while_bots_think_resumes_and_goes_on(tmp_path: Path) -> None:
    with room(tmp_path, bot_delay=0.3) as r:
        player = r.guest("player")
        info = create(
            player,
            variant="german",
            options={"match": "single"},
            clock=False,
            bots={"1": "easy"},
        )
        table_id = info["id"]
        with socks_on(table_id, player) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
            if sock.legal:
                sock.act(sock.legal[0])
                pump([sock], lambda: sock.pending is None)
            assert sock.view["to_act"] == [1]
            # The bot is thinking (it shows its move after 0.3 s): save the match now.
            assert player.post(f"/api/tables/{table_id}/suspend").status_code == 200
        time.sleep(0.5)
        assert table_info(player, table_id)["status"] == "suspended"
        with socks_on(table_id, player) as (sock,):
            pump([sock], lambda: status_of(sock) == "playing" and bool(sock.legal), timeout=5)


def test_only_a_lone_human_against_bots_can_suspend(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (one, _two) = seat_table(r, "german", {"match": "single"}, False, "one", "two")
        response = one.post(f"/api/tables/{table_id}/suspend")
        assert response.status_code == 409 and response.json()["code"] == "not_alone"
        assert table_info(one, table_id)["status"] == "playing"


# ================================================================= a bot over its budget
RESIGN = {"seat": 0, "resign": True}


def resigns(level: str, view: Any, seed: str, budget: float) -> dict[str, Any]:
    """A stand-in for a bot's thought: its own move, at once."""
    return RESIGN


def opening_view() -> View:
    match = new_match("german", {"match": "single"})
    match.start_deal(list(range(52)), dealer=0)
    return view_for(match, match.next_seat())


def timed_thoughts(
    workers: int, budget: float, *seeds: str, level: str = "master", view: View | None = None
) -> list[tuple[dict[str, Any], float]]:
    """A new pool's thoughts, one seed after another, each with the seconds it took."""
    view = view or opening_view()

    async def run() -> list[tuple[dict[str, Any], float]]:
        pool = server_bots.BotPool(workers, budget=budget)
        timed = []
        try:
            for seed in seeds:
                started = time.monotonic()
                timed.append((await pool.think(level, view, seed), time.monotonic() - started))
            return timed
        finally:
            pool.close()

    return asyncio.run(run())


def test_a_bot_over_its_budget_plays_a_safe_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()

    def stuck(level: str, view: Any, seed: str, budget: float) -> dict[str, Any]:
        release.wait(5)
        return RESIGN

    monkeypatch.setattr(server_bots, "choose", stuck)
    server_bots.warm_up_here()  # (a first thought waits for it: not what is timed here)
    view = opening_view()
    try:
        [(action, took)] = timed_thoughts(0, 0.05, "seed", level="hard", view=view)
    finally:
        release.set()
    assert took < 2.0
    assert action in view.to_json()["legal"]


def test_bots_in_the_server_process_warm_it_up_once_and_off_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without workers, a first MASTER thought would also pay for loading the solvers on
    its clock (and play the safe move instead): the pool warms the process up first."""
    warm_ups: list[float] = []

    def slow_warm_up() -> None:
        time.sleep(1.0)  # longer than the thought's whole allowance (budget + 0.5 s)
        warm_ups.append(time.monotonic())

    monkeypatch.setattr(server_bots, "_warmed_here", threading.Event())
    monkeypatch.setattr(server_bots, "warm_up", slow_warm_up)
    monkeypatch.setattr(server_bots, "choose", resigns)
    view = opening_view()

    async def run() -> list[dict[str, Any]]:
        pool = server_bots.BotPool(0, budget=0.05)
        try:
            first = await asyncio.gather(*(pool.think("master", view, f"s{i}") for i in range(3)))
            return [*first, await pool.think("master", view, "later")]
        finally:
            pool.close()

    actions = asyncio.run(run())
    assert actions == [RESIGN] * 4  # the bots' own moves, not safe ones
    assert len(warm_ups) == 1


def test_a_warm_up_that_hangs_holds_the_bots_up_no_longer_than_its_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A first thought waits for the warm-up off its clock, but not for ever: past
    ``WARM_UP_WAIT`` the bots think without it, and no later thought waits for it again."""
    release = threading.Event()
    monkeypatch.setattr(server_bots, "_warmed_here", threading.Event())
    monkeypatch.setattr(server_bots, "warm_up", lambda: release.wait(60))
    monkeypatch.setattr(server_bots, "choose", resigns)
    monkeypatch.setattr(server_bots, "WARM_UP_WAIT", 0.5)
    try:
        (first, first_took), (second, second_took) = timed_thoughts(0, 0.05, "first", "second")
    finally:
        release.set()
    assert first == second == RESIGN  # the bot's own moves
    assert 0.5 <= first_took < 2.0
    assert second_took < 0.4


def test_a_worker_whose_warm_up_hangs_plays_the_safe_move_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker stuck in its warm-up (forked with the stuck one) does not hold up the table:
    the bot's move comes within ``WARM_UP_WAIT`` and its thought's allowance."""
    monkeypatch.setattr(server_bots, "warm_up", lambda: time.sleep(60))
    monkeypatch.setattr(server_bots, "WARM_UP_WAIT", 0.5)
    view = opening_view()
    [(action, took)] = timed_thoughts(1, 0.2, "seed", view=view)
    assert action in view.to_json()["legal"]
    assert took < 0.5 + 0.2 + 0.5 + 1.0  # the wait, the budget, its grace, a loaded machine


def test_master_thinks_in_a_worker_process_within_its_budget(
    caplog: pytest.LogCaptureFixture,
) -> None:
    match = new_match("classic")
    match.start_deal(list(range(52)), dealer=0)
    for _ in range(5):  # into trick 2: a position with a real choice for MASTER
        match.apply(match.legal_actions()[0])
    view = view_for(match, match.next_seat())
    with caplog.at_level("WARNING"):
        # the first thought: the worker loads the solvers
        [_, (action, _)] = timed_thoughts(1, 1.0, "warm-up", "seed", view=view)
    assert action in view.to_json()["legal"]
    assert not [r for r in caplog.records if "overran" in r.getMessage()]


# ======================================================================= a failing store
def failing_appends(r: Room, fails: Callable[[Any], bool], most: int = 1000) -> list[Any]:
    """Make the store refuse each append ``fails`` picks once (at most ``most`` of them):
    returns the list of the appends refused."""
    club = r.app.state.club
    original = club.repo.append_batch
    refused: list[Any] = []

    def append_batch(batch: Any) -> None:
        for item in batch:
            if len(refused) < most and item not in refused and fails(item):
                refused.append(item)
                raise RuntimeError("the disk is full")
        original(batch)

    club.repo.append_batch = append_batch
    return refused


def test_an_action_the_store_refuses_is_an_error_and_the_table_goes_on(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, browsers = seat_table(r, "german", {"match": "single"}, False, "one", "two")
        with socks_on(table_id, *browsers) as socks:
            pump(socks, lambda: any(s.legal for s in socks))
            mover = next(s for s in socks if s.legal)
            version = mover.version
            refused = failing_appends(r, lambda item: item.table_id == table_id, most=1)
            message_id = mover.act(mover.legal[0])
            pump(socks, lambda: any(e.get("id") == message_id for e in mover.errors))
            assert len(refused) == 1 and mover.errors[-1]["code"] == "internal"
            assert all(s.version == version for s in socks), "nothing adopted, nothing sent"
            assert len(r.repo.log(table_id)) == version
            # The same action again is stored this time, and the match goes on to its end.
            mover.acted_version = -1
            pump(socks, over(*socks), choose=first_legal, timeout=30)
            assert len(r.repo.log(table_id)) == socks[0].version


def test_a_bot_move_the_store_refuses_is_thought_again(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        ann = r.guest("ann")
        table_id = create(ann, variant="german", options={"match": "single"}, clock=False,
                          bots={"1": "easy"})["id"]  # fmt: skip
        refused = failing_appends(
            r, lambda item: any(k == "action" and d["seat"] == 1 for k, d in item.entries), most=3
        )
        with socks_on(table_id, ann) as (sock,):
            pump([sock], over(sock), choose=first_legal, timeout=30)
        assert len(refused) == 3, "three bot moves were refused once, then stored"
        assert table_row(r, table_id).status == "finished"


def test_a_finished_match_is_kept_with_sheet_replay_and_a_seat_only_record(
    tmp_path: Path,
) -> None:
    with room(tmp_path) as r:
        table_id, (p0, p1) = seat_table(r, "german", {"match": "single"}, False, "p0", "p1")
        with socks_on(table_id, p0, p1) as socks:
            pump(socks, over(*socks), choose=first_legal, timeout=30)
            final = socks[0].view
        games = p0.get("/api/games").json()
        assert [g["id"] for g in games] == [table_id]
        assert games[0]["over"] and games[0]["you"] == 0
        game = p0.get(f"/api/games/{table_id}").json()
        (row,) = game["sheet"]
        assert row["complete"] and row["score"] == final["scores"]
        assert sum(row["tricks"]) == 13  # German Whist counts the last 13 tricks
        assert game["replay"]["deals"]
        response = p0.get(f"/api/games/{table_id}/record")
        assert "attachment" in response.headers["content-disposition"]
        record = response.json()
        assert record["format"] == "whist-record/1"
        # The other player's record differs: each holds only what its seat saw.
        assert p1.get(f"/api/games/{table_id}/record").json() != record
        stranger = r.guest("stranger")
        assert stranger.get(f"/api/games/{table_id}").status_code == 404


def test_the_config_tells_the_browser_the_socket_addresses_and_the_clock(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        assert r.client.get("/api/config").json() == {
            "sockets": [],
            "clock_seconds": 0.5,
            "pace": 1.0,
            **served_facts(),
        }
    nodes = ["wss://a.example.com", "wss://b.example.com"]
    with room(tmp_path / "two", socket_urls=nodes, cookie_domain="example.com") as r:
        assert r.client.get("/api/config").json()["sockets"] == nodes
        response = r.browser().post("/api/guest", json={"nickname": "ann"})
        # The session cookie reaches every node of the club.
        assert "domain=example.com" in response.headers["set-cookie"].lower()


def served_facts() -> dict[str, Any]:
    """The lists of facts /api/config serves, written out as the client reads them."""
    return {
        "levels": ["easy", "medium", "hard", "master"],
        "languages": [
            {"code": "en", "name": "English"},
            {"code": "sv", "name": "Svenska"},
            {"code": "nb", "name": "Norsk bokmål"},
            {"code": "cs", "name": "Čeština"},
        ],
        "xp": {
            "win": 100,
            "level_at": [
                *(0, 100, 300, 600, 1000, 1500, 2100, 2800, 3600, 4500),
                *(5500, 6600, 7800, 9100, 10500, 12000, 13600, 15300, 17100, 19000),
            ],
        },
        "unlocks": {"card_backs": CARD_BACKS, "card_faces": CARD_FACES},
    }


def test_the_config_serves_the_python_lists_of_levels_languages_xp_and_unlocks(
    tmp_path: Path,
) -> None:
    with room(tmp_path, table_pace=0.5) as r:
        config = r.client.get("/api/config").json()
        variants = r.client.get("/api/variants").json()
    assert config["pace"] == 0.5
    assert config["levels"] == list(LEVELS)
    assert "bot_levels" not in variants  # one list: the config's
    assert [language["code"] for language in config["languages"]] == list(LANGUAGES)
    assert {lang["code"]: lang["name"] for lang in config["languages"]} == LANGUAGE_NAMES
    assert config["xp"]["win"] == XP_FOR_A_WIN
    # level_at[n - 1]: the XP at which level n is reached, for levels 1..20.
    level_at = config["xp"]["level_at"]
    assert len(level_at) == 20
    for level, xp in enumerate(level_at, start=1):
        assert level_for(xp) == level
        assert xp == 0 or level_for(xp - 1) == level - 1
    assert config["unlocks"] == {"card_backs": CARD_BACKS, "card_faces": CARD_FACES}
    assert {v["key"]: v["title"] for v in variants["variants"]} == {
        key: VARIANT_TITLES[key] for key in VARIANTS
    }
    assert variants["unavailable"] == {
        key: {"title": VARIANT_TITLES[key], "reason": UNAVAILABLE[key].reason}
        for key in UNAVAILABLE
    }
