#!/usr/bin/env python3
"""How many network evaluations a second does the engine make on each CPU kind, in
each way of running its network?

For each kind (goengine.nn.cpu; a lesser kind than this CPU's is computed under its
instruction cap, cpu.pretend_env) and each way (runtime, precision, network, search
mode), a fresh gtp_main.py plays three moves from the empty board at --seconds a move
with --verbose, and the evaluations and seconds of its own log lines are summed:

    .venv/bin/python tools/bench/bench_kinds.py --kinds avx512-bf16,avx2 --seconds 4

`default` is what the engine picks with no flags; `old-default` what it picked on that
kind on 2026-12-06 (before the kinds were measured). ONNX Runtime reads the CPU itself,
not the cap: its rows are marked (real CPU) where the kind is emulated. Run it with
nothing else on the cores.
"""

import argparse
import re
import subprocess
import sys
import time

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.nn import cpu

REPO = _checkout.ROOT
WAYS = {
    'default': '',
    'int8-ov-large-zero': '--network large --precision int8 --backend openvino --search-mode zero',
    'int8-ov-small-zero': '--network small --precision int8 --backend openvino --search-mode zero',
    'int8-ort-small-zero': '--network small --precision int8 --backend onnxruntime '
                           '--search-mode zero',
    'bf16-torch-large-zero': '--network large --precision bf16 --backend torch --search-mode zero',
    'fp32-ort-small-zero': '--network small --precision fp32 --backend onnxruntime '
                           '--search-mode zero',
    'fp32-torch-small-zero': '--network small --precision fp32 --backend torch --search-mode zero',
}
# What each kind ran with no flags on 2026-12-06: the large network in bf16 (torch) with
# the apv search where bf16 is native, the small one in fp32 (ONNX Runtime) elsewhere,
# int8 and the zero search on AMX.
OLD_DEFAULT = {cpu.AMX: WAYS['int8-ov-large-zero'],
               cpu.AVX512_BF16: '--network large --precision bf16 --backend torch '
                                '--search-mode apv'}
OLD_DEFAULT_ELSEWHERE = '--network small --precision fp32 --backend onnxruntime --search-mode apv'
MOVE = re.compile(r'in ([0-9.]+)s, (\d+) network evaluations')
SETUP = re.compile(r'goengine: (\S+): (\S+ \S+) on cpu')


def flags_for(way, kind):
    if way == 'old-default':
        return OLD_DEFAULT.get(kind, OLD_DEFAULT_ELSEWHERE)
    return WAYS[way]


def run(kind, way, seconds, moves):
    """(evaluations a second, per-move rates, runtime line) of one fresh engine."""
    command = [sys.executable, str(REPO / 'gtp_main.py'), '--verbose', '--time-per-move',
               str(seconds), *flags_for(way, kind).split()]
    gtp = ''.join(f'genmove {"bw"[i % 2]}\n' for i in range(moves)) + 'quit\n'
    done = subprocess.run(command, input=gtp, capture_output=True, text=True, cwd=REPO,
                          env=cpu.pretend_env(kind), timeout=300 + moves * seconds * 3)
    found = [(float(s), int(n)) for s, n in MOVE.findall(done.stderr)]
    setup = SETUP.search(done.stderr)
    if done.returncode != 0 or len(found) != moves:
        last = done.stderr.strip().splitlines()[-1:] or ['no output']
        return None, [], f'failed: {last[0]}'
    rate = sum(n for _, n in found) / sum(s for s, _ in found)
    return rate, [n / s for s, n in found], setup.group(2) if setup else '?'


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--kinds', default=','.join(cpu.KINDS[:5]),
                   help='CPU kinds, comma-separated (default: %(default)s)')
    p.add_argument('--ways', default=','.join(['old-default', *WAYS]),
                   help='ways to run, comma-separated (default: %(default)s)')
    p.add_argument('--seconds', type=float, default=4.0, help='seconds a move (default 4)')
    p.add_argument('--moves', type=int, default=3, help='moves a run (default 3)')
    args = p.parse_args(argv)
    real = cpu.kind_of(cpu.cpu_flags())
    kinds = [cpu.check_kind(k) for k in args.kinds.split(',')]
    print(f'CPU: {cpu_model()}, kind {real}; {args.moves} moves of {args.seconds:g} s from '
          f'the empty board; {time.strftime("%Y-%m-%d")}', flush=True)
    print('kind | way | runtime | evaluations/s | per move', flush=True)
    for kind in kinds:
        emulated = cpu.KINDS.index(kind) > cpu.KINDS.index(real)
        for way in args.ways.split(','):
            if way != 'old-default' and way not in WAYS:
                sys.exit(f'bench_kinds: way {way!r}: expected old-default, {", ".join(WAYS)}')
            if 'bf16' in way and kind not in cpu.NATIVE_BF16:
                continue
            rate, moves, runtime = run(kind, way, args.seconds, args.moves)
            note = ' (real CPU)' if emulated and 'onnxruntime' in runtime else ''
            shown = f'{rate:.1f}' if rate is not None else '-'
            print(f'{kind}{" (capped)" if emulated else ""} | {way} | {runtime}{note} | '
                  f'{shown} | {" ".join(f"{m:.0f}" for m in moves)}', flush=True)


def cpu_model():
    try:
        with open('/proc/cpuinfo') as f:
            return next(line.split(':', 1)[1].strip() for line in f if line.startswith('model name'))
    except (OSError, StopIteration):
        return 'unknown CPU'


if __name__ == '__main__':
    main()
