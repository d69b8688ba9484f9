"""The CPU kinds (goengine.nn.cpu) and what the engine chooses on each: a kind is read
from the CPU's flags, a lesser kind can be pretended under oneDNN's instruction cap (and
oneDNN says it obeys), and the runtime, network and search mode auto picks follow the
kind, checked for every kind on this machine."""

import subprocess
import sys
from pathlib import Path

import pytest

from goengine.nn import cpu

REPO = Path(__file__).resolve().parent.parent

# Flags as Linux lists them (the ones that matter) for a CPU of each kind.
FLAGS = {cpu.AMX: {'avx2', 'avx512f', 'avx512_vnni', 'avx512_bf16', 'amx_tile', 'amx_int8'},
         cpu.AVX512_BF16: {'avx2', 'avx512f', 'avx512_vnni', 'avx512_bf16'},     # Zen 4
         cpu.AVX512_VNNI: {'avx2', 'avx512f', 'avx512_vnni'},                   # Ice Lake
         cpu.AVX2_VNNI: {'avx2', 'avx_vnni'},                                   # Alder Lake
         cpu.AVX2: {'avx2', 'fma'},                                             # Zen 3
         cpu.OLDER: {'sse4_2', 'avx'}}


def test_each_kind_is_read_from_its_flags_and_only_vnni_or_amx_sum_int8_exactly():
    for kind, flags in FLAGS.items():
        assert cpu.kind_of(flags) == kind
    assert cpu.NATIVE_BF16 == {cpu.AMX, cpu.AVX512_BF16}
    assert cpu.EXACT_INT8 == set(cpu.KINDS) - {cpu.AVX2, cpu.OLDER}
    with pytest.raises(cpu.CpuKindError, match='expected amx, avx512-bf16'):
        cpu.check_kind('avx3')


def test_a_pretended_kind_is_named_and_caps_onednn():
    """oneDNN under torch reports the instructions it uses: AVX2 under the AVX2 cap."""
    pytest.importorskip('torch')
    script = ('import torch\nfrom goengine.nn import cpu\n'
              'conv = torch.nn.Conv2d(4, 4, 3)\n'
              'with torch.no_grad(): conv(torch.zeros(2, 4, 9, 9))\n'
              'print("kind", cpu.cpu_kind(), cpu.bf16_is_fast(), cpu.int8_sums_are_exact())\n')
    env = cpu.pretend_env(cpu.AVX2)
    env['ONEDNN_VERBOSE'] = '1'
    done = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert 'kind avx2 False False' in done.stdout
    isa = [line for line in done.stdout.splitlines() if 'isa:' in line]
    assert isa and isa[0].endswith('isa:Intel AVX2'), isa


def engine_on(monkeypatch, kind, *flags):
    """The EngineSpec gtp_main's flags resolve to on a CPU of `kind`, every runtime
    installed."""
    from goengine.nn import backends
    from goengine.programs import engine_spec, gtp_main, loading
    monkeypatch.setattr(backends, 'installed', lambda backend: True)
    monkeypatch.setattr(backends, 'cpu_kind', lambda: kind)
    monkeypatch.setattr(loading, 'cpu_has_native_bf16', lambda: kind in cpu.NATIVE_BF16)
    args = gtp_main.build_parser().parse_args(['--device', 'cpu', *flags])
    return engine_spec.spec_from_args(args, lambda line: None)


@pytest.mark.parametrize('kind', cpu.KINDS)
def test_auto_picks_each_kinds_runtime_network_and_search(monkeypatch, kind):
    pytest.importorskip('torch')
    from goengine.nn import backends
    from goengine.search.config import RUNTIME_SEARCH
    spec = engine_on(monkeypatch, kind)
    precisions = backends.DEFAULT_CPU_PRECISIONS[kind]
    assert spec.runtime.precision == precisions[0] and spec.runtime.cpu == kind
    assert spec.network == ('large' if kind in cpu.NATIVE_BF16 else 'small')
    mode = RUNTIME_SEARCH.get((kind, precisions[0]), {}).get('search_mode', 'apv')
    assert spec.config.search_mode == mode
    line = spec.describe()
    assert f'CPU kind {kind}' in line and str(spec.runtime) in line and f'the {mode} search' in line
    # int8 needs VNNI or AMX to sum exactly: auto never takes it elsewhere
    assert 'int8' not in precisions or kind in cpu.EXACT_INT8


def test_the_verbose_engine_line_names_the_pretended_kind():
    """The engine run as a lesser kind (cpu.pretend_env) says so and what it chose."""
    pytest.importorskip('torch')
    done = subprocess.run([sys.executable, str(REPO / 'gtp_main.py'), '--verbose',
                           '--playouts', '1'], input='name\nquit\n', capture_output=True,
                          text=True, env=cpu.pretend_env(cpu.AVX2), cwd=REPO, timeout=180)
    assert done.returncode == 0, done.stderr
    line = next(l for l in done.stderr.splitlines() if l.startswith('goengine: engine '))
    assert '(small) on cpu (CPU kind avx2)' in line and 'fp32' in line, line
