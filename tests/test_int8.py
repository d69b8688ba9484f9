"""The int8 networks (goengine.nn.int8, tools/make_int8.py) and the runtime that picks
them (backends.pick_runtime): made reproducibly, refused when stale, close to fp32."""

import gzip
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip('torch')

from goengine.nn import backends, cpu, int8, netfile, on_planes
from goengine.nn.cpu import AMX, AVX2, AVX512_BF16, int8_sums_are_exact
from goengine.nn.inference import NetworkEvaluator
from goengine.nn.nets import HeadsNet
from tests.test_backends import game_boards, game_positions

REPO = Path(__file__).resolve().parent.parent
needs_onnxruntime = pytest.mark.skipif(not backends.installed('onnxruntime'),
                                       reason='onnxruntime / onnx not installed (make setup)')
INT8_RUNTIMES = [b for b in backends.RUNNERS['int8'] if backends.installed(b)]


def every_runtime_installed(monkeypatch, kind):
    """Every runtime installed on a CPU of `kind`."""
    monkeypatch.setattr(backends, 'installed', lambda backend: True)
    monkeypatch.setattr(backends, 'cpu_kind', lambda: kind)


def test_auto_takes_the_cpu_kinds_precisions_in_order_each_the_fallback_of_the_last(monkeypatch):
    every_runtime_installed(monkeypatch, AMX)
    runtime = backends.pick_runtime('auto', 'auto', 'cpu')
    chain = []
    while runtime is not None:
        chain.append(str(runtime))
        runtime = runtime.fallback
    assert chain == ['openvino int8', 'torch bf16', 'onnxruntime fp32']
    every_runtime_installed(monkeypatch, AVX512_BF16)
    assert str(backends.pick_runtime()) == 'torch bf16'
    every_runtime_installed(monkeypatch, AVX2)
    assert str(backends.pick_runtime()) == 'onnxruntime fp32'
    assert backends.pick_runtime('auto', 'auto', 'cuda') == backends.Runtime('torch', 'bf16')
    assert backends.pick_runtime('fp32', 'auto', 'cuda') == backends.Runtime('torch', 'fp32')
    # a runtime named: the kind's first precision it computes
    every_runtime_installed(monkeypatch, AMX)
    assert str(backends.pick_runtime('auto', 'torch')) == 'torch bf16'
    assert str(backends.pick_runtime('auto', 'onnxruntime')) == 'onnxruntime int8'
    assert str(backends.pick_runtime('int8', 'onnxruntime')) == 'onnxruntime int8'
    # by name there is no fallback: a network without its int8 file is an error
    assert backends.pick_runtime('int8').fallback is None


def test_a_cpu_without_vnni_reads_the_int8_file_whose_weights_fit_in_7_bits(monkeypatch):
    """Its 16-bit sums of pairs of uint8 x int8 products cannot saturate with weights in
    [-64, 64] (255 x 64 x 2 = 32,640 < 2 ** 15); the 8-bit files use the whole int8 range. sl.pt
    has no 7-bit form (it read worse so), and every kind reads its 8-bit one."""
    pytest.importorskip('onnx')
    import onnx
    from onnx import numpy_helper
    for kind in cpu.KINDS:
        monkeypatch.setattr(cpu, 'cpu_kind', lambda: kind)
        seven_bit = kind not in cpu.EXACT_INT8
        path = int8.int8_path(str(REPO / 'weights/heads-k96.pt'))
        assert path.endswith('heads-k96.int8-7bit.onnx' if seven_bit else 'heads-k96.int8.onnx')
        assert int8.int8_path(str(REPO / 'weights/sl.pt')).endswith('sl.int8.onnx')
    for name, seven_bit in (('sl', False), ('heads-k96', False), ('heads-k96', True)):
        model = onnx.load(int8.int8_path(str(REPO / f'weights/{name}.pt'), seven_bit))
        weights = [numpy_helper.to_array(t) for t in model.graph.initializer
                   if t.data_type == onnx.TensorProto.INT8 and len(t.dims) == 4]
        low, high = min(int(w.min()) for w in weights), max(int(w.max()) for w in weights)
        assert (low >= -64 and high <= 64) if seven_bit else (low < -64 or high > 64)


