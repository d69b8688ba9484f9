"""Weight surgery between networks: folding a trained network's batch norm into its
convolutions (the paper's plain shape, which inference wants), unfolding a shipped plain
network so that training can go on from it, and starting one network from another's
weights."""

import copy

import numpy as np
import torch

from goengine.nn.nets import ConvBlock, HeadsNet


def _folded_conv(block):
    """Weight and bias of a conv that equals conv followed by eval-mode BN."""
    conv, bn = block.conv, block.bn
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    weight = conv.weight * scale.view(-1, 1, 1, 1)
    bias = conv.bias if conv.bias is not None else torch.zeros_like(bn.running_mean)
    bias = (bias - bn.running_mean) * scale + bn.bias
    return weight.detach().clone(), bias.detach().clone()


def fold_batch_norm(model):
    """Return an equivalent model with batch_norm=False (in eval mode).

    Uses BN's running statistics, so the result matches `model.eval()`, not
    training-mode BN. The input model is left unchanged; a model without BN
    is returned as an eval-mode copy.
    """
    if not model.batch_norm:
        return copy.deepcopy(model).eval()
    folded = type(model)(**dict(model.arch, batch_norm=False))
    blocks = {name: m for name, m in model.named_modules() if isinstance(m, ConvBlock)}
    state = {k: v for k, v in model.state_dict().items()
             if not any(k.startswith(name + '.') for name in blocks)}
    with torch.no_grad():
        for name, block in blocks.items():
            state[f'{name}.conv.weight'], state[f'{name}.conv.bias'] = _folded_conv(block)
    folded.load_state_dict(state)
    return folded.float().eval()


@torch.no_grad()
def unfold_batch_norm(model, planes, batch=128):
    """A batch_norm=True model computing what the plain `model` computes: the inverse of folding.

    A shipped network has its BN folded away, so training cannot simply go
    on from it. Here each conv's output (bias removed) is measured on
    `planes` (N, C, s, s) of real positions; BN then gets those statistics as
    running mean/var, gamma = their std and beta = bias + mean. Eval mode is
    exact, train mode on batches like `planes` nearly so, and gamma/beta come
    back as the folded run had learned them. Each filter is rescaled to He
    initialisation's norm (BN ignores the scale; it sets the step size).
    """
    plain = fold_batch_norm(model).float()
    named = [(n, m) for n, m in plain.named_modules() if isinstance(m, ConvBlock)]
    sums = [0.0] * len(named)
    squares = [0.0] * len(named)

    def record(i):
        def hook(conv, inputs, output):
            z = output - conv.bias.view(1, -1, 1, 1)
            sums[i] = sums[i] + z.double().sum((0, 2, 3))
            squares[i] = squares[i] + (z.double() ** 2).sum((0, 2, 3))
        return hook

    handles = [b.conv.register_forward_hook(record(i)) for i, (_, b) in enumerate(named)]
    try:
        for start in range(0, len(planes), batch):
            plain(torch.from_numpy(np.asarray(planes[start:start + batch])).float())
    finally:
        for h in handles:
            h.remove()
    count = len(planes) * plain.board_size ** 2
    if count == 0:
        raise ValueError('unfold_batch_norm needs at least one position')

    unfolded = type(plain)(**dict(plain.arch, batch_norm=True))
    state = unfolded.state_dict()
    state.update({k: v for k, v in plain.state_dict().items() if k in state})
    for i, (name, block) in enumerate(named):
        weight, bias = block.conv.weight, block.conv.bias
        mean = (sums[i] / count).float()
        var = (squares[i] / count).float() - mean ** 2
        var = var.clamp(min=0.0)
        norm = weight.flatten(1).norm(dim=1).clamp(min=1e-12)
        scale = (2.0 ** 0.5) / norm  # He init: each filter's norm is sqrt(2)
        eps = unfolded.get_submodule(name).bn.eps
        state[f'{name}.conv.weight'] = weight * scale.view(-1, 1, 1, 1)
        state[f'{name}.bn.running_mean'] = mean * scale
        state[f'{name}.bn.running_var'] = var * scale ** 2
        state[f'{name}.bn.weight'] = torch.sqrt(var * scale ** 2 + eps) / scale
        state[f'{name}.bn.bias'] = bias + mean
    unfolded.load_state_dict(state)
    return unfolded.train()


