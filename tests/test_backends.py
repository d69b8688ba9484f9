"""The backends that run the networks (goengine.nn.backends): each gives torch's answers."""

import re
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip('torch')

from goengine.game import sgffile
from goengine.nn import backends, features, netfile, on_planes
from goengine.nn.inference import NetworkEvaluator

REPO = Path(__file__).resolve().parent.parent
needs_onnxruntime = pytest.mark.skipif(not backends.installed('onnxruntime'),
                                       reason='onnxruntime / onnx not installed (make setup)')


def game_boards(every=12):
    """Every `every`-th position of a real counted game."""
    game = sgffile.parse_game((REPO / 'tests/games/handicap-3-counted.sgf').read_text())
    return [board for number, (board, _, _) in enumerate(sgffile.iter_positions(game))
            if number % every == 0]


def game_positions(every=12):
    """Planes (49 a position) of game_boards."""
    return features.value_planes_batch(game_boards(every))


def test_fp32_on_a_cpu_without_native_bf16_is_onnx_runtime_and_torch_without_it(monkeypatch):
    monkeypatch.setattr(backends, 'cpu_kind', lambda: 'avx2')
    monkeypatch.setattr(backends, 'installed', lambda backend: True)
    assert str(backends.pick_runtime('auto', 'auto', 'cpu')) == 'onnxruntime fp32'
    assert str(backends.pick_runtime('fp32', 'torch', 'cpu')) == 'torch fp32'
    monkeypatch.setattr(backends, 'installed', lambda backend: backend == 'torch')
    assert str(backends.pick_runtime('auto', 'auto', 'cpu')) == 'torch fp32'
    with pytest.raises(backends.BackendError, match='onnxruntime and onnx packages are not'):
        backends.pick_runtime('auto', 'onnxruntime', 'cpu')


@needs_onnxruntime
def test_onnxruntime_gives_torchs_moves_values_ownership_and_score():
    """The shipped small network on positions of a real game: the same top move, values
    within 0.01, under ONNX Runtime as under torch in fp32."""
    model = netfile.load_network(str(REPO / 'weights/heads-k96.pt'))
    planes = game_positions()
    reference = NetworkEvaluator(model, use_bf16=False, threads=1)
    onnx = backends.make_evaluator(model, backends.Runtime('onnxruntime', 'fp32'), threads=1)
    assert onnx.backend == 'onnxruntime' and onnx.heads == reference.heads
    assert len(planes) >= 8
    same = on_planes.policy(onnx, planes).argmax(1) == on_planes.policy(reference, planes).argmax(1)
    assert same.all()
    assert np.abs(on_planes.value(onnx, planes) - on_planes.value(reference, planes)).max() < 0.01
    assert np.abs(on_planes.ownership(onnx, planes) - on_planes.ownership(reference, planes)).max() < 0.01
    assert np.abs(on_planes.score_lead(onnx, planes, 6.5, True)
                  - on_planes.score_lead(reference, planes, 6.5, True)).max() < 0.05
    one = on_planes.heads(onnx, planes[0], 'policy', 'value')   # one position: no batch axis
    assert one[0].shape == (361,) and np.ndim(one[1]) == 0
    boards = game_boards()
    got = onnx.evaluate(boards, 4.5, true_komi=0.5, symmetries=[3] * len(boards))
    wanted = reference.evaluate(boards, 4.5, true_komi=0.5, symmetries=[3] * len(boards))
    assert (got.policy_logits.argmax(1) == wanted.policy_logits.argmax(1)).all()
    assert np.abs(got.value - wanted.value).max() < 0.01
    assert np.abs(got.true_value - wanted.true_value).max() < 0.01
    assert np.abs(got.score_lead - wanted.score_lead).max() < 0.05
    white = np.arange(len(planes)) % 2 == 0
    leads, owners = on_planes.lead_and_ownership(onnx, planes, 0.5, white)   # what scoreLead reads
    wanted, wanted_owners = on_planes.lead_and_ownership(reference, planes, 0.5, white)
    assert np.abs(leads - wanted).max() < 0.05 and np.abs(owners - wanted_owners).max() < 0.01
    mask = np.zeros((len(planes), 361), dtype=bool)
    mask[:, 60] = True                                   # one legal point: all its mass
    assert np.allclose(on_planes.policy(onnx, planes, legal_mask=mask)[:, 60], 1.0)


@needs_onnxruntime
def test_the_engine_plays_on_onnxruntime():
    from tests.test_gtp import responses, run_main
    result = run_main(['--network', 'small', '--device', 'cpu', '--backend', 'onnxruntime',
                       '--precision', 'fp32', '--playouts', '20'],
                      'boardsize 19\nclear_board\ngenmove b\n', timeout=120)
    assert result.returncode == 0, result.stderr
    assert 'goengine: weights/heads-k96.pt: onnxruntime fp32 on cpu' in result.stderr.splitlines()
    assert responses(result.stdout)[2].startswith('= ')


def test_the_engine_refuses_onnxruntime_on_an_accelerator_in_one_line():
    from tests.test_gtp import run_main
    if not torch.cuda.is_available():
        pytest.skip('needs a CUDA GPU to ask for')
    result = run_main(['--network', 'small', '--device', 'cuda', '--backend', 'onnxruntime'],
                      'name\n')
    assert result.returncode == 2 and result.stdout == ''
    assert result.stderr.strip().count('\n') == 0 and 'onnxruntime' in result.stderr


