"""Tests for goengine.nn.nets, netfile and inference: tiny networks (k=8, 3 layers) so they run in seconds."""

import os

import numpy as np
import pytest
import torch

from goengine.nn.cpu import bf16_is_fast
from goengine.nn.inference import NetworkEvaluator
from goengine.nn.netfile import FORMAT, FORMAT_VERSION, NetworkLoadError, load_network, save_network
from goengine.nn import on_planes
from goengine.nn.nets import HeadsNet, PolicyNet, ValueNet, softmax_with_temperature, without_move_head
from goengine.nn.surgery import fold_batch_norm, init_value_from_policy, unfold_batch_norm

torch.set_num_threads(1)  # the machine is shared; tiny nets do not need more

SMALL = dict(filters=8, layers=3, board_size=19)


def random_planes(n, planes, size=19, seed=0):
    rng = np.random.default_rng(seed)
    return (rng.random((n, planes, size, size)) < 0.3).astype(np.uint8)


def as_tensor(planes):
    return torch.from_numpy(planes).float()


def randomise_batch_norm(model, seed=0):
    """Give BN layers non-trivial statistics and affine parameters."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                n = module.num_features
                module.running_mean.copy_(torch.randn(n, generator=gen))
                module.running_var.copy_(torch.rand(n, generator=gen) * 2 + 0.1)
                module.weight.copy_(torch.randn(n, generator=gen))
                module.bias.copy_(torch.randn(n, generator=gen))
    return model


# ---------------------------------------------------------------- architecture

def test_policy_output_shape():
    net = PolicyNet(**SMALL)
    assert net(as_tensor(random_planes(2, 48))).shape == (2, 361)


def test_policy_on_9x9():
    net = PolicyNet(filters=8, layers=3, board_size=9)
    assert net(as_tensor(random_planes(3, 48, size=9))).shape == (3, 81)


def test_default_architecture_is_alphagos():
    net = PolicyNet()
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    assert len(convs) == 13
    assert convs[0].kernel_size == (5, 5) and convs[0].padding == (2, 2)
    assert convs[0].in_channels == 48 and convs[0].out_channels == 192
    assert all(c.kernel_size == (3, 3) and c.padding == (1, 1) for c in convs[1:12])
    assert convs[12].kernel_size == (1, 1) and convs[12].out_channels == 1
    assert convs[12].bias is None


def test_per_point_bias():
    net = PolicyNet(**SMALL)
    assert net.point_bias.numel() == 361
    assert net.head.bias is None
    x = as_tensor(random_planes(1, 48))
    before = net(x)
    with torch.no_grad():
        net.point_bias[42] += 5.0
    diff = net(x) - before
    assert diff[0, 42].item() == pytest.approx(5.0)
    assert diff[0, :42].abs().max() == 0 and diff[0, 43:].abs().max() == 0


def test_value_output_shape_and_range():
    net = ValueNet(**SMALL)
    with torch.no_grad():
        net.out.weight.mul_(100)  # push towards saturation: must still be in [-1, 1]
    v = net(as_tensor(random_planes(5, 49)))
    assert v.shape == (5,)
    assert v.min() >= -1 and v.max() <= 1


def test_value_default_architecture():
    net = ValueNet()
    convs = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)]
    assert len(convs) == 13 and convs[0].in_channels == 49
    assert convs[12].out_channels == 1 and convs[12].bias is not None
    assert net.fc.in_features == 361 and net.fc.out_features == 256
    assert net.out.out_features == 1


def test_bad_architecture_rejected():
    with pytest.raises(ValueError):
        PolicyNet(layers=1)


# ---------------------------------------------------------------- softmax

def test_softmax_sums_to_one():
    logits = PolicyNet(**SMALL)(as_tensor(random_planes(4, 48)))
    probs = softmax_with_temperature(logits)
    assert torch.allclose(probs.sum(1), torch.ones(4), atol=1e-5)
    assert torch.allclose(probs, torch.softmax(logits, 1))


def test_temperature_behaviour():
    logits = torch.tensor([[1.0, 2.0, 3.0]])
    p1 = softmax_with_temperature(logits, 1.0)
    sharp = softmax_with_temperature(logits, 0.67)
    flat = softmax_with_temperature(logits, 10.0)
    assert sharp.max() > p1.max() > flat.max()
    assert torch.allclose(sharp, torch.softmax(logits / 0.67, 1))
    assert torch.allclose(softmax_with_temperature(logits, 1e4), torch.full((1, 3), 1 / 3), atol=1e-3)
    for p in (sharp, flat):
        assert p.argmax() == 2 and p.sum().item() == pytest.approx(1.0)
    with pytest.raises(ValueError):
        softmax_with_temperature(logits, 0.0)


# ---------------------------------------------------------------- batch norm folding

@pytest.mark.parametrize('cls,planes', [(PolicyNet, 48), (ValueNet, 49)])
def test_fold_batch_norm_equivalence(cls, planes):
    torch.manual_seed(0)
    net = randomise_batch_norm(cls(batch_norm=True, **SMALL)).eval()
    folded = fold_batch_norm(net)
    assert not folded.batch_norm and not folded.training
    assert not any(isinstance(m, torch.nn.BatchNorm2d) for m in folded.modules())
    assert all(block.conv.bias is not None for block in folded.trunk)
    x = as_tensor(random_planes(4, planes))
    with torch.no_grad():
        assert torch.allclose(net(x), folded(x), atol=1e-4, rtol=1e-4)


def test_fold_uses_running_stats_after_training():
    torch.manual_seed(0)
    net = PolicyNet(batch_norm=True, **SMALL)
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    x = as_tensor(random_planes(8, 48))
    for _ in range(3):  # update running statistics and weights
        loss = torch.nn.functional.cross_entropy(net(x), torch.arange(8))
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert net.training  # fold must not switch the caller's model to eval
    folded = fold_batch_norm(net)
    assert net.training
    with torch.no_grad():
        assert torch.allclose(net.eval()(x), folded(x), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize('cls,planes', [(PolicyNet, 48), (ValueNet, 49)])
def test_unfold_batch_norm_is_the_inverse_of_folding(cls, planes):
    torch.manual_seed(0)
    shipped = fold_batch_norm(randomise_batch_norm(cls(batch_norm=True, **SMALL)))
    x = random_planes(16, planes, seed=3)
    unfolded = unfold_batch_norm(shipped, x)
    assert unfolded.batch_norm and unfolded.training
    with torch.no_grad():
        expected = shipped(as_tensor(x))
        # training mode on the measuring batch: batch statistics = the stored ones
        assert torch.allclose(unfolded(as_tensor(x)), expected, atol=1e-3, rtol=1e-3)
        unfolded.eval()
        other = as_tensor(random_planes(4, planes, seed=4))
        assert torch.allclose(unfolded(other), shipped(other), atol=1e-4, rtol=1e-4)
        assert torch.allclose(fold_batch_norm(unfolded)(other), shipped(other), atol=1e-4, rtol=1e-4)
    for block in unfolded.trunk:  # every filter at He initialisation's norm
        norms = block.conv.weight.flatten(1).norm(dim=1)
        assert torch.allclose(norms, torch.full_like(norms, 2 ** 0.5), atol=1e-5)


def test_unfold_batch_norm_needs_positions():
    with pytest.raises(ValueError):
        unfold_batch_norm(PolicyNet(**SMALL), random_planes(0, 48))


# ---------------------------------------------------------------- value transfer

def test_value_trunk_from_policy():
    torch.manual_seed(0)
    policy = PolicyNet(**SMALL)
    value = init_value_from_policy(ValueNet(**SMALL), policy)
    planes = random_planes(2, 49)
    planes[:, 48] = 1  # the extra plane must be ignored (zeroed weights)
    with torch.no_grad():
        expected = policy.trunk(as_tensor(planes[:, :48]))
        got = value.trunk(as_tensor(planes))
    assert torch.allclose(expected, got, atol=1e-5)
    assert value.trunk[0].conv.weight[:, 48].abs().max() == 0


@pytest.mark.parametrize('policy_bn,value_bn', [(True, True), (True, False), (False, True)])
def test_value_trunk_from_policy_mixed_batch_norm(policy_bn, value_bn):
    torch.manual_seed(0)
    policy = randomise_batch_norm(PolicyNet(batch_norm=policy_bn, **SMALL)).eval()
    if not policy_bn:
        with torch.no_grad():
            for block in policy.trunk:
                block.conv.bias.normal_()
    value = init_value_from_policy(ValueNet(batch_norm=value_bn, **SMALL), policy).eval()
    planes = random_planes(2, 49)
    with torch.no_grad():
        expected = policy.trunk(as_tensor(planes[:, :48]))
        got = value.trunk(as_tensor(planes))
    assert torch.allclose(expected, got, atol=1e-4, rtol=1e-4)


def test_value_move_head_starts_as_the_policy_head():
    torch.manual_seed(0)
    policy = randomise_batch_norm(PolicyNet(batch_norm=True, **SMALL)).eval()
    with torch.no_grad():
        policy.point_bias.normal_()
    value = init_value_from_policy(ValueNet(batch_norm=True, move_head=True, **SMALL), policy)
    planes = random_planes(3, 49)
    with torch.no_grad():
        expected = policy(as_tensor(planes[:, :48]))
        values, logits = value.eval().forward_with_moves(as_tensor(planes))
    assert torch.allclose(expected, logits, atol=1e-4, rtol=1e-4)
    assert torch.equal(values, value(as_tensor(planes)))


def test_move_head_is_for_training_only(tmp_path):
    torch.manual_seed(0)
    net = randomise_batch_norm(ValueNet(batch_norm=True, move_head=True, **SMALL)).eval()
    assert net.arch['move_head'] and 'move_head' not in ValueNet(**SMALL).arch
    plain = without_move_head(net)
    assert 'move_head' not in plain.arch and not any('move' in k for k in plain.state_dict())
    planes = as_tensor(random_planes(3, 49))
    with torch.no_grad():
        assert torch.equal(plain(planes), net(planes))
    save_network(tmp_path / 'v.pt', fold_batch_norm(plain), half=False)
    loaded = load_network(tmp_path / 'v.pt', kind='value')
    with torch.no_grad():
        assert torch.allclose(loaded(planes), net(planes), atol=1e-5)
    with pytest.raises(ValueError):
        loaded.forward_with_moves(planes)


def test_value_trunk_shape_mismatch():
    with pytest.raises(ValueError):
        init_value_from_policy(ValueNet(filters=16, layers=3), PolicyNet(**SMALL))
    with pytest.raises(ValueError):
        init_value_from_policy(ValueNet(filters=8, layers=4), PolicyNet(**SMALL))


# ---------------------------------------------------------------- checkpoint files

def test_save_load_roundtrip_fp16(tmp_path):
    torch.manual_seed(0)
    net = PolicyNet(**SMALL)
    path = tmp_path / 'policy.pt'
    save_network(path, net, extra={'accuracy': np.float32(0.5), 'positions': 1000})
    loaded = load_network(path)
    assert isinstance(loaded, PolicyNet) and not loaded.training
    assert loaded.arch == net.arch
    assert loaded.extra == {'accuracy': 0.5, 'positions': 1000}
    for name, tensor in loaded.state_dict().items():
        assert tensor.dtype == torch.float32
        assert torch.equal(tensor, net.state_dict()[name].half().float())
    x = as_tensor(random_planes(2, 48))
    with torch.no_grad():
        assert torch.allclose(net(x), loaded(x), atol=1e-2, rtol=1e-2)


def test_save_load_fp32_exact(tmp_path):
    net = ValueNet(**SMALL)
    path = tmp_path / 'sub' / 'value.pt'  # parent directory is created
    save_network(path, net, half=False)
    loaded = load_network(path, kind='value')
    for name, tensor in net.state_dict().items():
        assert torch.equal(tensor, loaded.state_dict()[name])
    assert os.listdir(tmp_path / 'sub') == ['value.pt']  # no temp file left


def test_load_with_fold(tmp_path):
    net = randomise_batch_norm(PolicyNet(batch_norm=True, **SMALL)).eval()
    path = tmp_path / 'bn.pt'
    save_network(path, net)
    assert load_network(path).batch_norm
    folded = load_network(path, fold=True)
    assert not folded.batch_norm
    x = as_tensor(random_planes(2, 48))
    with torch.no_grad():
        assert torch.allclose(net(x), folded(x), atol=5e-2, rtol=5e-2)  # fp16 weights


def test_unstorable_extra_rejected(tmp_path):
    with pytest.raises(TypeError):
        save_network(tmp_path / 'x.pt', PolicyNet(**SMALL), extra={'bad': object()})


def assert_load_error(path, fragment, **kwargs):
    with pytest.raises(NetworkLoadError) as info:
        load_network(path, **kwargs)
    message = str(info.value)
    assert str(path) in message and fragment in message
    assert info.value.__suppress_context__ or info.value.__context__ is None


def test_load_missing(tmp_path):
    assert_load_error(tmp_path / 'nope.pt', 'no such file')


def test_load_directory(tmp_path):
    assert_load_error(tmp_path, 'not a regular file')


def test_load_truncated(tmp_path):
    path = tmp_path / 'cut.pt'
    save_network(path, PolicyNet(**SMALL))
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    assert_load_error(path, 'cannot read network file')


def test_load_garbage(tmp_path):
    path = tmp_path / 'garbage.pt'
    path.write_bytes(os.urandom(1000))
    assert_load_error(path, 'cannot read network file')


def test_load_empty(tmp_path):
    path = tmp_path / 'empty.pt'
    path.write_bytes(b'')
    assert_load_error(path, 'cannot read network file')


def test_load_non_goengine_file(tmp_path):
    path = tmp_path / 'plain.pt'
    torch.save(PolicyNet(**SMALL).state_dict(), path)  # a bare state dict
    assert_load_error(path, 'not a goengine network file')


def test_load_unsafe_pickle_refused(tmp_path):
    path = tmp_path / 'pickle.pt'
    torch.save({'format': FORMAT, 'payload': object()}, path)
    assert_load_error(path, 'cannot read network file')


def test_load_wrong_kind(tmp_path):
    path = tmp_path / 'value.pt'
    save_network(path, ValueNet(**SMALL))
    assert_load_error(path, 'expected a policy network', kind='policy')


def test_load_a_network_by_its_head(tmp_path):
    """head=: the network of that kind, or a four-headed one that has the head."""
    value, heads = tmp_path / 'value.pt', tmp_path / 'heads.pt'
    save_network(value, ValueNet(**SMALL))
    save_network(heads, HeadsNet(**SMALL))
    assert load_network(value, head='value').kind == 'value'
    assert load_network(heads, head='policy').kind == 'heads'
    assert load_network(heads, head='ownership').kind == 'heads'
    assert_load_error(value, 'contains a value network, which has no policy head', head='policy')


def test_load_bad_version(tmp_path):
    path = tmp_path / 'future.pt'
    save_network(path, PolicyNet(**SMALL))
    checkpoint = torch.load(path, weights_only=True)
    checkpoint['version'] = FORMAT_VERSION + 1
    torch.save(checkpoint, path)
    assert_load_error(path, 'unsupported network file version')


def test_load_mismatched_weights(tmp_path):
    path = tmp_path / 'mismatch.pt'
    save_network(path, PolicyNet(**SMALL))
    checkpoint = torch.load(path, weights_only=True)
    checkpoint['arch']['filters'] = 16
    torch.save(checkpoint, path)
    assert_load_error(path, 'do not match')


# ---------------------------------------------------------------- evaluator

@pytest.fixture(scope='module')
def policy_net():
    torch.manual_seed(1)
    return PolicyNet(**SMALL)


@pytest.mark.parametrize('use_bf16', [False, True])
def test_evaluator_policy_batch_and_single(policy_net, use_bf16):
    ev = NetworkEvaluator(policy_net, use_bf16=use_bf16, threads=1)
    planes = random_planes(3, 48)
    probs = on_planes.policy(ev, planes)
    assert probs.shape == (3, 361) and probs.dtype == np.float32
    assert np.allclose(probs.sum(1), 1, atol=1e-5)
    single = on_planes.policy(ev, planes[1])
    assert single.shape == (361,)
    assert np.allclose(single, probs[1], atol=1e-6)
    with torch.no_grad():
        expected = torch.softmax(policy_net(as_tensor(planes)), 1).numpy()
    tolerance = 2e-2 if use_bf16 else 1e-5
    assert np.abs(probs - expected).max() < tolerance


@pytest.mark.skipif(not os.path.exists('/proc/cpuinfo'), reason='reads the CPU flags from Linux')
def test_bf16_is_the_default_only_where_the_cpu_computes_it(policy_net):
    """Emulated bf16 ran the k=192 policy 8x slower than fp32 on AVX2-only
    cores, so the default precision follows the CPU flags that the kernel reports."""
    with open('/proc/cpuinfo') as f:
        flags = set(f.read().split())
    native = 'avx512_bf16' in flags or 'amx_bf16' in flags
    assert bf16_is_fast() == native
    assert NetworkEvaluator(policy_net, threads=1).use_bf16 == native
    assert NetworkEvaluator(policy_net, use_bf16=True, threads=1).use_bf16


def test_evaluator_temperature(policy_net):
    ev = NetworkEvaluator(policy_net, use_bf16=False, threads=1)
    planes = random_planes(2, 48)
    p1, sharp = on_planes.policy(ev, planes), on_planes.policy(ev, planes, temperature=0.5)
    assert np.all(sharp.max(1) > p1.max(1))
    assert np.array_equal(sharp.argmax(1), p1.argmax(1))
    assert np.allclose(sharp.sum(1), 1, atol=1e-5)


def test_evaluator_legal_mask(policy_net):
    ev = NetworkEvaluator(policy_net, use_bf16=False, threads=1)
    planes = random_planes(2, 48)
    mask = np.zeros((2, 361), dtype=bool)
    mask[0, [3, 10, 200]] = True  # row 1 has no legal point at all
    probs = on_planes.policy(ev, planes, legal_mask=mask)
    full = on_planes.policy(ev, planes)
    assert probs[0].sum() == pytest.approx(1.0, abs=1e-5)
    assert np.all(probs[0][~mask[0]] == 0)
    expected = full[0, [3, 10, 200]] / full[0, [3, 10, 200]].sum()
    assert np.allclose(probs[0, [3, 10, 200]], expected, atol=1e-5)
    assert np.all(probs[1] == 0)
    single = on_planes.policy(ev, planes[0], legal_mask=mask[0])
    assert np.allclose(single, probs[0], atol=1e-6)


def test_evaluator_value():
    torch.manual_seed(0)
    net = ValueNet(**SMALL)
    ev = NetworkEvaluator(net, use_bf16=True, threads=1)
    planes = random_planes(4, 49)
    values = on_planes.value(ev, planes)
    assert values.shape == (4,) and values.dtype == np.float32
    assert np.all(np.abs(values) <= 1)
    single = on_planes.value(ev, planes[2])
    assert np.ndim(single) == 0 and abs(float(single) - values[2]) < 1e-6
    with torch.no_grad():
        assert np.allclose(values, net(as_tensor(planes)).numpy(), atol=2e-2)


def test_evaluator_folds_batch_norm_and_leaves_model_alone():
    net = randomise_batch_norm(PolicyNet(batch_norm=True, **SMALL)).train()
    ev = NetworkEvaluator(net, use_bf16=False, threads=1)
    assert net.training and not ev.model.batch_norm
    planes = random_planes(2, 48)
    with torch.no_grad():
        expected = torch.softmax(net.eval()(as_tensor(planes)), 1).numpy()
    assert np.allclose(on_planes.policy(ev, planes), expected, atol=1e-5)


def test_evaluator_rejects_bad_input(policy_net):
    ev = NetworkEvaluator(policy_net, threads=1)
    with pytest.raises(ValueError):
        on_planes.policy(ev, random_planes(1, 49))
    with pytest.raises(ValueError):
        on_planes.policy(ev, random_planes(1, 48, size=9))
    with pytest.raises(TypeError):
        on_planes.value(ev, random_planes(1, 48))


def test_value_head_cannot_die_in_training():
    # Our first value run sat at MSE 1.0 for 100k positions: the lone ReLU
    # channel of layer 13 had gone negative at every point (a constant output
    # and no gradient). With BN on that layer training-mode outputs are
    # re-centred whatever the conv's bias, so about half the points pass.
    torch.manual_seed(0)
    net = ValueNet(batch_norm=True, **SMALL)
    with torch.no_grad():
        net.head.conv.weight.fill_(-1.0)      # would kill a plain ReLU head
    x = as_tensor(random_planes(16, 49))
    passing = (net.head(net.trunk(x)) > 0).float().mean().item()
    assert 0.2 < passing < 0.8
    x.requires_grad_(True)
    net(x).sum().backward()
    assert net.head.conv.weight.grad.abs().sum() > 0


def test_bn_value_net_learns_a_material_count():
    # A small net learns "who has more stones" in a few hundred steps.
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = ValueNet(batch_norm=True, filters=8, layers=3, board_size=9, hidden=16)
    opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, nesterov=True)

    def batch(n):
        planes = np.zeros((n, 49, 9, 9), np.float32)
        stones = rng.random((n, 9, 9))
        bias = rng.uniform(0.3, 0.7, size=(n, 1, 1))     # who tends to have more
        planes[:, 0] = stones < 0.5 * bias
        planes[:, 1] = (stones >= 0.5 * bias) & (stones < 0.5)
        planes[:, 2] = 1 - planes[:, 0] - planes[:, 1]
        target = np.sign(planes[:, 0].sum((1, 2)) - planes[:, 1].sum((1, 2)) + 0.5)
        return torch.from_numpy(planes), torch.from_numpy(target.astype(np.float32))

    for _ in range(300):
        x, y = batch(32)
        loss = torch.nn.functional.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x, y = batch(512)
    with torch.no_grad():
        mse = torch.nn.functional.mse_loss(net.eval()(x), y).item()
        folded = fold_batch_norm(net)
        assert torch.allclose(net(x), folded(x), atol=1e-4, rtol=1e-4)
    assert mse < 0.5


def test_pick_device_resolves_auto_and_refuses_what_is_missing():
    from goengine.nn import inference
    auto = inference.pick_device('auto')
    assert auto == ('cuda' if torch.cuda.is_available() else
                    'mps' if torch.backends.mps.is_available() else 'cpu')
    assert inference.pick_device('CPU') == 'cpu'
    for name in ('cuda:x', 'tpu', 'cuda:99'):
        with pytest.raises(inference.DeviceError, match='device'):
            inference.pick_device(name)
    if not torch.cuda.is_available():
        with pytest.raises(inference.DeviceError, match='no CUDA GPU'):
            inference.pick_device('cuda')


def test_the_evaluator_on_a_named_device_answers_as_on_the_cpu():
    """The device path (uint8 across, results back as numpy) is the CPU path's, with device='cpu'."""
    from goengine.nn import inference, nets
    torch.manual_seed(0)
    model = nets.PolicyNet(48, 8, 2, 9)
    planes = np.random.default_rng(0).integers(0, 2, size=(5, 48, 9, 9), dtype=np.uint8)
    plain = inference.NetworkEvaluator(model, use_bf16=False, threads=1)
    named = inference.NetworkEvaluator(model, use_bf16=False, threads=1,
                                       device=inference.pick_device('cpu'))
    assert named.device.type == 'cpu'
    mask = planes[:, 46].reshape(5, -1).astype(bool)
    assert np.allclose(on_planes.policy(plain, planes, 0.67, mask),
                       on_planes.policy(named, planes, 0.67, mask))


def test_an_accelerator_search_batches_more():
    from goengine.search.config import ACCELERATOR_BATCH, SearchConfig
    config = SearchConfig(c_puct=3.0)
    assert config.for_device('cpu') is config
    gpu = config.for_device('cuda:0')
    assert gpu.batch_size == gpu.max_pending_policy == ACCELERATOR_BATCH > config.batch_size
    assert gpu.c_puct == 3.0 and gpu.max_pending_value >= ACCELERATOR_BATCH
