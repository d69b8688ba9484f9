"""Self-play value records on disk: the shard file, its checks, and the trainer's stream.

A shard holds the records of a fixed number of self-play games, one position
a game (training/selfplay.py makes them): the position's 49 value planes, 8 to
a byte; the side to move; the outcome for that side (+1 won, -1 lost); and the
game's final ownership (+1 black, -1 white, 0 neither, per point) and score
(black area - white area - komi), targets a network may learn beside the
outcome. Shards are written whole and renamed into place, so a reader that
lists the folder never sees half a file; a file that is damaged anyway is
refused with one line naming it and the reason, and the stream skips it.
"""

import os
import time

import numpy as np

from training import arrayfile

FORMAT = "goengine-value-shard"
FORMAT_VERSION = 1
SUFFIX = ".npz"
ARRAYS = ("planes", "to_move", "outcome", "ownership", "score", "start_move")


class ShardError(Exception):
    """A shard that cannot be used: the message names the file and what is wrong."""


def write_shard(path, records, meta):
    """Write `records` (a dict of the ARRAYS) atomically; `meta` says how they were made."""
    count = len(records["outcome"])
    for name in ARRAYS:
        if len(records[name]) != count:
            raise ValueError(f"{name} has {len(records[name])} records, outcome {count}")
    arrayfile.write(path, records, dict(meta, format=FORMAT, version=FORMAT_VERSION, count=count))


def read_shard(path):
    """(meta dict, records dict) of one shard; ShardError if it is not a whole, valid shard."""
    name = os.path.basename(path)
    meta, records = arrayfile.read(path, ARRAYS, (FORMAT, "a value shard"), FORMAT_VERSION,
                                   ShardError)
    count, size = meta.get("count"), meta.get("size")
    shape = (count, meta.get("planes"), size, size)
    expected = {"planes": (count, packed_bytes(shape[1:])), "to_move": (count,),
                "outcome": (count,), "ownership": (count, size, size), "score": (count,),
                "start_move": (count,)}
    for key, want in expected.items():
        if records[key].shape != want:
            raise ShardError(f"{name}: {key} has shape {records[key].shape}, expected {want}")
    if not np.all(np.abs(records["outcome"]) == 1):
        raise ShardError(f"{name}: an outcome other than +1 or -1")
    return meta, records


def packed_bytes(shape):
    """Bytes of one position's planes packed 8 to a byte (np.packbits)."""
    return (int(np.prod(shape)) + 7) // 8


def list_shards(folder):
    """The shard files in `folder`, sorted by name (temporary files excluded)."""
    if not os.path.isdir(folder):
        return []
    return sorted(f for f in os.listdir(folder) if f.endswith(SUFFIX) and ".tmp" not in f)


class ShardStream:
    """Minibatches (PackedPlanes, outcomes, position) from a folder that generators fill.

    Each shard is used at most `passes` times. The next shard is the least used
    one (then by name), so a trainer takes new data as it appears and goes back
    over old data only up to `passes`; with nothing left to use it waits for new
    shards. Within a shard the records are shuffled with a seed of (seed, name,
    use), so the stream is fixed by its position: {name: uses} and the batch
    within the current shard, which is what a checkpoint stores.
    """

    def __init__(self, folder, batch_size, seed=0, passes=1, poll_seconds=10.0,
                 log=print, sleep=time.sleep, stopping=lambda: False, rank=0, world=1,
                 from_main=lambda value: value):
        """batch_size is this process's share of a minibatch. With world > 1 processes
        all take the shard rank 0 chooses (from_main hands its choice to the others),
        rank taking every world-th record of it."""
        self.folder, self.batch_size, self.seed = folder, batch_size, seed
        self.rank, self.world, self.from_main = rank, world, from_main
        self.passes, self.poll_seconds, self.log, self.sleep = passes, poll_seconds, log, sleep
        self.stopping = stopping   # while it waits for shards, the stream ends when this is true
        self.bad = set()
        self.too_small = set()     # shards already named as holding less than a batch

    @staticmethod
    def start():
        return {"uses": {}, "current": None, "batch": 0}

    def next_shard(self, position):
        """The name of the shard to use next, waiting for one if none is usable;
        None if told to stop while waiting."""
        waited = False
        while not self.stopping():
            uses = position["uses"]
            usable = [n for n in list_shards(self.folder)
                      if n not in self.bad and uses.get(n, 0) < self.passes]
            if usable:
                return min(usable, key=lambda n: (uses.get(n, 0), n))
            if not waited:
                self.log(f"waiting for new shards in {self.folder} (every shard used "
                         f"{self.passes} time{'s' if self.passes > 1 else ''})")
                waited = True
            self.wait()
        return None

    def wait(self):
        """One pause between looks at the folder."""
        self.sleep(self.poll_seconds)

    def load(self, name, use):
        """The shuffled records of one shard, or None (logged) if the file is bad."""
        try:
            meta, records = read_shard(os.path.join(self.folder, name))
        except ShardError as exc:
            self.log(f"skipping shard: {exc}")
            self.bad.add(name)
            return None
        order = np.random.default_rng([self.seed, use, *name.encode()]).permutation(meta["count"])
        if self.world > 1:   # the same number of records on every rank
            order = order[:meta["count"] // self.world * self.world][self.rank::self.world]
        shape = (meta["planes"], meta["size"], meta["size"])
        return shape, {key: records[key][order] for key in ARRAYS}

    def batches(self, position=None):
        """Yield (PackedPlanes, outcomes float32, position after this batch); ends only
        when told to stop while waiting for shards."""
        from training.sampler import PackedPlanes
        position = self.start() if position is None else _copy(position)
        while True:
            name = position["current"]
            if not name:
                name = self.from_main(self.next_shard(position) if self.rank == 0 else None)
            if name is None:
                return
            use = position["uses"].get(name, 0)
            loaded = self.load(name, use)
            if loaded is None:
                position.update(current=None, batch=0)
                continue
            shape, records = loaded
            count = len(records["outcome"]) // self.batch_size
            for b in range(position["batch"] if position["current"] else 0, count):
                s = slice(b * self.batch_size, (b + 1) * self.batch_size)
                done = b + 1 == count
                position = _copy(position)
                if done:
                    position["uses"][name] = use + 1
                    position.update(current=None, batch=0)
                else:
                    position.update(current=name, batch=b + 1)
                bits = records["planes"][s]
                yield (PackedPlanes(bits, (len(bits),) + shape),
                       records["outcome"][s].astype(np.float32), position)
            if count == 0:  # fewer records than one batch: count it as used
                if name not in self.too_small:
                    self.too_small.add(name)
                    self.log(f"skipping shard {name}: {len(records['outcome'])} records, fewer "
                             f"than the {self.batch_size} a batch takes (a smaller "
                             f"--batch-size or larger shards use it)")
                position = _copy(position)
                position["uses"][name] = use + 1
                position.update(current=None, batch=0)


def _copy(position):
    return {"uses": dict(position["uses"]), "current": position["current"],
            "batch": position["batch"]}
