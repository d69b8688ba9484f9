"""The search's constants in one place.

The first block is AlphaGo's: Silver et al., "Mastering the game of Go with
deep neural networks and tree search", Nature 529:484 (2016), Methods,
section "Search algorithm", and Extended Data Table 5 ("Parameters used by
AlphaGo"). The second block is ours: what a 2-core CPU needs that a cluster
of GPUs did not.
"""

from dataclasses import dataclass, fields, replace

from goengine.nn.cpu import AMX
from goengine.nn.devices import INT8, available_cores, is_cpu

SEARCH_MODES = ('apv', 'zero')

# Most positions a network call takes on a GPU, where a call of 64 costs
# little more than a call of one; not yet tuned by measurement (docs/GPU.md).
ACCELERATOR_BATCH = 64


@dataclass(frozen=True)
class SearchConfig:
    # -- AlphaGo 2016, Methods / Extended Data Table 5 --------------------
    c_puct: float = 5.0          # exploration constant in u(s,a)
    mixing: float = 0.5          # lambda: Q = (1-lambda) value-net mean + lambda rollout mean
    virtual_loss: int = 3        # n_vl: losses charged to a path while its simulation runs
    expand_threshold: int = 40   # n_thr: visits before a leaf gets children of its own
    policy_temperature: float = 0.67   # beta: softmax temperature of the SL policy priors
    # (AlphaGo's resign_q = -0.8 is goengine.players.resign.ResignRule's 10 %.)

    # -- which search --------------------------------------------------------
    search_mode: str = 'apv'     # 'apv': AlphaGo's, rollouts mixed with the value by lambda;
                                 # 'zero': AlphaGo Zero's, every leaf evaluated by one four-
                                 # headed network and its value backed up, no rollouts, the
                                 # cores on the network (docs/DECISIONS.md, 'search mode')

    # -- ours ------------------------------------------------------------
    # AlphaGo adjusted n_thr "dynamically to ensure that the rate at which
    # positions are added to the policy queue matches the rate at which the
    # GPU evaluates the policy network"; search.ThresholdControl does that
    # between expand_threshold and max_expand_threshold. The queues are
    # also capped: a leaf waits (stays a leaf) while the policy queue is
    # full, and a value request is skipped while the value queue is full.
    max_expand_threshold: int = 1000
    expand_threshold_raise: float = 1.25  # n_thr times this (+1) when expansions were deferred
    expand_threshold_lower: float = 0.9   # n_thr times this when the policy queue is at
                                 # most a quarter full
    max_pending_policy: int = 16
    max_pending_value: int = 32
    batch_size: int = 16         # most positions per network call

    # -- how the search spends a move's limits (goengine.search.limits) -----
    stop_when_decided: bool = True  # stop once no other move can catch up (Search.decided),
                                 # saving the time for the clock; False: every move takes
                                 # its whole time (--spend-full-time)
    sim_threads: int = 0         # simulation threads (C, GIL released); 0: the cores the
                                 # network thread leaves free, at least 1 (tools/bench/bench_search.py)
    net_threads: int = 0         # the network's threads (--threads); 0: one for the APV
                                 # search, whose other cores run simulations, every core for
                                 # the zero search and the policy player (no rollouts)
    max_nodes: int = 2_000_000   # node pool cap (~52 bytes a node): memory stays bounded
    pass_prior: float = 0.01     # prior of the pass move (the policy network has no pass output)
    lost_ladder_prior: float = 0.001  # the most prior (placeholder or network) a move gets that
                                 # runs out a dead ladder or chases a failing one (Board.is_lost_
                                 # ladder_move); 1: off (docs/DECISIONS.md, 'dead ladders')
    ladder_min_stones: int = 5   # a leaf's value is read with chains of this many stones that
                                 # the ladder captures taken off (Board.without_dead_ladders); 0: off
                                 # (docs/DECISIONS.md, 'dead ladders')
    dead_group_doubt: float = 0.9  # a chain of the mover's that the rollouts' count and the
                                 # ownership head both give the opponent by at least this
                                 # (mean over its stones) is dead beyond doubt: the root never
                                 # adds a stone to it (players/dead_groups.py); above 1: off
                                 # (docs/DECISIONS.md, 'dead groups')
    zero_settle_wait: float = 0.2  # zero search: longest wait (s) after the stop for the leaves
                                 # still with the network, before their virtual loss is undone
    root_policy_wait: float = 0.5  # longest wait (s) for the root's SL priors before searching,
    root_policy_wait_share: float = 0.25  # and at most this share of the move's time
    report_min_visits: int = 10  # analysis (lz-analyze, kata-analyze) shows a move with fewer
                                 # visits at the root's win rate, not its own: one lost
                                 # rollout is not a 0 % move (Leela Zero does the same)
    adapt_period: float = 0.1    # seconds between n_thr adjustments and checks that the
                                 # most-visited move can no longer be caught
    unsure_visit_share: float = 0.1  # with time left on the clock the search goes on past
                                 # its budget (up to the clock's limit) while a move with
                                 # this share of the leader's visits has a better Q: the
                                 # most visited move is not the best valued (AlphaGo)
    fpu_from_parent: bool = False  # first-play urgency: a child never visited is valued at
                                 # its parent's Q (mover's view) less fpu_reduction
                                 # instead of 0, a draw (Leela Zero, KataGo)
    fpu_reduction: float = 0.0   # how much worse than its parent an unvisited child is thought
    dynamic_komi_per_stone: float = 0.0  # White giving handicap counts its rollouts with this
                                 # many extra points a stone, falling to 0 over dynamic_komi_moves
                                 # plies (Pachi); off: docs/DECISIONS.md, 'dynamic komi'
    dynamic_komi_moves: int = 200
    pass_ban_fraction: float = 0.5  # the root may not pass before size*size*this plies
                                 # (unless the opponent passed): rollouts undervalue the
                                 # open board, and an early pass loses the game
    seed: int = 0

    # -- playing for points (KataGo's score utility; Wu 2019, "Accelerating
    # Self-Play Learning in Go", section 4.2 and its dynamic score center) ---------
    score_utility: float = 0.3   # weight of (2/pi) atan((mean score - center) / scale) added
                                 # to a child's Q in selection; 0: win/loss alone, as AlphaGo.
                                 # The center is the root player's mean score, taken again at
                                 # every simulation; the score is the rollouts' mixed by lambda
                                 # with the score head's. Reported and resigned-on win rates stay
                                 # win/loss alone (docs/DECISIONS.md, 'score utility')
    score_utility_scale: float = 20.0  # points over which the utility rises most

    # -- the win rate the resign rule trusts (goengine.players.resign) ----
    resign_min_visits: int = 100  # no estimate from a root with fewer visits (noise)
    resign_visit_share: float = 0.05  # max_a Q counts only moves with this share of the most
                                 # visited move's visits (a barely tried move's Q is noise)

    def __post_init__(self):
        if not 0.0 <= self.mixing <= 1.0:
            raise ValueError(f'mixing (lambda) must be in [0, 1], got {self.mixing}')
        if self.c_puct < 0 or self.virtual_loss < 0 or self.expand_threshold < 0:
            raise ValueError('c_puct, virtual_loss and expand_threshold must be >= 0')
        if self.policy_temperature <= 0:
            raise ValueError('policy_temperature must be > 0')
        if (self.net_threads < 0 or self.sim_threads < 0 or self.batch_size < 1
                or self.max_nodes < 1000):
            raise ValueError('need net_threads >= 0, sim_threads >= 0, batch_size >= 1, '
                             'max_nodes >= 1000')
        if not 0.0 <= self.pass_prior < 1.0:
            raise ValueError('pass_prior must be in [0, 1)')
        if self.search_mode not in SEARCH_MODES:
            raise ValueError(f'search_mode must be one of {", ".join(SEARCH_MODES)}, '
                             f'got {self.search_mode!r}')
        if self.ladder_min_stones < 0:
            raise ValueError('ladder_min_stones must be >= 0')
        if not 0.0 <= self.lost_ladder_prior <= 1.0:
            raise ValueError('lost_ladder_prior must be in [0, 1]')
        if not self.dead_group_doubt > 0:
            raise ValueError('dead_group_doubt must be > 0')
        if self.adapt_period <= 0 or self.resign_min_visits < 0:
            raise ValueError('need adapt_period > 0 and resign_min_visits >= 0')
        if self.score_utility < 0 or self.score_utility_scale <= 0:
            raise ValueError('need score_utility >= 0 and score_utility_scale > 0')
        if self.dynamic_komi_per_stone < 0 or self.dynamic_komi_moves < 1:
            raise ValueError('need dynamic_komi_per_stone >= 0 and dynamic_komi_moves >= 1')

    def with_settings(self, settings):
        """This config with "name=value" settings applied (gtp_main --search), for
        trying any constant without a flag of its own. A bad name or value raises
        ValueError saying which."""
        changes = {}
        for setting in settings:
            name, sep, text = setting.partition('=')
            name = name.strip()
            if not sep or name not in SETTABLE:
                raise ValueError(f'unknown search setting {setting!r}; settings are NAME=VALUE '
                                 f'with NAME one of: {", ".join(sorted(SETTABLE))}')
            try:
                changes[name] = _read(SETTABLE[name], text.strip())
            except ValueError:
                raise ValueError(f'search setting {name} needs a {SETTABLE[name].__name__}, '
                                 f'got {text!r}') from None
        return replace(self, **changes)

    def settings_changed(self):
        """'NAME=VALUE' for each setting not at its default, as --search takes them:
        how this search differs from the one the comments above describe."""
        default = SearchConfig()
        return [f'{f.name}={getattr(self, f.name)}' for f in fields(self)
                if getattr(self, f.name) != getattr(default, f.name)]

    def dynamic_komi(self, handicap, ply):
        """Extra komi (points) White's rollouts count with at `ply` of a game with
        `handicap` stones: dynamic_komi_per_stone a stone at the start, falling
        linearly to 0 at dynamic_komi_moves; 0 in even games."""
        if handicap < 2 or ply >= self.dynamic_komi_moves:
            return 0.0
        return self.dynamic_komi_per_stone * handicap * (1.0 - ply / self.dynamic_komi_moves)

    def for_device(self, device):
        """This config for networks on `device`: on an accelerator a network call
        costs about as much for 64 positions as for one, so the queues and the
        batch grow (n_thr then falls on its own, ThresholdControl); on the CPU
        the config as it is."""
        if is_cpu(device):
            return self
        return replace(self, batch_size=max(self.batch_size, ACCELERATOR_BATCH),
                       max_pending_policy=max(self.max_pending_policy, ACCELERATOR_BATCH),
                       max_pending_value=max(self.max_pending_value, 2 * ACCELERATOR_BATCH))

    def network_threads(self, search=True):
        """net_threads, or with 0: one for the APV search, every core for the zero search
        and for a player without a search (`search` False: the policy player)."""
        if self.net_threads > 0:
            return self.net_threads
        return 1 if search and self.search_mode == 'apv' else available_cores()

    def simulation_threads(self, networks):
        """sim_threads, or with 0 one per core not used by the network thread; one for the
        zero search, whose simulations only select and wait (the network takes the cores)."""
        if self.sim_threads > 0:
            return self.sim_threads
        if self.search_mode == 'zero' and networks:
            return 1
        return max(1, available_cores() - (self.network_threads() if networks else 0))


