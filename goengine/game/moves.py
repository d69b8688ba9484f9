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
    policy probability; pv starts with `move`, pv_visits (where a search gave
    them) are the visits of each of its moves; score_lead is by how many
    points the player to move ends ahead after the move (None: no estimate).
    """
    move: int
    visits: int
    winrate: float
    prior: float
    lcb: float
    pv: list = field(default_factory=list)
    score_lead: float | None = None
    pv_visits: list = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What a player's thinking about one position comes to (KataGo's
    ReportedSearchValues): the decision, the GTP analysis and the review read it.

    ranked: the moves it would play, best first (the search's allowed root moves by
    visits; the policy's sensible moves by probability, or its sample first).
    winrate: for the player to move, in [0, 1] (the most visited move's; the value
    network's without a search); None without an estimate. resign_winrate: the win rate
    the resign rule trusts (None: none to trust yet). root_winrate: the visit-weighted
    mean over the root's simulations, steadier in a short search (a review's). score:
    the points the player to move ends ahead by (the rollouts' mean; None without).
    visits: the root's simulations (0 without a search). candidates: MoveInfo, the
    analysis's lines, most visited first."""
    ranked: list
    winrate: float | None = None
    resign_winrate: float | None = None
    root_winrate: float | None = None
    score: float | None = None
    visits: int = 0
    candidates: list = field(default_factory=list)
