"""Device names as torch spells them ('cpu', 'cuda:1', 'mps'), the runtimes and
precisions a network can run in there (goengine.nn.backends picks them), and the cores
this process may use, read without torch: the search's config and the programs' flags
ask them before (or without) loading a network."""

import os

AUTO, TORCH, ONNXRUNTIME, OPENVINO = 'auto', 'torch', 'onnxruntime', 'openvino'
BACKENDS = (AUTO, TORCH, ONNXRUNTIME, OPENVINO)
FP32, BF16, INT8 = 'fp32', 'bf16', 'int8'
PRECISIONS = (AUTO, FP32, BF16, INT8)


def available_cores():
    """The cores this process may run on (its affinity where the OS has one)."""
    if hasattr(os, 'sched_getaffinity'):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def is_cpu(device):
    """Whether `device` (a name or a torch.device) is the CPU."""
    return str(device).split(':')[0] == 'cpu'
