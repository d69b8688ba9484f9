#!/usr/bin/env python3
"""Would Coulom's criticality (2009) offer the search the suite's answers its policy misses?

A point's criticality is how much owning it goes with winning, over rollouts from the
position: P(the winner owns it) - [P(the mover wins) P(the mover owns it) + P(the opponent
wins) P(the opponent owns it)]. Engines of 2010 raised the tree's priors at critical
points. For each problem of a tools/tactics_suite.py suite this ranks the sensible moves
by the network's policy, by criticality over --rollouts rollouts, and by the policy raised
at critical points, prior x (1 + k max(criticality, 0)) for each k of --mix, and counts the
problems with an accepted answer among the first --top: the suite's "not offered" misses
(tools/research/suite_diagnose.py) are the ones the policy leaves out.

    .venv/bin/python tools/research/criticality.py tests/tactics/groups/suite.tst \\
        --weights weights/sl.pt --rollouts 256
"""

import argparse

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from harness.regression import read_suite
from rollout_fights import network, problems

from goengine import BLACK
from goengine.game import coords
from goengine.nn import features, on_planes
from goengine.players.player import sensible_mask
from goengine.rollout import rollout_weights


def criticality(policy, board, colour, rollouts, seed):
    """Each point's criticality (size * size,) over `rollouts` rollouts, for `colour`."""
    sign = 1 if colour == BLACK else -1
    owned = np.zeros((rollouts, board.size * board.size))
    won = np.zeros((rollouts, 1))
    for k in range(rollouts):
        owner, score = policy.play_out(board, seed=seed + k)
        owned[k] = sign * owner.ravel()            # +1: the mover owns it
        won[k] = sign * score > 0
    mine, theirs = (owned > 0).astype(float), (owned < 0).astype(float)
    p_won = won.mean()
    winner_owns = (mine * won + theirs * (1 - won)).mean(0)
    return winner_owns - (p_won * mine.mean(0) + (1 - p_won) * theirs.mean(0))


def best_rank(scores, mask, answers):
    """The rank (0 first) of the best-ranked accepted answer among the sensible moves."""
    order = list(np.argsort(-np.where(mask, scores, -np.inf), kind="stable"))
    return min((order.index(a) for a in answers if mask[a]), default=len(order))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("suite")
    p.add_argument("--weights", default="weights/sl.pt", help="a four-headed network")
    p.add_argument("--rollouts", type=int, default=256)
    p.add_argument("--mix", type=float, nargs="*", default=[5, 20, 50, 200])
    p.add_argument("--top", type=int, default=10)
    args = p.parse_args(argv)
    evaluator = network(args.weights)
    policy = rollout_weights.load()
    rankings = ["policy", "criticality"] + [f"policy x (1 + {k:g} criticality)" for k in args.mix]
    offered = dict.fromkeys(rankings, 0)
    tests = read_suite(args.suite)
    for i, (test, (board, colour, _, _, _)) in enumerate(zip(tests, problems(args.suite))):
        answers = {coords.from_gtp(a, board.size) for a in test.accepted if not a.startswith("!")}
        mask = np.ravel(sensible_mask(board, colour))
        prior = np.ravel(on_planes.policy(evaluator, features.value_planes(board)))
        critical = criticality(policy, board, colour, args.rollouts, 1000 * i)
        scores = [prior, critical] + [prior * (1 + k * np.maximum(critical, 0)) for k in args.mix]
        for name, score in zip(rankings, scores):
            offered[name] += best_rank(score, mask, answers) < args.top
    for name in rankings:
        print(f"{name}: an accepted answer among the first {args.top} in {offered[name]} of "
              f"{len(tests)}")


if __name__ == "__main__":
    main()
