"""The CPU's kind: which instructions it has for the network's arithmetic.

The fastest way to run a network on a CPU depends on its kind, not on its maker:
AMX's int8 and bf16 tiles (Sapphire Rapids and later), AVX-512 with bf16 (Zen 4
and 5, Cooper Lake), AVX-512 with VNNI but not bf16 (Ice Lake, Cascade Lake),
AVX2 with VNNI (Alder Lake and later), plain AVX2 (Zen 2 and 3, Skylake), and
older. backends.DEFAULT_CPU_PRECISIONS and search.config.RUNTIME_SEARCH give each
kind its defaults (docs/DECISIONS.md, 'CPU kinds').

A benchmark or a test can make a better CPU compute as a lesser kind:
pretend_env(kind) is the environment that caps oneDNN (under torch and OpenVINO)
and torch's own kernels at the kind's instructions and makes cpu_kind() name it.
ONNX Runtime reads the CPU itself and is not capped.
"""

import functools
import os

AMX, AVX512_BF16, AVX512_VNNI = 'amx', 'avx512-bf16', 'avx512-vnni'
AVX2_VNNI, AVX2, OLDER = 'avx2-vnni', 'avx2', 'older'
KINDS = (AMX, AVX512_BF16, AVX512_VNNI, AVX2_VNNI, AVX2, OLDER)

# The Linux CPU flag that makes each kind, best kind first; OLDER needs none.
KIND_FLAG = {AMX: 'amx_tile', AVX512_BF16: 'avx512_bf16', AVX512_VNNI: 'avx512_vnni',
             AVX2_VNNI: 'avx_vnni', AVX2: 'avx2'}
# The kinds that compute bf16 natively: elsewhere oneDNN emulates it, far slower than
# fp32 (docs/DECISIONS.md, 'precision on the CPU').
NATIVE_BF16 = {AMX, AVX512_BF16}
# The kinds that multiply int8 into 32-bit sums (VNNI or AMX): elsewhere the runtimes sum
# pairs of products into 16 bits, which 8-bit weights can saturate, so there a network's
# int8 file with 7-bit weights is read where it has one (goengine.nn.int8;
# docs/DECISIONS.md, 'int8 without VNNI').
EXACT_INT8 = {AMX, AVX512_BF16, AVX512_VNNI, AVX2_VNNI}

# What caps a better CPU at each kind: oneDNN's ONEDNN_MAX_CPU_ISA and torch's
# ATEN_CPU_CAPABILITY (read once, when the library loads).
ONEDNN_ISA = {AMX: 'AVX512_CORE_AMX', AVX512_BF16: 'AVX512_CORE_BF16',
              AVX512_VNNI: 'AVX512_CORE_VNNI', AVX2_VNNI: 'AVX2_VNNI', AVX2: 'AVX2',
              OLDER: 'AVX'}
ATEN_CAPABILITY = {AMX: 'avx512', AVX512_BF16: 'avx512', AVX512_VNNI: 'avx512',
                   AVX2_VNNI: 'avx2', AVX2: 'avx2', OLDER: 'default'}
# The variable that names the kind pretended (set by pretend_env, for tests and benchmarks).
PRETEND = 'GOENGINE_CPU_KIND'


class CpuKindError(ValueError):
    """A kind that is not one of KINDS (one line saying so)."""


def check_kind(kind):
    """`kind`, or CpuKindError when it is none of KINDS."""
    if kind not in KINDS:
        raise CpuKindError(f'CPU kind {kind!r}: expected {", ".join(KINDS)}')
    return kind


@functools.cache
def cpu_kind():
    """This CPU's kind (one of KINDS): the pretended one where PRETEND names it."""
    pretended = os.environ.get(PRETEND)
    if pretended:
        return check_kind(pretended)
    return kind_of(cpu_flags())


def kind_of(flags):
    """The best kind whose flag is in `flags` (a set of Linux CPU flag names)."""
    return next((kind for kind, flag in KIND_FLAG.items() if flag in flags), OLDER)


def bf16_is_fast():
    """Whether this CPU computes bf16 natively: only there does bf16 autocast pay."""
    return cpu_kind() in NATIVE_BF16


def int8_sums_are_exact():
    """Whether this CPU sums int8 products into 32 bits (VNNI or AMX)."""
    return cpu_kind() in EXACT_INT8


def pretend_env(kind, env=None):
    """A copy of `env` (os.environ by default) in which a process computes as a CPU of
    `kind` and cpu_kind() says so. It cannot add instructions the CPU lacks: a kind above
    the real one runs as the real one."""
    env = dict(os.environ if env is None else env)
    check_kind(kind)
    env.update({PRETEND: kind, 'ONEDNN_MAX_CPU_ISA': ONEDNN_ISA[kind],
                'ATEN_CPU_CAPABILITY': ATEN_CAPABILITY[kind]})
    return env


@functools.cache
def cpu_flags():
    """The CPU's feature flags as Linux lists them; where it does not (macOS, Windows),
    the ones torch's probes find."""
    try:
        with open('/proc/cpuinfo') as f:
            return frozenset(f.read().split())
    except OSError:
        return frozenset(_flags_from_torch())


def _flags_from_torch():
    import torch
    probes = {'amx_tile': '_is_amx_tile_supported', 'avx512_bf16': '_is_avx512_bf16_supported',
              'avx512_vnni': '_is_avx512_vnni_supported', 'avx2': '_is_avx2_supported'}
    return {flag for flag, probe in probes.items() if getattr(torch.cpu, probe, lambda: False)()}
