"""The browser client in a real browser: Debian's Chromium driven by Playwright against a real
`whist serve` process on a free port of 127.0.0.1.

Every test signs in through the page and only clicks what a person could click: highlighted
(playable) cards, enabled bid buttons, the forms. Nothing is skipped: without
/usr/bin/chromium (scripts/setup.sh installs it) every test fails and says so.

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
    BrowserContext,
    Page,
    Playwright,
    WebSocket,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

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
                    sys.executable, "-m", "whist.cli", "serve",
                    "--port", str(self.port), "--data-dir", str(self.data_dir),
                ],
                cwd=self.data_dir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
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
def start_server(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Server]]:
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


@pytest.fixture
def new_player(
    browser: Browser, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Player]]:
    """A person in a browser context of their own (own cookies), signed in as a guest."""
    contexts: list[BrowserContext] = []
    players: list[Player] = []
    failures_before = request.session.testsfailed

    def make(
        server: Server,
        name: str,
        width: int = 1280,
        height: int = 900,
        mobile: bool = False,
        same_as: Player | None = None,
    ) -> Player:
        context = browser.new_context(
            base_url=server.url,
            viewport={"width": width, "height": height},
            is_mobile=mobile,
            has_touch=mobile,
            locale="en-US",
            reduced_motion="reduce",  # the table's animations hold half as long
            # the same person on another device: her session cookie, no new sign-in
            storage_state=same_as.page.context.storage_state() if same_as else None,
        )
        contexts.append(context)
        context.set_default_timeout(STEP_MS)
        page = context.new_page()
        frames = Frames()
        errors: list[str] = []
        page.on("websocket", frames.watch)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda msg: frames.console.append(f"{msg.type}: {msg.text}"))
        player = Player(name, page, frames, errors)
        players.append(player)
        if same_as is None:
            sign_in(player)
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
    for context in contexts:
        context.close()


# ----------------------------------------------------------------------------- actions
def sign_in(player: Player) -> None:
    page = player.page
    page.goto("/")
    guest = page.get_by_test_id("guest-form")
    guest.locator("input[name=nickname]").fill(player.name)
    guest.locator("button[type=submit]").click()
    expect(page.locator("main#main")).to_have_attribute("data-view", "lobby")
    expect(page.get_by_test_id("who")).to_contain_text(player.name)


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
    sent = [f for f in player.frames.sent[since[0]:] if f.get("type") == "act"]
    answers = [
        f for f in player.frames.received[since[1]:] if f.get("type") in {"ack", "error"}
    ]
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


# ------------------------------------------------------------------------------- tests
def test_a_minnesota_deal_against_three_bots(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    # The create form: Minnesota, the first seat, three MEDIUM bots (the defaults), no clock.
    form = page.get_by_test_id("create-form")
    form.get_by_test_id("create-variant").select_option("minnesota")
    form.locator("#clock-none").check()
    form.get_by_test_id("create-submit").click()
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", "minnesota")
    expect(page.get_by_test_id("seat-bottom")).to_have_attribute("data-kind", "human")
    for position in ("left", "top", "right"):
        expect(page.get_by_test_id(f"seat-{position}")).to_have_attribute("data-kind", "bot")
    expect(page.get_by_test_id("card")).to_have_count(13)

    since = frame_marks(ann)
    play_deal([ann])

    # One bid and 13 cards went out, each acknowledged once.
    actions = acked_actions(ann, since)
    bids = [a["bid"] for a in actions if "bid" in a]
    cards = [a["play"] for a in actions if "play" in a]
    assert len(bids) == 1 and bids[0] in {"high", "low"} and len(actions) == 14, actions
    assert len(set(cards)) == 13, actions
    summary = page.get_by_test_id("deal-summary").or_(page.get_by_test_id("match-result"))
    expect(summary).to_be_visible()
    deal_complete_on_sheet(page)
    no_page_errors(ann)


def test_two_people_play_a_german_whist_deal(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    bob = new_player(server, "Bob")
    # Ann creates a German Whist table, the other seat left for a person, no clock.
    form = ann.page.get_by_test_id("create-form")
    form.get_by_test_id("create-variant").select_option("german")
    form.get_by_test_id("create-bot-1").select_option("human")
    form.locator("#clock-none").check()
    form.get_by_test_id("create-submit").click()
    expect(ann.page.get_by_test_id("table-page")).to_have_attribute("data-status", "open")
    expect(ann.page.get_by_test_id("invite-link")).to_be_visible()
    table = table_id(ann.page)

    # Bob finds it in the lobby's open tables and joins.
    lobby = bob.page.get_by_test_id("open-tables")
    row = lobby.locator(f'[data-testid="open-table"][data-table="{table}"]')
    bob.page.get_by_role("button", name="Refresh").click()  # (the lobby also polls every 5 s)
    expect(row).to_be_visible()
    expect(row).to_contain_text("German Whist")
    row.get_by_test_id("join-table").click()
    assert table_id(bob.page) == table

    for player in (ann, bob):
        page = player.page
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", "german")
        expect(page.get_by_test_id("card")).to_have_count(13)
        expect(page.get_by_test_id("stock")).to_be_visible()
        expect(page.get_by_test_id("seat-bottom")).to_contain_text("You")
    expect(ann.page.get_by_test_id("seat-top")).to_contain_text("Bob")
    expect(bob.page.get_by_test_id("seat-top")).to_contain_text("Ann")
    expect(ann.page.get_by_test_id("seat-top")).to_have_attribute("data-connected", "true")

    since = {p.name: frame_marks(p) for p in (ann, bob)}
    play_deal([ann, bob])

    # 13 tricks for the stock, 13 that count: each played 26 different cards, each card
    # acknowledged once.
    played = {}
    for player in (ann, bob):
        actions = acked_actions(player, since[player.name])
        played[player.name] = {a["play"] for a in actions}
        assert len(actions) == 26 and len(played[player.name]) == 26, actions
    assert not played["Ann"] & played["Bob"]
    for player in (ann, bob):
        summary = player.page.get_by_test_id("deal-summary")
        expect(summary.or_(player.page.get_by_test_id("match-result"))).to_be_visible()
    no_page_errors(ann, bob)


def played_once(player: Player, card: str, since: tuple[int, int]) -> None:
    """`card` went out in exactly one act, got exactly one ack (no error), and the newest
    state shows it played exactly once."""
    expect(player.page.locator(f'[data-testid="card"][data-card="{card}"]')).to_have_count(0)
    assert acked_actions(player, since) == [{"play": card}]
    view = next(f["view"] for f in reversed(player.frames.received) if f.get("type") == "state")
    cards = [c for trick in view["tricks"] for c in trick["cards"]] + view["trick"]
    assert cards.count(card) == 1, view


def test_the_page_recovers_when_the_server_comes_back(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    quick_play(ann)
    banner = page.get_by_test_id("connection-banner")
    presence = page.get_by_test_id("seat-bottom").get_by_test_id("presence")
    expect(banner).to_be_hidden()
    # Bid, then wait until a card is highlighted: Ann is to play.
    assert wait_next_move(page).startswith("bid:")
    move = decide_until_a_card(page)
    hand = page.get_by_test_id("card")
    in_hand = hand.count()

    # The server crashes: the page says it is reconnecting.
    server.kill()
    expect(banner).to_be_visible()
    expect(banner).to_have_text("Reconnecting…")
    expect(presence).to_have_text("Reconnecting…")

    # A card clicked now waits for the connection, and says so.
    since = frame_marks(ann)
    card = move.split(":", 1)[1]
    assert make_move(page, move)
    expect(page.get_by_test_id("status")).to_contain_text(
        "Your move will be sent when the connection is back."
    )
    assert acts_and_answers(ann, since) == ([], [])

    # The server comes back on the same port with the same database: the banner goes, the
    # waiting card goes out once and is played once.
    server.start()
    expect(banner).to_be_hidden(timeout=30_000)
    expect(presence).to_have_text("Connected")
    played_once(ann, card, since)
    expect(hand).to_have_count(in_hand - 1)

    # And she plays on: a card clicked after the recovery is taken exactly once too.
    since = frame_marks(ann)
    move = decide_until_a_card(page)
    assert make_move(page, move)
    played_once(ann, move.split(":", 1)[1], since)
    expect(hand).to_have_count(in_hand - 2)
    no_page_errors(ann)


def test_a_bot_takes_the_seat_when_the_clock_runs_out(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server(WHIST_CLOCK_SECONDS="3")
    ann = new_player(server, "Ann")
    page = ann.page
    quick_play(ann)  # quick play tables have a clock
    me = page.get_by_test_id("seat-bottom")
    expect(me).to_have_attribute("data-seat", "0")
    expect(me).to_have_attribute("data-kind", "human")
    expect(page.get_by_test_id("card")).to_have_count(13)
    expect(me.get_by_test_id("clock")).to_have_text(re.compile(r"^0:0[0-3]$"))

    # Ann never bids: after 3 s a computer player takes her seat for good.
    expect(me).to_have_attribute("data-replaced", "true", timeout=15_000)
    expect(me).to_have_attribute("data-kind", "bot")
    expect(me.get_by_test_id("presence")).to_have_text("Replaced by a computer player")
    expect(page.get_by_test_id("card")).to_have_count(0)  # she watches now: no hand
    expect(page.locator("[data-bid]")).to_have_count(0)
    expect(page.get_by_text("You are watching this table.")).to_be_visible()
    # The bot plays on in her place.
    expect(page.get_by_test_id("trick-card").first).to_be_visible()
    no_page_errors(ann)


def test_the_language_switcher_relabels_the_page(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    ann = new_player(server, "Ann")
    page = ann.page
    sv = json.loads((CATALOGUES / "sv.json").read_text(encoding="utf-8"))
    texts = ["Quick play", "Open tables", "Create the table", "Sign out"]
    for text in texts:
        assert sv.get(text) and sv[text] != text, f"sv.json does not translate {text!r}"
    quick = page.get_by_test_id("quick-play")
    sign_out = page.get_by_test_id("sign-out")
    expect(quick).to_have_text("Quick play")
    expect(sign_out).to_have_text("Sign out")
    switcher = page.get_by_test_id("language-switcher")
    expect(switcher).to_have_value("en")

    switcher.select_option(label="Svenska")
    expect(page.locator("html")).to_have_attribute("lang", "sv")
    expect(quick).to_have_text(sv["Quick play"])
    expect(sign_out).to_have_text(sv["Sign out"])
    expect(page.get_by_test_id("create-submit")).to_have_text(sv["Create the table"])
    expect(page.get_by_role("heading", name=sv["Open tables"])).to_be_visible()
    expect(page.locator("h1")).to_have_text(sv.get("Lobby") or "Lobby")

    # The choice is remembered on this device.
    page.reload()
    expect(page.get_by_test_id("quick-play")).to_have_text(sv["Quick play"])
    expect(page.get_by_test_id("language-switcher")).to_have_value("sv")

    page.get_by_test_id("language-switcher").select_option("en")
    expect(page.get_by_test_id("quick-play")).to_have_text("Quick play")
    no_page_errors(ann)


def test_table_screenshots_on_a_phone_and_a_desktop(
    start_server: Callable[..., Server], new_player: Callable[..., Player]
) -> None:
    server = start_server()
    sizes = {"desktop": (1440, 900), "phone": (375, 667)}
    desktop = new_player(server, "Ann", *sizes["desktop"])
    table = quick_play(desktop)
    assert wait_next_move(desktop.page).startswith("bid:")
    decide_until_a_card(desktop.page)
    # The same player opens the table on her phone too (her cookie, a second connection).
    phone = new_player(server, "Ann", *sizes["phone"], mobile=True, same_as=desktop)
    phone.page.goto(f"/#/table/{table}")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    shots: dict[str, bytes] = {}
    for name, player in (("desktop", desktop), ("phone", phone)):
        width, height = sizes[name]
        page = player.page
        expect(page.get_by_test_id("seat-bottom")).to_contain_text("You")
        expect(page.get_by_test_id("card")).to_have_count(13)
        wait_next_move(page)  # her turn: the playable cards are highlighted
        path = SCREENSHOTS / f"table-{name}-{width}x{height}.png"
        shots[name] = page.screenshot(full_page=True)
        assert shots[name].startswith(b"\x89PNG") and len(shots[name]) > 1000, name
        partial = path.with_name(f"{path.name}.{os.getpid()}.part")  # never half a file
        partial.write_bytes(shots[name])
        partial.replace(path)
        assert path.is_file() and path.stat().st_size > 1000, path

        # Nothing sticks out sideways: no horizontal scrolling, every card in the viewport.
        # (Measured in one go: the hand is redrawn whenever a frame arrives.)
        layout = page.evaluate(LAYOUT_JS)
        assert layout["scrollWidth"] <= width + 1, (name, layout)
        assert len(layout["cards"]) == 13, (name, layout)
        for card, left, right in layout["cards"]:
            assert left >= -1 and right <= width + 1, (name, card, left, right, layout)
    assert shots["phone"] != shots["desktop"]
    no_page_errors(desktop, phone)
