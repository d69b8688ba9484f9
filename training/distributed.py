"""Training on several processes, GPUs or machines with torch.distributed.

`torchrun` starts one process a GPU (or a few on a CPU) and tells each its
RANK, LOCAL_RANK and WORLD_SIZE; this module turns that into a `Ranks` the
trainer asks: which share of every minibatch is its own, whether it is rank 0
(the one that validates, logs and writes checkpoints), and how to agree with
the others. Gradients are averaged by DistributedDataParallel: NCCL between
GPUs, gloo between CPU processes. Without torchrun everything is one process
and nothing here communicates.

Batch norm: on GPUs SyncBatchNorm normalises over the whole minibatch, so N
GPUs take the step one process would; gloo has no SyncBatchNorm, so on CPUs
each process normalises over its own share, as plain DDP does.
"""

import gc
import os
from dataclasses import dataclass

import torch
import torch.distributed as dist


@dataclass
class Ranks:
    rank: int = 0
    world: int = 1
    local_rank: int = 0

    @property
    def main(self):
        """Rank 0: validation, the log, the plot and the checkpoints are its."""
        return self.rank == 0

    @property
    def active(self):
        return self.world > 1

    def share(self, batch_size):
        """This rank's positions of a minibatch of `batch_size` in all."""
        if batch_size % self.world:
            raise SystemExit(f"--batch-size {batch_size} does not split evenly between "
                             f"{self.world} processes")
        return batch_size // self.world

    def device(self, device):
        """One GPU a process: cuda becomes cuda:LOCAL_RANK."""
        return f"cuda:{self.local_rank}" if self.active and device == "cuda" else device

    def wrap(self, model, device):
        """`model` as DistributedDataParallel (SyncBatchNorm on GPUs); itself in one process."""
        if not self.active:
            return model
        if device.startswith("cuda"):
            model = torch.nn.SyncBatchNorm.convert_sync_batchnorm(model)
            return torch.nn.parallel.DistributedDataParallel(model, device_ids=[self.local_rank])
        return torch.nn.parallel.DistributedDataParallel(model)

    def any(self, flag, device="cpu"):
        """Whether `flag` is true on any rank (so that every rank stops at the same step)."""
        if not self.active:
            return bool(flag)
        t = torch.tensor([1 if flag else 0], device=device)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return bool(t.item())

    def from_main(self, value):
        """Rank 0's `value` on every rank (a picklable object)."""
        if not self.active:
            return value
        box = [value]
        dist.broadcast_object_list(box, src=0)
        return box[0]

    def barrier(self):
        if self.active:
            dist.barrier()


def start(device):
    """The Ranks of this process, joining the process group when torchrun started it."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return Ranks()
    ranks = Ranks(int(os.environ["RANK"]), world, int(os.environ.get("LOCAL_RANK", "0")))
    if device.startswith("cuda"):
        torch.cuda.set_device(ranks.local_rank)
    if not dist.is_initialized():
        dist.init_process_group("nccl" if device.startswith("cuda") else "gloo")
    return ranks


def stop(ranks, wait=True):
    """Leave the process group; with wait, once every rank got here (a rank that left
    early could abort one still writing its checkpoint). Drop every DistributedDataParallel
    first: one that outlives its group can abort the process at exit ("terminate called
    without an active exception")."""
    if ranks.active and dist.is_initialized():
        if wait:
            dist.barrier()
        gc.collect()   # a DistributedDataParallel left in a reference cycle goes while its group lives
        dist.destroy_process_group()
