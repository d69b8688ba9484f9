"""Self-play games for AlphaGo's RL stage: the current policy against an opponent from the
pool, many games at once, one network call a step for every unfinished game.

Moves are sampled from each policy over the sensible moves (legal, not filling one's own
true eye: goengine.players.player.sensible_mask); a player with no sensible move passes,
two passes end the game, and it is scored by the board's Tromp-Taylor area count, which
at such an end counts what the stones hold. A game is kept as what the policy gradient
needs: its moves (the positions replay from them), which colour the current policy had,
and the winner (Silver et al. 2016, Methods, "Reinforcement learning of policy networks").
"""

from dataclasses import dataclass

import numpy as np
from goengine import BLACK, PASS, WHITE, Board
from goengine.players.decision import sensible_mask


@dataclass
class SelfPlayGame:
    moves: list            # move ints, PASS = -1, Black first
    current: int           # BLACK or WHITE: the colour the current policy played
    winner: int            # BLACK or WHITE (area count; komi decides ties away)
    size: int = 19
    komi: float = 7.5
    start: int = 0         # the first moves, an opening neither policy chose

    def outcome_for(self, color):
        """z: +1 if `color` won, -1 if it lost."""
        return 1.0 if self.winner == color else -1.0


def sample_moves(policy, boards, rng, temperature=1.0):
    """One move for each board's player to move, sampled from `policy`'s (a
    NetworkEvaluator's) policy over the sensible moves (PASS where there is none), or its
    most probable one at temperature 0; one batched call, in the evaluator's precision
    (bf16 where the CPU computes it natively)."""
    logits = policy.evaluate(boards, boards[0].komi).policy_logits.astype(np.float64)
    moves = []
    for board, row in zip(boards, logits):
        mask = sensible_mask(board, board.to_move)
        if not mask.any():
            moves.append(PASS)
            continue
        if temperature <= 0:
            moves.append(int(np.argmax(np.where(mask, row, -np.inf))))
            continue
        row = np.where(mask, row / temperature, -np.inf)
        p = np.exp(row - row.max())
        moves.append(int(rng.choice(len(p), p=p / p.sum())))
    return moves


def play_games(current, opponent, count, seed, size=19, komi=7.5, max_moves=None,
               temperature=1.0, openings=()):
    """`count` games of `current` against `opponent` (NetworkEvaluators with a policy), half
    with each colour, all advanced together, at `temperature` (0: the most probable move);
    a list of SelfPlayGame. Stable under `seed`. openings: move lists (Black first) that
    games 2k and 2k+1 start from, one with either colour (the k-th, repeating); none: the
    empty board."""
    rng = np.random.default_rng(seed)
    max_moves = max_moves or 2 * size * size
    boards = [Board(size, komi, superko=False) for _ in range(count)]
    colours = [BLACK if i % 2 == 0 else WHITE for i in range(count)]   # current's colour
    records = [list(openings[i // 2 % len(openings)]) if openings else [] for i in range(count)]
    starts = [len(moves) for moves in records]
    for board, moves in zip(boards, records):
        for move in moves:
            board.play(move)
    live = list(range(count))
    while live:
        for model, mover_is_current in ((current, True), (opponent, False)):
            turn = [i for i in live if (boards[i].to_move == colours[i]) == mover_is_current]
            if not turn:
                continue
            for i, move in zip(turn, sample_moves(model, [boards[i] for i in turn], rng,
                                                  temperature)):
                boards[i].play(move)
                records[i].append(move)
        live = [i for i in live if not boards[i].is_game_over() and len(records[i]) < max_moves]
    return [SelfPlayGame(records[i], colours[i],
                         BLACK if boards[i].area_score() > 0 else WHITE, size, komi, starts[i])
            for i in range(count)]


def replay(game):
    """The boards before each move of `game` (copies), with the move played from each."""
    board = Board(game.size, game.komi, superko=False)
    for move in game.moves:
        yield board.copy(), move
        board.play(move)


def current_moves(game):
    """(board before, move) of each move the current policy played in `game`, passes
    left out, and the opening's: the positions its policy gradient is taken at."""
    return [(board, move) for number, (board, move) in enumerate(replay(game))
            if number >= game.start and board.to_move == game.current and move >= 0]
