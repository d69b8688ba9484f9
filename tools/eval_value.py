#!/usr/bin/env python3
"""Mean squared error of a value network on game outcomes, one sampled position per game.

The position of each game is drawn with a fixed seed, the target is +1 if the
player to move won and -1 otherwise (games without a winner, or won on time
or by forfeit, are skipped);
predicting 0 everywhere scores 1.0. Defaults to held-out games. The MSE is
also given for each third of the game (the outcome of an opening position is
nearly a coin toss, an endgame one mostly decided). The last line is exactly
`mse=0.XXXX positions=N`.

--from-score reads a four-headed network's value from its score head instead: the
probability that the final margin at the record's komi is above 0 (nets.win_probability),
as 2p - 1, which is what the search can use at any komi; --score-temperature T
divides its logits by T first (a calibration to fit on games apart from the held-out ones).

--komi K asks what the game would have been at komi K: counted games only (a result with a
margin), the target the record's final margin gives at K. It prints the value head as it
is (it knows only the komi it learned, nets.TRAINED_KOMI) beside the value moved to K by
the score head (nets.value_at_komi, logits divided by --score-temperature), paired.

--lead asks the score head for the margin instead: counted games only, its expected lead for
the player to move at the record's komi (nets.score_lead, kata-analyze's scoreLead) against
the record's margin, as the mean error (its bias) and the mean absolute error, for each third
of the game and for each colour to move (a head that cannot tell who is to move is off by
about the komi, one way for Black and the other for White).
"""

import argparse
import sys

import numpy as np
import torch

import _checkout  # noqa: F401  (this checkout's packages first)
from training.sampler import ValueExamples
from goengine import WHITE
from goengine.game.sgffile import read_games
from goengine.nn.nets import value_at_komi, win_probability
from goengine.nn import on_planes

from training import evaluation
from training.evaluation import sampled_example

BATCH = 256
PHASES = ("opening (first third of the game)", "middle game (second third)",
          "endgame (last third)")


