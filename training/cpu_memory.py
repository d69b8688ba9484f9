"""The C heap of a process that runs torch networks on the CPU: freed tensors kept for the
next batch.

Each forward (and backward) pass allocates and frees tensors of MBs to tens of MBs. By
default glibc serves the largest with mmap and gives memory back to the kernel on free,
so every pass faults its memory in again, page by page and zeroed. A top pad lets the
heap grow by a whole pad at a time and keep that much when it shrinks, so the next pass
reuses the same pages. The RL stage's processes (its learner and self-play workers) set
it; the engine's default backend, ONNX Runtime, keeps its own arena.
"""

import ctypes

M_TOP_PAD = -2          # mallopt's parameter number (glibc malloc.h)
TOP_PAD = 1 << 30       # bytes the heap keeps beyond its use (docs/DECISIONS.md, "the RL
                        # stage's C heap")


def keep_freed_memory():
    """Set glibc's top pad for this process; whether it took (False on another libc)."""
    libc = ctypes.CDLL(None)
    if not hasattr(libc, 'gnu_get_libc_version'):      # musl and others: leave their heap be
        return False
    return libc.mallopt(M_TOP_PAD, TOP_PAD) == 1
