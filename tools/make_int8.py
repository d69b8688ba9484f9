#!/usr/bin/env python3
"""Make the int8 form of a network file: weights/NAME.pt -> weights/NAME.int8.onnx.

    python tools/make_int8.py --weights weights/sl.pt [--positions 1024] [--seed 1]
    python tools/make_int8.py --weights weights/sl.pt --seven-bit   # -> NAME.int8-7bit.onnx

A CPU without VNNI reads the 7-bit form where a network has one (goengine/nn/int8.py;
heads-k96 ships one, sl does not: docs/DECISIONS.md, 'int8 without VNNI').

The activations' ranges are calibrated on positions drawn from training games
(never the held-out month, training/dataset.py): `--positions` of them, a few a
game from the first training files in name order, by a fixed seed, so the same
command makes the same file. The file records the fp32 file's SHA-256
(goengine/nn/int8.py), and the engine refuses it once the fp32 file changes.
"""

import argparse
import os
import sys

import numpy as np

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game.sgffile import SgfError, iter_positions, read_games
from goengine.nn import features, int8, netfile
from goengine.nn.backends import ONNXRUNTIME, installed
from training.dataset import DATA_DIR, split_files

PER_GAME = 4   # positions drawn from each game: many games, each phase of them


def calibration_planes(model, count, seed, data_dir=DATA_DIR):
    """`count` uint8 input planes of `model` from the training games in `data_dir`,
    PER_GAME a game."""
    rng = np.random.default_rng(seed)
    files = [os.path.join(data_dir, name) for name in split_files(data_dir, split='train')]
    planes = []
    for game in read_games(files):
        if game.size != model.board_size or len(game.moves) < 2 * PER_GAME:
            continue
        picks = set(rng.choice(len(game.moves), PER_GAME, replace=False).tolist())
        try:
            for number, (board, _, _) in enumerate(iter_positions(game, copy=False)):
                if number in picks:
                    planes.append(features.input_planes(board, model.planes))
        except SgfError:
            continue
        if len(planes) >= count:
            return np.stack(planes[:count])
    raise SystemExit(f'error: only {len(planes)} calibration positions in {data_dir}')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--weights', required=True, help='the fp32 network file')
    parser.add_argument('--positions', type=int, default=1024,
                        help='calibration positions (default: %(default)s)')
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--data', default=DATA_DIR,
                        help='the games folder; its training split is read (default: %(default)s)')
    parser.add_argument('--keep-ends', action='store_true',
                        help='the first convolution and the heads stay fp32')
    parser.add_argument('--seven-bit', action='store_true',
                        help='weights in 7 bits, for a CPU without VNNI (no 16-bit saturation)')
    parser.add_argument('--out', help=f'(default: beside --weights, NAME{int8.SUFFIX} or '
                                      f'NAME{int8.SEVEN_BIT_SUFFIX})')
    args = parser.parse_args(argv)
    if not installed(ONNXRUNTIME):
        sys.exit('error: the onnxruntime and onnx packages are not installed (make setup)')
    try:
        model = netfile.load_network(args.weights)
    except netfile.NetworkLoadError as exc:
        sys.exit(f'error: {exc}')
    try:
        planes = calibration_planes(model, args.positions, args.seed, args.data)
    except FileNotFoundError as exc:
        sys.exit(f'error: {exc}')
    described = (f'MinMax on {len(planes)} positions of training games, seed {args.seed}'
                 + (', ends fp32' if args.keep_ends else '')
                 + (', weights 7-bit' if args.seven_bit else ''))
    data = int8.quantize(model, planes, int8.file_digest(args.weights), described,
                         keep_ends=args.keep_ends, seven_bit=args.seven_bit)
    out = args.out or int8.int8_path(args.weights, seven_bit=args.seven_bit)
    with open(out + '.part', 'wb') as f:
        f.write(data)
    os.replace(out + '.part', out)
    print(f'{out}: {len(data) / 1e6:.1f} MB, {described}')


if __name__ == '__main__':
    main()
