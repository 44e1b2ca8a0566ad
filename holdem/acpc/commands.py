"""``holdem acpc play`` and ``holdem acpc dealer``: the command-line side of the ACPC protocol."""

from __future__ import annotations

import argparse
import sys

from holdem.console.arguments import counted, positive_int, subcommand

__all__ = ["add_commands"]

DEFAULT_GAME = "holdem.nolimit.2p.reverse_blinds.game"


def add_commands(acpc: argparse.ArgumentParser) -> None:
    """Add the ``play`` and ``dealer`` subcommands to the ``acpc`` command."""
    sub = acpc.add_subparsers(
        dest="acpc_command", required=True, metavar="ACPC_COMMAND", help="play or dealer"
    )
    play = subcommand(sub, "play", "play a bot at an ACPC dealer",
                      "Connect a holdem bot to an ACPC protocol 2.0.0 dealer at HOST PORT and play until "
                      "the dealer closes the connection; print one line: hands, chips won, answers "
                      "replaced.")  # fmt: skip
    play.add_argument("host", help="the dealer's host, e.g. 127.0.0.1")
    play.add_argument("port", type=_port, help="the port the dealer printed for this seat")
    play.add_argument("--bot", required=True, help="a built-in bot (e.g. equity) or module:Class")
    play.add_argument("--game", default=DEFAULT_GAME, help="the GAMEDEF file (or a shipped game's name)")
    play.add_argument(
        "--time-limit", type=float, default=None, help="seconds per decision before the fallback"
    )
    play.add_argument("--seed", type=int, default=None, help="seed of the bot's random source")
    play.set_defaults(run=_cmd_play)

    dealer = subcommand(sub, "dealer", "deal an ACPC match to connected agents",
                        "Deal HANDS hands of the game to one agent per player over TCP, as the ACPC "
                        "reference dealer does: print the ports, wait for each agent, rotate seats each "
                        "hand, write MATCH_NAME.log (STATE lines and SCORE) and print the SCORE "
                        "line.")  # fmt: skip
    dealer.add_argument("match_name", help="the match name (the log is MATCH_NAME.log)")
    dealer.add_argument("game", help="the GAMEDEF file (or a shipped game's name)")
    dealer.add_argument("hands", type=positive_int, help="hands to deal")
    dealer.add_argument("seed", type=_seed, help="seed of the card generator (MT19937, as the reference)")
    dealer.add_argument("names", nargs="+", help="one name per player, in seat order")
    dealer.add_argument(
        "-p", dest="ports", type=_ports, default=(), help="ports, e.g. 18791,18792 (default: free ones)"
    )
    dealer.add_argument(
        "--host", default="127.0.0.1", help="address to listen on; '' or 0.0.0.0 for every interface"
    )
    dealer.add_argument("--t_response", type=positive_int, default=600_000, help="milliseconds per response")
    dealer.add_argument(
        "--start_timeout", type=int, default=-1, help="milliseconds to wait for players (<0: forever)"
    )
    dealer.add_argument(
        "-q", dest="quiet", action="store_true", help="accepted for the reference's sake (always quiet)"
    )
    dealer.set_defaults(run=_cmd_dealer)


def _cmd_play(args: argparse.Namespace) -> int:
    from holdem.acpc.client import play_acpc
    from holdem.acpc.gamedef import load_gamedef
    from holdem.bots import bot_name, load_bot

    game = load_gamedef(args.game)
    bot = load_bot(args.bot)
    summary = play_acpc(args.host, args.port, bot, game, time_limit=args.time_limit, seed=args.seed)
    per_hand = summary.chips / summary.hands if summary.hands else 0.0
    name, chips = bot_name(args.bot), summary.chips
    print(
        f"{name}: {counted(summary.hands, 'hand')}, {chips:+.1f} chips ({per_hand:+.2f} per hand), "
        f"{summary.replaced} answers replaced by the fallback, {counted(summary.faults, 'fault')}"
    )
    for reason in summary.reasons:
        print(f"  fault: {reason}", file=sys.stderr)
    return 0


def _cmd_dealer(args: argparse.Namespace) -> int:
    from holdem.acpc.dealer import run_dealer
    from holdem.acpc.gamedef import load_gamedef

    game = load_gamedef(args.game)
    start = args.start_timeout / 1000 if args.start_timeout >= 0 else None
    run_dealer(
        args.match_name, game, args.game, args.hands, args.seed, args.names, ports=args.ports,
        host=args.host, response_seconds=args.t_response / 1000, start_seconds=start,
    )  # fmt: skip
    return 0


def _seed(text: str) -> int:
    if not text.isdecimal() or int(text) >= 2**32:
        raise argparse.ArgumentTypeError(f"expected a seed from 0 to 4294967295, got {text!r}")
    return int(text)


def _port(text: str) -> int:
    if not text.isdecimal() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port from 0 to 65535, got {text!r}")
    return int(text)


def _ports(text: str) -> tuple[int, ...]:
    return tuple(_port(part) for part in text.split(","))