def test_a_pair_that_cannot_run_is_one_clear_error(monkeypatch):
    every_runtime_installed(monkeypatch, AMX)
    for asked, reason in ((('int8', 'torch'), 'does not run int8'),
                          (('bf16', 'onnxruntime'), 'does not run bf16'),
                          (('int8', 'auto', 'cuda'), 'int8 runs on the CPU'),
                          (('auto', 'openvino', 'cuda'), 'runs on the CPU'),
                          (('int4',), 'expected auto, fp32, bf16, int8'),
                          (('auto', 'tensorrt'), 'expected auto, torch')):
        with pytest.raises(backends.BackendError, match=reason):
            backends.pick_runtime(*asked)
    monkeypatch.setattr(backends, 'installed', lambda backend: backend == 'torch')
    with pytest.raises(backends.BackendError, match='openvino and onnx packages are not'):
        backends.pick_runtime('auto', 'openvino')
    with pytest.raises(backends.BackendError, match='none of openvino, onnxruntime'):
        backends.pick_runtime('int8')
    assert str(backends.pick_runtime()) == 'torch bf16'   # auto skips what is missing


def tiny_network(path, seed=0):
    torch.manual_seed(seed)
    model = HeadsNet(filters=8, layers=3, board_size=9).eval()
    netfile.save_network(str(path), model)
    return netfile.load_network(str(path))


def nine_by_nine_games(folder, count=12):
    """A data folder with one training file of `count` 9x9 games (and the held-out one)."""
    folder.mkdir()
    lines = []
    for n in range(count):
        points = [('abcdefghi'[(i * 5 + n) % 9], 'abcdefghi'[(i * 2 + n) % 9]) for i in range(9)]
        moves = ''.join(f";{'BW'[i % 2]}[{x}{y}]" for i, (x, y) in enumerate(points))
        lines.append(f'(;GM[1]FF[4]SZ[9]KM[6.5]RE[B+3.5]{moves})\n')
    for name in ('tygem-9d-2016-11.sgfs.gz', 'tygem-9d-2016-12.sgfs.gz'):
        with gzip.open(folder / name, 'wt') as f:
            f.writelines(lines)
    return folder


@needs_onnxruntime
def test_make_int8_is_reproducible_and_the_file_goes_stale_with_its_fp32_one(tmp_path):
    from tests.programs import tool
    make_int8 = tool('make_int8')
    weights = tmp_path / 'tiny.pt'
    tiny_network(weights)
    data = nine_by_nine_games(tmp_path / 'games')
    seven_bit = not int8_sums_are_exact()   # the form this CPU reads
    made, path = [], Path(int8.int8_path(str(weights), seven_bit))
    flags = ['--seven-bit'] if seven_bit else []
    for _ in range(2):
        make_int8.main(['--weights', str(weights), '--positions', '40', '--data', str(data),
                        *flags])
        made.append(path.read_bytes())
    assert made[0] == made[1] and len(made[0]) > 1000
    assert int8.load(str(weights)) == made[0]
    tiny_network(weights, seed=1)   # new fp32 weights: the int8 file is left behind
    with pytest.raises(int8.Int8Error, match='stale, made from other weights'):
        int8.load(str(weights))
    path.write_bytes(b'not onnx at all')
    with pytest.raises(int8.Int8Error, match='not an ONNX file'):
        int8.load(str(weights))
    path.unlink()
    with pytest.raises(int8.Int8Error, match='tools/make_int8.py --weights'):
        int8.load(str(weights))
    with pytest.raises(SystemExit, match='no train files|calibration positions'):
        make_int8.main(['--weights', str(weights), '--data', str(tmp_path)])


