#!/usr/bin/env python3
"""Train on a remote GPU machine reached by copying files (docs/GPU.md says how).

For a machine that has this checkout but not its data or its build: a pack of
the games small enough to copy, a trainer that outlives the shell that started
it, and a checkpoint small enough to copy home (16 MiB at most). It needs
Python with torch and numpy there; sgfmill, tqdm and matplotlib are optional.

here, before:   pack   a slice of the training games (and the held-out month) as
                       compressed game stores, into a folder to copy over
                size   whether that folder (labelled since) and the checkout still fit
there, first:   build  the Cython core in place (without setuptools if need be)
                start  the trainer detached (a session of its own)
there, meanwhile: wait print the trainer's log for up to N minutes
there, last:    fetch  (--stop: checkpoint and stop) a compact checkpoint to --out
here, after:    adopt  the fetched checkpoint as a run folder that --resume and
                       --export take as usual

It needs no install there: it and the trainers it starts put their checkout
first on sys.path (tools/_checkout.py):
    python3 tools/gpu_kit.py start --run-dir runs/gpu-policy -- --init-weights ...
"""

import argparse
import glob
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time

import _checkout  # noqa: F401  (this checkout's packages first)

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTENSIONS = ("_board", "nn._features", "rollout._patterns", "rollout._rollout",
              "search._tree")   # as setup.py builds them
TRAINERS = {"policy": "tools/train_policy.py", "value": "tools/train_value.py",
            "heads": "tools/train_heads.py"}
MAX_FILE_MIB = 16      # the compact checkpoint stays under this: quick to copy home
COPY_MIB = 64          # the pack and the tracked tree together stay under this by default
SNAPSHOT = "checkpoint-compact.pt"


def mib(path):
    return os.path.getsize(path) / 2**20


# ------------------------------------------------------------------- pack

def pack(args):
    """Slice --slice of --of of the training games, and the held-out month, as a cache folder;
    with --labels, their final-board labels beside them (tools/label_games.py made them)."""
    import numpy as np

    from training import labels as final_labels
    from training.dataset import DATA_DIR, REPO_DIR, load_split, split_cache_path
    args.data_dir = args.data_dir or DATA_DIR
    args.cache_dir = args.cache_dir or os.path.join(REPO_DIR, "data")
    if not 0 <= args.slice < args.of:
        raise SystemExit(f"--slice must be in 0..{args.of - 1}")
    os.makedirs(args.out, exist_ok=True)
    for split in ("val", "train"):
        store = load_split(split, args.data_dir, args.cache_dir)
        chosen = np.arange(len(store))
        if split == "train":
            chosen = np.arange(args.slice, len(store), args.of)
        if args.labels:
            try:
                store.load_labels()
            except final_labels.LabelError as exc:
                raise SystemExit(str(exc)) from None
            labelled = store.labels["kind"][chosen] != final_labels.UNLABELLED
            if split == "train":
                chosen = chosen[labelled]   # the heads learn from labelled games only
            elif not labelled.all():
                raise SystemExit(f"{split}: {int((~labelled).sum())} held-out games unlabelled; "
                                 f"finish tools/label_games.py --split {split} first")
        packed = store.subset(chosen)
        packed.a["names"] = np.full(len(packed), "", dtype="<U1")  # only error messages use them
        path = split_cache_path(split, args.data_dir, args.out)
        packed.save(path, compressed=True)
        print(f"{split}: {len(packed)} games, {packed.num_moves} moves -> {path} ({mib(path):.1f} MiB)")
        if args.labels:
            labels_file = final_labels.labels_path(path)
            final_labels.write_labels(labels_file, final_labels.subset(store.labels, chosen),
                                      {"store": final_labels.store_fingerprint(packed),
                                       "source": os.path.basename(store.path)})
            print(f"{split}: labels -> {labels_file} ({mib(labels_file):.1f} MiB)")
    with open(os.path.join(args.out, "PACK.txt"), "w") as f:
        f.write(f"training games {args.slice} + k * {args.of} of {args.data_dir}"
                f"{', those labelled' if args.labels else ''}; the held-out month whole\n")
    check_size(args)


def check_size(args):
    """Whether the pack folder as it stands (labels written by tools/label_games.py after
    `pack` included) and the tracked tree still fit the copy together."""
    sizes = sum(mib(path) for path in glob.glob(os.path.join(args.out, "*")))
    tree = tracked_mib()
    print(f"pack {sizes:.1f} MiB + tracked tree {tree:.1f} MiB = {sizes + tree:.1f} MiB "
          f"(at most {args.max_mib} MiB)")
    if sizes + tree > args.max_mib:
        raise SystemExit(f"more than --max-mib {args.max_mib}: pack again with a larger --of")


def tracked_mib():
    try:
        files = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                               check=True).stdout.split(b"\0")
    except (OSError, subprocess.CalledProcessError):
        return 0.0
    return sum(os.path.getsize(os.path.join(REPO, f.decode())) for f in files if f) / 2**20


