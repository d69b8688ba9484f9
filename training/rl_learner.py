"""The RL policy's learner: REINFORCE on self-play games, an opponent pool, checkpoints.

Silver et al. 2016, Methods: the weights follow
    delta rho = alpha / n * sum_i sum_t dlog p(a_t^i | s_t^i) / drho * (z_t^i - v(s_t^i)),
over the current policy's own moves in n games, z the outcome for the mover and v a
baseline: the current network's own value head, read in the same forward pass as the
policy and held constant (a function of the position alone, so the step stays unbiased;
the value head is trained by nothing and rides on the trunk the policy moves); off, v = 0,
the paper's first variant. Each move is trained in the orientation it was sampled in, the
board as it stands, so that log p is that of the distribution that played it. Every
`pool_every` iterations the current weights join the pool, and each iteration's opponent
is drawn uniformly from it.

The run folder holds checkpoint.pt (written whole at every iteration, through a
temporary file, and on SIGTERM) and pool/NNNNNN.pt, one file a pool version.
"""

import os
import time
from dataclasses import asdict, dataclass, replace

import numpy as np
import torch
import torch.nn.functional as F

from goengine.nn import features, netfile
from goengine.nn.inference import NetworkEvaluator, bf16_is_fast
from goengine.players.decision import sensible_mask
from training.cpu_memory import keep_freed_memory
from training.rl_games import current_moves, play_games

CHECKPOINT = 'checkpoint.pt'


class RunError(Exception):
    """A run folder or checkpoint that cannot be resumed from; the message says why."""


@dataclass
class RLSettings:
    games_per_iteration: int = 128    # n: AlphaGo's minibatch of games
    lr: float = 0.001                 # plain SGD on the mean loss: the paper's alpha x moves a game
    pool_every: int = 500             # iterations between the current weights joining the pool
    positions_per_game: int = 0       # the current player's moves trained per game; 0: all
    baseline: bool = True             # z - v(s), v the network's own value; False: z alone
    temperature: float = 1.0          # T both players sample at, log p that of
                                      # softmax(logits / T); a step moves that
                                      # distribution lr / T^2 (DECISIONS 'RL temperature')

    def __post_init__(self):
        if not self.temperature > 0:
            raise ValueError('the RL games sample at a temperature above 0, '
                             f'not {self.temperature}')


# Positions in one forward and backward pass of the learner. The activations kept for the
# backward pass grow with it (about 2 MB a position for k=96 in fp32; the time a position
# is the same from 256 to 2,048, docs/RESULTS.md): a step at all of 128 games' positions
# (about 28,000) would not fit in memory in one pass.
LEARNER_CHUNK = 256


@dataclass
class TrainingPositions:
    """The positions one step trains on, each as the game sampled its move there."""
    planes: np.ndarray      # (N, planes, s, s) uint8
    sensible: np.ndarray    # (N, s*s) bool: the moves the games sampled from
    moves: np.ndarray       # (N,) int64: the move played
    outcomes: np.ndarray    # (N,) float32: z, the outcome for the player who moved

    def __len__(self):
        return len(self.moves)

    def part(self, start, stop):
        return TrainingPositions(self.planes[start:stop], self.sensible[start:stop],
                                 self.moves[start:stop], self.outcomes[start:stop])


def training_positions(games, rng, planes, positions_per_game=0):
    """The current policy's moves in `games` as a step takes them: all of them, or a
    uniform sample of `positions_per_game` a game (the same terms, so the same expected
    gradient). Each in the orientation the game sampled it in (sample_moves reads the
    board as it stands): the network's policy differs between the 8 symmetries, and a
    step taken in another is off-policy: a mean advantage c adds c times the
    cross-entropy between the two orientations to the loss, pushing them apart when
    c < 0 (docs/DECISIONS.md, 'RL orientation')."""
    planes_of, masks, moves, outcomes = [], [], [], []
    for game in games:
        own = current_moves(game)
        if positions_per_game and len(own) > positions_per_game:
            own = [own[i] for i in rng.choice(len(own), positions_per_game, replace=False)]
        for board, move in own:
            planes_of.append(features.input_planes(board, planes))
            masks.append(sensible_mask(board, board.to_move))
            moves.append(move)
            outcomes.append(game.outcome_for(game.current))
    if not planes_of:
        raise ValueError('no move of the current policy in these games')
    return TrainingPositions(np.ascontiguousarray(np.stack(planes_of)), np.stack(masks),
                             np.array(moves, dtype=np.int64),
                             np.array(outcomes, dtype=np.float32))