def init_heads_from_value(heads_net, value_net):
    """Copy a plain (folded) value network's trunk and value head (its 1x1 layer, 256
    units and output) into a plain HeadsNet of the same shape, in place; the policy,
    ownership and score heads keep their fresh weights. Returns heads_net."""
    if heads_net.batch_norm or value_net.batch_norm:
        raise ValueError('init_heads_from_value copies plain (folded) networks')
    if (heads_net.planes, heads_net.filters, heads_net.layers, heads_net.hidden) != (
            value_net.planes, value_net.filters, value_net.layers, value_net.hidden):
        raise ValueError(f'shapes differ: heads {heads_net.arch} vs value {value_net.arch}')
    with torch.no_grad():
        heads_net.trunk.load_state_dict(value_net.trunk.state_dict())
        heads_net.value_conv.load_state_dict(value_net.head.state_dict())
        heads_net.value_fc.load_state_dict(value_net.fc.state_dict())
        heads_net.value_out.load_state_dict(value_net.out.state_dict())
    return heads_net


def init_value_from_policy(value_net, policy_net):
    """Copy a policy net's trunk (its first layers-1 convs) into a value net (or the
    trunk and policy head into a HeadsNet), in place.

    Transfer learning for v_theta. The value net has one more input plane
    (colour to play): the shared input channels are copied, the extra ones
    zeroed, so the copied trunk initially ignores them. The two nets may differ
    in batch_norm: a BN policy is folded first; a plain (e.g. exported, folded)
    policy goes into a BN value net with each conv bias carried by BN's
    running mean, so the trunks agree exactly in eval mode. A value net with a
    move head also gets the policy's layer 13 there. Raises ValueError
    when filters or layers differ. Returns value_net.
    """
    if (value_net.filters != policy_net.filters
            or value_net.layers != policy_net.layers
            or value_net.planes < policy_net.planes):
        raise ValueError(f'trunk shapes differ: value {value_net.arch} vs policy {policy_net.arch}')
    if policy_net.batch_norm and not value_net.batch_norm:
        policy_net = fold_batch_norm(policy_net)
    with torch.no_grad():
        for i, (src, dst) in enumerate(zip(policy_net.trunk, value_net.trunk)):
            weight = src.conv.weight
            if i == 0:  # (filters, planes, 5, 5): widen the input channels
                weight = torch.cat([weight, weight.new_zeros(
                    weight.shape[0], value_net.planes - policy_net.planes, *weight.shape[2:])], 1)
            dst.conv.weight.copy_(weight)
            if policy_net.batch_norm:  # both BN
                dst.bn.load_state_dict(src.bn.state_dict())
            elif value_net.batch_norm:  # eval BN(x) = (x - mean) / 1 = x + bias
                dst.bn.reset_parameters()
                dst.bn.running_mean.copy_(-src.conv.bias)
                dst.bn.running_var.fill_(1.0 - dst.bn.eps)
            else:  # both plain
                dst.conv.bias.copy_(src.conv.bias)
        if getattr(value_net, 'move_head', False):  # start predicting moves as the policy does
            value_net.move_conv.weight.copy_(policy_net.head.weight)
            value_net.move_bias.copy_(policy_net.point_bias)
        if isinstance(value_net, HeadsNet):   # the policy head is the policy's last layer
            value_net.policy_conv.weight.copy_(policy_net.head.weight)
            value_net.policy_bias.copy_(policy_net.point_bias)
    return value_net