# ------------------------------------------------------------------ build

def build(args):
    """The Cython extensions, in place: setup.py where setuptools exists, else cython + cc."""
    missing = [name for name in EXTENSIONS if not glob.glob(
        os.path.join(REPO, "goengine", *name.split(".")[:-1],
                     name.split(".")[-1] + "*" + sysconfig.get_config_var("EXT_SUFFIX")))]
    if not missing and not args.force:
        print("extensions already built")
        return
    try:
        import setuptools  # noqa: F401
    except ImportError:
        return build_without_setuptools()
    subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
                   cwd=REPO, check=True)


def build_without_setuptools():
    """cython to C, then the C compiler, with the flags setup.py uses."""
    import numpy
    include = [sysconfig.get_paths()["include"], numpy.get_include(), REPO]
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for name in EXTENSIONS:
        module = os.path.join("goengine", *name.split("."))
        pyx, c_file = module + ".pyx", module + ".c"
        subprocess.run([sys.executable, "-m", "cython", "-3", "-X", "boundscheck=False",
                        "-X", "wraparound=False", "-X", "cdivision=True",
                        "-X", "initializedcheck=False", "--module-name", f"goengine.{name}",
                        pyx, "-o", c_file], cwd=REPO, check=True)
        compiler = os.environ.get("CC", "cc")
        subprocess.run([compiler, "-O3", "-fno-strict-aliasing", "-shared", "-fPIC",
                        "-DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION",
                        *[f"-I{path}" for path in include], c_file,
                        "-o", module + suffix], cwd=REPO, check=True)
        print(f"built {module}{suffix}")


# ------------------------------------------------------------------ start

