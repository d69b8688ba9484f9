"""A training run's folder: what a run leaves on disk and reads back when it resumes.

train.log (every log line), log.csv (a row of metrics at each validation), plot.png
(those rows drawn), and checkpoint.pt (everything a resumed run needs), written whole;
and the compact form of a checkpoint that is copied home from a remote GPU machine.
The training loop (training/trainer.py) writes through a RunFolder and knows no file.
"""

import csv
import os
import sys
import time

import torch

CHECKPOINT = "checkpoint.pt"


class RunFolder:
    """The files of one run in `path`: `kind` and `metrics` are the task's (tasks.py);
    with several processes only the main one (`main`) writes."""

    def __init__(self, path, kind, metrics, main=True):
        self.path, self.kind, self.metrics, self.main = path, kind, metrics, main
        os.makedirs(path, exist_ok=True)
        self.checkpoint_path = os.path.join(path, CHECKPOINT)
        self.csv_path = os.path.join(path, "log.csv")
        self.log_file = open(os.path.join(path, "train.log"), "a")

    def log(self, message):
        """A line on stderr and in train.log; rank 0's only, when several processes train."""
        if not self.main:
            return
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {message}"
        print(line, file=sys.stderr, flush=True)
        print(line, file=self.log_file, flush=True)

    def columns(self):
        names = [f"{split}_{m}" for split in ("train", "val") for m in self.metrics]
        return ["positions_seen"] + names + ["lr", "wallclock", "pos_per_s"]

    def write_row(self, row):
        new = not os.path.exists(self.csv_path)
        with open(self.csv_path, "a", newline="") as f:
            writer = csv.DictWriter(f, self.columns())
            if new:
                writer.writeheader()
            writer.writerow(row)

    def truncate_log(self, positions_seen):
        """Drop CSV rows written after the checkpoint we resume from."""
        if not os.path.exists(self.csv_path):
            return
        with open(self.csv_path, newline="") as f:
            rows = [r for r in csv.DictReader(f) if int(r["positions_seen"]) <= positions_seen]
        with open(self.csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, self.columns())
            writer.writeheader()
            writer.writerows(rows)

    def plot(self):
        """plot.png: every metric, train and validation, against positions seen (needs matplotlib)."""
        try:
            import matplotlib
        except ImportError:  # the GPU machine has none; the CSV has every figure
            return
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        with open(self.csv_path, newline="") as f:
            rows = list(csv.DictReader(f))
        if not rows:
            return
        x = [int(r["positions_seen"]) for r in rows]
        metrics = self.metrics
        fig, axes = plt.subplots(1, len(metrics), figsize=(6 * len(metrics), 4), squeeze=False)
        for ax, metric in zip(axes[0], metrics):
            for split in ("train", "val"):
                key = f"{split}_{metric}"
                points = [(xi, float(r[key])) for xi, r in zip(x, rows) if r[key] not in ("", None)]
                if points:
                    ax.plot(*zip(*points), marker=".", label=split)
            ax.set_xlabel("positions seen")
            ax.set_ylabel(metric)
            ax.grid(alpha=0.3)
            ax.legend()
        fig.suptitle(f"{self.kind} network, {os.path.basename(os.path.abspath(self.path))}")
        fig.tight_layout()
        path = os.path.join(self.path, "plot.png")
        tmp = path + ".tmp"
        fig.savefig(tmp, format="png", dpi=90)
        plt.close(fig)
        os.replace(tmp, path)

    def save_checkpoint(self, state):
        """Write the checkpoint whole (a temporary file renamed into place)."""
        tmp = f"{self.checkpoint_path}.tmp{os.getpid()}"
        torch.save(state, tmp)
        os.replace(tmp, self.checkpoint_path)
        self.log(f"checkpoint: {state['positions_seen']} positions -> {self.checkpoint_path}")

    def load_checkpoint(self):
        """The checkpoint to resume from; exits with one line if there is none or it is
        another kind of run's."""
        if not os.path.exists(self.checkpoint_path):
            raise SystemExit(f"{self.checkpoint_path}: no checkpoint to resume from")
        state = torch.load(self.checkpoint_path, map_location="cpu", weights_only=True)
        if state["kind"] != self.kind:
            raise SystemExit(f"{self.checkpoint_path} holds a {state['kind']} run, "
                             f"not a {self.kind} run")
        return state


def compact_state(state):
    """A checkpoint small enough to copy home from a remote GPU machine (<= 16 MiB).

    Weights and optimizer state go to bf16; BN running statistics stay fp32
    (they are few, and the folded network depends on them exactly), and so do
    AdamW's step counts (bf16 would round step 1001 to 1000). Loading casts
    everything back: load_state_dict copies into the fp32 parameters.
    """
    def shrink(name, value):
        if not torch.is_tensor(value):
            return value
        if value.is_floating_point() and "running_" not in name and name != "step":
            value = value.to(torch.bfloat16)
        return value.cpu()
    return _convert_tensors(state, shrink)


def full_state(state):
    """The fp32 checkpoint of a compact one (compact_state), to resume from on any machine."""
    def grow(name, value):
        return value.float() if torch.is_tensor(value) and value.dtype == torch.bfloat16 else value
    return _convert_tensors(state, grow)


def _convert_tensors(state, convert):
    """A copy of a checkpoint with convert(name, value) applied to the model's tensors
    and to the optimizer's per-parameter state (absent in a compact file too large with it)."""
    out = dict(state)
    out["model"] = {k: convert(k, v) for k, v in state["model"].items()}
    if state["optimizer"] is not None:
        optimizer = dict(state["optimizer"])
        optimizer["state"] = {i: {k: convert(k, v) for k, v in per_param.items()}
                              for i, per_param in optimizer["state"].items()}
        out["optimizer"] = optimizer
    return out
