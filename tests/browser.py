"""What the browser tests share: a real `whist serve` process on a free port, Debian's
Chromium driven by Playwright, a signed-in person per browser context, and the moves a person
makes (read from the DOM the way a person reads the table). The fixtures are registered in
tests/conftest.py, so every tests/test_browser*.py file gets them.

Screenshots land in ./artifacts/screenshots/ (gitignored)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    Page,
    Playwright,
    WebSocket,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from whist.server.bots import exit_with_parent

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
FAILURES = ROOT / "artifacts" / "browser-failures"  # pages and server logs of a failed test
CATALOGUES = ROOT / "src" / "whist" / "web" / "i18n"

STEP_MS = 20_000  # one wait for the page (a bot's move, a reconnect, a page load)
DEAL_SECONDS = 120.0  # a whole deal, clicked through
DESKTOP = (1366, 800)  # the window sizes the tests look at: a laptop, and a phone
PHONE = (390, 844)

expect.set_options(timeout=STEP_MS)

# What the page lets the player do now, read from the DOM the way a person reads the table:
# a finished deal, a highlighted card, an enabled decision button.
NEXT_MOVE_JS = """() => {
  if (document.querySelector('[data-testid="deal-summary"], [data-testid="match-result"]')) {
    return 'done';
  }
  const card = document.querySelector('[data-testid="card"][data-playable="true"]');
  if (card) return 'card:' + card.dataset.card;
  for (const kind of ['bid', 'take', 'trump']) {
    const button = document.querySelector(`[data-${kind}]:not([disabled])`);
    if (button && button.tagName === 'BUTTON') return kind + ':' + button.dataset[kind];
  }
  return null;
}"""

LAYOUT_JS = """() => ({
  scrollWidth: document.documentElement.scrollWidth,
  cards: Array.from(document.querySelectorAll('[data-testid="card"]'), (el) => {
    const box = el.getBoundingClientRect();
    return [el.dataset.card, box.left, box.right];
  }),
})"""


# The player's settings as the table starts with them (PUT /api/me/settings).
SETTINGS_JS = """async (settings) => {
  const response = await fetch('/api/me/settings', {
    method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(settings),
  });
  if (!response.ok) throw new Error('settings: ' + response.status + ' ' + await response.text());
  return await response.json();
}"""

SETTINGS_DEFAULTS: dict[str, Any] = {
    "sound": True,
    "animation": "normal",
    "card_size": "normal",
    "hand_order": "alternate",
    "auto_play": True,
    "preselect": True,
}


# ---------------------------------------------------------------------------- the server
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`python -m whist.cli serve` in its own process group, on a fixed port and data dir,
    so that it can be killed and started again where the page expects it."""

    def __init__(self, data_dir: Path, env: dict[str, str]) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.env = {
            **os.environ,
            "WHIST_BOT_WORKERS": "0",
            "WHIST_BOT_DELAY": "0",
            # Tables held on screen a third as long as for people (a test that looks at the
            # table's own pace sets 1).
            "WHIST_TABLE_PACE": "0.3",
            "WHIST_RATE_LIMIT_PER_SECOND": "1000",
            "WHIST_RATE_LIMIT_BURST": "1000",
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert self.proc is None, "already running"
        self.starts += 1
        with self.log.open("ab") as log:
            log.write(f"--- start {self.starts}\n".encode())
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "whist.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--data-dir",
                    str(self.data_dir),
                ],
                cwd=self.data_dir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=exit_with_parent,  # a killed test run leaves no server behind
            )
        self.wait_ready()

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                pytest.fail(f"the server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/variants", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.05)
        pytest.fail(f"the server did not answer within {timeout:.0f} s:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to the sockets (a crash)."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def output(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
        except OSError:
            return "(no log)"


def failed(request: pytest.FixtureRequest, before: int) -> bool:
    """Whether the test failed (its call report is counted before fixtures tear down)."""
    return request.session.testsfailed > before


@pytest.fixture
def start_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []
    failures_before = request.session.testsfailed

    def start(**env: str) -> Server:
        data_dir = tmp_path / f"server{len(servers)}"
        data_dir.mkdir()
        server = Server(data_dir, env)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.kill()
    if failed(request, failures_before):
        FAILURES.mkdir(parents=True, exist_ok=True)
        for i, server in enumerate(servers):
            target = FAILURES / f"{request.node.name}-server{i}.log"
            target.write_bytes(server.log.read_bytes())


# --------------------------------------------------------------------------- the browser
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium "
            "(`bash scripts/setup.sh` installs it with apt-get install chromium)",
            pytrace=False,
        )
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@dataclass
class Frames:
    """The WebSocket frames a page sent and received (JSON), across reconnects."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)

    console: list[str] = field(default_factory=list)

    def watch(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self._add(self.sent, payload))
        ws.on("framereceived", lambda payload: self._add(self.received, payload))

    @staticmethod
    def _add(into: list[dict[str, Any]], payload: str | bytes) -> None:
        try:
            into.append(json.loads(payload))
        except (ValueError, TypeError):
            into.append({"type": "unreadable"})


@dataclass
class Player:
    name: str
    page: Page
    frames: Frames
    errors: list[str]


def open_player(
    browser: Browser,
    server: Server,
    name: str,
    width: int = 1280,
    height: int = 900,
    mobile: bool = False,
    same_as: Player | None = None,
) -> Player:
    """A person in a browser context of their own (own cookies), signed in as a guest (or,
    ``same_as``, the same person on another device: her session cookie, no new sign-in)."""
    context = browser.new_context(
        base_url=server.url,
        viewport={"width": width, "height": height},
        is_mobile=mobile,
        has_touch=mobile,
        locale="en-US",
        reduced_motion="reduce",  # the table's animations hold half as long
        storage_state=same_as.page.context.storage_state() if same_as else None,
    )
    context.set_default_timeout(STEP_MS)
    page = context.new_page()
    frames = Frames()
    errors: list[str] = []
    page.on("websocket", frames.watch)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: frames.console.append(f"{msg.type}: {msg.text}"))
    player = Player(name, page, frames, errors)
    if same_as is None:
        sign_in(player)
    return player


@pytest.fixture
def new_player(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Callable[..., Player]]:
    """``open_player`` for a test: the pages and frames of a failed test are kept."""
    players: list[Player] = []
    failures_before = request.session.testsfailed

    def make(server: Server, name: str, *size: Any, **options: Any) -> Player:
        player = open_player(browser, server, name, *size, **options)
        players.append(player)
        return player

    yield make
    if failed(request, failures_before):
        FAILURES.mkdir(parents=True, exist_ok=True)
        for i, player in enumerate(players):
            stem = FAILURES / f"{request.node.name}-{i}-{player.name}"
            with contextlib.suppress(Exception):
                player.page.screenshot(path=f"{stem}.png", full_page=True)
            lines = [f"url: {player.page.url}", f"page errors: {player.errors}"]
            lines += player.frames.console
            lines += [f"sent: {json.dumps(f)}" for f in player.frames.sent[-30:]]
            lines += [f"received: {json.dumps(f)[:600]}" for f in player.frames.received[-30:]]
            Path(f"{stem}.log").write_text("\n".join(lines), encoding="utf-8")
    for player in players:
        player.page.context.close()


# ----------------------------------------------------------------------------- actions
def sign_in(player: Player) -> None:
    page = player.page
    page.goto("/")
    guest = page.get_by_test_id("guest-form")
    guest.locator("input[name=nickname]").fill(player.name)
    guest.locator("button[type=submit]").click()
    expect(page.locator("main#main")).to_have_attribute("data-view", "lobby")
    expect(page.get_by_test_id("who")).to_contain_text(player.name)


def save_settings(player: Player, **changes: Any) -> dict[str, Any]:
    """Save the player's settings: the defaults with `changes`."""
    saved = player.page.evaluate(SETTINGS_JS, {**SETTINGS_DEFAULTS, **changes})
    assert isinstance(saved, dict)
    return saved


def open_table(player: Player, body: dict[str, Any]) -> str:
    """Create a table through the API with the player's session, and open it."""
    response = player.page.request.post("/api/tables", data=body)
    assert response.ok, response.text()
    table: str = response.json()["id"]
    player.page.goto(f"/#/table/{table}")
    expect(player.page.get_by_test_id("table-page")).to_be_visible()
    return table


def bot_table(player: Player, variant: str, players: int) -> str:
    """A new private table of `variant` through the API, the player in seat 0 and EASY bots
    in the others, without a clock (nobody takes the seat while the page is looked at); not
    opened. Returns its id."""
    response = player.page.request.post(
        "/api/tables",
        data={
            "variant": variant,
            "options": {},
            "clock": False,
            "private": True,
            "seat": 0,
            "bots": {str(seat): "easy" for seat in range(1, players)},
        },
    )
    assert response.ok, response.text()
    table: str = response.json()["id"]
    return table


def site_pages(me: str, game: str, variants: list[str]) -> list[tuple[str, str, str]]:
    """Every page of the client but the tables, the lobby and the sign-in page: (name, hash
    route, a selector that is visible once the page is drawn). `me` is the player's id,
    `game` a table of theirs."""
    return [
        ("profile", "#/profile", "main h1"),
        ("games", "#/games", "main h1"),
        ("game", f"#/games/{game}", "main h1"),
        ("rules", "#/rules", "main h1"),
        ("leaderboard", "#/leaderboard", "main h1"),
        ("leaderboard-minnesota", "#/leaderboard/minnesota", "main h1"),
        ("player", f"#/players/{me}", "main h1"),
    ] + [(f"rules-{key}", f"#/rules/{key}", '[data-testid="rules-body"] h1') for key in variants]


def visit(page: Page, route: str, ready: str) -> None:
    """Go to a page of the client (a hash route) and wait until it is drawn."""
    page.goto(f"/{route}")
    expect(page.locator(ready)).to_be_visible()


def quick_play(player: Player) -> str:
    """Quick play: a new Minnesota table against three MEDIUM bots. Returns its id."""
    page = player.page
    page.get_by_test_id("quick-play").click()
    expect(page.get_by_test_id("table-page")).to_be_visible()
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    return table_id(page)


def table_id(page: Page) -> str:
    page.wait_for_url("**/#/table/*")
    return page.url.rsplit("/", 1)[-1]


def resize(page: Page, width: int, height: int) -> None:
    """Give the window a new size and wait until the page is laid out for it.  Chromium may
    keep a text's width from the old size until its next frame: a bot's name measured 4 px
    past a 390 px phone just after a switch from desktop size, and laid out right one frame
    later (a person never sees that frame; a test measuring at once did, 2 runs in 6)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("(w) => innerWidth === w", arg=width, polling=50)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


BOX_JS = """(testid) => {
  const el = document.querySelector(`[data-testid="${testid}"]`);
  if (!el || !el.getClientRects().length) return null;
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height };
}"""


def box_of(page: Page, testid: str) -> dict[str, float] | None:
    """Where the first element with `testid` is on the page, measured in one go (the table
    redraws its buttons and cards while bots play: a locator's element can be replaced
    between finding it and measuring it); None when there is none or it is not displayed."""
    result = page.evaluate(BOX_JS, testid)
    return result if isinstance(result, dict) else None


def next_move(page: Page) -> str | None:
    result = page.evaluate(NEXT_MOVE_JS)
    return result if isinstance(result, str) else None


def wait_next_move(page: Page, timeout_ms: float = STEP_MS) -> str:
    handle = page.wait_for_function(NEXT_MOVE_JS, timeout=timeout_ms, polling=50)
    move = handle.json_value()
    assert isinstance(move, str)
    return move


def selector(move: str) -> str:
    kind, value = move.split(":", 1)
    if kind == "card":
        return f'[data-testid="card"][data-card="{value}"][data-playable="true"]'
    return f'button[data-{kind}="{value}"]:not([disabled])'


def make_move(page: Page, move: str) -> bool:
    """Click what `move` names; true once the page took it (the card or button is no longer
    on offer: the action went out). A click that lands on nothing is tried again later."""
    target = selector(move)
    try:
        page.locator(target).click(timeout=5_000)
        page.wait_for_function(
            "(sel) => !document.querySelector(sel)", arg=target, timeout=5_000, polling=50
        )
    except PlaywrightError:  # re-rendered under the click: the next round tries again
        return False
    return True


def decide_until_a_card(page: Page) -> str:
    """Make every decision the page offers (a bid) until a card is highlighted; the card."""
    deadline = time.monotonic() + 3 * STEP_MS / 1000
    while time.monotonic() < deadline:
        move = wait_next_move(page)
        if move.startswith("card:"):
            return move
        assert move != "done", "the deal ended before it was this seat's turn to play"
        make_move(page, move)
    raise AssertionError("no card became playable")


def play_deal(players: list[Player], seconds: float = DEAL_SECONDS) -> None:
    """Click through one deal on every page until each shows the deal (or match) over."""
    done = [False] * len(players)
    deadline = time.monotonic() + seconds
    while not all(done):
        assert time.monotonic() < deadline, (
            f"the deal did not end within {seconds:.0f} s; status: "
            + " | ".join(p.page.get_by_test_id("status").inner_text() for p in players)
        )
        moved = False
        for i, player in enumerate(players):
            if done[i]:
                continue
            if len(players) == 1:
                move: str | None = wait_next_move(player.page)
            else:
                move = next_move(player.page)
            if move == "done":
                done[i] = True
            elif move is not None:
                moved = make_move(player.page, move) or moved
        if not moved and len(players) > 1:
            players[0].page.wait_for_timeout(50)  # a small poll: the others are thinking


def frame_marks(player: Player) -> tuple[int, int]:
    return len(player.frames.sent), len(player.frames.received)


def acts_and_answers(player: Player, since: tuple[int, int]) -> tuple[list[Any], list[Any]]:
    """The `act` frames the page sent and the ack/error frames it got since `since`."""
    sent = [f for f in player.frames.sent[since[0] :] if f.get("type") == "act"]
    answers = [f for f in player.frames.received[since[1] :] if f.get("type") in {"ack", "error"}]
    return sent, answers


def acked_actions(player: Player, since: tuple[int, int]) -> list[dict[str, Any]]:
    """The actions the page sent since `since`, each sent once and acknowledged once, none
    refused."""
    deadline = time.monotonic() + STEP_MS / 1000
    while True:
        sent, answers = acts_and_answers(player, since)
        if len(answers) >= len(sent) or time.monotonic() > deadline:
            break
        player.page.wait_for_timeout(50)
    ids = [f["id"] for f in sent]
    assert len(set(ids)) == len(ids), f"an act was sent twice: {sent}"
    assert [(f["type"], f.get("id")) for f in answers] == [("ack", i) for i in ids], answers
    return [f["action"] for f in sent]


def deal_complete_on_sheet(page: Page) -> None:
    """The score sheet shows deal 1 scored (points and a running score)."""
    page.get_by_test_id("open-sheet").click()
    sheet = page.get_by_test_id("score-sheet")
    expect(sheet).to_be_visible()
    row = sheet.locator('tr[data-deal="0"]')
    expect(row).to_be_visible()
    cells = row.locator("td")
    expect(cells.nth(4)).to_have_text(re.compile(r"^[+-]?\d+ – [+-]?\d+$"))
    sheet.get_by_role("button", name="Close").click()
    expect(sheet).to_be_hidden()


def no_page_errors(*players: Player) -> None:
    for player in players:
        assert not player.errors, f"{player.name}'s page threw: {player.errors}"


# Every seat box and the hand that the panel beside (or below, on a phone) the table overlaps
# (none, or their names), and how wide the page is.
PANEL_OVERLAPS_JS = """() => {
  const panel = document.querySelector('[data-testid="match-panel"]').getBoundingClientRect();
  const hits = [];
  for (const el of document.querySelectorAll('.seat, .hand-area')) {
    const box = el.getBoundingClientRect();
    const w = Math.min(box.right, panel.right) - Math.max(box.left, panel.left);
    const h = Math.min(box.bottom, panel.bottom) - Math.max(box.top, panel.top);
    if (w > 0 && h > 0 && box.width > 0) hits.push(el.dataset.testid || el.className);
  }
  return {hits, scrollWidth: document.documentElement.scrollWidth};
}"""


def covers_nothing(page: Page, width: int, what: str = "") -> None:
    """The deal summary or match end beside the table covers no seat and not the hand, and the
    page is no wider than `width`."""
    found: dict[str, Any] = page.evaluate(PANEL_OVERLAPS_JS)
    assert found["hits"] == [], f"{what}: the panel covers {found['hits']}"
    assert found["scrollWidth"] <= width, (what, found)