def start(args):
    """Launch the trainer in its own session, so it survives this command's end."""
    os.makedirs(args.run_dir, exist_ok=True)
    pid_file = os.path.join(args.run_dir, "trainer.pid")
    if trainer_alive(args.run_dir):
        raise SystemExit(f"a trainer already runs for {args.run_dir} (pid file {pid_file})")
    command = [sys.executable, os.path.join(REPO, TRAINERS[args.kind]), "--run-dir", args.run_dir,
               "--no-progress", *args.trainer_args]
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(os.path.join(args.run_dir, "stdout.log"), "ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=True, cwd=REPO)
    with open(pid_file, "w") as f:
        f.write(str(process.pid))
    print(f"trainer pid {process.pid}: {' '.join(command)}")


def trainer_pid(run_dir):
    try:
        with open(os.path.join(run_dir, "trainer.pid")) as f:
            return int(f.read())
    except (OSError, ValueError):
        return None


def trainer_alive(run_dir):
    pid = trainer_pid(run_dir)
    if pid is None:
        return False
    try:
        finished, _ = os.waitpid(pid, os.WNOHANG)  # our own child: reap it if it ended
        if finished:
            return False
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:   # a zombie has ended
        return f.read().split(")")[-1].split()[0] != "Z"


# ------------------------------------------------------------------- wait

def wait(args):
    """Print the run's log as it grows, until --minutes pass or the trainer ends."""
    log = os.path.join(args.run_dir, "stdout.log")
    deadline = time.monotonic() + 60 * args.minutes
    offset = 0
    while True:
        if os.path.exists(log):
            with open(log) as f:
                f.seek(offset)
                text = f.read()
                offset = f.tell()
            if text:
                print(text, end="", flush=True)
        alive = trainer_alive(args.run_dir)
        if not alive or time.monotonic() >= deadline:
            print(f"trainer {'running' if alive else 'not running'}", flush=True)
            return
        time.sleep(min(args.poll, max(0.1, deadline - time.monotonic())))


# ------------------------------------------------------------------ fetch

def fetch(args):
    """Write the run's checkpoint, compacted, and its logs to --out, the folder to copy home."""
    import torch

    from training.run_folder import CHECKPOINT, compact_state
    if args.stop and trainer_alive(args.run_dir):
        os.kill(trainer_pid(args.run_dir), signal.SIGTERM)  # the trainer checkpoints and exits
        deadline = time.monotonic() + args.stop_timeout
        while trainer_alive(args.run_dir) and time.monotonic() < deadline:
            time.sleep(0.5)
        if trainer_alive(args.run_dir):
            raise SystemExit(f"the trainer did not stop within {args.stop_timeout} s")
    path = os.path.join(args.run_dir, CHECKPOINT)
    if not os.path.exists(path):
        raise SystemExit(f"{path}: no checkpoint yet")
    full = torch.load(path, map_location="cpu", weights_only=True)
    os.makedirs(args.out, exist_ok=True)
    target = os.path.join(args.out, SNAPSHOT)
    state = compact_state(full)
    torch.save(state, target)
    if mib(target) > MAX_FILE_MIB:  # optimizer state only if it fits
        print("optimizer state dropped: the checkpoint would not fit in 16 MiB")
        state = dict(full, optimizer=None)  # then fp32 weights, where they fit
        torch.save(state, target)
        if mib(target) > MAX_FILE_MIB:
            state = compact_state(state)
            torch.save(state, target)
    print(f"{target}: {state['positions_seen']} positions, {mib(target):.1f} MiB")
    for name in ("log.csv", "train.log"):
        source = os.path.join(args.run_dir, name)
        if os.path.exists(source):
            shutil.copy(source, os.path.join(args.out, name))


# ------------------------------------------------------------------ adopt

def home_cache_dir(cache_dir, repo_dir):
    """Where an adopted run reads its games: the pack it trained on when this machine has
    that folder (it was packed and labelled here), else this checkout's data/."""
    if cache_dir:
        here = os.path.join(repo_dir, cache_dir)   # an absolute cache_dir stays as it is
        if os.path.isdir(here):
            return os.path.abspath(here)
    return os.path.join(repo_dir, "data")


def adopt(args):
    """A run folder from a fetched checkpoint: fp32 again, reading this machine's games
    (home_cache_dir)."""
    import torch

    from training.dataset import DATA_DIR, REPO_DIR
    from training.run_folder import CHECKPOINT, full_state
    state = torch.load(args.snapshot, map_location="cpu", weights_only=True)
    if not isinstance(state, dict) or "model" not in state or "positions_seen" not in state:
        raise SystemExit(f"{args.snapshot}: not a training checkpoint")
    state = full_state(state)
    state["args"] = dict(state["args"], data_dir=DATA_DIR,
                         cache_dir=home_cache_dir(state["args"].get("cache_dir"), REPO_DIR),
                         run_dir=args.run_dir)
    os.makedirs(args.run_dir, exist_ok=True)
    target = os.path.join(args.run_dir, CHECKPOINT)
    if os.path.exists(target) and not args.force:
        raise SystemExit(f"{target} exists (--force replaces it)")
    torch.save(state, target)
    logs = os.path.dirname(os.path.abspath(args.snapshot))
    for name in ("log.csv", "train.log"):
        if os.path.exists(os.path.join(logs, name)):
            shutil.copy(os.path.join(logs, name), os.path.join(args.run_dir, name))
    print(f"{target}: {state['kind']} run at {state['positions_seen']} positions; "
          f"continue with --resume, or --export")


def add_max_mib(parser):
    parser.add_argument("--max-mib", type=float, default=COPY_MIB,
                        help="the most the pack and the tracked tree may weigh together")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0], epilog=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("pack", help=pack.__doc__)
    p.add_argument("--slice", type=int, required=True, help="which slice, 0..OF-1")
    p.add_argument("--of", type=int, default=2, help="slices the training games are cut into")
    p.add_argument("--out", default="gpu/pack", help="the folder to copy to the GPU machine")
    add_max_mib(p)
    p.add_argument("--data-dir", help="the game collections (default: the trainers')")
    p.add_argument("--cache-dir", help="their parsed stores (default: the trainers')")
    p.add_argument("--labels", action="store_true",
                   help="pack the final-board labels too, and only the labelled training "
                        "games (for --kind heads)")
    p.set_defaults(run=pack)

    p = commands.add_parser("size", help=check_size.__doc__)
    p.add_argument("--out", default="gpu/pack", help="the pack folder")
    add_max_mib(p)
    p.set_defaults(run=check_size)

    p = commands.add_parser("build", help=build.__doc__)
    p.add_argument("--force", action="store_true")
    p.set_defaults(run=build)

    p = commands.add_parser("start", help=start.__doc__)
    p.add_argument("--run-dir", required=True)
    p.add_argument("--kind", choices=sorted(TRAINERS), default="policy")
    p.add_argument("trainer_args", nargs=argparse.REMAINDER,
                   help="after --: the trainer's own flags")
    p.set_defaults(run=start)

    p = commands.add_parser("wait", help=wait.__doc__)
    p.add_argument("--run-dir", required=True)
    p.add_argument("--minutes", type=float, default=9.0)
    p.add_argument("--poll", type=float, default=15.0, help="seconds between looks")
    p.set_defaults(run=wait)

    p = commands.add_parser("fetch", help=fetch.__doc__)
    p.add_argument("--run-dir", required=True)
    p.add_argument("--out", default="gpu/out", help="the folder to copy home")
    p.add_argument("--stop", action="store_true", help="stop the trainer first (it checkpoints)")
    p.add_argument("--stop-timeout", type=float, default=180.0)
    p.set_defaults(run=fetch)

    p = commands.add_parser("adopt", help=adopt.__doc__)
    p.add_argument("snapshot", help=f"the fetched {SNAPSHOT}")
    p.add_argument("--run-dir", required=True)
    p.add_argument("--force", action="store_true")
    p.set_defaults(run=adopt)

    args = parser.parse_args(argv)
    if getattr(args, "trainer_args", None) and args.trainer_args[0] == "--":
        args.trainer_args = args.trainer_args[1:]
    args.run(args)


if __name__ == "__main__":
    main()
