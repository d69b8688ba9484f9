"""The policy, value and four-headed networks: their architecture, the score head's reading
at any komi.

Architecture follows AlphaGo: Silver et al., "Mastering the game of Go with deep
neural networks and tree search", Nature 529:484 (2016), Methods, section
"Neural network architecture":

* Policy network p_sigma: 48 input planes; hidden layer 1 is a 5x5 convolution
  with k filters, hidden layers 2..12 are 3x3 convolutions with k filters, each
  followed by a rectifier; the final layer is a 1x1 convolution to one plane
  "with a different bias for each position", then softmax. The match version
  used k = 192.
* Value network v_theta: 49 planes (the extra plane is the colour to play);
  layers 1..12 as the policy's, layer 13 a 1x1 convolution to one plane,
  layer 14 fully connected with 256 rectifier units, output one tanh unit.

Deviation: `batch_norm=True` inserts BatchNorm2d after every k-filter convolution (the
plain ReLU stacks did not train from scratch here); `goengine.nn.surgery` folds a trained
one back into the paper's plain shape, which inference wants too. Planes are
`goengine.nn.features`' uint8 stacks, moves index the outputs as `row * size + col`; this
module imports nothing else of goengine, so networks train without the compiled board.
"""

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from goengine.nn.komi import SCORE_KOMI, TRAINED_KOMI
from goengine.nn.heads import Head

# Same values as goengine.nn.features.NUM_POLICY_PLANES / NUM_VALUE_PLANES; repeated
# here so this module does not depend on the (compiled) board package.
POLICY_PLANES = 48
VALUE_PLANES = 49

# AlphaGo match configuration (Methods: k = 192 filters, 13 layers, 19x19).
DEFAULT_FILTERS = 192
DEFAULT_LAYERS = 13
DEFAULT_BOARD_SIZE = 19
VALUE_HIDDEN = 256  # value network layer 14: "256 rectifier units"

# --------------------------------------------------------------------------
# Architecture
# --------------------------------------------------------------------------

class ConvBlock(nn.Module):
    """conv -> (BatchNorm) -> ReLU. With BN the conv has no bias (BN has one)."""

    def __init__(self, in_channels, out_channels, kernel_size, batch_norm):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size,
                              padding=kernel_size // 2, bias=not batch_norm)
        self.bn = nn.BatchNorm2d(out_channels) if batch_norm else nn.Identity()
        # He initialisation suits a deep ReLU stack better than torch's default.
        nn.init.kaiming_normal_(self.conv.weight, nonlinearity='relu')
        if self.conv.bias is not None:
            nn.init.zeros_(self.conv.bias)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


def make_trunk(planes, filters, blocks, batch_norm):
    """The shared body: one 5x5 block then (blocks - 1) 3x3 blocks, k filters each."""
    layers = [ConvBlock(planes, filters, 5, batch_norm)]
    layers += [ConvBlock(filters, filters, 3, batch_norm) for _ in range(blocks - 1)]
    return nn.Sequential(*layers)


def _check_arch(planes, filters, layers, board_size):
    if planes < 1 or filters < 1 or board_size < 1:
        raise ValueError('planes, filters and board_size must be positive')
    if layers < 2:
        raise ValueError(f'layers must be >= 2 (5x5 conv + 1x1 head), got {layers}')


class PolicyNet(nn.Module):
    """p_sigma: `layers` convolutions in total; forward returns move logits (N, size*size).

    Probabilities are `softmax_with_temperature(logits)`; keeping logits out of
    the module lets training use cross-entropy directly.
    """

    kind = 'policy'

    def __init__(self, planes=POLICY_PLANES, filters=DEFAULT_FILTERS,
                 layers=DEFAULT_LAYERS, board_size=DEFAULT_BOARD_SIZE,
                 batch_norm=False):
        super().__init__()
        _check_arch(planes, filters, layers, board_size)
        self.planes, self.filters, self.layers = planes, filters, layers
        self.board_size, self.batch_norm = board_size, batch_norm
        self.trunk = make_trunk(planes, filters, layers - 1, batch_norm)
        # Final layer: 1x1 conv to one plane without bias, plus one learned bias
        # per board point ("a different bias for each position").
        self.head = nn.Conv2d(filters, 1, 1, bias=False)
        self.point_bias = nn.Parameter(torch.zeros(board_size * board_size))

    @property
    def arch(self):
        """Constructor arguments; stored in checkpoints to rebuild the model."""
        return dict(planes=self.planes, filters=self.filters, layers=self.layers,
                    board_size=self.board_size, batch_norm=self.batch_norm)

    def forward(self, x):
        x = self.head(self.trunk(x))
        return x.flatten(1) + self.point_bias


