"""The supervised training loop shared by the policy and value networks.

A `Task` (training/tasks.py) says what differs: which examples, which
network, which loss. Everything else lives here once, on the CPU or a CUDA
GPU with the same code: SGD (or AdamW) with bf16 autocast
(fp32 master weights), a step-decayed learning rate, periodic validation on a
fixed held-out sample, a CSV log and PNG plot, atomic checkpoints that resume
exactly (model, optimizer, positions seen, RNG and data stream position),
SIGTERM/SIGINT handling, and export of the BN-folded fp16 network.

Run directory layout: checkpoint.pt, log.csv, plot.png, train.log, val-<kind>.npz.
"""

import argparse
import copy
import math
import os
import random
import signal
import sys
import time

import numpy as np
import torch

from goengine.nn import features, inference, netfile, nets, surgery
from goengine.programs import loading
from training import distributed, value_shards
from training.dataset import DATA_DIR, REPO_DIR, SPLIT_HELP, load_split
from training.run_folder import CHECKPOINT, RunFolder
from training.sampler import BatchStream, BatchWorkers, PackedPlanes, fixed_sample, measure_rate
from training.tasks import Tally

# Use a worker process for feature extraction when the pipeline is not at
# least this many times faster than the training step.
PIPELINE_MARGIN = 3.0
MEASURE_SECONDS = 0.5  # minimum time spent timing training steps at startup


def to_channels_last(model, device="cpu"):
    """NHWC weights on `device`, to match as_input."""
    return model.to(device, memory_format=torch.channels_last)


def as_input(planes, device="cpu"):
    """uint8 planes (or PackedPlanes) -> float NHWC (channels_last) tensor on `device`.

    oneDNN's convolutions are faster in NHWC, forward and backward
    (docs/DECISIONS.md, 'channels_last')."""
    packed = isinstance(planes, PackedPlanes)
    x = torch.from_numpy(np.ascontiguousarray(planes.bits if packed else planes))
    if device != "cpu":  # uint8 crosses the bus: a quarter of the bytes of float, or a 32nd
        x = x.pin_memory().to(device, non_blocking=True)
    if packed:
        x = unpack_bits(x, planes.shape)
    return x.float().contiguous(memory_format=torch.channels_last)


def unpack_bits(bits, shape):
    """np.unpackbits on the tensor's device: (batch, bytes) uint8 -> 0/1 uint8 of `shape`."""
    shifts = torch.arange(7, -1, -1, dtype=torch.uint8, device=bits.device)
    per_position = math.prod(shape[1:])
    x = (bits.unsqueeze(-1) >> shifts) & 1
    return x.reshape(len(bits), -1)[:, :per_position].reshape(shape)


def optional_tqdm():
    """tqdm's progress bar class, or None where it is not installed (the GPU machine)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """--help shows defaults and keeps the tool docstring's command lines as written."""