def policy_gradient_terms(model, positions, baseline=True, temperature=1.0):
    """The REINFORCE loss and the entropy of the sampled distribution at `positions`,
    summed (not yet the mean). log p is that of the distribution the games sampled from,
    the softmax of logits / T over the sensible moves (training.rl_games.sample_moves), so
    the gradient is the policy gradient of the policy that played. The baseline is the
    value from the same pass, detached (docs/DECISIONS.md, 'RL baseline')."""
    x = torch.from_numpy(positions.planes).float()
    z = torch.from_numpy(positions.outcomes)
    outputs = model(x)
    if baseline:
        z = z - outputs[1].detach().float()
    logits = outputs[0].float() / temperature
    sensible = torch.from_numpy(positions.sensible)
    log_p = F.log_softmax(logits.masked_fill(~sensible, float('-inf')), dim=1)
    chosen = log_p.gather(1, torch.from_numpy(positions.moves).unsqueeze(1)).squeeze(1)
    p = log_p.exp()
    entropy = -(p * log_p.masked_fill(~sensible, 0.0)).sum(1).sum()
    return -(z * chosen).sum(), entropy


def policy_gradient_loss(model, games, rng, positions_per_game=0, baseline=True):
    """The REINFORCE loss over the current policy's moves in `games` (its mean over the
    positions used, so that alpha means the same whatever their number), and the mean
    entropy of the policy there, in one pass (a few games; Learner.update takes a step's
    positions in chunks)."""
    positions = training_positions(games, rng, model.planes, positions_per_game)
    loss, entropy = policy_gradient_terms(model, positions, baseline)
    return loss / len(positions), float(entropy.detach()) / len(positions)


def backward_in_chunks(model, positions, chunk=LEARNER_CHUNK, bf16=False, baseline=True,
                       temperature=1.0):
    """The gradient of policy_gradient_loss's mean, accumulated in the model's .grad one
    chunk of positions at a time, so that memory does not grow with the step's size;
    (the loss, the mean entropy). bf16: the forward passes in bf16 autocast."""
    total_loss = total_entropy = 0.0
    for start in range(0, len(positions), chunk):
        with torch.autocast('cpu', dtype=torch.bfloat16, enabled=bf16):
            loss, entropy = policy_gradient_terms(model, positions.part(start, start + chunk),
                                                  baseline, temperature)
        (loss / len(positions)).backward()
        total_loss += float(loss.detach())
        total_entropy += float(entropy.detach())
    return total_loss / len(positions), total_entropy / len(positions)


def read_checkpoint(path):
    """A run's checkpoint as the dict Learner.save wrote, or one RunError saying why not."""
    if not os.path.isfile(path):
        raise RunError(f'{path}: no such checkpoint (not an RL run folder?)')
    try:
        state = torch.load(path, map_location='cpu', weights_only=True)
    except Exception as exc:     # torch raises many kinds for a damaged file
        raise RunError(f'{path}: cannot read the RL checkpoint; it is truncated or '
                       f'corrupt ({type(exc).__name__})') from None
    if not isinstance(state, dict) or state.get('format') != 'goengine-rl':
        raise RunError(f'{path}: not a goengine RL checkpoint')
    return state


def run_history(run_dir):
    """The log entries of a run folder's iterations, first to last (Learner.update)."""
    return read_checkpoint(os.path.join(os.fspath(run_dir), CHECKPOINT))['history']


