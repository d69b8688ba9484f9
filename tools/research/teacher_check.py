"""Does our reader of the teacher agree with KataGo itself? Prints the gap on real positions.

KataGo is built outside the project from its own source (docs/TRAINING.md, "The teacher")
and asked through its GTP command `kata-raw-nn 0 0` (identity symmetry, policy optimism 0, Chinese
rules); training/teacher_net.py and training/teacher_inputs.py answer the same positions,
in fp32 and in bf16 autocast. Positions are random moves of random held-out games (never
right after a pass, which the reader refuses).

    .venv/bin/python tools/research/teacher_check.py --katago /path/to/katago \
        --config gtp.cfg --positions 200
"""

import argparse
import gzip
import os
import random
import subprocess

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine import BLACK, PASS
from goengine.game import coords
from goengine.game.sgffile import SgfError, iter_positions, parse_game
from training import teacher_inputs, teacher_net
from training.dataset import HELD_OUT_FILE


class KataGo:
    """KataGo's GTP engine, one command at a time."""

    def __init__(self, katago, config, model):
        self.proc = subprocess.Popen([katago, "gtp", "-model", model, "-config", config],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def ask(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("KataGo stopped")
            if line.strip() == "" and lines:
                break
            if line.strip():
                lines.append(line.rstrip("\n"))
        if not lines[0].startswith("="):
            raise RuntimeError(f"KataGo: {command}: {lines[0]}")
        lines[0] = lines[0][1:].strip()
        return [line for line in lines if line]

    def raw_nn(self, moves, komi, rules="chinese"):
        self.ask("clear_board")
        self.ask(f"komi {komi}")
        self.ask(f"kata-set-rules {rules}")
        for colour, move in moves:
            self.ask(f"play {'B' if colour == BLACK else 'W'} {coords.to_gtp(move, 19)}")
        lines = self.ask("kata-raw-nn 0 0")   # symmetry 0, policy optimism 0
        fields, i = {}, 0
        while i < len(lines):
            words = lines[i].split()
            if words[0] in ("policy", "whiteOwnership"):
                grid = [[float("nan") if w == "NAN" else float(w) for w in lines[i + 1 + r].split()]
                        for r in range(19)]
                fields[words[0]] = np.array(grid)
                i += 20
                continue
            if len(words) == 2:
                fields[words[0]] = float(words[1]) if words[1] != "NAN" else float("nan")
            i += 1
        return fields

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def sample_positions(path, count, seed):
    """(moves so far, board, previous boards, komi) at random moves of random games."""
    rng = random.Random(seed)
    lines = gzip.open(path, "rt", encoding="utf-8").readlines()
    found = []
    while len(found) < count:
        try:
            game = parse_game(rng.choice(lines))
        except SgfError:
            continue
        if game.size != 19 or game.setup_black or len(game.moves) < 2:
            continue
        target = rng.randrange(1, len(game.moves))
        if game.moves[target - 1][1] == PASS:
            continue
        history = []
        try:
            for number, (board, colour, move) in enumerate(iter_positions(game)):
                if number == target:
                    found.append((game.moves[:target], board, history[:2], game.komi))
                    break
                history.insert(0, board)
        except SgfError:
            continue
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--katago", required=True, help="KataGo's binary (Eigen backend)")
    p.add_argument("--config", required=True, help="a KataGo GTP config (rules chinese, 1 visit)")
    p.add_argument("--model", default=None, help="default: the network in the katrain package")
    p.add_argument("--sgf", default=HELD_OUT_FILE)
    p.add_argument("--positions", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rules", choices=teacher_inputs.RULES, default="chinese")
    p.add_argument("--openvino", action="store_true", help="also OpenVINO bf16, as tools/label_teacher.py runs it")
    args = p.parse_args()

    args.model = args.model or teacher_net.default_path()
    net = teacher_net.load(args.model)
    katago = KataGo(args.katago, args.config, args.model)
    rows = {"fp32": [], "bf16": []}
    runners = {"fp32": net, "bf16": net}
    if args.openvino:
        import tempfile
        onnx = os.path.join(tempfile.mkdtemp(), "teacher.onnx")
        runners["openvino bf16"] = teacher_net.OpenVinoTeacher(net, onnx, bf16=True)
        rows["openvino bf16"] = []
    for k, (moves, board, previous, komi) in enumerate(sample_positions(args.sgf, args.positions, args.seed)):
        theirs = katago.raw_nn(moves, komi, args.rules)
        spatial, glob = teacher_inputs.planes(board, moves, previous, komi, args.rules)
        legal = teacher_inputs.legal_mask(board)[None]
        white_to_move = board.to_move != BLACK
        their_policy = np.append(np.nan_to_num(theirs["policy"].reshape(-1), nan=0.0), theirs["policyPass"])
        their_win = theirs["whiteWin"] if white_to_move else theirs["whiteLoss"]
        their_lead = theirs["whiteLead"] * (1 if white_to_move else -1)
        their_own = theirs["whiteOwnership"] * (1 if white_to_move else -1)
        for mode in rows:
            with torch.no_grad(), torch.autocast("cpu", torch.bfloat16, enabled=mode == "bf16"):
                out = runners[mode](torch.from_numpy(spatial)[None], torch.from_numpy(glob)[None])
            ours = teacher_net.answers(net, out, legal)
            policy = ours.policy[0]
            rows[mode].append((
                0.5 * np.abs(policy - their_policy).sum(),               # total variation
                float(np.argmax(policy) == np.argmax(their_policy)),
                abs(ours.win[0] - their_win),
                abs(ours.lead[0] - their_lead),
                np.abs(ours.ownership[0] - their_own).max(),
            ))
        if rows["fp32"][-1][0] > 0.02:
            print(f"position {k}: move {len(moves)}, fp32 policy total variation {rows['fp32'][-1][0]:.4f}",
                  flush=True)
    katago.close()
    print(f"{len(rows['fp32'])} positions of {os.path.basename(args.sgf)} (seed {args.seed}), "
          f"ours against KataGo's kata-raw-nn 0:")
    for mode, values in rows.items():
        a = np.array(values)
        print(f"  {mode}: policy total variation mean {a[:, 0].mean():.5f} max {a[:, 0].max():.5f}; "
              f"top-1 same {int(a[:, 1].sum())}/{len(a)}; |win| mean {a[:, 2].mean():.5f} "
              f"max {a[:, 2].max():.5f}; |lead| mean {a[:, 3].mean():.3f} max {a[:, 3].max():.3f}; "
              f"ownership max |d| {a[:, 4].max():.4f}")


if __name__ == "__main__":
    main()
