"""Accessibility checked by a machine (issue 19, point 10): axe-core (bundled by
axe-playwright-python) runs its default rules (WCAG 2.0-2.2 A and AA, and its best practices)
on every page of the client and at a table of every variant in play, on a desktop (1366×800)
and on a phone (390×844): no violation may be "serious" or "critical".

The pages: the sign-in page, the lobby, the lobby with the create-table form filled in, my
games, a finished game's page (a German Whist match of one deal, resigned), the profile, a
public profile, the leaderboards, the rules and each variant's rules page, a table of each
of the six variants with the player to move, the score sheet and the settings dialog open,
the resign dialog and the finished table's match end. axe leaves text over a gradient (the
felt) undecided; the test measures it over each end of the gradient. With -s each page
prints one line: its elements in violation by impact (moderate and minor ones are allowed,
and listed by rule) and what axe left for a person to review.

Run: .venv/bin/python -m pytest -q -s -p no:warnings tests/test_browser_axe.py"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from browser import (
    DESKTOP,
    PHONE,
    STEP_MS,
    Player,
    Server,
    bot_table,
    no_page_errors,
    open_table,
    save_settings,
    selector,
    site_pages,
    visit,
    wait_next_move,
)

IMPACTS = ("critical", "serious", "moderate", "minor")
FORBIDDEN = {"critical", "serious"}
RECHECK_MS = (1_000, 2_000)  # the waits before a serious or critical one is measured again

# Rules that are switched off, each for a reason (none: no false positive so far).
DISABLED_RULES: dict[str, dict[str, bool]] = {}

AXE = Axe()


# axe cannot tell the contrast of text over a gradient (the felt): it says "review". Here
# every gradient background is flattened to one of its colours, in turn (`stop`: 0 the
# first, 1 the last), and the text over it measured; `null` puts the gradients back.
FLATTEN_JS = """(stop) => {
  for (const el of document.querySelectorAll('[data-axe-flat]')) {
    el.style.removeProperty('background');
    el.removeAttribute('data-axe-flat');
  }
  if (stop === null) return 0;
  let n = 0;
  for (const el of document.querySelectorAll('body *')) {
    const image = getComputedStyle(el).backgroundImage;
    if (!image.includes('gradient')) continue;
    const colours = image.match(/rgba?\\([^)]*\\)/g) || [];
    if (!colours.length) continue;
    el.setAttribute('data-axe-flat', '');
    el.style.setProperty('background', colours[stop ? colours.length - 1 : 0], 'important');
    n += 1;
  }
  return n;
}"""


def run_axe(page: Page, options: dict[str, Any]) -> dict[str, Any]:
    response: dict[str, Any] = AXE.run(page, options=options).response
    return response


# Every animation that ends has ended (a card travelling over a seat panel would be measured
# as that panel's background); a spinner that never ends is left turning.
SETTLED_JS = """() => Promise.all(document.getAnimations()
  .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
  .map((a) => a.finished.catch(() => null)))"""


def measure(page: Page) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """axe's violations and undecided results on the page as it is now; the contrast of text
    over a gradient is measured at both of the gradient's ends."""
    page.wait_for_timeout(150)  # a fade-in (reduced motion) ends: colours are measured as drawn
    page.evaluate(SETTLED_JS)  # and a card still flying (a trick gathering to a seat) lands
    options = {"resultTypes": ["violations", "incomplete"], "rules": DISABLED_RULES}
    response = run_axe(page, options)
    violations = list(response["violations"])
    incomplete = response["incomplete"]
    if any(v["id"] == "color-contrast" for v in incomplete) and page.evaluate(FLATTEN_JS, 0):
        contrast = {**options, "runOnly": ["color-contrast"]}
        try:
            first = run_axe(page, contrast)
            page.evaluate(FLATTEN_JS, 1)
            last = run_axe(page, contrast)
        finally:
            page.evaluate(FLATTEN_JS, None)
        seen = {
            str(n["target"]) for v in violations if v["id"] == "color-contrast" for n in v["nodes"]
        }
        for flat in first["violations"] + last["violations"]:
            fresh = [n for n in flat["nodes"] if str(n["target"]) not in seen]
            seen.update(str(n["target"]) for n in fresh)
            if fresh:
                violations.append({**flat, "nodes": fresh})
        incomplete = [v for v in incomplete if v["id"] != "color-contrast"] + [
            v for v in last["incomplete"] if v["id"] == "color-contrast"
        ]
    return violations, incomplete


