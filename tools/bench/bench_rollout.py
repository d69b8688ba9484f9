"""Figures for the rollout policy (not pass/fail): speed, accuracy, sanity.

* rollouts per second from the empty 19x19 board, one thread and two
* microseconds per rollout move (selection + play + pattern updates), and
  per whole-board tree_priors / rollout_priors call
* held-out move-prediction accuracy of the rollout and tree policies
* sanity: rollouts from the final positions of held-out games decided by
  points agree with the recorded winner how often (chance: 50%)

    nice -n 10 .venv/bin/python tools/bench/bench_rollout.py [--weights weights/rollout.weights]
"""

import argparse
import os
import threading
import time


import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK, WHITE, Board
from goengine.rollout import rollout_weights
from goengine.rollout._rollout import RolloutPolicy
from goengine.rollout.rollout_weights import DEFAULT_PATH
from goengine.game.sgffile import new_board, read_games, SgfError
from training.rollout_training import evaluate, holdout_games

from training.dataset import DATA_DIR, VALIDATION_FILES, split_files


def rollout_speed(policy, seconds, threads=1):
    """(rollouts per wall second over all threads, rollouts per CPU second of
    one thread, mean moves per rollout).  CPU time is what a rollout costs;
    wall time also shows how busy the machine is."""
    board = Board(19)
    lengths = [len(policy.rollout_moves(board, seed)[1]) for seed in range(20)]
    done = [0] * threads
    cpu = [0.0] * threads

    def worker(i):
        end = time.perf_counter() + seconds
        start_cpu = time.thread_time()
        while time.perf_counter() < end:
            policy.rollouts(board, 20, seed=1000 * i + done[i])
            done[i] += 20
        cpu[i] = time.thread_time() - start_cpu

    start = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    wall = time.perf_counter() - start
    return sum(done) / wall, sum(done) / sum(cpu), sum(lengths) / len(lengths)


def priors_speed(policy, games):
    boards = []
    for game in games[:5]:
        board = new_board(game)
        for color, move in game.moves[:150]:
            board.play(move, color)
            if board.move_number % 30 == 0:
                boards.append(board.copy())
    timings = {}
    for name in ("tree_priors", "rollout_priors"):
        call = getattr(policy, name)
        start = time.process_time()
        for _ in range(20):
            for board in boards:
                call(board)
        timings[name] = (time.process_time() - start) / (20 * len(boards)) * 1e6
    return timings


def points_margin(result):
    """The margin of a result like "B+3.5", or None for resignations etc."""
    try:
        return float(result.strip()[2:])
    except ValueError:
        return None


def final_position_agreement(policy, games, rollouts):
    """(agreeing, games): majority of rollouts from the final position vs the recorded winner."""
    agree = total = 0
    for game in games:
        if game.winner is None or points_margin(game.result) is None:
            continue
        try:
            board = new_board(game)
            for color, move in game.moves:
                board.play(move, color)
        except (SgfError, ValueError):
            continue
        if game.moves:
            board.to_move = BLACK + WHITE - game.moves[-1][0]
        wins = policy.rollouts(board, rollouts, seed=total)
        black_wins = (wins * 2 > rollouts) == (board.to_move == BLACK)
        agree += black_wins == (game.winner == BLACK)
        total += 1
    return agree, total


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", default=DEFAULT_PATH)
    parser.add_argument("--data", default=DATA_DIR)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--final-games", type=int, default=1500,
                        help="held-out games scanned for results by points")
    parser.add_argument("--final-rollouts", type=int, default=32)
    args = parser.parse_args()

    policy = rollout_weights.load(args.weights)
    uniform = RolloutPolicy.uniform()
    print(f"weights: {policy!r}")
    print(f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs "
          f"(wall-clock rates suffer when it exceeds the CPUs)")
    for name, model in (("rollout policy", policy), ("uniform random", uniform)):
        wall, cpu, length = rollout_speed(model, args.seconds)
        per_move = 1e6 / (cpu * length)
        share = model._selection_share(Board(19), 100, seed=7)
        print(f"{name}: {cpu:.0f} rollouts per CPU second of one thread from the empty 19x19 "
              f"board ({wall:.0f}/s wall), {length:.0f} moves each, {per_move:.2f} us per move: "
              f"{share * per_move:.2f} us choosing it (weights of changed points, last-move "
              f"features, sampling), {(1 - share) * per_move:.2f} us playing it (board + 3x3 keys)")
    wall, cpu, _ = rollout_speed(policy, args.seconds, threads=2)
    print(f"rollout policy, 2 threads: {wall:.0f} rollouts/s wall, {cpu:.0f} per CPU second "
          f"of each thread")

    games = holdout_games(args.data, args.eval_games)
    for name, us in priors_speed(policy, games).items():
        print(f"{name}: {us:.0f} us CPU per 19x19 position")
    rollout_top1, tree_top1, n = evaluate(policy, games)
    print(f"held-out accuracy ({', '.join(VALIDATION_FILES)}, {len(games)} games, {n} moves): "
          f"rollout policy top1={rollout_top1:.4f}, tree policy top1={tree_top1:.4f}")

    final_games = [g for g in read_games(split_files(args.data, "val"),
                                         limit=args.final_games) if g.size == 19]
    for name, model in (("rollout policy", policy), ("uniform random", uniform)):
        agree, total = final_position_agreement(model, final_games, args.final_rollouts)
        print(f"{name}: final positions of {total} games won by points: majority of "
              f"{args.final_rollouts} rollouts names the recorded winner in "
              f"{agree / max(1, total):.1%}")


if __name__ == "__main__":
    main()
