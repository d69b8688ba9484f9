"""From files to the player gtp_main runs: the one place that assembles it.

Each kind of file has one reader (netfile.load_network for networks,
rollout_weights.load for the rollout policy); this module calls them once
and hands the parts to the player of the kind asked for:

* 'search': the APV-MCTS search (goengine.players.mcts_player), the engine proper;
* 'policy': the policy network alone, greedy or sampled (`--policy-only`; the RL
  policy unless a network is named);
* 'random': random sensible moves, no network (`--weights none`).

Every kind also gets the rollout policy, whose playouts judge dead stones
(final_score, final_status_list). The paths are this module's too: the
default weights, the shipped networks by name (--network: the small one for
the search on a CPU without native bf16, the large one elsewhere), the value
network found beside the policy, the word 'none' for no network, and relative paths looked up in
the installation.
"""

import argparse
import os
import sys

from goengine import INSTALL_DIR
from goengine.nn.devices import INT8, is_cpu

# The SL network with its value, ownership and score heads (k=192): `--weights
# weights/sl.pt`, and --network large.
DEFAULT_WEIGHTS = os.path.join('weights', 'sl.pt')
NO_NETWORK = 'none'

# The four-headed networks that ship, by what they are made for (docs/TRAINING.md;
# which one auto picks: docs/DECISIONS.md, 'network').
NETWORKS = {'small': os.path.join('weights', 'heads-k96.pt'),
            'large': DEFAULT_WEIGHTS}
AUTO = 'auto'
# The RL policy network (docs/TRAINING.md, 'The RL policy'): what --policy-only plays when
# no network is named, the part AlphaGo gave its RL policy, a strong player with no
# search; the search keeps the SL network's priors (docs/DECISIONS.md, 'policy-only network').
POLICY_ONLY_WEIGHTS = os.path.join('weights', 'rl.pt')
# What plays when no network is named: by the machine (docs/DECISIONS.md, 'network').
DEFAULT_NETWORK = AUTO


def add_network_flags(parser, default_network=DEFAULT_NETWORK):
    """--weights FILE and --network NAME, as every program that plays takes them:
    a file named wins; else the network named (auto: by --device and the CPU)."""
    parser.add_argument('--weights', default=None, metavar='FILE',
                        help='network file: an SL policy or a four-headed network (default: '
                             'the --network\'s file; also looked up next to the program); '
                             '"none": no network')
    parser.add_argument('--network', default=default_network, choices=(AUTO, *NETWORKS),
                        help='a shipped network: small (k=96, made for the search on a CPU), '
                             'large (k=192), or auto: the small one on a CPU without native '
                             'bf16 (AVX2 only), the large one on a GPU and on a CPU with '
                             'AVX-512 BF16 or AMX' +
                             (' (default: %(default)s)' if default_network else ''))


def cpu_has_native_bf16():
    """Whether this CPU does bf16 arithmetic natively (cpu.bf16_is_fast); torch is
    imported only when asked."""
    from goengine.nn.cpu import bf16_is_fast
    return bf16_is_fast()


def network_name(weights, network, device):
    """The shipped network ('small' or 'large') the flags pick on `device`, or None
    when a file (or 'none') is named or no network at all."""
    if weights is not None or network is None:
        return None
    if network == AUTO:
        fp32_cpu = is_cpu(device) and not cpu_has_native_bf16()
        return 'small' if fp32_cpu else 'large'
    return network


def chosen_weights(weights, network, device, policy_only=False):
    """The network file to load: `weights` when a file (or 'none') was named, else
    POLICY_ONLY_WEIGHTS for the policy player with no network named, else the
    `network`'s file for `device`, else DEFAULT_WEIGHTS."""
    if weights is not None:
        return weights
    if policy_only and network == AUTO:
        return POLICY_ONLY_WEIGHTS
    name = network_name(weights, network, device)
    return DEFAULT_WEIGHTS if name is None else NETWORKS[name]


def add_device_flag(parser):
    """--device, as every program that runs a network takes it: resolved while the
    flags are parsed (inference.pick_device), so args.device is a device that is
    there, and one that is not stops the program before anything loads."""
    parser.add_argument('--device', default='auto', metavar='NAME', type=device_name,
                        help='where the networks run: auto (a CUDA GPU, else Apple MPS, else '
                             'the CPU), cpu, cuda, cuda:N or mps (default: %(default)s)')


