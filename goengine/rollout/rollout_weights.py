"""The weights file of the rollout and tree policies (goengine.rollout._rollout.RolloutPolicy):
the one place that reads and writes it.

File layout (little-endian), version 1:

    magic  b"GOROLLOUT\\0"          10 bytes
    header version, fixed-feature count, #3x3, #response, #12-point keys (5 x uint32)
    keys   canonical pattern keys: 3x3, response, 12-point (uint64 each)
    rollout weights, tree weights (float32 x features each)
    crc32  of everything before it (uint32)

The fixed-feature count guards against loading weights made for another
feature layout; the CRC catches truncated or damaged files.
"""

import os
import struct
import zlib

import numpy as np

from goengine import INSTALL_DIR
from goengine.rollout._rollout import FIXED_FEATURES, RolloutPolicy

MAGIC = b"GOROLLOUT\0"
VERSION = 1
HEADER = struct.Struct("<5I")
DEFAULT_PATH = os.path.join(INSTALL_DIR, "weights", "rollout.weights")


class RolloutLoadError(Exception):
    """The rollout weights file is missing, corrupt or of another version."""


def write_weights(path, pat3_keys, response_keys, diamond_keys, rollout_weights, tree_weights):
    keys = [np.asarray(k, dtype="<u8") for k in (pat3_keys, response_keys, diamond_keys)]
    features = FIXED_FEATURES + sum(len(k) for k in keys)
    weights = [np.asarray(w, dtype="<f4") for w in (rollout_weights, tree_weights)]
    for w in weights:
        if w.shape != (features,):
            raise ValueError(f"expected {features} weights, got shape {w.shape}")
    body = MAGIC + HEADER.pack(VERSION, FIXED_FEATURES, *(len(k) for k in keys))
    body += b"".join(a.tobytes() for a in keys + weights)
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(body + struct.pack("<I", zlib.crc32(body)))
    os.replace(tmp, path)


def read_weights(path):
    """The arrays of a weights file, as RolloutPolicy.from_arrays takes them."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise RolloutLoadError(f"cannot read rollout weights {path}: {exc.strerror}") from None
    if not data.startswith(MAGIC):
        raise RolloutLoadError(f"{path} is not a rollout weights file (bad magic)")
    if len(data) < len(MAGIC) + HEADER.size + 4:
        raise RolloutLoadError(f"{path} is truncated")
    version, fixed, n3, nr, nd = HEADER.unpack_from(data, len(MAGIC))
    if version != VERSION:
        raise RolloutLoadError(f"{path} has format version {version}; this engine reads "
                               f"version {VERSION} (retrain with tools/train_rollout.py)")
    if fixed != FIXED_FEATURES:
        raise RolloutLoadError(f"{path} was made for {fixed} fixed features, this engine has "
                               f"{FIXED_FEATURES} (retrain with tools/train_rollout.py)")
    features = fixed + n3 + nr + nd
    expected = len(MAGIC) + HEADER.size + 8 * (n3 + nr + nd) + 2 * 4 * features + 4
    if len(data) != expected:
        raise RolloutLoadError(f"{path} is {len(data)} bytes, expected {expected} (truncated?)")
    (crc,) = struct.unpack_from("<I", data, len(data) - 4)
    if crc != zlib.crc32(data[:-4]):
        raise RolloutLoadError(f"{path} is corrupt (checksum mismatch)")
    offset = len(MAGIC) + HEADER.size
    arrays = {}
    for name, count, dtype in (("pat3_keys", n3, "<u8"), ("response_keys", nr, "<u8"),
                               ("diamond_keys", nd, "<u8"), ("rollout_weights", features, "<f4"),
                               ("tree_weights", features, "<f4")):
        arrays[name] = np.frombuffer(data, dtype=dtype, count=count, offset=offset).copy()
        offset += count * np.dtype(dtype).itemsize
    return arrays


def load(path=DEFAULT_PATH):
    """The RolloutPolicy of a weights file (RolloutLoadError if missing, corrupt or of
    another version); the shipped weights by default."""
    arrays = read_weights(path)
    try:
        return RolloutPolicy.from_arrays(**arrays, source=os.fspath(path))
    except ValueError as exc:
        raise RolloutLoadError(f"{path}: {exc}") from None


def save(policy, path):
    """Write a RolloutPolicy's patterns and weights to `path` (atomically)."""
    write_weights(path, **policy.arrays)
