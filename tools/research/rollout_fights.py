#!/usr/bin/env python3
"""How often do the rollouts settle a suite's fight the way GNU Go's owl reads it?

Each problem of a tools/tactics_suite.py suite is a group that whoever moves first kills
or saves (owl_attack and owl_defend both succeed). So two positions a problem have a known
fate: after the suite's first accepted answer the group goes the mover's way, and after
the mover passes (the opponent now moving first) the other way. From each, --rollouts
rollouts of the shipped rollout policy, as the search plays them (no dead ladder run out),
and the verdict is the group's mean owner at its named stone. One line for the rollouts;
with --weights-net, one more for a four-headed
network's ownership head on the same positions (the other judge the apv search's leaves
mix), where the first setting and the head disagree which was right, and how often its value
head, one move deep, rates the answer above the policy's favourite move. With --teacher, the
same for KataGo's network (training/teacher_net.py, Chinese rules, the game's komi): the
figures a student of it aims at:

    rollouts: 179 of 302 (59.3 %, Wilson 53.6-64.7); live after the answer 30 of 38, ...

    .venv/bin/python tools/research/rollout_fights.py tests/tactics/groups/suite.tst \\
        --rollouts 256 --weights-net weights/sl.pt
"""

import argparse
import os
import re
import time

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.regression import read_suite
from harness.stats import wilson_interval

from goengine import BLACK, WHITE
from goengine.game import coords
from goengine.game.sgffile import parse_game
from goengine.game.state import from_record
from goengine.nn import features, on_planes
from goengine.players.player import sensible_mask
from goengine.rollout import rollout_weights
from training.evaluation import load_evaluator

TASK = re.compile(r": (live|kill) ([A-Z]\d+) \(")      # tools/tactics_suite.py's comments
LOADSGF = re.compile(r"loadsgf (\S+):(\d+)$")


def problems(path):
    """(board, colour to move, 'live' or 'kill', the group's stone, first answer) a test."""
    folder = os.path.dirname(os.path.abspath(path))
    collections = {}
    for test in read_suite(path):
        task = TASK.search(test.comment)
        load = next((LOADSGF.match(c) for c in test.setup if LOADSGF.match(c)), None)
        if not task or not load:
            raise SystemExit(f"{path}: test {test.number} names no group or position")
        name = load.group(1)
        if name not in collections:
            with open(os.path.join(folder, name)) as f:
                collections[name] = [line for line in f if line.strip()]
        board = from_record(parse_game(collections[name][int(load.group(2)) - 1])).board
        colour = BLACK if test.command.split()[-1].lower() == "b" else WHITE
        size = board.size
        yield (board, colour, task.group(1), coords.from_gtp(task.group(2), size),
               coords.from_gtp(test.accepted[0], size))


def group_lives(policy, board, stone, rollouts, seed):
    """Whether the rollouts leave the chain at `stone` (its colour) owning its point."""
    owner = policy.ownership(board, rollouts, seed=seed, ladders=True)
    row, col = divmod(stone, board.size)
    mean = owner[row, col]
    return (mean > 0) == (board.color_at(stone) == BLACK)


def rollouts_judge(policy, rollouts, seed):
    """The rollouts' verdict (does the chain at `stone` live?) as a function."""
    return lambda board, stone, i: group_lives(policy, board, stone, rollouts, seed + i)


def head_judge(evaluator):
    """The ownership head's verdict as a function."""
    def lives(board, stone, i):
        own = np.ravel(on_planes.ownership(evaluator, features.value_planes(board)))
        mine = own[stone] if board.to_move == BLACK else -own[stone]   # +: Black owns it
        return (mine > 0) == (board.color_at(stone) == BLACK)
    return lives


def judge(lives, cases):
    """([(task, 'answer' or 'pass', verdict right?) a position], seconds) of a verdict
    function: two positions a problem, after its answer and after a pass."""
    verdicts = []
    start = time.perf_counter()
    for i, (board, colour, task, stone, answer) in enumerate(cases):
        for when, move in (("answer", answer), ("pass", coords.PASS)):
            after = board.copy()
            after.play(move, colour)
            goes_mover_way = when == "answer"
            verdicts.append((task, when, lives(after, stone, i) ==
                             ((task == "live") == goes_mover_way)))
    return verdicts, time.perf_counter() - start


def summary(name, verdicts, seconds):
    """One line: right of all, Wilson interval, and by task and position."""
    total, n = sum(v[2] for v in verdicts), len(verdicts)
    low, high = wilson_interval(total, n)
    parts = []
    for task in ("live", "kill"):
        for when in ("answer", "pass"):
            these = [v[2] for v in verdicts if v[:2] == (task, when)]
            parts.append(f"{task} after {'the answer' if when == 'answer' else 'a pass'} "
                         f"{sum(these)} of {len(these)}")
    return (f"{name}: {total} of {n} ({100 * total / n:.1f} %, Wilson {100 * low:.1f}-"
            f"{100 * high:.1f}); {', '.join(parts)}; {seconds:.2f} s")