def add_backend_flag(parser):
    """--precision and --backend, beside --device: how the networks run there
    (backends.pick_runtime)."""
    from goengine.nn.devices import BACKENDS, PRECISIONS   # names only: no torch
    parser.add_argument('--precision', default='auto', choices=PRECISIONS,
                        help='the networks\' arithmetic: fp32, bf16, int8 (the CPU only; '
                             'the network\'s int8 file, tools/make_int8.py), or auto: by the '
                             'CPU kind (docs/DECISIONS.md, "int8"); half precision on a GPU '
                             '(default: %(default)s)')
    parser.add_argument('--backend', default='auto', choices=BACKENDS,
                        help='what runs the networks: torch, onnxruntime or openvino (the '
                             'CPU only), or auto: the fastest installed for the precision '
                             '(default: %(default)s)')


def networks_asked(args, log, policy_only=False):
    """(policy file, value file, Runtime) from the flags add_network_flags,
    add_device_flag and add_backend_flag parsed, with --value-weights, for the search or
    (`policy_only`) the policy player; None after one line to `log` when the runtime
    asked for cannot run here or cannot run that network."""
    weights, value_weights = network_paths(
        chosen_weights(args.weights, args.network, args.device, policy_only),
        args.value_weights)
    if weights is None:
        return weights, value_weights, None
    runtime = pick_runtime(args.precision, args.backend, args.device, log)
    if runtime is None:
        return None
    if policy_only and runtime.precision == INT8 and runtime.fallback is not None:
        runtime = runtime.fallback   # one evaluation a move: int8's speed buys it nothing
    from goengine.nn.int8 import Int8Error
    try:
        runtime, _ = runtime.for_weights(weights, log)
    except Int8Error as exc:   # int8 asked for by name, and the file has none
        log(f'goengine: error: {exc}')
        return None
    return weights, value_weights, runtime


def pick_runtime(precision, backend, device, log):
    """backends.pick_runtime, or None after one line to `log` saying why it cannot run."""
    from goengine.nn import backends
    try:
        return backends.pick_runtime(precision, backend, device, log=log)
    except backends.BackendError as exc:
        log(f'goengine: error: {exc}')
        return None


def device_name(text):
    """argparse type of --device: the torch device `text` names on this machine."""
    from goengine.nn import inference   # torch: only when a device is asked for
    try:
        return inference.pick_device(text)
    except inference.DeviceError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def is_none(path):
    """Whether `path` names no network: None or the word 'none'."""
    return path is None or str(path).lower() == NO_NETWORK


def resolve(path):
    """A relative path that is missing in the working directory is looked up in the
    installation (where weights/ ships), so the engine starts from any directory."""
    if is_none(path) or os.path.isabs(path) or os.path.exists(path):
        return path
    candidate = os.path.join(INSTALL_DIR, path)
    return candidate if os.path.exists(candidate) else path


def network_paths(weights, value_weights=None):
    """(policy file or None, value file or None) for the files a user named.

    'none' names no network; without a value file named, value.pt beside the
    policy file is used when there is one."""
    weights = None if is_none(weights) else resolve(weights)
    if is_none(value_weights):
        value_weights = None if value_weights is not None else (
            value_weights_beside(weights) if weights else None)
    else:
        value_weights = resolve(value_weights)
    return weights, value_weights


def load_rollout(path=None, log=None):
    """The rollout + tree policy: `path`, else weights/rollout.weights if it
    exists, else uniform random rollouts. Raises RolloutLoadError for a bad file."""
    from goengine.rollout import rollout_weights
    from goengine.rollout._rollout import RolloutPolicy
    if path is None and os.path.isfile(rollout_weights.DEFAULT_PATH):
        path = rollout_weights.DEFAULT_PATH
    if path is None:
        if log:
            log('goengine: no rollout weights: uniform random rollouts and tree priors')
        return RolloutPolicy.uniform()
    return rollout_weights.load(path)


def value_weights_beside(policy_weights):
    """weights/value.pt next to the policy file, when no value network is named; or None."""
    candidate = os.path.join(os.path.dirname(policy_weights), 'value.pt')
    return candidate if os.path.isfile(candidate) else None


def evaluator(path, kind, threads=None, device='cpu', runtime=None, log=None):
    """A NetworkEvaluator for the network file at `path` on `device` and `runtime`
    (backends.pick_runtime's choice; None: torch in the device's default precision), or
    None without one: a `kind` network, or a four-headed one with a `kind` head.

    Raises netfile.NetworkLoadError for a missing or corrupt file, or one without it,
    and int8.Int8Error for int8 asked for by name where the file has no int8 form."""
    if is_none(path):
        return None
    from goengine.nn import backends, netfile  # torch is slow to import; only when needed
    path = resolve(path)
    model = netfile.load_network(path, head=kind)
    if runtime is None:
        return backends.NetworkEvaluator(model, threads=threads, device=device)
    return backends.make_evaluator(model, runtime, threads=threads, device=device,
                                   weights=path, log=log)


def log_to_stderr(message):
    print(message, file=sys.stderr, flush=True)
