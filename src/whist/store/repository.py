"""Storage operations, synchronous (the server calls them in a worker thread). Each one is
its own transaction: when it returns, what it wrote is committed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, orm, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import sessionmaker

from whist.store.db import session_factory
from whist.store.models import (
    DealAnalysis,
    Heartbeat,
    Player,
    Rating,
    RatingChange,
    Session,
    Table,
    TableLease,
    TableLog,
    XpAward,
)
from whist.store.ratings import RatedMatch, rate, shown


def now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes even for timezone-aware columns.
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def token_hash(token: str) -> str:
    """Sessions are stored by hash: a copy of the database holds no usable cookie."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Append:
    """Log entries ``seq``, ``seq+1``, ... of one table, stored together with the table's
    listing status and, at the end of a match, the XP it credits and the ratings it moves
    (so that a crash can never keep the end and lose the XP or the rating)."""

    table_id: str
    seq: int
    entries: Sequence[tuple[str, dict[str, Any]]]
    status: str | None = None
    result: dict[str, Any] | None = None
    xp: Mapping[int, int] | None = None
    # Cluster mode: the epoch of the lease under which the table's owner writes (None: one
    # process, no leases). An append whose epoch is no longer the lease's is not stored.
    epoch: int | None = None
    rating: RatedMatch | None = None


def connection_lost(exc: BaseException) -> bool:
    """The connection broke during a write (PostgreSQL gone in the middle of a COMMIT): the
    transaction may or may not be stored, and a fresh connection may well succeed."""
    return isinstance(exc, DBAPIError) and exc.connection_invalidated


def as_stored(entries: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, Any]]:
    """Entries as the log gives them back (JSON: tuples come back as lists)."""
    return [(kind, json.loads(json.dumps(data))) for kind, data in entries]


def _fenced(db: Connection, batch: Sequence[Append]) -> set[str]:
    """The tables of ``batch`` whose append carries a lease epoch that is no longer the
    table's. The lease rows stay locked until the commit: a claim waits for it (and then
    sees these entries in the log) or has happened before (and then they are refused)."""
    epochs = {item.table_id: item.epoch for item in batch if item.epoch is not None}
    if not epochs:
        return set()
    rows = db.execute(
        select(TableLease.table_id, TableLease.epoch)
        .where(TableLease.table_id.in_(list(epochs)))
        .with_for_update(read=True)
    )
    current = {table_id: epoch for table_id, epoch in rows}
    return {table_id for table_id, epoch in epochs.items() if current.get(table_id) != epoch}


