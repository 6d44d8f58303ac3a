"""The ``whist`` command. Each subcommand imports what it needs only when it runs, so that
``whist replay`` starts in a few tens of milliseconds."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def add_option_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--options",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the variant (repeatable; also comma-separated)",
    )


class _VersionAction(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked, so that
    importing importlib.metadata does not slow down every other subcommand."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("whist-club")
        except PackageNotFoundError:  # run from a source tree that was never installed
            from whist import __version__

            text = f"{__version__} (not installed)"
        print(f"{parser.prog} {text}")
        parser.exit(0)


def _threads(text: str) -> int:
    from whist.analysis import MAX_THREADS

    try:
        threads = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= threads <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"{threads} is not in 1..{MAX_THREADS}")
    return threads


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="whist", description="Whist Club")
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser("replay", help="replay a whist-record/1 file, print JSON")
    replay.add_argument("file", help="the record (use - for standard input)")
    replay.add_argument("--seat", type=int, default=None, help="show only what seat S may know")

    solve = commands.add_parser(
        "solve",
        help="double-dummy analysis of the position a record stops at",
        description="For a record whose last deal stops during card play: the tricks the "
        "side to act takes with each legal card, all cards known. Exit 0, 1 when the position "
        "cannot be analysed (the reason is printed), 2 for an unreadable record.",
    )
    solve.add_argument("file", help="the whist-record/1 file")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="stop after S seconds; unfinished cards get the bounds proved so far",
    )

    analyse = commands.add_parser(
        "analyse",
        help="grade every card played in a record, all cards known",
        description="For every card played in card play: the tricks the playing side takes "
        "from that trick to the end of the deal with the card played and with the best card. "
        "Exit 0, 1 when nothing can be graded (the reason is printed), 2 for an unreadable "
        "record or a bad command line, 130 when stopped by Ctrl-C.",
    )
    analyse.add_argument("file", help="the whist-record/1 file")
    analyse.add_argument("--json", action="store_true", help="print one JSON object")
    analyse.add_argument(
        "--deal", type=int, default=None, metavar="K", help="only deal K (0 first)"
    )
    analyse.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="S",
        help="stop after S seconds; plays not graded by then are left out",
    )
    analyse.add_argument(
        "--threads",
        type=_threads,
        default=None,
        metavar="N",
        help="plays graded side by side, on N cores (default: the cores this process may "
        "use, at most 4)",
    )

    commands.add_parser("variants", help="list the variants, their options and presets")

    serve = commands.add_parser("serve", help="run the club server (SQLite by default)")
    serve.add_argument("--host", default=None, help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port (8000)")
    serve.add_argument("--data-dir", default=None, help="where the SQLite database lives")

    worker = commands.add_parser(
        "bot-worker",
        help="take bot decisions from Redis (cluster mode)",
        description="Think for the bots of every `whist serve` on the same Redis. Exit 0 when "
        "stopped (SIGTERM, SIGINT), 2 without a Redis URL.",
    )
    worker.add_argument("--redis-url", default=None, help="redis://... (WHIST_REDIS_URL)")
    worker.add_argument(
        "--processes", type=int, default=None, help="bot processes (WHIST_BOT_WORKERS)"
    )

    cluster = commands.add_parser(
        "cluster",
        help="the club's nodes, tables per node, bot workers (cluster mode)",
        description="Read the cluster's state from Redis and PostgreSQL (WHIST_REDIS_URL, "
        "WHIST_DATABASE_URL). Exit 2 without them, 1 when they cannot be reached.",
    )
    cluster.add_argument("action", choices=["status"], help="status: list nodes and workers")
    cluster.add_argument("--json", action="store_true", help="print JSON")

    play = commands.add_parser("play", help="play a match in the terminal against bots")
    play.add_argument("variant", help="a variant key or alias (`whist variants` lists them)")
    add_option_flag(play)
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--record", metavar="FILE", help="write the match as whist-record/1")
    play.add_argument("--seed", type=int, default=None, help="seed for shuffling and players")
    play.add_argument("--dealer", type=int, default=None, help="first dealer (default random)")
    play.add_argument(
        "--bots",
        default="medium",
        metavar="LEVEL[,LEVEL...]",
        help="computer players: easy, medium, hard or master for every computer seat (default "
        "medium), or one level per computer seat in seat order, your seat skipped "
        "(e.g. hard,easy,hard)",
    )

    tournament = commands.add_parser(
        "tournament",
        help="duplicate tournament of two bot levels",
        description="Play duplicate deals between bot levels A and B: every deal twice with "
        "the same cards, sides swapped; report A's mean points over B with a 95% confidence "
        "interval. Exit 0, 1 for a bot that chose an illegal action, 2 for a bad command line, "
        "3 when the results were printed but the chart could not be written.",
    )
    tournament.add_argument("variant", help="a variant key or alias (`whist variants`)")
    tournament.add_argument("--a", required=True, metavar="LEVEL", help="easy ... master")
    tournament.add_argument("--b", required=True, metavar="LEVEL", help="easy ... master")
    tournament.add_argument("--deals", type=int, default=100, help="duplicate deals (100)")
    tournament.add_argument("--seed", type=int, default=0, help="seed of decks and bots (0)")
    tournament.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    tournament.add_argument(
        "--budget", type=float, default=1.0, help="seconds per bot decision (default 1.0)"
    )
    add_option_flag(tournament)
    tournament.add_argument("--json", action="store_true", help="print one JSON object")
    tournament.add_argument("--chart", metavar="FILE.png", help="draw the running mean (PNG)")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar on stderr")

    args = parser.parse_args(argv)
    if args.command == "replay":
        from whist.replay_cli import run_replay

        return run_replay(args.file, args.seat)
    if args.command == "solve":
        from whist.solve_cli import run_solve

        return run_solve(args.file, args.json, args.time_limit)
    if args.command == "analyse":
        from whist.analyse_cli import run_analyse

        return run_analyse(args.file, args.json, args.deal, args.time_limit, args.threads)
    if args.command == "serve":
        from whist.server.main import run_server

        return run_server(args.host, args.port, args.data_dir)
    if args.command == "bot-worker":
        from whist.cluster.analysis_jobs import serve_analyses
        from whist.cluster.jobs import run_bot_worker

        return run_bot_worker(args.redis_url, args.processes, beside=serve_analyses)
    if args.command == "cluster":
        from whist.cluster.status import run_status

        return run_status(args.json)
    if args.command == "variants":
        from whist.variants import describe_all

        print(describe_all())
        return 0
    if args.command == "play":
        from whist.terminal import run_play

        return run_play(args)
    if args.command == "tournament":
        from whist.tournament import run_cli

        return run_cli(args)
    parser.error("unknown command")
    return 2


if __name__ == "__main__":
    sys.exit(main())