class Learner:
    """The current network, its optimizer, the pool and the counters of one run folder."""

    def __init__(self, run_dir, init_weights=None, settings=None, seed=0):
        keep_freed_memory()      # each pass of update() reuses the last one's pages (cpu_memory.py)
        self.run_dir = os.fspath(run_dir)
        self.pool_dir = os.path.join(self.run_dir, 'pool')
        path = os.path.join(self.run_dir, CHECKPOINT)
        if os.path.exists(path):
            self._resume(path, settings)
        else:
            if init_weights is None:
                raise RunError(f'{self.run_dir}: no {CHECKPOINT} to resume and no weights '
                               'to start from')
            self.settings = settings or RLSettings()
            self.model = netfile.load_network(init_weights, head='policy')
            self.iteration, self.pool, self.history = 0, [], []
            self.seed = seed
            os.makedirs(self.pool_dir, exist_ok=True)
            self._join_pool()
            self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.settings.lr)
            self.save()
        self.rng = np.random.default_rng((self.seed, self.iteration))

    # -- the pool ------------------------------------------------------------------

    def draw_opponent(self, rng=None):
        """A pool version's file, uniformly at random."""
        rng = rng or self.rng
        return self.pool[int(rng.integers(len(self.pool)))]

    def _join_pool(self):
        path = os.path.join(self.pool_dir, f'{self.iteration:06d}.pt')
        netfile.save_network(path, self.model, extra={'rl_iteration': self.iteration}, half=False)
        self.pool.append(path)

    # -- one iteration -------------------------------------------------------------

    def update(self, games):
        """One policy-gradient step on `games` (SelfPlayGame, this iteration's); the
        iteration's log entry."""
        s = self.settings
        self.model.train()
        positions = training_positions(games, self.rng, self.model.planes,
                                       s.positions_per_game)
        self.optimizer.zero_grad()
        # bf16 autocast where the CPU computes it natively (docs/DECISIONS.md, 'RL stage
        # network'); weights and step stay fp32.
        loss, entropy = backward_in_chunks(self.model, positions, bf16=bf16_is_fast(),
                                           baseline=s.baseline, temperature=s.temperature)
        self.optimizer.step()
        self.model.eval()
        self.iteration += 1
        won = sum(g.winner == g.current for g in games)
        entry = dict(iteration=self.iteration, games=len(games), won=won,
                     win_rate=won / len(games), entropy=entropy, loss=loss,
                     positions=len(positions), lr=s.lr, temperature=s.temperature,
                     time=time.time())
        self.history.append(entry)
        if self.iteration % s.pool_every == 0:
            self._join_pool()
        self.rng = np.random.default_rng((self.seed, self.iteration))
        self.save()
        return entry

    # -- checkpoints ---------------------------------------------------------------

    def save(self):
        """checkpoint.pt, whole or not at all (a temporary file renamed over it)."""
        path = os.path.join(self.run_dir, CHECKPOINT)
        state = dict(format='goengine-rl', iteration=self.iteration, seed=self.seed,
                     settings=asdict(self.settings), pool=[os.path.basename(p) for p in self.pool],
                     history=self.history, arch=self.model.arch, kind=self.model.kind,
                     model=self.model.state_dict(), optimizer=self.optimizer.state_dict())
        torch.save(state, path + '.tmp')
        os.replace(path + '.tmp', path)

    def _resume(self, path, settings):
        state = read_checkpoint(path)
        from goengine.nn.netfile import NETWORK_CLASSES
        self.model = NETWORK_CLASSES[state['kind']](**state['arch'])
        self.model.load_state_dict(state['model'])
        self.model.eval()
        self.settings = settings or RLSettings(**state['settings'])
        self.iteration, self.seed, self.history = state['iteration'], state['seed'], state['history']
        self.pool = [os.path.join(self.pool_dir, name) for name in state['pool']]
        missing = [p for p in self.pool if not os.path.exists(p)]
        if missing:
            raise RunError(f'{path}: pool versions missing: {", ".join(missing)}')
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=self.settings.lr)
        self.optimizer.load_state_dict(state['optimizer'])
        self._step_at(self.settings.lr)      # the state holds the lr it was saved with

    def change_settings(self, **given):
        """The run's settings from now on, the given fields replaced (the rest as the run
        had them), written to the checkpoint; the optimizer steps at the lr they say."""
        self.settings = replace(self.settings, **given)
        self._step_at(self.settings.lr)
        self.save()

    def _step_at(self, lr):
        for group in self.optimizer.param_groups:
            group['lr'] = lr

    def start_network(self):
        """The network the run started from: the pool's first version."""
        return netfile.load_network(self.pool[0])

    def games_against_start(self, count, seed):
        """`count` games of the current network against the one the run started from, as
        an iteration that draws it plays them (at the run's temperature, on its network's
        board): what the studies of a run's step (tools/research) read."""
        return play_games(NetworkEvaluator(self.model, threads=0),
                          NetworkEvaluator(self.start_network(), threads=0), count, seed=seed,
                          size=self.model.board_size, temperature=self.settings.temperature)

    def export(self, path):
        """The current network as a shipped file: fp16 (batch norm already folded)."""
        netfile.save_network(path, self.model, extra={'rl_iteration': self.iteration})