def same_moves(
    stored: Sequence[tuple[str, Any]], entries: Sequence[tuple[str, dict[str, Any]]]
) -> bool:
    """Whether log entries read back are ``entries``, but for the message ids of actions
    (``mid``): the same move re-sent by a player under a new id is the same move."""

    def bare(items: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
        return [(kind, {k: v for k, v in data.items() if k != "mid"}) for kind, data in items]

    return bare(stored) == bare(as_stored(entries))


def _rate(db: Connection, table_id: str, match: RatedMatch, at: datetime) -> None:
    """Move the ratings ``match`` moves, in the append's transaction. The players' rows are
    locked (PostgreSQL: another node's match of the same player waits, then reads what this
    one wrote); the history rows go first, so a match rated twice fails before any rating
    moves."""
    players = match.players()
    rows = db.execute(
        select(Rating.player_id, Rating.mu, Rating.sigma)
        .where(Rating.variant == match.variant, Rating.player_id.in_(players))
        .with_for_update()
    )
    current = {player: (mu, sigma) for player, mu, sigma in rows}
    moved = rate(match, current)
    db.execute(
        insert(RatingChange),
        [
            {
                "player_id": player,
                "table_id": table_id,
                "variant": match.variant,
                "outcome": match.outcome(player),
                "mu": mu,
                "sigma": sigma,
                "rating": shown(mu, sigma),
                "at": at,
            }
            for player, (mu, sigma) in moved.items()
        ],
    )
    for player, (mu, sigma) in moved.items():
        values = {"mu": mu, "sigma": sigma, "rating": shown(mu, sigma), "updated_at": at}
        won = int(match.outcome(player) == "win")
        if player in current:
            db.execute(
                update(Rating)
                .where(Rating.player_id == player, Rating.variant == match.variant)
                .values(matches=Rating.matches + 1, wins=Rating.wins + won, **values)
            )
        else:
            db.execute(
                insert(Rating).values(
                    player_id=player, variant=match.variant, matches=1, wins=won, **values
                )
            )


@dataclass(frozen=True)
class Standing:
    """A player's rating in one variant, as leaderboards and profiles show it."""

    player_id: int
    nickname: str
    variant: str
    rating: float
    mu: float
    sigma: float
    matches: int
    wins: int


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating after one rated match (a point of a profile's chart)."""

    variant: str
    at: datetime
    rating: float
    outcome: str  # win | loss | draw


def _standing(row: Rating, nickname: str) -> Standing:
    return Standing(
        row.player_id, nickname, row.variant, row.rating, row.mu, row.sigma, row.matches, row.wins
    )


class Repository:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.sessions: sessionmaker[orm.Session] = session_factory(engine)

    # ---------------------------------------------------------------- players
    def create_player(
        self, nickname: str, login: str | None = None, password_hash: str | None = None
    ) -> Player | None:
        """A new player, or None when the login is taken."""
        with self.sessions() as db:
            player = Player(
                nickname=nickname,
                login=login,
                password_hash=password_hash,
                xp=0,
                card_back="classic",
                card_face="classic",
                created_at=now(),
            )
            db.add(player)
            try:
                db.commit()
            except IntegrityError:
                return None
            return player

    def player(self, player_id: int) -> Player | None:
        with self.sessions() as db:
            return db.get(Player, player_id)

    def player_by_login(self, login: str) -> Player | None:
        with self.sessions() as db:
            return db.scalar(select(Player).where(Player.login == login))

    def players(self, ids: Sequence[int]) -> dict[int, Player]:
        with self.sessions() as db:
            return {p.id: p for p in db.scalars(select(Player).where(Player.id.in_(ids)))}

    def set_password(self, player_id: int, password_hash: str) -> None:
        with self.sessions() as db:
            db.execute(
                update(Player).where(Player.id == player_id).values(password_hash=password_hash)
            )
            db.commit()

    def set_appearance(self, player_id: int, card_back: str, card_face: str) -> None:
        with self.sessions() as db:
            db.execute(
                update(Player)
                .where(Player.id == player_id)
                .values(card_back=card_back, card_face=card_face)
            )
            db.commit()

    def set_settings(self, player_id: int, settings: dict[str, Any]) -> None:
        with self.sessions() as db:
            db.execute(update(Player).where(Player.id == player_id).values(settings=settings))
            db.commit()

    # --------------------------------------------------------------- sessions
    def create_session(self, token: str, player_id: int, lifetime: timedelta) -> None:
        with self.sessions() as db:
            db.add(
                Session(
                    token_hash=token_hash(token),
                    player_id=player_id,
                    expires_at=now() + lifetime,
                )
            )
            db.commit()

    def session_player(self, token: str) -> Player | None:
        """The player of a live session; expired sessions are removed."""
        with self.sessions() as db:
            row = db.get(Session, token_hash(token))
            if row is None:
                return None
            if _aware(row.expires_at) <= now():
                db.delete(row)
                db.commit()
                return None
            return db.get(Player, row.player_id)

    def delete_session(self, token: str) -> None:
        with self.sessions() as db:
            db.execute(delete(Session).where(Session.token_hash == token_hash(token)))
            db.commit()

    # ----------------------------------------------------------------- tables
    def create_table(self, table: Table) -> None:
        with self.sessions() as db:
            db.add(table)
            db.commit()

    def table(self, table_id: str) -> Table | None:
        with self.sessions() as db:
            return db.get(Table, table_id)

    def table_by_invite(self, code: str) -> Table | None:
        with self.sessions() as db:
            return db.scalar(select(Table).where(Table.invite_code == code))

    def tables_with_status(self, statuses: Sequence[str]) -> list[Table]:
        with self.sessions() as db:
            return list(
                db.scalars(
                    select(Table).where(Table.status.in_(statuses)).order_by(Table.created_at)
                )
            )

    def tables_of_player(self, player_id: int) -> list[Table]:
        """Every table whose log seats this player, newest first."""
        with self.sessions() as db:
            ids = select(TableLog.table_id).where(
                TableLog.kind == "seat", TableLog.data["player"].as_integer() == player_id
            )
            return list(
                db.scalars(select(Table).where(Table.id.in_(ids)).order_by(Table.created_at.desc()))
            )

    def append(
        self,
        table_id: str,
        seq: int,
        entries: Sequence[tuple[str, dict[str, Any]]],
        status: str | None = None,
        result: dict[str, Any] | None = None,
        xp: dict[int, int] | None = None,
        rating: RatedMatch | None = None,
    ) -> None:
        """Append log entries ``seq``, ``seq+1``, ... in one transaction (see ``Append``)."""
        self.append_batch(
            [Append(table_id, seq, tuple(entries), status, result, xp, rating=rating)]
        )

    def append_batch(self, batch: Sequence[Append]) -> list[Append]:
        """Write every append of ``batch`` (of any tables) in one transaction: one commit,
        one fsync for all of them (group commit). All or nothing: when this raises, none
        of them is stored. A duplicate ``(table, seq)`` raises: two writers.

        Appends made under a lease epoch that is no longer the table's (cluster mode: the
        node lost the table) are fenced: not stored, and returned."""
        if not batch:
            return []
        with self.engine.begin() as db:
            fenced = _fenced(db, batch)
            self._write(db, [item for item in batch if item.table_id not in fenced])
        return [item for item in batch if item.table_id in fenced]

    def _write(self, db: Connection, batch: Sequence[Append]) -> None:
        at = now()
        logs: list[dict[str, Any]] = []
        awards: list[dict[str, Any]] = []
        for item in batch:
            logs.extend(
                {
                    "table_id": item.table_id,
                    "seq": item.seq + offset,
                    "kind": kind,
                    "data": data,
                    "at": at,
                }
                for offset, (kind, data) in enumerate(item.entries)
            )
            awards.extend(
                {"player_id": player, "table_id": item.table_id, "amount": amount, "at": at}
                for player, amount in (item.xp or {}).items()
            )
        if awards:
            # The award rows first: a second award for a match fails before any XP moves.
            db.execute(insert(XpAward), awards)
            for award in awards:
                db.execute(
                    update(Player)
                    .where(Player.id == award["player_id"])
                    .values(xp=Player.xp + award["amount"])
                )
        for item in batch:
            if item.rating is not None:
                _rate(db, item.table_id, item.rating, at)
        if logs:
            # executemany of one statement compiled once (a multi-row VALUES would be
            # compiled again for every batch size: more CPU, no faster on SQLite).
            db.execute(insert(TableLog), logs)
        for item in batch:
            if item.status is None and item.result is None:
                continue
            values: dict[str, Any] = {}
            if item.status is not None:
                values["status"] = item.status
                if item.status in ("finished", "abandoned"):
                    values["finished_at"] = at
            if item.result is not None:
                values["result"] = item.result
            db.execute(update(Table).where(Table.id == item.table_id).values(**values))

    def log_from(self, table_id: str, seq: int) -> list[tuple[str, dict[str, Any]]]:
        """The table's log entries ``seq``, ``seq+1``, ... (kind, data)."""
        with self.sessions() as db:
            rows = db.execute(
                select(TableLog.kind, TableLog.data)
                .where(TableLog.table_id == table_id, TableLog.seq >= seq)
                .order_by(TableLog.seq)
            )
            return [(kind, data) for kind, data in rows]

    def stored(self, batch: Sequence[Append]) -> list[bool]:
        """For each append, whether the log holds exactly its entries at its sequence
        numbers: after a commit whose answer was lost, whether it was stored (one writer per
        table, so equal entries there are its own). Raises while the store is unreachable:
        then nobody can tell."""
        found: list[bool] = []
        with self.sessions() as db:
            for item in batch:
                rows = db.execute(
                    select(TableLog.kind, TableLog.data)
                    .where(
                        TableLog.table_id == item.table_id,
                        TableLog.seq >= item.seq,
                        TableLog.seq < item.seq + len(item.entries),
                    )
                    .order_by(TableLog.seq)
                )
                # No entries to look for: not known to be stored (writing it again is harmless).
                mine = bool(item.entries) and [(k, d) for k, d in rows] == as_stored(item.entries)
                found.append(mine)
        return found

    def logs(
        self, table_ids: Sequence[str], chunk: int = 500
    ) -> dict[str, list[tuple[str, dict[str, Any], datetime]]]:
        """``log`` of many tables at once (a server start restores every live table): one
        query per ``chunk`` tables, plain rows, not one ORM query per table."""
        found: dict[str, list[tuple[str, dict[str, Any], datetime]]] = {t: [] for t in table_ids}
        with self.sessions() as db:
            for start in range(0, len(table_ids), chunk):
                rows = db.execute(
                    select(TableLog.table_id, TableLog.kind, TableLog.data, TableLog.at)
                    .where(TableLog.table_id.in_(table_ids[start : start + chunk]))
                    .order_by(TableLog.table_id, TableLog.seq)
                )
                for table_id, kind, data, at in rows:
                    found[table_id].append((kind, data, _aware(at)))
        return found

    def log(self, table_id: str) -> list[tuple[str, dict[str, Any], datetime]]:
        with self.sessions() as db:
            rows = db.scalars(
                select(TableLog).where(TableLog.table_id == table_id).order_by(TableLog.seq)
            )
            return [(row.kind, row.data, _aware(row.at)) for row in rows]

    # ---------------------------------------------------------------- ratings
    def leaderboard(self, variant: str, limit: int) -> list[Standing]:
        """The ``limit`` best-rated players of ``variant``, best first (equal ratings: the
        one with more matches, then the older account)."""
        with self.sessions() as db:
            rows = db.execute(
                select(Rating, Player.nickname)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.variant == variant)
                .order_by(Rating.rating.desc(), Rating.matches.desc(), Rating.player_id)
                .limit(limit)
            )
            return [_standing(row, nickname) for row, nickname in rows]

    def standings_of(self, player_id: int) -> list[Standing]:
        """The player's rating in every variant they have been rated in."""
        with self.sessions() as db:
            rows = db.execute(
                select(Rating, Player.nickname)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.player_id == player_id)
                .order_by(Rating.variant)
            )
            return [_standing(row, nickname) for row, nickname in rows]

    def rating_history(self, player_id: int, per_variant: int) -> list[RatingPoint]:
        """The player's rated matches, oldest first: the last ``per_variant`` of each
        variant."""
        newest_first = func.row_number().over(
            partition_by=RatingChange.variant, order_by=RatingChange.id.desc()
        )
        numbered = (
            select(RatingChange.id, newest_first.label("n"))
            .where(RatingChange.player_id == player_id)
            .subquery()
        )
        recent = select(numbered.c.id).where(numbered.c.n <= per_variant)
        with self.sessions() as db:
            rows = db.scalars(
                select(RatingChange).where(RatingChange.id.in_(recent)).order_by(RatingChange.id)
            )
            return [RatingPoint(r.variant, _aware(r.at), r.rating, r.outcome) for r in rows]

    # --------------------------------------------------------------------- XP
    def award_xp(self, table_id: str, amounts: dict[int, int]) -> dict[int, int]:
        """Credit XP for a match once: players already credited for it are skipped.
        Returns what was credited now."""
        credited: dict[int, int] = {}
        for player_id, amount in amounts.items():
            with self.sessions() as db:
                try:
                    db.add(XpAward(player_id=player_id, table_id=table_id, amount=amount, at=now()))
                    # The award row first: a second award for this match fails here, before
                    # any XP is added (the update's autoflush would raise outside the try).
                    db.flush()
                    db.execute(
                        update(Player).where(Player.id == player_id).values(xp=Player.xp + amount)
                    )
                    db.commit()
                except IntegrityError:
                    db.rollback()
                    continue
                credited[player_id] = amount
        return credited

    # --------------------------------------------------------------- analyses
    def analysis(self, table_id: str, deal: int) -> dict[str, Any] | None:
        """A finished deal's stored analysis (``deal_analyses``), None if not made yet."""
        with self.sessions() as db:
            row = db.get(DealAnalysis, (table_id, deal))
            return None if row is None else row.analysis

    def save_analysis(self, table_id: str, deal: int, analysis: dict[str, Any]) -> None:
        """Keep a deal's analysis. Idempotent: two nodes that analysed the same deal both
        insert, and the second (equal) one is dropped."""
        with self.sessions() as db:
            db.add(DealAnalysis(table_id=table_id, deal=deal, analysis=analysis, at=now()))
            try:
                db.commit()
            except IntegrityError:
                db.rollback()

    # -------------------------------------------------------------- heartbeat
    def start_run(self) -> int:
        """The server (re)starts now: a new run, whose id ``beat`` takes."""
        with self.sessions() as db:
            # Ids by hand: a row 1 written before 0002 did not advance PostgreSQL's sequence.
            run = (db.scalar(select(func.max(Heartbeat.id))) or 0) + 1
            at = now()
            db.add(Heartbeat(id=run, started_at=at, at=at))
            db.commit()
            return run

    def beat(self, run: int | None = None) -> None:
        """The server of ``run`` (default: the newest run) is alive now."""
        with self.sessions() as db:
            if run is None:
                run = db.scalar(select(func.max(Heartbeat.id)))
            if run is None:
                db.add(Heartbeat(id=1, at=now()))
            else:
                db.execute(update(Heartbeat).where(Heartbeat.id == run).values(at=now()))
            db.commit()

    def alive_spans(self) -> list[tuple[datetime | None, datetime]]:
        """(start, last sign of life) of every run so far, oldest first; start None: not
        known (since ever)."""
        with self.sessions() as db:
            rows = db.scalars(select(Heartbeat).order_by(Heartbeat.id))
            return [
                (None if row.started_at is None else _aware(row.started_at), _aware(row.at))
                for row in rows
            ]

    def last_beat(self) -> datetime | None:
        spans = self.alive_spans()
        return max((end for _start, end in spans), default=None)