def add_arguments(parser, lr, batch_size, positions_per_game, run_dir):
    """The flags both trainers share; each tool passes its own defaults."""
    parser.formatter_class = HelpFormatter
    parser.epilog = (SPLIT_HELP + " With --resume, flags left at their default keep the "
                     "run's saved values. log.csv: wallclock is seconds of training so far.")
    a = parser.add_argument
    a("--run-dir", default=run_dir, help="checkpoint, log.csv, plot.png and train.log go here")
    a("--resume", action="store_true", help="continue from RUN_DIR/checkpoint.pt")
    a("--init-weights", metavar="PATH", help="start a new run from a network file such as "
      "the shipped weights/sl-policy.pt: its folded BN is put back with statistics measured on "
      "training positions, and its positions_seen carries over (use another --seed than "
      "the run that made it, or the data repeats)")
    a("--export", metavar="PATH", help="write the BN-folded fp16 network of RUN_DIR's "
      "checkpoint to PATH (with its validation score) and exit")
    a("--data-dir", default=DATA_DIR, help="folder of tygem-9d-*.sgfs.gz game collections")
    a("--cache-dir", default=os.path.join(REPO_DIR, "data"),
      help="where the parsed games of each split are cached as .npz")
    a("--filters", type=int, default=nets.DEFAULT_FILTERS, help="k, filters per layer")
    a("--layers", type=int, default=nets.DEFAULT_LAYERS, help="convolution layers")
    a("--lr", type=float, default=lr, help="initial learning rate")
    a("--lr-schedule", choices=("step", "cosine"), default="step",
      help="step: --lr times --lr-decay every --lr-decay-every positions; cosine: from --lr "
           "down to --lr-floor times it over the run's budget (--max-positions in total, or "
           "--max-hours of this invocation, whichever ends first), for a run of known length "
           "such as a run on a rented GPU")
    a("--lr-decay", type=float, default=0.5, help="lr factor applied every --lr-decay-every")
    a("--lr-decay-every", type=int, default=0, metavar="POSITIONS",
      help="positions between lr decays (0: constant lr)")
    a("--lr-floor", type=float, default=0.05, help="the cosine schedule's last lr, as a "
      "fraction of --lr")
    a("--optimizer", choices=("sgd", "adamw"), default="sgd",
      help="sgd: Nesterov momentum, as AlphaGo; adamw: per-weight step sizes, which lets a "
           "new head learn beside a trained trunk (docs/TRAINING.md, value network)")
    a("--momentum", type=float, default=0.9, help="Nesterov momentum (sgd only)")
    a("--weight-decay", type=float, default=1e-4)
    a("--batch-size", type=int, default=batch_size)
    a("--positions-per-game", type=int, default=positions_per_game,
      help="random positions taken from a game each time the game comes up in an epoch")
    a("--seed", type=int, default=1, help="seeds the data order, sampling and initial weights")
    a("--max-positions", type=int, help="stop once this many positions were trained in total")
    a("--max-hours", type=float, help="stop after this many hours of this invocation")
    a("--checkpoint-minutes", type=float, default=10.0)
    a("--val-every", type=int, default=50_000, metavar="POSITIONS",
      help="validate, log a CSV row and redraw the plot this often")
    a("--val-positions", type=int, default=2000, help="size of the fixed held-out sample")
    a("--warmup", type=int, default=0, metavar="POSITIONS",
      help="raise the lr linearly from 0 over this many positions of this invocation "
           "(a large batch or a fresh optimizer state needs it)")
    loading.add_device_flag(parser)
    a("--threads", type=int, default=2, help="torch intra-op threads")
    a("--workers", default="auto", metavar="N",
      help="processes making feature planes: a number (0: in the trainer's process), or "
           "auto: enough to keep the measured training step fed")
    a("--compile", action="store_true",
      help="torch.compile the model (pays on a GPU only when measured to; off by default)")
    a("--fp32", action="store_true",
      help="no bf16 autocast (default: bf16 on a GPU, and on a CPU only where it computes "
           "bf16 natively, inference.bf16_is_fast; elsewhere it is many times slower than fp32)")
    a("--no-progress", action="store_true", help="no tqdm progress bar")


def add_selfplay_arguments(parser):
    """--selfplay and its mixing flags: the value trainer's and the four-headed one's."""
    a = parser.add_argument
    a("--selfplay", metavar="DIR", help="also train the value on the self-play records in DIR "
      "(tools/selfplay.py, tools/selfplay_rl.py --value-data), read as they appear; the "
      "held-out sample stays human games")
    a("--human-fraction", type=float, default=0.0, metavar="F",
      help="with --selfplay: this share of each minibatch comes from the human games, the "
           "rest from self-play")
    a("--shard-passes", type=int, default=1, metavar="N",
      help="with --selfplay: use each shard at most N times, then wait for new ones")


def check_selfplay_arguments(parser, args):
    """One parser error for a --human-fraction that cannot be."""
    if not 0.0 <= args.human_fraction <= 1.0:
        parser.error("--human-fraction must be in [0, 1]")
    if args.selfplay and args.human_fraction == 1.0:
        parser.error("--human-fraction 1 leaves no room for --selfplay records")


def parse_args_with_selfplay(parser, argv=None):
    """parse_args for the trainers with a value head: --selfplay and its flags added, checked."""
    add_selfplay_arguments(parser)
    args = parse_args(parser, argv)
    check_selfplay_arguments(parser, args)
    return args


def add_policy_start(parser, what):
    """--init-from-policy: `what` (e.g. "the trunk") starts as a policy network's."""
    parser.add_argument("--init-from-policy", metavar="FILE",
                        help=f"start {what} from a policy network file (weights/sl-policy.pt) or a "
                             f"policy training checkpoint (runs/policy/checkpoint.pt); needs "
                             f"equal --filters/--layers")


