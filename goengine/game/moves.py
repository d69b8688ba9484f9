"""What a player says about its moves, below both the search and the players.

Moves are ints as in docs/API.md (PASS = -1); RESIGN = -2 is genmove's answer
for giving up. MoveInfo is one candidate as the analysis commands (lz-analyze,
kata-analyze, goengine-review) show it.
"""

from dataclasses import dataclass, field

RESIGN = -2


@dataclass
class MoveInfo:
    """One candidate move for analysis output (lz-analyze and friends).

    winrate and lcb are for the player to move, in [0, 1]; prior is the
    policy probability; pv starts with `move`; score_lead is by how many
    points the player to move ends ahead after the move (None: no estimate).
    """
    move: int
    visits: int
    winrate: float
    prior: float
    lcb: float
    pv: list = field(default_factory=list)
    score_lead: float | None = None