def test_the_shipped_int8_files_are_made_from_the_shipped_networks():
    """Retraining a network without remaking its int8 file fails here, not in a game."""
    pytest.importorskip('onnx')
    for name in ('sl', 'heads-k96'):
        assert int8.load(str(REPO / f'weights/{name}.pt'))


@pytest.mark.parametrize('backend', INT8_RUNTIMES)
def test_int8_reads_real_positions_as_fp32_does(backend):
    """The shipped small network in int8 on positions of a real game: most top moves
    alike, values and leads close, on each int8 runtime installed (without VNNI, the file
    with 7-bit weights: docs/DECISIONS.md, 'int8 without VNNI')."""
    model = netfile.load_network(str(REPO / 'weights/heads-k96.pt'))
    reference = NetworkEvaluator(model, use_bf16=False, threads=1)
    quantized = backends.make_evaluator(model, backends.Runtime(backend, 'int8'), threads=1,
                                        weights=str(REPO / 'weights/heads-k96.pt'))
    assert quantized.describe().precision == 'int8' and quantized.describe().backend == backend
    planes = game_positions(every=4)
    same = (on_planes.logits(quantized, planes).argmax(1)
            == on_planes.logits(reference, planes).argmax(1))
    assert same.mean() >= 0.85, same.mean()
    moved = on_planes.value(quantized, planes) - on_planes.value(reference, planes)
    assert np.abs(moved).mean() < 0.05
    boards = game_boards(every=4)
    got, wanted = quantized.evaluate(boards, 7.5), reference.evaluate(boards, 7.5)
    assert np.abs(got.score_lead - wanted.score_lead).mean() < 1.5
    assert np.abs(got.ownership - wanted.ownership).mean() < 0.05


def int8_or_its_fallback(model, weights):
    """(evaluator, lines logged) of int8 asked for under auto, torch fp32 its fallback."""
    runtime = backends.Runtime(INT8_RUNTIMES[0] if INT8_RUNTIMES else 'onnxruntime', 'int8',
                               fallback=backends.Runtime('torch', 'fp32'))
    lines = []
    evaluator = backends.make_evaluator(model, runtime, threads=1, weights=str(weights),
                                        log=lines.append)
    return evaluator, lines


def test_a_network_without_its_int8_file_falls_back_under_auto_and_is_an_error_by_name(tmp_path):
    weights = tmp_path / 'tiny.pt'
    model = tiny_network(weights)
    evaluator, lines = int8_or_its_fallback(model, weights)
    assert evaluator.describe().precision == 'fp32' and len(lines) == 1
    assert 'no int8 form' in lines[0] and 'runs on torch fp32' in lines[0]
    with pytest.raises(int8.Int8Error, match='no int8 form'):
        backends.make_evaluator(model, backends.Runtime('onnxruntime', 'int8'),
                                weights=str(weights))


@pytest.mark.skipif(not INT8_RUNTIMES, reason='no int8 runtime installed')
def test_the_engine_names_its_runtime_and_refuses_int8_for_a_network_without_one():
    from tests.test_gtp import responses, run_main
    result = run_main(['--network', 'small', '--precision', 'int8', '--playouts', '20'],
                      'boardsize 19\nclear_board\ngenmove b\n', timeout=120)
    assert result.returncode == 0, result.stderr
    assert f'goengine: weights/heads-k96.pt: {INT8_RUNTIMES[0]} int8 on cpu' in result.stderr
    assert responses(result.stdout)[2].startswith('= ')
    refused = run_main(['--weights', 'weights/rl.pt', '--policy-only', '--precision', 'int8'],
                       'name\n', timeout=120)
    assert refused.returncode == 2 and refused.stdout == ''
    error = [line for line in refused.stderr.splitlines() if 'error' in line]
    missing = Path(int8.int8_path('weights/rl.pt')).name   # the form this CPU reads
    assert len(error) == 1 and f'{missing}: no int8 form' in error[0]


