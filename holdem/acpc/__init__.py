"""The ACPC protocol 2.0.0: game definitions, match states, a client for any bot, and a dealer.

Import explicitly: ``from holdem.acpc import load_gamedef, parse_match_state``.
"""

from holdem.acpc.gamedef import SHIPPED_GAMES, GameDef, load_gamedef, parse_gamedef
from holdem.acpc.protocol import MatchState, parse_match_state, parse_response
from holdem.errors import GameDefError, ProtocolError

__all__ = [
    "SHIPPED_GAMES",
    "GameDef",
    "GameDefError",
    "MatchState",
    "ProtocolError",
    "load_gamedef",
    "parse_gamedef",
    "parse_match_state",
    "parse_response",
]