def main(argv=None):
    def add_arguments(parser):
        add = parser.add_argument
        add("--seed", type=int, default=0, help="chooses the position of each game")
        add("--against", metavar="FILE", help="a second value network: MSE, paired difference")
        add("--from-score", action="store_true", help="the value from the score head instead")
        add("--score-temperature", type=float, default=1.0, metavar="T",
            help="score logits divided by T first (--from-score, --komi)")
        add("--komi", type=float, metavar="K",
            help="counted games at komi K: value head against the score-moved value")
        add("--lead", action="store_true", help="counted games: expected lead against margin")
    args = evaluation.parse_args(__doc__, "value", 2000, argv, add_arguments)
    if args.komi is not None and (args.from_score or args.against):
        raise SystemExit("--komi compares --weights' value head with its value at that komi: "
                         "not with --from-score or --against")
    if args.lead and (args.komi is not None or args.from_score or args.against):
        raise SystemExit("--lead measures --weights' score head alone: not with --komi, "
                         "--from-score or --against")
    needs_score = args.from_score or args.komi is not None or args.lead
    model, evaluator = evaluation.load_evaluator(args, "score" if needs_score else "value")
    other = None
    if args.against:
        _, other = evaluation.load_evaluator(argparse.Namespace(**dict(
            vars(args), weights=args.against)), "value")
    maker, rng = ValueExamples(), np.random.default_rng(args.seed)
    squared, count = np.zeros(len(PHASES)), np.zeros(len(PHASES), int)
    errors, batch, paired = [], [], []
    lead_errors = []                         # (phase, White to move, lead - recorded margin)

    def flush():
        planes = np.stack([example[0] for example, _, _, _ in batch])
        if args.komi is not None:
            return flush_at_komi(planes)
        if args.lead:
            return flush_lead(planes)
        if args.from_score:
            komi = [k for _, k, _, _ in batch]
            white = [w for _, _, w, _ in batch]
            logits = torch.as_tensor(on_planes.score_logits(evaluator, planes)) / args.score_temperature
            values = (2 * win_probability(logits, komi, white) - 1).numpy()
        else:
            values = on_planes.value(evaluator, planes)
        others = on_planes.value(other, planes) if other else values
        for value, theirs, ((_, target, phase, _), _, _, _) in zip(values, others, batch):
            squared[phase] += (float(value) - target) ** 2
            count[phase] += 1
            paired.append(((float(value) - target) ** 2, (float(theirs) - target) ** 2))
        batch.clear()

    def flush_at_komi(planes):
        """The targets at --komi; squared/count/paired hold the value head moved there,
        `theirs` the value head as it is."""
        raw = on_planes.value(evaluator, planes)
        white = np.array([w for _, _, w, _ in batch])
        moved = value_at_komi(raw, torch.as_tensor(on_planes.score_logits(evaluator, planes)), args.komi,
                              white, args.score_temperature).numpy()
        for value, theirs, w, ((_, _, phase, _), _, _, margin) in zip(moved, raw, white, batch):
            target = 1.0 if margin + (args.komi if w else -args.komi) > 0 else -1.0
            squared[phase] += (float(value) - target) ** 2
            count[phase] += 1
            paired.append(((float(value) - target) ** 2, (float(theirs) - target) ** 2))
        batch.clear()

    def flush_lead(planes):
        """lead_errors gets each position's score head lead less the record's margin, both
        for the player to move at the record's komi."""
        komi = np.array([k for _, k, _, _ in batch])
        white = np.array([w for _, _, w, _ in batch])
        leads = on_planes.score_lead(evaluator, planes, komi, white)
        for lead, k, ((_, _, phase, _), _, w, margin) in zip(leads, komi, batch):
            lead_errors.append((phase, w, float(lead) - (margin + (k if w else -k))))
        batch.clear()

    for game in read_games(args.sgf, errors=errors, limit=args.limit or None):
        margin = board_margin(game)
        if (args.komi is not None or args.lead) and margin is None:
            continue
        example = sampled_example(maker, game, rng) if game.size == model.board_size else None
        if example:
            white = game.moves[example[3]][0] == WHITE
            batch.append((example, game.komi, white,
                          None if margin is None else -margin if white else margin))
            if len(batch) == BATCH:
                flush()
    if batch:
        flush()
    print(f"{len(errors)} broken records skipped", file=sys.stderr)
    if args.lead:
        return report_leads(lead_errors)
    for name, sq, n in zip(PHASES, squared, count):
        print(f"{name}: mse={sq / max(1, n):.4f} positions={n}")
    if args.komi is not None and paired:
        moved, plain = np.array(paired).T
        difference = moved - plain
        print(f"at komi {args.komi:g}: the value head as it is mse={plain.mean():.4f}; moved "
              f"there by the score head (T {args.score_temperature:g}) minus it: "
              f"{difference.mean():+.4f} (standard error "
              f"{difference.std() / np.sqrt(len(difference)):.4f})")
    if other and paired:
        ours, theirs = np.array(paired).T
        difference = ours - theirs
        print(f"against {args.against}: mse={theirs.mean():.4f}; --weights minus it: "
              f"{difference.mean():+.4f} (standard error {difference.std() / np.sqrt(len(difference)):.4f})")
    print(f"mse={squared.sum() / max(1, count.sum()):.4f} positions={count.sum()}")


def report_leads(lead_errors):
    """The score head's lead errors by phase and colour to move; the last line all of them."""
    rows = np.array(lead_errors, dtype=float).reshape(-1, 3)
    phase, white, error = rows[:, 0], rows[:, 1] > 0, rows[:, 2]

    def line(mask):
        e = error[mask]
        return (f"bias={e.mean() if len(e) else 0.0:+.2f} "
                f"mean_abs_error={np.abs(e).mean() if len(e) else 0.0:.2f} positions={len(e)}")

    for number, name in enumerate(PHASES):
        print(f"{name}: {line(phase == number)}")
    print(f"Black to move: {line(~white)}")
    print(f"White to move: {line(white)}")
    print(f"lead {line(np.ones(len(error), bool))}")


def board_margin(game):
    """Black's final board margin (komi taken back out) from a counted result such as
    B+3.5 or W+0.5, or None (resigned, on time, a draw, no number)."""
    result = game.result.strip().upper()
    if game.winner is None or len(result) < 3:
        return None
    try:
        margin = float(result[2:])
    except ValueError:
        return None
    return (margin if result[0] == "B" else -margin) + game.komi


if __name__ == "__main__":
    main()
