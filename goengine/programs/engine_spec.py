"""What engine to run, decided once from the flags, and the one place that builds it.

spec_from_args turns the flags every program shares (the network, device, precision and
runtime, the search settings, resign, the player kind) into an EngineSpec; build_engine
makes the player from it. gtp_main, goengine-review and goengine-analysis all go through
both, so a flag means the same in each and --verbose prints what was chosen once.
"""

import argparse
import enum
from dataclasses import dataclass

from goengine.programs import loading
from goengine.search import config as searchconfig

SEARCH = searchconfig.SearchConfig()
ZERO = searchconfig.MODE_SEARCH['zero']


class PlayerKind(enum.Enum):
    """What chooses the moves: the search, the policy network alone, or random sensible
    moves (no network: for testing GUIs and the protocol)."""
    SEARCH = 'search'
    POLICY = 'policy'
    RANDOM = 'random'


class BuildError(ValueError):
    """An engine the flags ask for that cannot be built (one line saying why)."""


@dataclass(frozen=True)
class EngineSpec:
    """Everything that decides how the engine plays, resolved: files, where and how the
    networks run, the search's settings (config.SearchConfig), resign and temperature."""
    player: PlayerKind
    weights: str = None            # the policy (or four-headed) network file; None: none
    value_weights: str = None      # a separate value network file, or None
    rollout_weights: str = None    # None: weights/rollout.weights where it ships
    device: str = 'cpu'
    runtime: object = None         # backends.Runtime; None: torch in the device's default
    network: str = None            # the shipped network's name (loading.NETWORKS), or None
    config: searchconfig.SearchConfig = SEARCH
    resign_threshold: float = None  # None: ResignRule's default
    temperature: float = None      # the policy player's sampling temperature (None: greedy)
    needs_value: bool = False      # --lambda below 1 was asked for: a value network must serve

    def describe(self):
        """One line: what plays, on what, how (the --verbose start-up line)."""
        if self.player is PlayerKind.RANDOM:
            return 'random sensible moves (no network)'
        runtime = self.runtime or 'torch'
        cpu = f' (CPU kind {self.runtime.cpu})' if self.runtime and self.runtime.cpu else ''
        shipped = f' ({self.network})' if self.network else ''
        value = f', value {self.value_weights}' if self.value_weights else ''
        if self.player is PlayerKind.POLICY:
            how = 'the policy alone' + (f' at T {self.temperature:g}'
                                        if self.temperature is not None else '')
        else:
            changed = self.config.settings_changed()
            how = (f'the {self.config.search_mode} search, settings '
                   f'{" ".join(changed) if changed else "(the defaults)"}')
        if self.weights is None:
            return f'no network, rollouts alone; {how}'
        return f'{self.weights}{shipped}{value} on {self.device}{cpu}, {runtime}; {how}'


def spec_from_args(args, log, player=None):
    """The EngineSpec of parsed flags (add_network_flags, add_device_flag,
    add_backend_flag, add_search_flags; policy_only, resign_threshold, temperature and
    rollout_weights where the program has them); None after one line to `log` when the
    search settings are bad or the runtime asked for cannot run here. player: the
    PlayerKind, or None for gtp_main's rule: the policy alone with --policy-only, random
    moves with no network, else the search (the review and the analysis always search,
    on rollouts alone without a network)."""
    try:   # a bad --search setting is refused before anything loads
        search_config(args)
    except ValueError as exc:
        log(f'goengine: error: {exc}')
        return None
    policy_only = getattr(args, 'policy_only', False)
    networks = loading.networks_asked(args, log, policy_only=policy_only)
    if networks is None:
        return None
    weights, value_weights, runtime = networks
    if player is None:
        player = (PlayerKind.RANDOM if weights is None else
                  PlayerKind.POLICY if policy_only else PlayerKind.SEARCH)
    return EngineSpec(player, weights, value_weights,
                      getattr(args, 'rollout_weights', None), args.device, runtime,
                      loading.network_name(args.weights, args.network, args.device),
                      search_config(args, runtime),
                      getattr(args, 'resign_threshold', None), getattr(args, 'temperature', None),
                      needs_value=args.mixing is not None and args.mixing < 1)


def build_engine(spec, log, player_log=None, rollout=None, cluster=None):
    """The player `spec` describes. rollout: the RolloutPolicy when the caller has read
    it already (else spec.rollout_weights is read); cluster: the distributed search's
    workers (cluster.Workers). player_log: where the player logs (default `log`).

    Raises BuildError for a spec whose parts do not fit, netfile.NetworkLoadError or
    int8.Int8Error for a bad network file, RolloutLoadError for a bad rollout file."""
    if rollout is None:
        rollout = loading.load_rollout(loading.resolve(spec.rollout_weights)
                                       if spec.rollout_weights else None, log)
    player = load_player(spec.player, spec.weights, spec.value_weights, rollout,
                         spec.resign_threshold, spec.config, player_log or log,
                         temperature=spec.temperature, device=spec.device,
                         runtime=spec.runtime, cluster=cluster)
    if spec.needs_value and spec.player is PlayerKind.SEARCH and player.value_eval is None:
        player.close()
        raise BuildError(f'--lambda {spec.config.mixing:g} needs a value network '
                         '(--value-weights FILE, or a four-headed --weights file)')
    return player


