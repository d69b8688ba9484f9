"""Self-play value data: AlphaGo's recipe for outcomes that each come from their own game.

Human games hold one outcome a game, and a value network shown many positions
of one game learns that game rather than Go. AlphaGo (Methods, "Reinforcement
learning of value networks") made 30 million positions, each from a distinct
game: play to a random move U, play one uniformly random legal move, let a
policy play both sides to the end, and keep only the position after the
random move with the game's result. Here move U comes from a random training
game (the positions users analyse), and the continuation player is either the
pattern rollout policy (fast and weak) or a policy network (strong; all
unfinished games share each network call). A game ends by two passes with no
dead stones left on the board, so its area count is its result.

Shard i of a run is made from the seed (seed, i) alone: a stopped run resumes
at its first missing shard and makes what it would have made.
"""

import os
import time

import numpy as np

from goengine import BLACK, IllegalMove
from goengine.nn import features, on_planes
from goengine.game.sgffile import new_board
from training import value_shards


class StartPositions:
    """Move U of a random game of a GameStore, then one uniformly random legal move.

    The random move is drawn from the sensible moves (legal, and not filling
    the mover's own true eye); the paper's "uniformly random legal move" would
    now and then fill an eye, a move no continuation player ever plays.
    """

    def __init__(self, store, komi=7.5, size=19):
        if not np.any(store.a["size"] == size):
            raise ValueError(f"no {size}x{size} games to start from ({len(store)} stored games)")
        self.store, self.komi, self.size = store, komi, size

    def draw(self, rng):
        """(board after the random move, U); retries games that cannot be replayed."""
        while True:
            game = self.store[int(rng.integers(len(self.store)))]
            if game.size != self.size:
                continue
            start = int(rng.integers(len(game.moves) + 1))
            board = self.replay(game, start)
            if board is not None and self.random_move(board, rng):
                return board, start

    def replay(self, game, moves):
        board = new_board(game)
        board.komi = self.komi
        try:
            for color, move in game.moves[:moves]:
                board.play(move, color)
        except IllegalMove:
            return None
        if moves < len(game.moves):
            board.to_move = game.moves[moves][0]
        return board

    @staticmethod
    def random_move(board, rng):
        """Play a uniformly random sensible move; False if there is none."""
        planes = features.policy_planes(board)
        sensible = np.flatnonzero(planes[features.SENSIBLENESS].ravel())
        if len(sensible) == 0:
            return False
        board.play(int(rng.choice(sensible)))
        return True


class RolloutContinuation:
    """The pattern rollout policy plays both sides (thousands of games a second)."""
    name = "rollout"

    def __init__(self, rollout):
        self.rollout = rollout

    def finish(self, boards, rng):
        """(ownership, score) of each board's game played to the end; network positions 0."""
        seeds = rng.integers(2**63, size=len(boards))
        return [self.rollout.play_out(b, int(s)) for b, s in zip(boards, seeds)], 0


class PolicyContinuation:
    """A policy network plays both sides, sampling p^(1/temperature) over sensible moves.

    Every step evaluates all unfinished games in one batch. A side with no
    sensible move passes; two passes end the game. After `net_moves` moves
    (0: up to 2 * size^2, a bound for the rare endless ko cycle) the rollout
    policy plays the rest, which costs little and matters little once the
    borders are settled.
    """
    name = "policy"

    def __init__(self, evaluator, rollout, temperature=1.0, net_moves=0):
        self.evaluator, self.rollout = evaluator, rollout
        self.temperature, self.net_moves = temperature, net_moves

    def finish(self, boards, rng):
        """(ownership, score) of each board's game played to the end, and the
        number of network positions evaluated."""
        boards, evaluated = self.play(boards, rng)
        seeds = rng.integers(2**63, size=len(boards))
        # the rollout policy finishes what the network left; after two passes it plays
        # nothing, and the count is the board as it stands
        return ([self.rollout.play_out(b, int(s)) for b, s in zip(boards, seeds)],
                evaluated)

    def play(self, boards, rng):
        """Copies of `boards` after the network's moves (to two passes, or net_moves moves)."""
        if not boards:
            return [], 0
        boards = [b.copy() for b in boards]
        live = list(range(len(boards)))
        played, evaluated = 0, 0
        limit = self.net_moves or 2 * boards[0].size ** 2
        while live and played < limit:
            planes = features.input_planes_batch([boards[i] for i in live],
                                                 self.evaluator.planes)
            sensible = planes[:, features.SENSIBLENESS].reshape(len(live), -1).astype(bool)
            probs = on_planes.policy(self.evaluator, planes, self.temperature, sensible)
            evaluated += len(live)
            for row, i in enumerate(live):
                boards[i].play(sample(probs[row], rng))
            live = [i for i in live if boards[i].passes < 2]
            played += 1
        return boards, evaluated


def sample(probs, rng):
    """A move drawn from `probs`; PASS (-1) when every probability is 0."""
    total = float(probs.sum())
    if total <= 0:
        return -1
    return int(np.searchsorted(np.cumsum(probs), rng.random() * total, side="right").clip(
        0, len(probs) - 1))