def head_value(evaluator):
    """The value head's rating of a position for the player who just moved, as a function."""
    return lambda after: -float(np.ravel(on_planes.value(evaluator, features.value_planes(after)))[0])


def value_prefers_answer(evaluator, cases, rate):
    """One move deep: where `evaluator`'s policy's favourite sensible move is not the
    problem's first answer, does `rate` (a position -> its value for the player who just
    moved) rate the position after the answer above the one after the favourite?
    {task: (answer rated higher, problems compared)}."""
    counts = {"live": [0, 0], "kill": [0, 0]}
    for board, colour, task, stone, answer in cases:
        planes = features.value_planes(board)
        prior = np.where(np.ravel(sensible_mask(board, colour)),
                         np.ravel(on_planes.policy(evaluator, planes)), -1.0)
        favourite = int(np.argmax(prior))
        if favourite == answer:
            continue
        rated = []
        for move in (answer, favourite):
            after = board.copy()
            after.play(move, colour)
            rated.append(rate(after))
        counts[task][0] += rated[0] > rated[1]
        counts[task][1] += 1
    return counts


class Teacher:
    """KataGo's network as a judge: its ownership map and its win rate for the player to move."""

    def __init__(self, path=None):
        import torch
        from training import teacher_inputs, teacher_net
        self.torch, self.inputs, self.nets = torch, teacher_inputs, teacher_net
        self.net = teacher_net.load(path or teacher_net.default_path())

    def answers(self, board):
        spatial, glob = self.inputs.board_planes(board, board.komi)
        with self.torch.no_grad():
            out = self.net(self.torch.from_numpy(spatial)[None], self.torch.from_numpy(glob)[None])
        return self.nets.answers(self.net, out, self.inputs.legal_mask(board)[None])

    def lives(self, board, stone, i):
        own = self.answers(board).ownership[0].reshape(-1)[self.inputs.TO_TEACHER[stone]]
        black_owns = own > 0 if board.to_move == BLACK else own < 0
        return black_owns == (board.color_at(stone) == BLACK)

    def mover_value(self, board):
        """The win rate of the player who just moved."""
        a = self.answers(board)
        return 1.0 - float(a.win[0]) - float(a.no_result[0])


def disagreements(first, second):
    """Where two judges' verdicts differ: (positions, how many the second got right)."""
    split = [b[2] for a, b in zip(first, second) if a[2] != b[2]]
    return len(split), sum(split)


def network(path):
    """A four-headed network file, run as the engine runs it (one clear error for a bad one)."""
    return load_evaluator(argparse.Namespace(weights=path, fp32=False, device="cpu", threads=2),
                          "ownership")[1]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("suite")
    p.add_argument("--rollouts", type=int, default=64)
    p.add_argument("--weights", default=rollout_weights.DEFAULT_PATH)
    p.add_argument("--seed", type=int, default=0, help="problem i's rollouts use seed + i")
    p.add_argument("--weights-net", metavar="FILE",
                   help="also judge this four-headed network's ownership head")
    p.add_argument("--teacher", action="store_true",
                   help="also judge KataGo's network (katrain's; its value one move deep "
                        "against --weights-net's favourite)")
    args = p.parse_args(argv)
    cases = list(problems(args.suite))
    policy = rollout_weights.load(args.weights)
    evaluator = network(args.weights_net) if args.weights_net else None
    judges = [("rollouts", rollouts_judge(policy, args.rollouts, args.seed))]
    if args.weights_net:
        judges.append((f"ownership head of {args.weights_net}", head_judge(evaluator)))
    results = []
    for name, lives in judges:
        verdicts, seconds = judge(lives, cases)
        print(summary(name, verdicts, seconds), flush=True)
        results.append((name, verdicts))
    if args.weights_net:
        counts = value_prefers_answer(evaluator, cases, head_value(evaluator))
        print(f"value head of {args.weights_net}, one move deep: the answer rated above the "
              "policy's favourite in " + ", ".join(f"{n} of {total} {task} problems"
                                                   for task, (n, total) in counts.items()))
    if args.teacher:
        teacher = Teacher()
        verdicts, seconds = judge(teacher.lives, cases)
        print(summary(f"teacher {teacher.net.name}", verdicts, seconds), flush=True)
        if args.weights_net:
            counts = value_prefers_answer(evaluator, cases, teacher.mover_value)
            print(f"teacher's value, one move deep: the answer rated above {args.weights_net}'s "
                  "favourite in " + ", ".join(f"{n} of {total} {task} problems"
                                              for task, (n, total) in counts.items()))
    if args.weights_net and len(results) > 1:
        split, head_right = disagreements(results[0][1], results[-1][1])
        print(f"{results[0][0]} and the ownership head disagree on {split} of "
              f"{len(results[0][1])}; the head is right in {head_right} of them")


if __name__ == "__main__":
    main()
