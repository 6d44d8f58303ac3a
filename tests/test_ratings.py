"""Ratings and leaderboards (issue 19, point 8): which matches rate whom, once, in the
transaction of the match's end (or of a leave); bots at fixed reference ratings; the
leaderboard and profile routes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from test_recovery import postgres_database
from test_server import (
    alone_with_bots,
    create,
    first_legal,
    got_xp,
    me,
    over,
    pump,
    room,
    seat_table,
    socks_on,
    table_row,
)
from whist.bots import LEVELS
from whist.server.ratings import BOT_RATINGS, end_rating, leave_rating
from whist.server.table import Seat, TableState
from whist.store.db import make_engine, migrate
from whist.store.models import Rating, RatingChange
from whist.store.models import Table as TableRow
from whist.store.ratings import START_MU, START_SIGMA, Fixed, RatedMatch, rate, shown
from whist.store.repository import Repository, now
from whist.variants import VARIANTS


# ------------------------------------------------------------------------- the model
def test_a_win_raises_a_loss_lowers_and_fixed_members_never_move() -> None:
    bot = BOT_RATINGS["medium"]
    won = rate(RatedMatch("german", ((1,), (bot,)), (0, 1), (1,)), {})
    lost = rate(RatedMatch("german", ((1,), (bot,)), (1, 0), (1,)), {})
    assert set(won) == set(lost) == {1}  # only the player moves, never the bot
    assert won[1][0] > START_MU > lost[1][0]
    assert won[1][1] < START_SIGMA and lost[1][1] < START_SIGMA  # surer either way
    # A draw against an equal moves the mean hardly at all.
    drawn = rate(RatedMatch("german", ((1,), (Fixed(START_MU, START_SIGMA),)), (0, 0), (1,)), {})
    assert drawn[1][0] == pytest.approx(START_MU, abs=1e-6)
    # Beating a stronger side is worth more than beating a weaker one.
    easy = rate(RatedMatch("german", ((1,), (BOT_RATINGS["easy"],)), (0, 1), (1,)), {})
    master = rate(RatedMatch("german", ((1,), (BOT_RATINGS["master"],)), (0, 1), (1,)), {})
    assert master[1][0] > easy[1][0]


def test_partners_are_a_team_and_only_the_moved_players_move() -> None:
    bot = BOT_RATINGS["medium"]
    match = RatedMatch("minnesota", ((1, 2), (3, bot)), (1, 0), (1, 3))
    moved = rate(match, {2: (30.0, 3.0)})
    assert set(moved) == {1, 3}
    assert moved[1][0] < START_MU < moved[3][0]
    assert [match.outcome(p) for p in (1, 2, 3)] == ["loss", "loss", "win"]


def test_the_bots_reference_ratings_rise_with_the_level() -> None:
    assert list(BOT_RATINGS) == list(LEVELS)
    shown_ratings = [shown(r.mu, r.sigma) for r in BOT_RATINGS.values()]
    assert shown_ratings == sorted(shown_ratings) and len(set(shown_ratings)) == len(LEVELS)
    assert shown(START_MU, START_SIGMA) == pytest.approx(0)  # a newcomer shows 0


# ------------------------------------------------------------------------- the rules
def german_state(*seats: Seat) -> TableState:
    state = TableState.new("t", "german", {"match": "single"}, None)
    state.seats = list(seats)
    state.status = "playing"
    return state


def test_the_end_rates_the_seated_humans_by_the_result_and_hints_unrate() -> None:
    state = german_state(Seat(player_id=7, nickname="a"), Seat(bot="hard"))
    state.match.winner = 1
    rated = end_rating(state)
    assert rated == RatedMatch("german", ((7,), (BOT_RATINGS["hard"],)), (1, 0), (7,))
    state.match.winner = None  # a draw: the sides tie
    assert end_rating(state) == RatedMatch("german", ((7,), (BOT_RATINGS["hard"],)), (0, 0), (7,))
    state.hints_shown = True  # issue 20: a match with hints is not rated
    assert end_rating(state) is None and leave_rating(state, 0) is None


def test_a_seat_a_bot_took_over_counts_as_that_bot_and_is_not_rated() -> None:
    state = german_state(Seat(player_id=7, bot="medium", replaced=True), Seat(player_id=8))
    state.match.winner = 1
    assert end_rating(state) == RatedMatch("german", ((BOT_RATINGS["medium"],), (8,)), (1, 0), (8,))
    # Nobody human left at the end: nothing to rate.
    state.seats[1] = Seat(player_id=8, bot="medium", replaced=True)
    assert end_rating(state) is None


def test_leaving_rates_the_leaver_alone_as_a_loss_only_while_the_match_is_on() -> None:
    state = german_state(Seat(player_id=7), Seat(player_id=8))
    assert leave_rating(state, 1) == RatedMatch("german", ((7,), (8,)), (0, 1), (8,))
    state.status = "suspended"
    assert leave_rating(state, 0) == RatedMatch("german", ((7,), (8,)), (1, 0), (7,))
    state.status = "finished"
    assert leave_rating(state, 0) is None


# ------------------------------------------------------------------- through the room
def ratings(repo: Repository, player_id: int) -> dict[str, Rating]:
    with repo.sessions() as db:
        rows = db.scalars(select(Rating).where(Rating.player_id == player_id))
        return {row.variant: row for row in rows}


def history_rows(repo: Repository, table_id: str) -> int:
    with repo.sessions() as db:
        count = db.scalar(select(func.count()).where(RatingChange.table_id == table_id))
        return int(count or 0)


def profile(browser: Any, player_id: int) -> dict[str, Any]:
    response = browser.get(f"/api/players/{player_id}/profile")
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_finished_match_rates_both_humans_once_and_shows_everywhere(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, browsers = seat_table(r, "german", {"match": "single"}, False, "p0", "p1")
        ids = [me(b)["id"] for b in browsers]
        with socks_on(table_id, *browsers) as socks:
            pump(socks, over(*socks), choose=first_legal, timeout=30)
            winner = socks[0].view["winner"]
            assert winner in (0, 1)  # a single German deal has no draw
            pump(socks, lambda: got_xp(socks[winner]))
        won, lost = ids[winner], ids[1 - winner]
        mine = {p: ratings(r.repo, p)["german"] for p in ids}
        assert mine[won].mu > START_MU > mine[lost].mu
        assert (mine[won].matches, mine[won].wins) == (1, 1)
        assert (mine[lost].matches, mine[lost].wins) == (1, 0)
        assert history_rows(r.repo, table_id) == 2

        # Never twice: rating the match again fails before anything moves.
        again = RatedMatch("german", ((ids[0],), (ids[1],)), (0, 1), tuple(ids))
        with pytest.raises(IntegrityError):
            r.repo.append(table_id, 999, [("suspend", {})], rating=again)
        assert {p: ratings(r.repo, p)["german"].mu for p in ids} == {
            p: row.mu for p, row in mine.items()
        }
        assert history_rows(r.repo, table_id) == 2

        # The leaderboard: the winner first, with rating, matches and wins.
        board = r.browser().get("/api/leaderboard/german").json()
        assert [row["id"] for row in board["players"]] == [won, lost]
        top = board["players"][0]
        assert top == {
            "id": won,
            "nickname": f"p{winner}",
            "rating": round(shown(mine[won].mu, mine[won].sigma), 2),
            "matches": 1,
            "wins": 1,
        }
        assert board["variant"] == "german"
        assert board["bots"] == {
            level: round(shown(f.mu, f.sigma), 2) for level, f in BOT_RATINGS.items()
        }
        assert r.browser().get("/api/leaderboard/minnesota").json()["players"] == []
        assert len(r.browser().get("/api/leaderboard/german?limit=1").json()["players"]) == 1
        # A bad query or address says which part of the request was wrong.
        bad = r.browser().get("/api/leaderboard/german?limit=100000").json()
        assert bad["code"] == "bad_request" and bad["message"].startswith("the query string")
        bad = r.browser().get("/api/players/x/profile").json()
        assert bad["code"] == "bad_request" and bad["message"].startswith("the address")

        # The profile: per variant, with one chart point per rated match.
        page = profile(r.browser(), won)
        assert page["nickname"] == f"p{winner}" and page["level"] == 2
        (german,) = page["variants"]
        assert german["variant"] == "german" and german["rating"] == top["rating"]
        assert (german["matches"], german["wins"]) == (1, 1)
        assert [(p["rating"], p["outcome"]) for p in german["history"]] == [(top["rating"], "win")]
        assert profile(r.browser(), lost)["variants"][0]["history"][0]["outcome"] == "loss"


def test_resigning_is_rated_as_a_loss_and_against_bots_too(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        table_id, (quitter, other) = seat_table(
            r, "german", {"match": "single"}, False, "quitter", "other"
        )
        with socks_on(table_id, quitter, other) as (sq, so):
            pump([sq, so], lambda: sq.state is not None and sq.view["deal"] is not None)
            sq.act({"seat": 0, "resign": True})
            pump([sq, so], lambda: over(sq, so)() and got_xp(so))
        assert ratings(r.repo, me(quitter)["id"])["german"].wins == 0
        assert ratings(r.repo, me(quitter)["id"])["german"].mu < START_MU
        assert ratings(r.repo, me(other)["id"])["german"].mu > START_MU

        solo = r.guest("solo")
        info = alone_with_bots(solo, variant="classic", clock=False)
        with socks_on(info["id"], solo) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
            sock.act({"seat": 0, "resign": True})
            pump([sock], over(sock))
        classic = ratings(r.repo, me(solo)["id"])["classic"]
        assert (classic.matches, classic.wins) == (1, 0) and classic.mu < START_MU


def test_leaving_is_rated_then_as_a_loss_and_the_rest_at_the_end(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        browsers = [r.guest(name) for name in ("stays", "leaves")]
        info = create(
            browsers[0],
            variant="minnesota",
            options={"target": 1},
            clock=False,
            bots={"1": "easy", "3": "easy"},
        )
        table_id = info["id"]
        assert browsers[1].post(f"/api/tables/{table_id}/join", json={"seat": 2}).status_code == 200
        stays, leaves = (me(b)["id"] for b in browsers)
        with socks_on(table_id, browsers[0]) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
            assert browsers[1].post(f"/api/tables/{table_id}/leave").status_code == 200
            left = ratings(r.repo, leaves)["minnesota"]
            assert (left.matches, left.wins) == (1, 0) and left.mu < START_MU
            assert ratings(r.repo, stays) == {}  # the match goes on: not rated yet
            pump([sock], over(sock), choose=first_legal, timeout=30)
            pump([sock], lambda: history_rows(r.repo, table_id) == 2)
        assert ratings(r.repo, stays)["minnesota"].matches == 1
        assert ratings(r.repo, leaves)["minnesota"].mu == left.mu  # rated once, at the leave

        # The last human leaving abandons the match: that leave is its rating.
        solo = r.guest("solo")
        info = alone_with_bots(solo, clock=False)
        with socks_on(info["id"], solo) as (sock,):
            pump([sock], lambda: sock.state is not None and sock.view["deal"] is not None)
        assert solo.post(f"/api/tables/{info['id']}/leave").status_code == 200
        assert table_row(r, info["id"]).status == "abandoned"
        assert ratings(r.repo, me(solo)["id"])["minnesota"].matches == 1


def test_a_player_whose_clock_ran_out_is_not_rated(tmp_path: Path) -> None:
    with room(tmp_path, clock_seconds=0.5) as r:
        idle = r.guest("idle")
        info = alone_with_bots(idle)
        with socks_on(info["id"], idle) as (sock,):
            pump([sock], over(sock), timeout=30)
        assert table_row(r, info["id"]).result is not None
        assert ratings(r.repo, me(idle)["id"]) == {}
        assert history_rows(r.repo, info["id"]) == 0


def test_leaderboard_and_profile_refusals_have_the_error_shape(tmp_path: Path) -> None:
    with room(tmp_path) as r:
        client = r.browser()
        for path, status, code in (
            ("/api/leaderboard/nosuch", 404, "unknown_variant"),
            ("/api/players/99999/profile", 404, "no_player"),
            ("/api/players/0/profile", 422, "bad_request"),
            ("/api/players/abc/profile", 422, "bad_request"),
            ("/api/leaderboard/german?limit=0", 422, "bad_request"),
            ("/api/leaderboard/german?limit=101", 422, "bad_request"),
        ):
            response = client.get(path)
            assert response.status_code == status, path
            assert response.json()["code"] == code and response.json()["message"]
        for variant in VARIANTS:
            assert client.get(f"/api/leaderboard/{variant}").status_code == 200
        newcomer = r.guest("new")
        assert profile(client, me(newcomer)["id"])["variants"] == []


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_the_store_rates_in_the_append_once_on_both_databases(dialect: str, tmp_path: Path) -> None:
    """The rating step of an append, on SQLite and PostgreSQL: the ratings move with the
    entries, a second rating of the same match fails whole, and the queries agree."""
    if dialect == "sqlite":
        urls = iter([f"sqlite:///{tmp_path / 'whist.sqlite3'}"])
    else:
        urls = (u.replace("postgresql://", "postgresql+psycopg://", 1) for u in postgres_database())
    for url in urls:
        engine = make_engine(url)
        try:
            migrate(engine)
            repo = Repository(engine)
            ann, bob = (repo.create_player(name) for name in ("Ann", "Bob"))
            assert ann is not None and bob is not None
            for table_id in ("t1", "t2"):
                repo.create_table(
                    TableRow(id=table_id, variant="german", options={}, clock_seconds=None,
                             private=False, invite_code=None, host_id=ann.id, status="playing",
                             created_at=now(), finished_at=None, result=None)
                )  # fmt: skip
            first = RatedMatch("german", ((ann.id,), (bob.id,)), (0, 1), (ann.id, bob.id))
            repo.append("t1", 1, [("end", {"reason": "finished"})], "finished", rating=first)
            with pytest.raises(IntegrityError):
                repo.append("t1", 2, [("end", {"reason": "finished"})], rating=first)
            second = RatedMatch("german", ((ann.id,), (BOT_RATINGS["master"],)), (0, 0), (ann.id,))
            repo.append("t2", 1, [("end", {"reason": "finished"})], "finished", rating=second)
            board = repo.leaderboard("german", 10)
            assert [(s.nickname, s.matches, s.wins) for s in board] == [
                ("Ann", 2, 1),
                ("Bob", 1, 0),
            ]
            assert board[0].rating == pytest.approx(shown(board[0].mu, board[0].sigma))
            history = repo.rating_history(ann.id, 1)
            assert [(p.variant, p.outcome) for p in history] == [("german", "draw")]
            assert [p.outcome for p in repo.rating_history(ann.id, 50)] == ["win", "draw"]
            assert [s.variant for s in repo.standings_of(bob.id)] == ["german"]
        finally:
            engine.dispose()
