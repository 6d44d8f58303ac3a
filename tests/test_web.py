"""The browser client (src/whist/web): served by the app next to /api and /ws, no build step.

These checks need no browser: the page and every ES module it imports are served, the API
keeps answering JSON, and the client keeps no copy of the club's lists."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from whist.server.app import create_app
from whist.server.progress import CARD_BACKS, CARD_FACES
from whist.server.settings import Settings

WEB = Path(__file__).resolve().parent.parent / "src" / "whist" / "web"
IMPORT = re.compile(r"""(?:import|from)\s*\(?\s*["'](\.\.?/[\w./-]+\.js)["']""")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(data_dir=tmp_path, bot_workers=0))
    with TestClient(app) as test_client:
        yield test_client


def module_graph() -> set[str]:
    """Every module reachable from js/app.js (static and dynamic imports)."""
    seen: set[str] = set()
    todo = ["js/app.js"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        source = (WEB / path).read_text(encoding="utf-8")
        base = Path(path).parent
        for target in IMPORT.findall(source):
            todo.append(posixpath.normpath((base / target).as_posix()))
    return seen


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "text/html" in page.headers["content-type"]
    assert '<script type="module" src="/js/app.js">' in page.text
    assert client.get("/css/main.css").status_code == 200
    modules = module_graph()
    assert {"js/app.js", "js/table.js", "js/cards.js", "js/connection.js", "js/i18n.js"} <= modules
    for path in modules:
        response = client.get(f"/{path}")
        assert response.status_code == 200, path
        assert "javascript" in response.headers["content-type"], path


def test_the_api_still_answers_json(client: TestClient) -> None:
    variants = client.get("/api/variants")
    assert variants.status_code == 200
    assert {v["key"] for v in variants.json()["variants"]} >= {"classic", "minnesota"}
    assert client.get("/api/me").status_code == 401
    assert client.get("/no-such-file.js").status_code == 404


def test_the_client_reads_the_club_lists_from_the_server(client: TestClient) -> None:
    """Levels, languages, the XP rule and the unlock tracks come from GET /api/config, the
    variants from GET /api/variants and each view's facts: the client copies none of them."""
    config = client.get("/api/config").json()
    assert config["unlocks"] == {"card_backs": CARD_BACKS, "card_faces": CARD_FACES}
    assert {"levels", "languages", "xp", "sockets", "clock_seconds"} <= config.keys()
    keys = {v["key"] for v in client.get("/api/variants").json()["variants"]}
    # "classic" also names a card back and face; every other key must not appear in the client.
    names = "|".join(sorted(keys - {"classic"}))
    literal = re.compile(rf"""["']({names})["']""")
    for path in sorted((WEB / "js").rglob("*.js")):
        source = path.read_text(encoding="utf-8")
        assert not literal.search(source), f"{path.name} names a variant"
        assert "CARD_BACKS" not in source and "LANGUAGES" not in source, path.name


def test_packaged_with_the_web_files() -> None:
    pyproject = (WEB.parent.parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"web/**/*"' in pyproject
