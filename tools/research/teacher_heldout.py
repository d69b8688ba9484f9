"""How good a judge is the teacher on the held-out month? The three figures our networks get.

- value: one position a game drawn as tools/eval_value.py draws it (same seed, same games),
  the teacher's win minus loss for the player to move against the outcome (+1 / -1): MSE
  for each third of the game and in all;
- policy: top-1 against the 9-dan move on every position of the first --policy-games games
  (as tools/eval_policy.py; positions right after a pass are left out, the teacher refuses
  them);
- ownership: on the final board of counted games whose scorer names the recorded winner
  (training/labels.py's COUNTED label, as tools/eval_ownership.py), the share of decided
  points whose owner the teacher names.

    .venv/bin/python tools/research/teacher_heldout.py --value-games 2000 --policy-games 20
"""

import argparse

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK, PASS, IllegalMove
from goengine.game.sgffile import SgfError, new_board, read_games
from goengine.nn.cpu import bf16_is_fast
from training import labels as final_labels
from training import teacher_inputs, teacher_net
from training.dataset import HELD_OUT_FILE
from training.evaluation import sampled_example
from training.sampler import ValueExamples


def replay_to(game, number):
    """(board before move `number`, recent moves, previous boards)."""
    board, previous = new_board(game), []
    for colour, move in game.moves[:number]:
        previous.insert(0, board.copy())
        board.play(move, colour)
    return board, game.moves[max(0, number - 5):number], previous[:2]


class Judge:
    def __init__(self, net, bf16):
        self.net, self.bf16 = net, bf16

    def __call__(self, boards):
        spatial = torch.from_numpy(np.stack([b[0] for b in boards]))
        glob = torch.from_numpy(np.stack([b[1] for b in boards]))
        with torch.no_grad(), torch.autocast("cpu", torch.bfloat16, enabled=self.bf16):
            out = self.net(spatial, glob)
        return teacher_net.answers(self.net, out, np.stack([b[2] for b in boards]))


RULES = "chinese"


def inputs(board, recent, previous, komi):
    spatial, glob = teacher_inputs.planes(board, recent, previous, komi, RULES)
    return spatial, glob, teacher_inputs.legal_mask(board)


def value_mse(judge, path, games, seed):
    rng, maker = np.random.default_rng(seed), ValueExamples()
    squared, count, batch = np.zeros(3), np.zeros(3, int), []

    def flush():
        a = judge([x[0] for x in batch])
        for v, (_, target, phase) in zip(a.win - (1 - a.win - a.no_result), batch):
            squared[phase] += (float(v) - target) ** 2
            count[phase] += 1
        batch.clear()

    for game in read_games(path, limit=games):
        if game.size != 19:
            continue
        example = sampled_example(maker, game, rng)
        if not example:
            continue
        _, target, phase, pick = example
        if pick > 0 and game.moves[pick - 1][1] == PASS:
            continue
        board, recent, previous = replay_to(game, pick)
        batch.append((inputs(board, recent, previous, game.komi), target, phase))
        if len(batch) == 32:
            flush()
    if batch:
        flush()
    return squared, count


def policy_top1(judge, path, games):
    right = total = 0
    for game in read_games(path, limit=games):
        batch, truth = [], []
        board, previous = new_board(game), []
        try:
            for number, (colour, move) in enumerate(game.moves):
                after_pass = number > 0 and game.moves[number - 1][1] == PASS
                if move != PASS and not after_pass:
                    batch.append(inputs(board.copy(), game.moves[max(0, number - 5):number],
                                        previous[:2], game.komi))
                    truth.append(teacher_inputs.TO_TEACHER[move])
                previous.insert(0, board.copy())
                del previous[2:]
                board.play(move, colour)
        except IllegalMove:
            pass
        for k in range(0, len(batch), 32):
            a = judge(batch[k:k + 32])
            right += int((a.policy.argmax(1) == np.array(truth[k:k + 32])).sum())
            total += len(batch[k:k + 32])
    return right, total


def ownership_agreement(judge, path, games):
    from goengine.programs.loading import load_rollout
    from goengine.rollout.scoring import Scorer
    scorer = Scorer(load_rollout(), 400)
    right = total = counted = 0
    for game in read_games(path):
        if counted >= games:
            break
        if not final_labels.is_counted(game.result) or game.winner not in (1, 2) or game.size != 19:
            continue
        try:
            board = final_labels.final_board(game)
        except (SgfError, IllegalMove):
            continue
        if game.moves and game.moves[-1][1] == PASS:
            continue
        kind, owner, _ = final_labels.counted_label(board, game.winner, scorer)
        if kind != final_labels.COUNTED:
            continue
        counted += 1
        a = judge([inputs(board, game.moves[-5:], [], game.komi)])
        own = a.ownership[0].reshape(-1)[teacher_inputs.TO_TEACHER].reshape(19, 19)
        own = own if board.to_move == BLACK else -own
        decided = owner != 0
        right += int(((own > 0) == (owner > 0))[decided].sum())
        total += int(decided.sum())
    return right, total, counted


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sgf", default=HELD_OUT_FILE)
    p.add_argument("--value-games", type=int, default=2000)
    p.add_argument("--policy-games", type=int, default=20)
    p.add_argument("--ownership-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0, help="as tools/eval_value.py's --seed")
    p.add_argument("--fp32", action="store_true", help="no bf16 autocast")
    p.add_argument("--rules", choices=teacher_inputs.RULES, default="chinese",
                   help="what the teacher is told (the games were played under Korean rules)")
    args = p.parse_args()
    global RULES
    RULES = args.rules
    judge = Judge(teacher_net.load(teacher_net.default_path()), bf16_is_fast() and not args.fp32)
    if args.value_games:
        squared, count = value_mse(judge, args.sgf, args.value_games, args.seed)
        for name, sq, n in zip(("opening", "middle game", "endgame"), squared, count):
            print(f"value {name}: mse={sq / max(1, n):.4f} positions={n}", flush=True)
        print(f"value: mse={squared.sum() / max(1, count.sum()):.4f} positions={count.sum()}", flush=True)
    if args.policy_games:
        right, total = policy_top1(judge, args.sgf, args.policy_games)
        print(f"policy: top1={right / max(1, total):.4f} positions={total}", flush=True)
    if args.ownership_games:
        right, total, counted = ownership_agreement(judge, args.sgf, args.ownership_games)
        print(f"ownership: agreement={right / max(1, total):.4f} points={total} games={counted}", flush=True)


if __name__ == "__main__":
    main()