# Settings that come with a shipped network (loading.NETWORKS) unless the command line sets
# them (docs/DECISIONS.md, 'n_thr floor').
NETWORK_SEARCH = {'small': {'expand_threshold': 3}}

# Settings that come with how the network runs, (CPU kind, precision) as backends.Runtime
# names them, unless the command line sets them: the zero search where int8 gives the
# network the evaluations it needs (docs/DECISIONS.md, 'search mode').
RUNTIME_SEARCH = {(AMX, INT8): {'search_mode': 'zero'}}

# Settings that come with the zero search unless the command line sets them: its Q is the
# value head's alone and an unvisited child has no rollout to stand on, so PUCT takes the
# constants of the engines that search this way (docs/DECISIONS.md, 'zero search PUCT');
# every leaf it evaluates adds a child a legal move, so its node pool is four times the
# default (docs/DECISIONS.md, 'zero search node pool').
MODE_SEARCH = {'zero': {'c_puct': 1.5, 'fpu_from_parent': True, 'fpu_reduction': 0.2,
                        'max_nodes': 8_000_000}}


def search_config(network=None, settings=(), runtime=None, **given):
    """SearchConfig for the search with the shipped `network` (a name or None) run by
    `runtime` (a (CPU kind, precision) pair or None): that network's NETWORK_SEARCH
    settings and the runtime's RUNTIME_SEARCH ones, then `settings` ('NAME=VALUE' strings,
    as --search takes them), then the `given` ones that are not None, then the search
    mode's MODE_SEARCH ones that neither names; the rest the defaults above. Raises
    ValueError for a bad setting."""
    config = replace(SearchConfig(), **NETWORK_SEARCH.get(network, {}),
                     **RUNTIME_SEARCH.get(runtime, {}))
    config = config.with_settings(settings)
    given = {name: value for name, value in given.items() if value is not None}
    config = replace(config, **given)
    named = {s.partition('=')[0].strip() for s in settings} | set(given)
    mode = MODE_SEARCH.get(config.search_mode, {})
    return replace(config, **{name: value for name, value in mode.items() if name not in named})


def _read(kind, text):
    """A setting's value from its text: int, float, or bool (true/false, 1/0, yes/no)."""
    if kind is bool:
        lowered = text.lower()
        if lowered in ('true', '1', 'yes', 'on'):
            return True
        if lowered in ('false', '0', 'no', 'off'):
            return False
        raise ValueError(text)
    return kind(text)


# Every constant --search NAME=VALUE may set, with its type.
SETTABLE = {f.name: {'float': float, 'int': int, 'bool': bool}.get(f.type, f.type)
            for f in fields(SearchConfig)}