class ValueNet(nn.Module):
    """v_theta: forward returns values in [-1, 1], shape (N,), from the player to move's view.

    `layers` counts the convolutions including the 1x1 layer (13 in AlphaGo),
    so a ValueNet and a PolicyNet with the same `layers` and `filters` share
    trunk shapes (see `init_value_from_policy`). Two FC layers follow.
    """

    kind = 'value'

    def __init__(self, planes=VALUE_PLANES, filters=DEFAULT_FILTERS,
                 layers=DEFAULT_LAYERS, board_size=DEFAULT_BOARD_SIZE,
                 batch_norm=False, hidden=VALUE_HIDDEN, move_head=False):
        super().__init__()
        _check_arch(planes, filters, layers, board_size)
        self.planes, self.filters, self.layers = planes, filters, layers
        self.board_size, self.batch_norm, self.hidden = board_size, batch_norm, hidden
        self.trunk = make_trunk(planes, filters, layers - 1, batch_norm)
        # Layer 13: 1x1 conv to one plane, then ReLU. With batch_norm it gets a
        # BN of its own: a lone ReLU channel easily dies (every point negative,
        # a constant output, no gradient), which is what happened without it.
        self.head = ConvBlock(filters, 1, 1, batch_norm)
        self.fc = nn.Linear(board_size * board_size, hidden)  # layer 14
        self.out = nn.Linear(hidden, 1)
        # Training only: the policy's layer 13 on the same trunk. Predicting
        # the move played gives the trunk a dense signal per position where
        # the outcome gives one noisy bit per game (multi-task, as AlphaGo
        # Zero's shared trunk). `without_move_head` drops it for shipping.
        self.move_head = move_head
        if move_head:
            self.move_conv = nn.Conv2d(filters, 1, 1, bias=False)
            self.move_bias = nn.Parameter(torch.zeros(board_size * board_size))

    @property
    def arch(self):
        """Constructor arguments; stored in checkpoints to rebuild the model."""
        arch = dict(planes=self.planes, filters=self.filters, layers=self.layers,
                    board_size=self.board_size, batch_norm=self.batch_norm,
                    hidden=self.hidden)
        if self.move_head:  # absent from shipped files, which stay AlphaGo's shape
            arch['move_head'] = True
        return arch

    def _value(self, features):
        # Every hidden layer is "followed by a rectifier", the 1x1 one included.
        x = self.head(features).flatten(1)
        x = F.relu(self.fc(x))
        return torch.tanh(self.out(x)).squeeze(1)

    def forward(self, x, with_moves=False):
        """Values (N,); with_moves: forward_with_moves (through forward, so that a
        DistributedDataParallel wrapper sees the call)."""
        if with_moves:
            return self.forward_with_moves(x)
        return self._value(self.trunk(x))

    def forward_with_moves(self, x):
        """(values (N,), move logits (N, size*size)) from one pass through the trunk."""
        if not self.move_head:
            raise ValueError('this value network has no move head')
        features = self.trunk(x)
        logits = self.move_conv(features).flatten(1) + self.move_bias
        return self._value(features), logits


# Score head: the mover's final margin at SCORE_KOMI over whole points in [-SCORE_RANGE,
# SCORE_RANGE] (larger in the end bins); moving the komi moves it, so any komi reads.
SCORE_RANGE = 150
SCORE_BINS = 2 * SCORE_RANGE + 1


class HeadsNet(nn.Module):
    """One trunk, four heads (AlphaGo Zero's shared trunk; KataGo's ownership and score).

    Input: the 49 value planes (the colour to play included). The trunk is the
    policy's first `layers - 1` convolutions, so weights/sl-policy.pt's trunk starts it
    (init_value_from_policy: the colour plane's weights start at zero). Heads:

    * policy: the policy network's last layer, move logits (N, size*size);
    * value: the value network's layers 13-14 (1x1 convolution, 256 units, tanh),
      the outcome for the player to move in [-1, 1];
    * ownership: a 1x1 convolution and tanh, (N, size*size), +1 the point ends
      the player to move's, -1 the opponent's;
    * score: logits (N, SCORE_BINS) over the final margin for the player to move
      at komi SCORE_KOMI, from the value head's 256 units.

    forward returns (policy logits, value, ownership, score logits).
    """

    kind = 'heads'
    heads = (Head.POLICY, Head.VALUE, Head.OWNERSHIP, Head.SCORE)

    def __init__(self, planes=VALUE_PLANES, filters=DEFAULT_FILTERS,
                 layers=DEFAULT_LAYERS, board_size=DEFAULT_BOARD_SIZE,
                 batch_norm=False, hidden=VALUE_HIDDEN):
        super().__init__()
        _check_arch(planes, filters, layers, board_size)
        self.planes, self.filters, self.layers = planes, filters, layers
        self.board_size, self.batch_norm, self.hidden = board_size, batch_norm, hidden
        points = board_size * board_size
        self.trunk = make_trunk(planes, filters, layers - 1, batch_norm)
        self.policy_conv = nn.Conv2d(filters, 1, 1, bias=False)
        self.policy_bias = nn.Parameter(torch.zeros(points))
        self.value_conv = ConvBlock(filters, 1, 1, batch_norm)
        self.value_fc = nn.Linear(points, hidden)
        self.value_out = nn.Linear(hidden, 1)
        self.ownership_conv = nn.Conv2d(filters, 1, 1)
        self.score_out = nn.Linear(hidden, SCORE_BINS)

    @property
    def arch(self):
        """Constructor arguments; stored in checkpoints to rebuild the model."""
        return dict(planes=self.planes, filters=self.filters, layers=self.layers,
                    board_size=self.board_size, batch_norm=self.batch_norm, hidden=self.hidden)

    def forward(self, x):
        features = self.trunk(x)
        policy = self.policy_conv(features).flatten(1) + self.policy_bias
        hidden = F.relu(self.value_fc(self.value_conv(features).flatten(1)))
        value = torch.tanh(self.value_out(hidden)).squeeze(1)
        ownership = torch.tanh(self.ownership_conv(features).flatten(1))
        return policy, value, ownership, self.score_out(hidden)