def load_player(kind, weights=None, value_weights=None, rollout=None,
                resign_threshold=None, config=None, log=None, temperature=None, device='cpu',
                runtime=None, cluster=None):
    """The player of `kind` (a PlayerKind) with the networks in `weights` / `value_weights`.

    rollout: a RolloutPolicy (loading.load_rollout()); None loads the default.
    config: the SearchConfig; its network_threads() are every player's network threads.
    The search without networks runs on rollouts alone.
    temperature: the policy player's sampling temperature (None: greedy).
    device: where the networks run (a name from inference.pick_device); on an
    accelerator the search batches more positions a call (SearchConfig.for_device).
    runtime: how they run there (backends.pick_runtime's choice; None: torch, in the
    device's default precision).
    cluster: the distributed search's workers (cluster.Workers), for the search only.
    Raises netfile.NetworkLoadError for a missing or corrupt network file, BuildError for
    the zero search without one four-headed network.
    """
    kind = PlayerKind(kind)
    from goengine.nn.heads import Head
    from goengine.players.policy_player import PolicyPlayer, SimplePlayer
    from goengine.rollout.scoring import Scorer
    log = log or loading.log_to_stderr
    rollout = rollout if rollout is not None else loading.load_rollout(log=log)
    scorer = Scorer(rollout)   # the rollout policy's playouts judge dead stones
    config = (config or searchconfig.SearchConfig()).for_device(device)
    if kind is PlayerKind.RANDOM:
        return SimplePlayer(scorer=scorer, config=config)
    threads = config.network_threads(search=kind is PlayerKind.SEARCH)
    policy_eval = loading.evaluator(weights, Head.POLICY, threads, device, runtime, log)
    value_eval = loading.evaluator(value_weights, Head.VALUE, threads, device, runtime, log)
    for path, network in ((weights, policy_eval), (value_weights, value_eval)):
        if network is not None:
            described = network.describe()
            log(f'goengine: {path}: {described.backend} {described.precision} '
                f'on {described.device}')
    info = policy_eval.describe() if policy_eval is not None else None
    if info is not None and len(info.heads) > 1:
        log(f'goengine: {weights}: one network, heads {", ".join(info.heads)}')
        if value_eval is None and info.answers(Head.VALUE):
            value_eval = policy_eval   # its value comes with every policy evaluation
    if kind is PlayerKind.POLICY:
        if policy_eval is None:
            raise BuildError('the policy player needs policy weights')
        return PolicyPlayer(policy_eval, value_eval, resign_threshold=resign_threshold, log=log,
                            temperature=temperature, scorer=scorer, config=config)
    if value_eval is None:
        log('goengine: no value network: the search values its leaves by rollouts alone')
    if config.search_mode == 'zero' and (value_eval is None or value_eval is not policy_eval):
        raise BuildError('--search-mode zero needs one four-headed network (policy and value '
                         'on one trunk), e.g. --weights weights/sl.pt')
    from goengine.players.mcts_player import MCTSPlayer
    return MCTSPlayer(policy_eval, value_eval, rollout, config,
                      resign_threshold=resign_threshold, log=log, scorer=scorer, cluster=cluster)


def search_config(args, runtime=None):
    """SearchConfig with the search constants given on the command line over those that
    come with the shipped network the flags pick and with how it runs (`runtime`); the
    rest AlphaGo's. Raises ValueError for a bad setting."""
    network = loading.network_name(args.weights, args.network, args.device)
    return searchconfig.search_config(
        network, args.search, runtime and runtime.kind, mixing=args.mixing,
        c_puct=args.c_puct, expand_threshold=args.expand_threshold, net_threads=args.threads,
        search_mode=args.search_mode,
        stop_when_decided=False if getattr(args, 'spend_full_time', False) else None)


def add_search_flags(parser):
    """The search's flags (docs/TUNING.md), as every program that searches takes them."""
    search = parser.add_argument_group('search (docs/TUNING.md)')
    search.add_argument('--search-mode', choices=searchconfig.SEARCH_MODES, default=None,
                        help="apv: AlphaGo's, rollouts and value; zero: AlphaGo Zero's, the "
                             f"network at every leaf (default {SEARCH.search_mode}), where the "
                             "CPU kind's runtime does not bring zero (docs/DECISIONS.md, "
                             "'search mode')")
    search.add_argument('--lambda', dest='mixing', type=fraction, default=None, metavar='L',
                        help='leaf value: (1-L) value network + L rollouts '
                             f'(default {SEARCH.mixing:g})')
    search.add_argument('--c-puct', type=nonnegative_float, default=None, metavar='C',
                        help=f'PUCT exploration constant (default {SEARCH.c_puct:g}; '
                             f'{ZERO["c_puct"]:g} for zero)')
    search.add_argument('--expand-threshold', type=nonnegative_int, default=None, metavar='N',
                        help='visits before a leaf is expanded '
                             f'(default {SEARCH.expand_threshold}; it adapts)')
    search.add_argument('--threads', type=positive_int, default=None, metavar='N',
                        help="the network's threads on the CPU (default: 1 beside the "
                             "rollouts, every core without them)")
    search.add_argument('--search', action='append', default=[], metavar='NAME=VALUE',
                        help='any constant of goengine/search/config.py (repeatable)')
    return search


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f'must be >= 1, got {text}')
    return value


def nonnegative_int(text):
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f'must be >= 0, got {text}')
    return value


def nonnegative_float(text):
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f'must be >= 0, got {text}')
    return value


def fraction(text):
    value = float(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f'must be in [0, 1], got {text}')
    return value