def make_records(starts, continuation, games, rng):
    """The records of `games` self-play games (a dict of value_shards.ARRAYS) and
    the number of network positions evaluated."""
    return finish_records([starts.draw(rng) for _ in range(games)], continuation, rng)


def finish_records(drawn, continuation, rng):
    """The records of the games from `drawn` start positions ((board, U) pairs of
    StartPositions.draw) played out by `continuation`, and the network positions that
    took: the half of make_records a worker does when the starts are drawn elsewhere."""
    games = len(drawn)
    boards = [board for board, _ in drawn]
    results, evaluated = continuation.finish(boards, rng)
    planes = features.value_planes_batch(boards)
    to_move = np.array([b.to_move for b in boards], np.int8)
    score = np.array([s for _, s in results], np.float32)
    black_won = score > 0
    outcome = np.where(black_won == (to_move == BLACK), 1.0, -1.0).astype(np.float32)
    return {
        "planes": np.packbits(planes.reshape(games, -1), axis=1),
        "to_move": to_move,
        "outcome": outcome,
        "ownership": np.stack([own for own, _ in results]).astype(np.int8),
        "score": score,
        "start_move": np.array([u for _, u in drawn], np.int16),
    }, evaluated


def joined_records(parts):
    """One records dict of several, in order (the chunks of one shard)."""
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


def shard_meta(continuation, seed, index, starts, temperature, net_moves):
    """What a value shard says of how it was made (its meta dict)."""
    return {"continuation": continuation, "seed": seed, "index": index, "komi": starts.komi,
            "size": starts.size, "planes": features.NUM_VALUE_PLANES,
            "temperature": temperature, "net_moves": net_moves,
            "made": time.strftime("%Y-%m-%dT%H:%M:%S")}


class Generator:
    """Shards of self-play records in `folder`, shard i from seed (seed, i)."""

    def __init__(self, folder, starts, continuation, seed=0, games_per_shard=256, name=None):
        self.folder, self.starts, self.continuation = folder, starts, continuation
        self.seed, self.games_per_shard = seed, games_per_shard
        self.name = name or f"{continuation.name}-seed{seed}"
        os.makedirs(folder, exist_ok=True)

    def path(self, index):
        return os.path.join(self.folder, f"{self.name}-{index:06d}{value_shards.SUFFIX}")

    def next_index(self):
        """The first shard of this run not yet on disk (where a resumed run starts)."""
        index = 0
        while os.path.exists(self.path(index)):
            index += 1
        return index

    def make(self, index):
        """Write shard `index`; returns (games, network positions evaluated)."""
        rng = np.random.default_rng([self.seed, index])
        records, evaluated = make_records(self.starts, self.continuation,
                                          self.games_per_shard, rng)
        meta = shard_meta(self.continuation.name, self.seed, index, self.starts,
                          getattr(self.continuation, "temperature", None),
                          getattr(self.continuation, "net_moves", None))
        value_shards.write_shard(self.path(index), records, meta)
        return len(records["outcome"]), evaluated


class RLValueData:
    """The value data an RL run makes beside its games (AlphaGo's recipe, with the current
    RL network playing both sides to the end, as the paper's value data came from its RL
    policy): each iteration's start positions are drawn here, played out on the run's
    workers in chunks, and written as one shard named by the iteration. Iteration i's
    shard comes from the seed (seed, i) alone, so a run killed mid-shard remakes it whole.
    """

    continuation = "rl-policy"

    def __init__(self, folder, starts, games, seed=0, chunk=32, temperature=1.0,
                 net_moves=0):
        if games < 1 or chunk < 1:
            raise ValueError("value data needs at least one game a chunk")
        self.folder, self.starts, self.games, self.seed = folder, starts, games, seed
        self.chunk, self.temperature, self.net_moves = chunk, temperature, net_moves
        os.makedirs(folder, exist_ok=True)

    def path(self, iteration):
        return os.path.join(self.folder,
                            f"{self.continuation}-seed{self.seed}-{iteration:06d}"
                            f"{value_shards.SUFFIX}")

    def chunks(self, iteration):
        """[(drawn, seed)] of the iteration: its start positions ((board, U) pairs) in
        chunks, each with the seed its games are played out from."""
        rng = np.random.default_rng([self.seed, iteration])
        drawn = [self.starts.draw(rng) for _ in range(self.games)]
        return [(drawn[i:i + self.chunk], (self.seed, iteration, k))
                for k, i in enumerate(range(0, self.games, self.chunk))]

    def write(self, iteration, parts):
        """Write the iteration's shard from the chunks' (records, evaluated), in chunk
        order; returns (games, network positions evaluated)."""
        records = joined_records([records for records, _ in parts])
        meta = shard_meta(self.continuation, self.seed, iteration, self.starts,
                          self.temperature, self.net_moves)
        value_shards.write_shard(self.path(iteration), records, meta)
        return len(records["outcome"]), sum(evaluated for _, evaluated in parts)
