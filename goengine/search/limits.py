"""How long one search may go on (SearchLimits: the one value the time manager makes, the
player passes on, and the search's stop rule reads; Pachi's time_info: wall time and
playouts; its desired and worst stop; KataGo's recommended and maximum time), and what
its root may not play (Barred)."""

from dataclasses import dataclass, field, replace
from typing import Mapping, Optional


@dataclass(frozen=True)
class Barred:
    """What the search's root may not play, the one filter genmove and analysis set:
    `passing`, a pass while any other move is left (Decision.pass_barred: cleanup and the
    first part of the game); `moves` while another legal move is left (the player's
    dead-group fillers); `plies`, {(colour, move): plies} that colour may not play within
    that many plies below the root (lz-analyze's avoid and allow; Tree.restrict)."""
    passing: bool = False
    moves: frozenset = frozenset()
    plies: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class SearchLimits:
    """The search aims for `desired` seconds; while it is unsure which move is best
    it may go on up to `maximum`; it never runs more than `playouts` simulations.
    None: no limit of that kind (a search with none runs until it is interrupted).
    A desired time of 0 asks for a move at once."""
    desired: Optional[float] = None
    maximum: Optional[float] = None
    playouts: Optional[int] = None

    def __post_init__(self):
        for name in ("desired", "maximum", "playouts"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ValueError(f"SearchLimits.{name} must not be negative, got {value}")
        if self.maximum is not None and (self.desired is None or self.maximum < self.desired):
            raise ValueError(f"SearchLimits.maximum ({self.maximum}) needs a desired time "
                             f"no larger than it ({self.desired})")

    @property
    def longest(self):
        """The most seconds the search may take: maximum, else desired (None: no limit)."""
        return self.maximum if self.maximum is not None else self.desired

    def after(self, spent):
        """The same limits once `spent` seconds of them are gone (a move's set-up, say):
        at least a hundredth of a second stays, so that the search still gives a move."""
        if self.desired is None:
            return self
        desired = max(0.01, self.desired - spent)
        maximum = None if self.maximum is None else max(desired, self.maximum - spent)
        return replace(self, desired=desired, maximum=maximum)