class Trainer:
    def __init__(self, task, args):
        self.task, self.args = task, args
        self.run_dir = args.run_dir
        device = args.device   # resolved by the parser (loading.add_device_flag)
        self.ranks = distributed.start(device)   # one process unless torchrun started several
        self.device = self.ranks.device(device)
        self.device_type = self.device.split(":")[0]   # autocast's name for it
        on_gpu = self.device.startswith("cuda")
        self.bf16 = not args.fp32 and (on_gpu or inference.bf16_is_fast())
        if on_gpu:  # every batch has one shape: let cuDNN time its algorithms once
            torch.backends.cudnn.benchmark = True
        self.folder = RunFolder(self.run_dir, task.kind, task.metrics, main=self.ranks.main)
        self.stop_reason = None
        self.worker = None

    def log(self, message):
        self.folder.log(message)

    # ------------------------------------------------------------ checkpoints

    def save_checkpoint(self):
        if not self.ranks.main:
            self.last_checkpoint = time.monotonic()
            return
        self.folder.save_checkpoint({
            "kind": self.task.kind,
            "arch": self.model.arch,
            "model": self.model.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "positions_seen": self.positions_seen,
            "stream_position": list(self.stream_position),
            "stream": self.stream_config,
            "selfplay_position": self.selfplay_position,
            "wallclock": self.wallclock(),
            "rng": {"torch": torch.get_rng_state(), "python": random.getstate()},
            "args": {k: v for k, v in vars(self.args).items()},
        })
        self.last_checkpoint = time.monotonic()

    # --------------------------------------------------------------- training

    def wallclock(self):
        return self.wallclock_before + (time.monotonic() - self.started)

    def progress(self):
        """How far the run is through its budget, 0..1: the nearer of --max-positions
        (in total) and --max-hours (this invocation)."""
        a = self.args
        done = []
        if a.max_positions:
            done.append(self.positions_seen / a.max_positions)
        if a.max_hours:
            done.append((time.monotonic() - self.started) / (3600 * a.max_hours))
        return min(1.0, max(done, default=0.0))

    def lr(self):
        a = self.args
        lr = a.lr
        if a.lr_schedule == "cosine":
            cosine = 0.5 * (1 + math.cos(math.pi * self.progress()))
            lr *= a.lr_floor + (1 - a.lr_floor) * cosine
        elif a.lr_decay_every > 0:
            lr *= a.lr_decay ** (self.positions_seen // a.lr_decay_every)
        trained_here = self.positions_seen - self.positions_at_start
        if a.warmup > 0 and trained_here < a.warmup:
            lr *= (trained_here + 1) / a.warmup
        return lr

    def step(self, model, optimizer, planes, targets):
        """One SGD step (bf16 autocast where it is fast); returns the metric sums of the batch."""
        x = as_input(planes, self.device)
        y = torch.from_numpy(np.ascontiguousarray(targets)).to(self.device, non_blocking=True)
        with torch.autocast(self.device_type, dtype=torch.bfloat16, enabled=self.bf16):
            output = self.task.forward(model, x)
        loss, sums = self.task.loss(output, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        return sums

    @torch.no_grad()
    def evaluate(self, model, planes, targets, batch=256):
        """Mean metrics of `model` (eval mode) over held-out examples."""
        model.eval()
        tally = Tally(self.task.metrics)   # a metric the sample has no target for is NaN
        for i in range(0, len(targets), batch):
            x = as_input(planes[i:i + batch], self.device)
            with torch.autocast(self.device_type, dtype=torch.bfloat16, enabled=self.bf16):
                output = self.task.forward(model, x)
            y = torch.from_numpy(targets[i:i + batch]).to(self.device)
            _, sums = self.task.loss(output, y)
            tally.add(sums, len(y))
        model.train()
        return tally.means()

    def validation_set(self):
        """The fixed held-out sample, built once and cached in the run dir."""
        a = self.args
        path = os.path.join(self.run_dir, f"val-{self.task.kind}.npz")
        if os.path.exists(path):
            with np.load(path) as f:
                if len(f["targets"]) == a.val_positions or a.resume:
                    return f["planes"], f["targets"]
        store = self.task.prepare_store(load_split("val", a.data_dir, a.cache_dir, log=self.log))
        planes, targets = fixed_sample(self.task.val_examples or self.task.examples, store,
                                       a.val_positions)
        tmp = path + ".tmp.npz"
        np.savez_compressed(tmp, planes=planes, targets=targets)
        os.replace(tmp, path)
        self.log(f"validation set: {len(targets)} positions from held-out games -> {path}")
        return planes, targets

    def build(self):
        """Model and optimizer, fresh or from the checkpoint."""
        a = self.args
        torch.manual_seed(a.seed)
        state = self.folder.load_checkpoint() if a.resume else None
        if state is None and os.path.exists(self.folder.checkpoint_path) and not a.export:
            raise SystemExit(f"{self.folder.checkpoint_path} exists: pass --resume to continue "
                             f"it, or choose another --run-dir")
        if state:
            self.model = nets.NETWORK_CLASSES[state["kind"]](**state["arch"])
            self.model.load_state_dict(state["model"])
        else:
            self.model = self.task.build_model(a)
        self.model = to_channels_last(self.model, self.device).train()
        self.optimizer = self.make_optimizer()
        self.positions_seen, self.stream_position, self.wallclock_before = 0, (0, 0, 0), 0.0
        self.selfplay_position = None
        self.stream_config = dict(batch_size=self.human_batch_size(),
                                  positions_per_game=a.positions_per_game, seed=a.seed)
        if self.ranks.active:   # a resumed run with another world size starts a new chunk
            self.stream_config["world"] = self.ranks.world
        if state:
            if state["optimizer"] is not None:
                self.optimizer.load_state_dict(state["optimizer"])
            else:  # a compact checkpoint too large with it (tools/gpu_kit.py fetch)
                self.log("the checkpoint has no optimizer state: it starts afresh")
            self.positions_seen = state["positions_seen"]
            self.stream_position = tuple(state["stream_position"])
            self.selfplay_position = state.get("selfplay_position")
            self.wallclock_before = state["wallclock"]
            if state["stream"] != self.stream_config:
                # A new shape of stream (a GPU's larger batches, say) from the next chunk on,
                # so that no position of the current chunk is seen twice.
                epoch, chunk, _ = self.stream_position
                self.stream_position = (epoch, chunk + 1, 0)
                self.log(f"the data stream changes from {state['stream']} to {self.stream_config} "
                         f"at the next chunk")
            torch.set_rng_state(state["rng"]["torch"].cpu())
            random.setstate(state["rng"]["python"])
        self.positions_at_start = self.positions_seen
        self.started = time.monotonic()
        self.last_checkpoint = time.monotonic()

    def make_optimizer(self):
        a = self.args
        if a.optimizer == "adamw":
            return torch.optim.AdamW(self.model.parameters(), lr=a.lr, weight_decay=a.weight_decay)
        return torch.optim.SGD(self.model.parameters(), lr=a.lr, momentum=a.momentum,
                               nesterov=True, weight_decay=a.weight_decay)

    def start_from_weights(self, store, positions=1024):
        """Replace the fresh model by the --init-weights network, BN put back (surgery.unfold_batch_norm)."""
        a = self.args
        try:
            plain = netfile.load_network(a.init_weights, kind=self.task.kind)
        except netfile.NetworkLoadError as exc:
            raise SystemExit(str(exc)) from None
        ours = dict(self.model.arch, batch_norm=False)
        ours.pop("move_head", None)  # a training-only head; shipped files never have it
        if dict(plain.arch, batch_norm=False) != ours:
            raise SystemExit(f"{a.init_weights}: architecture {plain.arch} differs from this "
                             f"run's {ours} (set --filters/--layers to match)")
        stream = BatchStream(store, self.task.examples, **self.stream_kwargs())
        planes, _ = stream.chunk(10**6 + 1, 0)  # an epoch training never reaches
        self.model = to_channels_last(surgery.unfold_batch_norm(plain, planes[:positions]),
                                      self.device)
        self.optimizer = self.make_optimizer()
        self.positions_seen = int(plain.extra.get("positions_seen", 0))
        self.positions_at_start = self.positions_seen
        self.log(f"initialised from {a.init_weights} ({plain.extra}); BN statistics from "
                 f"{min(positions, len(planes))} training positions; counting from "
                 f"{self.positions_seen} positions")

    def measure(self, stream):
        """Pipeline and training-step throughput (positions/s); the step runs on a copy."""
        pipeline, planes, targets = measure_rate(stream)
        planes, targets = planes[:stream.batch_size], targets[:stream.batch_size]
        model = copy.deepcopy(self.model)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.0, momentum=self.args.momentum)
        for _ in range(2):  # warm-up: the first steps build kernels and are slow
            self.step(model, optimizer, planes, targets)
        self.synchronize()
        start, steps = time.perf_counter(), 0
        while steps < 3 or time.perf_counter() - start < MEASURE_SECONDS:
            self.step(model, optimizer, planes, targets)
            steps += 1
        self.synchronize()
        return pipeline, steps * len(targets) / (time.perf_counter() - start)

    def synchronize(self):
        """Wait for the GPU's queued work (timings); nothing to wait for on the CPU."""
        if self.device.startswith("cuda"):
            torch.cuda.synchronize()

    def worker_count(self, pipeline, step):
        """--workers as a number; auto: enough processes for PIPELINE_MARGIN times the step rate.

        On the CPU the workers share the cores with the step, so auto uses one
        at most, and only when the pipeline is the slower part."""
        a = self.args
        if a.workers != "auto":
            try:
                count = int(a.workers)
            except ValueError:
                raise SystemExit(f"--workers: a number or auto, not {a.workers!r}") from None
            if count < 0:
                raise SystemExit("--workers: not negative")
            return count
        if pipeline >= PIPELINE_MARGIN * step:
            return 0
        if self.device == "cpu":
            return 1
        spare = max(1, (os.cpu_count() or 2) - 2)  # the trainer and the GPU driver keep two
        return min(spare, math.ceil(PIPELINE_MARGIN * step / pipeline))

    def stream_kwargs(self):
        """BatchStream's arguments for this process: its share of each minibatch."""
        kwargs = {k: v for k, v in self.stream_config.items() if k != "world"}
        kwargs.update(batch_size=self.ranks.share(kwargs["batch_size"]),
                      rank=self.ranks.rank, world=self.ranks.world)
        return kwargs

    def human_batch_size(self):
        """Positions of each minibatch from the human games (the rest are self-play records)."""
        a = self.args
        if not getattr(a, "selfplay", None):
            return a.batch_size
        return round(a.batch_size * a.human_fraction)

    def batches(self, store):
        """The training minibatch iterator, in worker processes when the pipeline is too slow."""
        if getattr(self.args, "selfplay", None):
            return self.selfplay_batches(store)
        stream = BatchStream(store, self.task.examples, **self.stream_kwargs())
        pipeline, step = self.measure(stream)
        workers = self.worker_count(pipeline, step)
        where = f"{workers} worker processes" if workers else "in-process"
        self.log(f"throughput on {self.device}: input pipeline {pipeline:.0f} positions/s "
                 f"(one process), training step {step:.0f} positions/s (batch "
                 f"{stream.batch_size}, {torch.get_num_threads()} threads) -> {where} "
                 f"feature extraction")
        if workers:
            if store.path is None:
                raise SystemExit("worker processes need a cached game store")
            self.worker = BatchWorkers(store, self.task.examples, self.stream_kwargs(),
                                       self.stream_position, workers)
            return iter(self.worker)
        return stream.batches(self.stream_position)

    def selfplay_batches(self, store):
        """Minibatches of self-play records from --selfplay's shards, --human-fraction of
        each from the human games; each self-play position under a random symmetry.

        Yields (planes, targets, human stream position) and keeps the shard stream's
        position in self.selfplay_position for the checkpoint."""
        a = self.args
        human_batch = self.human_batch_size()
        shards = value_shards.ShardStream(
            a.selfplay, self.ranks.share(a.batch_size - human_batch), seed=a.seed,
            passes=a.shard_passes, log=self.log, stopping=lambda: self.stop_reason is not None,
            rank=self.ranks.rank, world=self.ranks.world, from_main=self.ranks.from_main)
        human = (BatchStream(store, self.task.examples, **self.stream_kwargs())
                 .batches(self.stream_position) if human_batch else None)
        self.log(f"self-play records from {a.selfplay} ({a.batch_size - human_batch} a batch, "
                 f"each shard used at most {a.shard_passes} times), {human_batch} a batch from "
                 f"human games")
        for packed, outcomes, position in shards.batches(self.selfplay_position):
            rng = np.random.default_rng([a.seed, len(position["uses"]), position["batch"]])
            planes = packed.unpack()
            planes = np.stack([features.apply_symmetry(p, int(k))
                               for p, k in zip(planes, rng.integers(8, size=len(planes)))])
            targets = self.task.selfplay_targets(outcomes)
            human_position = self.stream_position
            if human:
                human_planes, human_targets, human_position = next(human)
                planes = np.concatenate([planes, human_planes])
                targets = np.concatenate([targets, human_targets])
            self.selfplay_position = position
            yield planes, targets, human_position

    def handle_signals(self):
        """SIGTERM/SIGINT ask the loop to checkpoint and stop; returns the old handlers."""
        def request_stop(signum, frame):
            if self.stop_reason == "signal":  # a second signal: give up at once
                raise KeyboardInterrupt
            self.stop_reason = "signal"
        return {s: signal.signal(s, request_stop) for s in (signal.SIGTERM, signal.SIGINT)}

    def should_stop(self):
        """Whether to stop before the next step; with several processes, all of them at once."""
        a = self.args
        if not self.stop_reason:
            if a.max_positions is not None and self.positions_seen >= a.max_positions:
                self.stop_reason = "max positions"
            elif a.max_hours is not None and time.monotonic() - self.started >= a.max_hours * 3600:
                self.stop_reason = "max hours"
        if self.ranks.any(self.stop_reason is not None) and not self.stop_reason:
            self.stop_reason = "another process stopped"
        return self.stop_reason is not None

    def validate_and_log(self, val, train_tally, train_count, rate):
        scores = self.evaluate(self.model, *val)
        row = {"positions_seen": self.positions_seen}
        trained = train_tally.means()
        for m in self.task.metrics:
            row[f"train_{m}"] = f"{trained[m]:.4f}" if train_count else ""
        for m in self.task.metrics:
            row[f"val_{m}"] = f"{scores[m]:.4f}"
        row.update(lr=f"{self.lr():.6g}", wallclock=f"{self.wallclock():.1f}", pos_per_s=f"{rate:.1f}")
        self.folder.write_row(row)
        self.folder.plot()
        self.log("  ".join(f"{k}={v}" for k, v in row.items()))

    def train(self):
        a = self.args
        if a.lr_schedule == "cosine" and not (a.max_positions or a.max_hours):
            raise SystemExit("--lr-schedule cosine needs the run's budget: --max-positions "
                             "or --max-hours")
        torch.set_num_threads(a.threads)
        self.build()
        self.log(f"{'resuming' if a.resume else 'starting'} {self.task.kind} training: "
                 f"{self.model.arch}, {self.positions_seen} positions seen, lr {self.lr():g}, "
                 f"bf16 {'on' if self.bf16 else 'off'}")
        if a.resume:
            self.folder.truncate_log(self.positions_seen)
        val = self.validation_set() if self.ranks.main else None   # rank 0 validates
        prepare = getattr(self.task, "prepare_training_store", self.task.prepare_store)
        store = prepare(load_split("train", a.data_dir, a.cache_dir, log=self.log))
        self.log(f"training games: {len(store)} ({store.num_moves} moves)")
        if a.init_weights and not a.resume:
            self.start_from_weights(store)
        batches = self.batches(store)
        old_handlers = self.handle_signals()
        bar = None
        tqdm = None if a.no_progress else optional_tqdm()
        if tqdm is not None:
            bar = tqdm(total=a.max_positions, initial=self.positions_seen, unit="pos",
                       file=sys.stderr, dynamic_ncols=True, smoothing=0.05,
                       mininterval=0.5 if sys.stderr.isatty() else 60)  # nohup.out stays short
        tally, count, steps = Tally(self.task.metrics), 0, 0
        next_val = (self.positions_seen // a.val_every + 1) * a.val_every
        rate_since, rate_start = self.positions_seen, time.monotonic()
        self.waited = 0.0  # seconds the step waited for the input pipeline since the last row
        step_model = self.compiled_model()
        try:
            while not self.should_stop():
                waiting = time.monotonic()
                try:
                    planes, targets, self.stream_position = next(batches)
                except StopIteration:   # a stream that waited for data was told to stop
                    break
                self.waited += time.monotonic() - waiting
                for group in self.optimizer.param_groups:
                    group["lr"] = self.lr()
                batch_sums = self.step(step_model, self.optimizer, planes, targets)
                n = len(targets)
                self.positions_seen += n * self.ranks.world
                count += n
                steps += 1
                tally.add(batch_sums, n)
                if bar is not None:
                    bar.update(n)
                    if steps % 20 == 0:
                        bar.set_postfix({m: f"{v:.3f}" for m, v in tally.means().items()},
                                        refresh=False)
                if self.positions_seen >= next_val and self.ranks.main:   # rank 0 validates
                    self.synchronize()
                    elapsed = time.monotonic() - rate_start
                    rate = (self.positions_seen - rate_since) / elapsed
                    self.log(f"rates: {rate:.0f} positions/s trained; the step waited for input "
                             f"{100 * self.waited / elapsed:.0f} % of the time")
                    self.validate_and_log(val, tally, count, rate)
                    tally, count = Tally(self.task.metrics), 0
                    rate_since, rate_start, self.waited = self.positions_seen, time.monotonic(), 0.0
                if self.positions_seen >= next_val:
                    next_val += a.val_every
                if time.monotonic() - self.last_checkpoint >= a.checkpoint_minutes * 60:
                    self.save_checkpoint()
            self.save_checkpoint()
            if self.stop_reason != "signal" and count and self.ranks.main:
                rate = (self.positions_seen - rate_since) / max(1e-9, time.monotonic() - rate_start)
                self.validate_and_log(val, tally, count, rate)
        finally:
            if bar is not None:
                bar.close()
            if self.worker is not None:
                self.worker.close()
            for signum, handler in old_handlers.items():
                signal.signal(signum, handler)
        self.log(f"stopped ({self.stop_reason}) at {self.positions_seen} positions")

    def compiled_model(self):
        """The model the steps run: DistributedDataParallel with several processes, and
        torch.compile'd with --compile (its forward only)."""
        model = self.ranks.wrap(self.model, self.device)
        if self.ranks.active:
            self.log(f"{self.ranks.world} processes, {self.stream_kwargs()['batch_size']} "
                     f"positions of each minibatch apiece")
        if not self.args.compile:
            return model
        self.log("compiling the model (torch.compile)")
        return torch.compile(model)

    # ----------------------------------------------------------------- export

    def export(self, path):
        """BN-folded fp16 network file with positions seen and the measured validation score."""
        self.args.resume = True
        self.build()
        val = self.validation_set()
        scores = self.evaluate(self.model, *val)
        extra = {"positions_seen": self.positions_seen, "trained_hours": self.wallclock_before / 3600,
                 "val_positions": len(val[1]), "run_dir": os.path.abspath(self.run_dir)}
        extra.update({f"val_{k}": round(v, 4) for k, v in scores.items()})
        shipped = surgery.fold_batch_norm(nets.without_move_head(self.model))
        netfile.save_network(path, shipped, extra=extra, half=True)
        self.log(f"exported {path}: " + ", ".join(f"{k}={v}" for k, v in extra.items()))


# Flags that describe this invocation or this machine; never taken from a resumed run
# (a run started on the GPU machine resumes on the CPU).
NOT_RESUMED = ("resume", "export", "device", "threads", "workers", "compile", "warmup")


def parse_args(parser, argv=None):
    """Parse flags; with --resume (or --export), flags left at their default take the run's saved value.

    So `--resume` alone continues a run exactly as it was started, and e.g.
    `--resume --lr 0.01` changes only the learning rate.
    """
    args = parser.parse_args(argv)
    path = os.path.join(args.run_dir, CHECKPOINT)
    if (args.resume or args.export) and os.path.exists(path):
        saved = torch.load(path, map_location="cpu", weights_only=True).get("args", {})
        for key, value in saved.items():
            if (key not in NOT_RESUMED and hasattr(args, key)
                    and getattr(args, key) == parser.get_default(key)):
                setattr(args, key, value)
    return args


def main(task, args):
    trainer = Trainer(task, args)
    try:
        if args.export:
            trainer.export(args.export)
        else:
            trainer.train()
    except BaseException:
        distributed.stop(trainer.ranks, wait=False)
        raise
    distributed.stop(trainer.ranks)
