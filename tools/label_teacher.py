"""Label training positions with the teacher (KataGo's network): a resumable background job.

Games of the training split are taken in a fixed shuffled order; in each, every `--every`-th
position (from a random offset) and the final board are read by the teacher, at the game's
komi or, for a `--other-share` of positions, at `--other-komi`. Positions right after a pass
are skipped. Every `--shard-size` positions a shard and progress.json are written at a game
boundary, so a stopped run resumes there (training/teacher_labels.py has the format);
`--from-game N` starts a new folder further along the same order, so that a machine whose
labels were lost labels new games.

    nice -n 19 .venv/bin/python tools/label_teacher.py --out data/teacher

The held-out month is never read: only `load_split('train')`.
"""

import argparse
import os
import random
import sys
import time
from collections import deque

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import PASS, IllegalMove
from goengine.game.sgffile import new_board
from goengine.nn.cpu import bf16_is_fast, cpu_kind
from training import teacher_inputs, teacher_labels, teacher_net
from training.dataset import load_split


def game_positions(game, index, every, final, seed):
    """(board, recent moves, previous boards, move index) for the chosen positions of a game."""
    rng = random.Random(seed * 1_000_003 + index)
    chosen = set(range(rng.randrange(every), len(game.moves), every))
    if final:
        chosen.add(len(game.moves))
    board = new_board(game)
    previous = deque(maxlen=2)
    for number in range(len(game.moves) + 1):
        after_pass = number > 0 and game.moves[number - 1][1] == PASS
        if number in chosen and not after_pass and number > 0:
            yield board.copy(), game.moves[max(0, number - 5):number], list(previous), number
        if number == len(game.moves):
            return
        colour, move = game.moves[number]
        previous.appendleft(board.copy())
        board.play(move, colour)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="data/teacher", help="labels folder (resumed if it exists)")
    p.add_argument("--teacher", default=None, help="KataGo .bin.gz (default: katrain's network)")
    p.add_argument("--every", type=int, default=4, help="label every Nth position of a game")
    p.add_argument("--no-final", action="store_true", help="leave out the final boards")
    p.add_argument("--other-komi", type=float, default=7.5)
    p.add_argument("--other-share", type=float, default=0.1,
                   help="share of positions labelled at --other-komi instead of the game's")
    p.add_argument("--seed", type=int, default=1, help="the games' order and the sampled positions")
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--precision", choices=("auto", "bf16", "fp32"), default="auto",
                   help="auto: bf16 where the CPU has it natively")
    p.add_argument("--runtime", choices=("openvino", "torch"), default="openvino",
                   help="openvino: 1.3x torch's bf16 on Zen 4 (the ONNX export is cached in --out)")
    p.add_argument("--shard-size", type=int, default=4096)
    p.add_argument("--max-positions", type=int, default=0, help="stop after this many (0: never)")
    p.add_argument("--from-game", type=int, default=0, metavar="N",
                   help="a new --out folder starts at game N of the order: the games before it "
                        "were labelled before, into a folder that is gone (docs/TRAINING.md)")
    p.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = p.parse_args()

    if args.threads:
        torch.set_num_threads(args.threads)
    bf16 = args.precision == "bf16" or (args.precision == "auto" and bf16_is_fast())
    path = args.teacher or teacher_net.default_path()
    try:
        net = teacher_net.load(path)
        store = load_split("train")
    except (teacher_net.TeacherFileError, OSError) as exc:
        sys.exit(f"label_teacher: {exc}")
    evaluate = net
    if args.runtime == "openvino":
        os.makedirs(args.out, exist_ok=True)
        evaluate = teacher_net.OpenVinoTeacher(net, os.path.join(args.out, f"{net.name}.onnx"), bf16)
    digest = teacher_labels.store_digest(store)
    settings = {"every": args.every, "final": not args.no_final, "other_komi": args.other_komi,
                "other_share": args.other_share, "seed": args.seed, "teacher": net.name}
    os.makedirs(args.out, exist_ok=True)
    try:
        progress = teacher_labels.Progress(args.out, digest, settings, args.from_game)
    except teacher_labels.TeacherLabelError as exc:
        sys.exit(f"label_teacher: {exc}")
    order = np.random.default_rng(args.seed).permutation(len(store))
    print(f"labelling {args.out}: {len(store)} training games, from game {progress['games_done']} of the "
          f"order ({progress['positions']} positions done); teacher {net.name}, "
          f"{args.runtime} {'bf16' if bf16 else 'fp32'} on {cpu_kind()}", flush=True)

    pending, shard, started, done_now = [], [], time.time(), 0

    def flush_batch():
        spatial = torch.from_numpy(np.stack([x[0] for x in pending]))
        glob = torch.from_numpy(np.stack([x[1] for x in pending]))
        with torch.no_grad(), torch.autocast("cpu", torch.bfloat16, enabled=bf16 and evaluate is net):
            out = evaluate(spatial, glob)
        answers = teacher_net.answers(net, out, np.stack([x[2] for x in pending]))
        shard.append(teacher_labels.to_records(answers, [x[3] for x in pending], [x[4] for x in pending],
                                               [x[5] for x in pending], [x[6] for x in pending]))
        pending.clear()

    games_done = progress["games_done"]
    while games_done < len(order):
        index = int(order[games_done])
        game = store[index]
        rng = random.Random(args.seed * 7919 + index)
        try:
            for board, recent, previous, number in game_positions(game, index, args.every,
                                                                  not args.no_final, args.seed):
                komi = args.other_komi if rng.random() < args.other_share else game.komi
                spatial, glob = teacher_inputs.planes(board, recent, previous, komi)
                pending.append((spatial, glob, teacher_inputs.legal_mask(board), board.to_move, index,
                                number, komi))
                if len(pending) == args.batch:
                    flush_batch()
        except (IllegalMove, ValueError) as exc:
            print(f"game {index} ({game.name}): skipped the rest ({exc})", flush=True)
        games_done += 1
        size = sum(len(s["game"]) for s in shard)
        if size >= args.shard_size or games_done == len(order) or (
                args.max_positions and progress["positions"] + size >= args.max_positions):
            if pending:
                flush_batch()
                size = sum(len(s["game"]) for s in shard)
            records = {k: np.concatenate([s[k] for s in shard]) for k in teacher_labels.ARRAYS}
            name = os.path.join(args.out, f"labels-{progress['shards']:05d}.npz")
            teacher_labels.write_shard(name, records, digest, net.name)
            progress.advance(games_done, size)
            done_now += size
            shard.clear()
            rate = done_now / (time.time() - started)
            print(f"{time.strftime('%H:%M:%S')} {os.path.basename(name)}: {progress['positions']} positions, "
                  f"{games_done} games; {rate:.1f} positions/s", flush=True)
            if args.max_positions and progress["positions"] >= args.max_positions:
                break


if __name__ == "__main__":
    main()
