"""The ``whist`` command. Each subcommand imports what it needs only when it runs, so that
``whist replay`` starts in a few tens of milliseconds."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="whist", description="Whist Club")
    commands = parser.add_subparsers(dest="command", required=True)

    replay = commands.add_parser("replay", help="replay a whist-record/1 file, print JSON")
    replay.add_argument("file", help="the record (use - for standard input)")
    replay.add_argument("--seat", type=int, default=None, help="show only what seat S may know")

    commands.add_parser("variants", help="list the variants, their options and presets")

    play = commands.add_parser("play", help="play a match in the terminal")
    play.add_argument("variant", help="classic, german, plockwhist, japanese, minnesota, swedish")
    play.add_argument(
        "--options",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the variant (repeatable; also comma-separated)",
    )
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument("--record", metavar="FILE", help="write the match as whist-record/1")
    play.add_argument("--seed", type=int, default=None, help="seed for shuffling and players")
    play.add_argument("--dealer", type=int, default=None, help="first dealer (default random)")

    args = parser.parse_args(argv)
    if args.command == "replay":
        from whist.replay_cli import run_replay

        return run_replay(args.file, args.seat)
    if args.command == "variants":
        from whist.variants import describe_all

        print(describe_all())
        return 0
    if args.command == "play":
        from whist.terminal import run_play

        return run_play(args)
    parser.error("unknown command")
    return 2


if __name__ == "__main__":
    sys.exit(main())