def score_margins(device=None):
    """The margin of each score bin, at SCORE_KOMI: -SCORE_RANGE .. SCORE_RANGE."""
    return torch.arange(-SCORE_RANGE, SCORE_RANGE + 1, dtype=torch.float32, device=device)


def komi_gain(komi, white, device=None):
    """Points the player to move gains at `komi` over SCORE_KOMI: komi - SCORE_KOMI for
    White, SCORE_KOMI - komi for Black. komi: a number or one per position; white:
    whether White is to move, one flag or one per position. float32 (N,)."""
    komi = torch.as_tensor(komi, dtype=torch.float32, device=device).reshape(-1)
    white = torch.as_tensor(np.asarray(white, dtype=bool).reshape(-1), device=device)
    return torch.where(white, komi - SCORE_KOMI, SCORE_KOMI - komi)


def win_probability(score_logits, komi, white):
    """P(the player to move wins at `komi`) from the score head's logits: the margin
    at SCORE_KOMI plus komi_gain above 0; a margin of exactly 0 (a draw, integer komi
    only) counts half. komi and white as komi_gain takes them."""
    probs = torch.softmax(score_logits.float(), dim=-1)
    margin = score_margins(probs.device) + komi_gain(komi, white, probs.device).reshape(-1, 1)
    return (probs * ((margin > 0).float() + 0.5 * (margin == 0).float())).sum(-1)


def value_at_komi(values, score_logits, komi, white, temperature=1.0):
    """The value head's outcome for the player to move, moved from the komi it was
    trained at (TRAINED_KOMI) to `komi` by the score head: plus twice the change in
    the win probability its margin distribution gives between the two, clipped to
    [-1, 1]; at the trained komi, the value head's own. temperature divides the score
    logits first (a head too sure of the margin)."""
    logits = score_logits.float() / temperature
    shift = (win_probability(logits, komi, white)
             - win_probability(logits, TRAINED_KOMI, white))
    return (torch.as_tensor(values, dtype=torch.float32) + 2 * shift).clamp(-1.0, 1.0)


def score_lead(score_logits, komi, white):
    """The expected final margin for the player to move at `komi` (kata-analyze's
    scoreLead); komi and white as komi_gain takes them."""
    probs = torch.softmax(score_logits.float(), dim=-1)
    return ((probs * score_margins(probs.device)).sum(-1)
            + komi_gain(komi, white, probs.device))


def without_move_head(model):
    """The value network alone: a copy without its training-only move head."""
    if not getattr(model, 'move_head', False):
        return model
    arch = dict(model.arch)
    del arch['move_head']
    plain = type(model)(**arch)
    state = {k: v for k, v in model.state_dict().items() if not k.startswith('move_')}
    plain.load_state_dict(state)
    return plain.train(model.training)


NETWORK_CLASSES = {'policy': PolicyNet, 'value': ValueNet, 'heads': HeadsNet}


def softmax_with_temperature(logits, temperature=1.0, dim=-1):
    """probs = softmax(logits / temperature).

    temperature < 1 sharpens the distribution, > 1 flattens it. AlphaGo's
    search priors use beta = 0.67 (SearchConfig.policy_temperature). Works on tensors.
    """
    if temperature <= 0:
        raise ValueError(f'temperature must be > 0, got {temperature}')
    return torch.softmax(logits.float() / temperature, dim=dim)