def test_the_search_mode_follows_the_runtime_unless_the_command_line_names_one():
    from goengine.search.config import search_config
    for kind, mode in ((('amx', 'int8'), 'zero'), (('amx', 'bf16'), 'apv'),
                       (('avx2', 'fp32'), 'apv'), (None, 'apv')):
        assert search_config('large', (), kind).search_mode == mode, kind
    zero = search_config('large', (), ('amx', 'int8'))
    assert zero.c_puct == 1.5 and zero.fpu_from_parent   # the zero search's own constants
    assert search_config('large', (), ('amx', 'int8'), search_mode='apv').search_mode == 'apv'
    assert search_config('large', ['search_mode=apv'], ('amx', 'int8')).search_mode == 'apv'


def test_the_policy_player_takes_the_next_precision_where_auto_would_take_int8(monkeypatch):
    """One evaluation a move: int8's speed buys the policy player nothing."""
    import argparse
    from goengine.programs import loading
    chain = backends.Runtime('openvino', 'int8', backends.Runtime('torch', 'bf16', cpu='amx'),
                             'amx')
    monkeypatch.setattr(backends, 'pick_runtime', lambda *args, **kw: chain)
    args = argparse.Namespace(weights='weights/sl.pt', network='auto', device='cpu',
                              value_weights=None, precision='auto', backend='auto')
    assert str(loading.networks_asked(args, print, policy_only=True)[2]) == 'torch bf16'
    assert str(loading.networks_asked(args, print)[2]) == 'openvino int8'
    args.weights = 'weights/rl.pt'   # no int8 file: the fallback, named in one line
    lines = []
    assert str(loading.networks_asked(args, lines.append)[2]) == 'torch bf16'
    missing = Path(int8.int8_path('weights/rl.pt')).name
    assert len(lines) == 1 and f'{missing}: no int8 form' in lines[0]


def test_a_damaged_int8_file_is_one_line_and_the_fallback(tmp_path):
    """50 bytes flipped inside the shipped int8 file's weights: its own digest no longer
    matches, so it is refused by name and auto falls back, saying so in one line."""
    pytest.importorskip('onnx')
    import shutil
    weights = tmp_path / 'heads-k96.pt'
    shutil.copy(REPO / 'weights/heads-k96.pt', weights)
    shipped = Path(int8.int8_path(str(REPO / 'weights/heads-k96.pt')))   # this CPU's form
    path = tmp_path / shipped.name
    data = bytearray(shipped.read_bytes())
    rng = np.random.default_rng(0)
    for at in rng.choice(np.arange(len(data) // 4, 3 * len(data) // 4), 50, replace=False):
        data[at] ^= 0x5A
    path.write_bytes(bytes(data))
    with pytest.raises(int8.Int8Error, match='damaged|not an ONNX file'):
        int8.load(str(weights))
    model = netfile.load_network(str(weights))
    evaluator, lines = int8_or_its_fallback(model, weights)
    assert evaluator.describe().precision == 'fp32' and len(lines) == 1
    assert shipped.name in lines[0] and 'runs on torch fp32' in lines[0]


def test_an_int8_file_without_a_digest_of_its_own_is_refused(tmp_path):
    pytest.importorskip('onnx')
    import onnx
    import shutil
    weights = tmp_path / 'heads-k96.pt'
    shutil.copy(REPO / 'weights/heads-k96.pt', weights)
    shipped = Path(int8.int8_path(str(REPO / 'weights/heads-k96.pt')))   # this CPU's form
    model = onnx.load(str(shipped))
    kept = [p for p in model.metadata_props if p.key != int8.CONTENT_KEY]
    del model.metadata_props[:]
    model.metadata_props.extend(kept)
    (tmp_path / shipped.name).write_bytes(model.SerializeToString())
    with pytest.raises(int8.Int8Error, match='no digest of its own content'):
        int8.load(str(weights))
