"""Thousands of hold'em tables stepped at once on NumPy arrays, exactly as the engine plays them.

``VectorTables(4096, players=2)`` holds 4,096 no-limit tables; ``step(actions)`` applies one
discrete action (those of `holdem.env.encoding`) at each and deals the next hand wherever one
ended. Needs only NumPy. ``holdem.env.VectorHeadsUpEnv`` puts a Gymnasium vector env on top.
``VectorSitAndGos(4096, entrants=9, structure=...)`` plays as many single-table sit-and-gos, as
`holdem tournament` does, for array policies.
"""

from __future__ import annotations

from holdem.vector.sng import VectorSitAndGos
from holdem.vector.tables import VectorTables

__all__ = ["VectorSitAndGos", "VectorTables"]