def forbidden_nodes(violations: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {
        (v["id"], str(n["target"]))
        for v in violations
        if v["impact"] in FORBIDDEN
        for n in v["nodes"]
    }


def check(page: Page, what: str, found: list[str], explained: set[str]) -> None:
    """Run axe on the page as it is now and print one line: the elements in violation by
    impact (those over a gradient measured at both of its ends), the rules of the allowed
    (moderate, minor) ones, and what axe still could not decide ("review"). Each serious or
    critical violation goes to `found` (the test fails on them at its end, after every
    page), with axe's explanation the first time its rule appears (`explained`).

    A serious or critical one is measured again a second later, and then two seconds after
    that, and counts only if it is there every time: the table redraws itself (a bot's move,
    a clock), and axe measuring colours while the page is redrawn has been seen to find a
    seat's text over the page's background, and once, on a loaded CI machine, still a second
    later (every seat of a table waiting for players, on a phone)."""
    violations, incomplete = measure(page)
    still = forbidden_nodes(violations)
    for wait_ms in RECHECK_MS:
        if not still:
            break
        page.wait_for_timeout(wait_ms)
        still &= forbidden_nodes(measure(page)[0])
    if forbidden_nodes(violations):
        kept = []
        for v in violations:
            nodes = [
                n
                for n in v["nodes"]
                if v["impact"] not in FORBIDDEN or (v["id"], str(n["target"])) in still
            ]
            if len(nodes) < len(v["nodes"]):
                print(f"axe {what}: {v['id']}×{len(v['nodes']) - len(nodes)} gone on a later look")
            if nodes:
                kept.append({**v, "nodes": nodes})
        violations = kept
    counts = Counter(v["impact"] for v in violations for _ in v["nodes"])
    allowed = [f"{v['id']}×{len(v['nodes'])}" for v in violations if v["impact"] not in FORBIDDEN]
    review = [f"{v['id']}×{len(v['nodes'])}" for v in incomplete]
    print(
        f"axe {what:34} "
        + " ".join(f"{impact} {counts.get(impact, 0)}" for impact in IMPACTS)
        + (f"  allowed: {', '.join(sorted(allowed))}" if allowed else "")
        + (f"  review: {', '.join(sorted(review))}" if review else "")
    )
    for v in violations:
        if v["impact"] not in FORBIDDEN:
            continue
        nodes = v["nodes"]
        targets = ", ".join(" ".join(map(str, n["target"])) for n in nodes[:4])
        more = f" (+{len(nodes) - 4} more)" if len(nodes) > 4 else ""
        line = f"{what}: {v['id']} [{v['impact']}] {v['help']}: {targets}{more}"
        if v["id"] not in explained and nodes and nodes[0].get("failureSummary"):
            explained.add(v["id"])
            line += "\n    " + nodes[0]["failureSummary"].replace("\n", "\n    ")
        found.append(line)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_no_serious_or_critical_axe_violation_on_any_page(
    start_server: Callable[..., Server],
    new_player: Callable[..., Player],
    size: tuple[int, int],
) -> None:
    server = start_server()
    phone = size == PHONE
    ann = new_player(server, "Ann", width=size[0], height=size[1], mobile=phone)
    page = ann.page
    # She plays every card herself: a forced card played by itself (the client's auto-play,
    # after a short pause) could go while her key press was on its way, and the press then
    # waited for a card no longer there (a CI failure on a loaded machine).
    save_settings(ann, auto_play=False)
    tag = "phone" if phone else "desktop"
    found: list[str] = []
    explained: set[str] = set()
    variants = page.request.get("/api/variants").json()["variants"]
    players = {v["key"]: v["players"] for v in variants}

    # A finished match: German Whist of one deal, resigned (rated, so it is on the profile and
    # the leaderboard); the table shows its match end.
    finished = open_table(
        ann,
        {
            "variant": "german",
            "options": {"match": "single"},
            "clock": False,
            "bots": {"1": "easy"},
        },
    )
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
    wait_next_move(page)
    page.get_by_test_id("resign").click()
    expect(page.get_by_test_id("resign-dialog")).to_be_visible()
    check(page, f"{tag} resign dialog", found, explained)
    page.get_by_test_id("confirm-resign").click()
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "finished")
    expect(page.get_by_test_id("match-result")).to_be_visible()
    check(page, f"{tag} match end", found, explained)

    # A table of every variant, the player to move (a card, a bid or a trump to choose).
    tables = {key: bot_table(ann, key, n) for key, n in players.items()}
    for key, table in tables.items():
        page.goto(f"/#/table/{table}")
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-variant", key)
        expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "playing")
        wait_next_move(page)
        check(page, f"{tag} table {key}", found, explained)
        if key == "classic":
            # Play on until a trick is taken and the next one begun: cards on the table, the
            # last trick to look at.
            pile = page.get_by_test_id("last-trick-button")
            deadline = time.monotonic() + STEP_MS / 1000
            while pile.is_disabled() or not page.get_by_test_id("trick-card").count():
                assert time.monotonic() < deadline, "no trick was taken and the next begun"
                # (from the keyboard: on a phone the hand's cards overlap, a click may miss)
                target = selector(wait_next_move(page))
                page.locator(target).press("Enter")
                page.wait_for_function(
                    "(sel) => !document.querySelector(sel)", arg=target, polling=50
                )
            check(page, f"{tag} table classic, a trick on", found, explained)
            pile.click()
            expect(page.get_by_test_id("last-trick")).to_be_visible()
            check(page, f"{tag} last trick", found, explained)
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("last-trick")).to_be_hidden()
        if key == "minnesota":
            page.get_by_test_id("open-sheet").click()
            expect(page.get_by_test_id("score-sheet")).to_be_visible()
            check(page, f"{tag} score sheet", found, explained)
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("score-sheet")).to_be_hidden()
            page.get_by_test_id("settings-button").click()
            expect(page.get_by_test_id("settings-dialog")).to_be_visible()
            check(page, f"{tag} settings dialog", found, explained)
            page.keyboard.press("Escape")
            expect(page.get_by_test_id("settings-dialog")).to_be_hidden()

    # A table waiting for people: two seats empty.
    body = {"variant": "minnesota", "clock": False, "private": True, "bots": {"1": "easy"}}
    open_table(ann, body)
    expect(page.get_by_test_id("table-page")).to_have_attribute("data-status", "open")
    check(page, f"{tag} table waiting", found, explained)

    page.goto("/#/lobby")
    expect(page.get_by_test_id("create-form")).to_be_visible()
    check(page, f"{tag} lobby", found, explained)
    page.get_by_test_id("create-variant").select_option("swedish")
    check(page, f"{tag} lobby, create swedish", found, explained)

    me = page.request.get("/api/me").json()["id"]
    for name, route, ready in site_pages(me, finished, list(players)):
        visit(page, route, ready)
        check(page, f"{tag} {name}", found, explained)

    page.get_by_test_id("sign-out").click()
    expect(page.get_by_test_id("guest-form")).to_be_visible()
    check(page, f"{tag} sign-in", found, explained)

    no_page_errors(ann)
    assert not found, "serious or critical accessibility violations:\n" + "\n".join(found)