@needs_onnxruntime
def test_int8_with_its_ends_in_fp32_keeps_the_first_convolution_and_every_head():
    """The 'ends fp32' form (make_int8 --keep-ends): the layers left out of quantization
    are the trunk's first convolution and the four heads' layers, none of the other trunk's."""
    import onnx
    from goengine.nn import int8
    from goengine.nn.nets import HeadsNet
    model = HeadsNet(filters=8, layers=4, board_size=9).eval()
    kept = int8.layers_at_the_ends(onnx.load_from_string(backends.export_onnx(model)))
    trunk = [name for name in kept if name.startswith('/trunk/')]
    assert trunk == ['/trunk/trunk.0/conv/Conv']
    heads = {name.split('/')[1] for name in kept if not name.startswith('/trunk/')}
    assert heads == {'policy_conv', 'value_conv', 'value_fc', 'value_out', 'ownership_conv',
                     'score_out'}


def test_the_int8_bench_reads_the_moves_played_and_refuses_a_broken_file(tmp_path):
    from training.sampler import HEADS_MOVE
    from tests.programs import tool
    bench_nets = tool('bench_nets')
    policy = tmp_path / 'val-policy.npz'
    np.savez(policy, planes=np.zeros((3, 48, 9, 9), np.uint8), targets=np.array([4, 7, 9]))
    assert bench_nets.moves_played(str(policy), 2).tolist() == [4, 7]
    heads = tmp_path / 'val-heads.npz'
    targets = np.zeros((2, HEADS_MOVE + 90), np.float32)
    targets[:, HEADS_MOVE] = [12, 80]
    np.savez(heads, planes=np.zeros((2, 49, 9, 9), np.uint8), targets=targets)
    assert bench_nets.moves_played(str(heads), 10).tolist() == [12, 80]
    broken = tmp_path / 'broken.npz'
    broken.write_bytes(b'not a zip')

    class Model:
        planes = 49
    for path in (broken, tmp_path / 'missing.npz'):
        with pytest.raises(SystemExit, match='error: .*not a readable .npz'):
            bench_nets.load_planes(str(path), Model, 10)


def test_the_speed_bench_leaves_out_a_runtime_that_fails_on_its_first_call(capsys):
    """A runtime that builds and then fails when it runs (OpenVINO bf16 under an ISA cap
    below the CPU's) is one line and left out; one that runs is kept."""
    from goengine.nn.nets import HeadsNet
    from tests.programs import tool
    bench_nets = tool('bench_nets')
    model = HeadsNet(filters=8, layers=2, board_size=9).eval()

    def broken():
        class Evaluator:
            kind, heads = 'value', ('value',)

            def outputs_for_planes(self, planes, *kinds):
                raise RuntimeError('Exception from infer_request.cpp:224:\n'
                                   '[CPU] Convolution node is not initialized\n\n')
        return Evaluator()
    assert bench_nets.runs_here('openvino bf16', broken, model) is None
    assert capsys.readouterr().out == ('openvino bf16: does not run here, not measured '
                                       '([CPU] Convolution node is not initialized)\n')
    torch_fp32 = bench_nets.runs_here('torch fp32', lambda: NetworkEvaluator(model), model)
    assert isinstance(torch_fp32, NetworkEvaluator)


@needs_onnxruntime
def test_bench_search_measures_an_untrained_four_headed_shape(capsys):
    """bench_search --heads: a random four-headed network of the asked shape runs in the
    search on ONNX Runtime, its one call giving the value too (policy = value evaluations)."""
    from tests.programs import tool
    tool('bench_search').main(['--heads', '--filters', '8', '--layers', '3', '--size', '9',
                               '--moves', '10', '--seconds', '0.5', '--splits', '1x1',
                               '--device', 'cpu', '--backend', 'onnxruntime',
                               '--expand-threshold', '1'])
    out = capsys.readouterr().out
    assert 'random four-headed k=8, 3 layers, onnxruntime fp32 on cpu' in out
    evals = re.search(r'network evals/s +([\d.]+) +policy +([\d.]+) +value +([\d.]+)', out)
    assert evals and float(evals[1]) > 0 and evals[2] == evals[3]


@pytest.mark.skipif(not backends.installed('openvino'), reason='openvino not installed (make setup)')
def test_openvino_answers_two_threads_at_once_each_its_own():
    """The search's network thread may still be on its last batch when a GTP command asks
    the network itself (a heatmap after genmove): the second call waits its turn, where
    OpenVINO's one request would raise 'Infer Request is busy', and each gets its own
    answers, not the other's."""
    import threading
    model = netfile.load_network(str(REPO / 'weights/heads-k96.pt'))
    network = backends.make_evaluator(model, backends.Runtime('openvino', 'fp32'))
    boards = game_boards(1)
    many, one = boards[:64], boards[100:101]
    wanted = {len(many): network.evaluate(many, 6.5).value, 1: network.evaluate(one, 6.5).value}
    failures = []

    def ask(batch):
        for _ in range(30):
            try:
                got = network.evaluate(batch, 6.5).value
                if not np.allclose(got, wanted[len(batch)], atol=1e-4):
                    failures.append('another call\'s answers')
            except RuntimeError as exc:
                failures.append(str(exc))

    threads = [threading.Thread(target=ask, args=(batch,)) for batch in (many, one)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
