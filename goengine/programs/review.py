"""Review a whole game: the search's win rate before every move, written back into the SGF.

    goengine-review game.sgf [--seconds 2 | --visits 800] [--moves 120-200] [--weights weights/sl.pt]

writes `game-reviewed.sgf` and `game-winrate.png` beside the game. Each move
gets a comment (the mover's win rate before and after it, the engine's
preferred move and its win rate, the principal variation, which is also
added as a variation, and the score: a four-headed network's where the network has
one (its count of a board its ownership head calls settled, else its score head's
margin), else the rollouts' mean); a move that loses more than --doubtful of the win rate
is marked DO[] (doubtful), more than --bad BM[1] (bad move); the engine's own
choice is marked TE[1] (good move) and a move that gains on the engine's
expectation IT[] (interesting). Win rates are for the side to move, as Sabaki
and Lizzie show them; the graph plots Black's. Ctrl-C stops the analysis and
writes what is done so far.
"""

import argparse
import os
import sys
import time
from pathlib import Path

from goengine import BLACK, PASS, WHITE
from goengine.game import coords
from goengine.game.state import GameError, from_record
from goengine.programs.engine_spec import add_search_flags
from goengine.programs.loading import add_backend_flag, add_device_flag, add_network_flags
from goengine.search.limits import SearchLimits

SWINGS_LABELLED = 3


class ReviewError(Exception):
    """The game cannot be reviewed (missing or broken file); the message says why."""


class Position:
    """What the search found in one position of the game (before move `number`)."""

    def __init__(self, number, color, winrate, visits, best, best_winrate, pv, score=None,
                 score_source='the rollouts\' mean'):
        self.number, self.color, self.winrate, self.visits = number, color, winrate, visits
        self.best, self.best_winrate, self.pv = best, best_winrate, pv
        self.score = score                # points the mover ends ahead by, or None
        self.score_source = score_source  # what said so: the network, or the rollouts' mean


def read_record(path):
    """The game record at `path` as (sgffile.Game, its bytes); ReviewError if unusable."""
    from goengine.game import sgffile
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ReviewError(f'{path}: {exc.strerror}') from None
    try:
        record = sgffile.parse_game(data, os.path.basename(path))
        from_record(record)   # every move must replay
    except (sgffile.SgfError, GameError) as exc:
        raise ReviewError(f'{path}: not a game goengine can replay ({exc})') from None
    if not record.moves:
        raise ReviewError(f'{path}: the game has no moves')
    return record, data


def analyse(record, player, seconds=None, visits=None, progress=None, moves=(1, None)):
    """A Position before each move in `moves` (first, last; last None: to the end) and
    the one after the last, in order: judging a move takes the positions on both sides.

    Stops early on KeyboardInterrupt and returns what it has; `progress(done,
    total)` is called after each position.
    """
    positions = []
    first, last = moves
    last = len(record.moves) if last is None else min(last, len(record.moves))
    numbers = range(first, last + 2)
    total = len(numbers)
    try:
        for number in numbers:
            game = from_record(record, number)
            color = record.moves[number - 1][0] if number <= len(record.moves) else game.to_move
            result = player.think(game, color, SearchLimits(seconds, playouts=visits),
                                  full=True)
            winrate = result.root_winrate
            if result.candidates:
                best = result.candidates[0]
                score, source = position_score(player, game, color, result)
                positions.append(Position(number, color, winrate, result.visits, best.move,
                                          best.winrate, best.pv, score, source))
            else:   # nothing to search (no legal move but pass)
                positions.append(Position(number, color, winrate, 0, PASS, winrate, []))
            if progress:
                progress(len(positions), total)
    except KeyboardInterrupt:
        pass
    return positions


def position_score(player, game, color, result):
    """(points `color` ends ahead by, what says so): a four-headed network's lead
    (player.answers.score_lead) where it has one, else the mean final score of the search's
    rollouts in `result` (None without a search)."""
    lead = player.answers.score_lead(game, color)
    if lead is not None:
        return lead, 'the network'
    return result.score, "the rollouts' mean"


def mover_loss(positions, i):
    """How much of the mover's win rate move i+1 (between positions i and i+1) gave away."""
    before, after = positions[i].winrate, positions[i + 1].winrate
    if before is None or after is None:
        return None
    return before - (1.0 - after)


def percent(x):
    return '?' if x is None else f'{100 * x:.1f} %'


def annotate(data, record, positions, bad, doubtful):
    """The original SGF with comments, marks and variations added; bytes."""
    from sgfmill import sgf
    game = sgf.Sgf_game.from_bytes(data)
    size = record.size
    move_nodes = [node for node in game.get_main_sequence() if node.get_move()[0] is not None]
    for k, here in enumerate(positions[:-1]):
        node = move_nodes[here.number - 1]
        loss = mover_loss(positions, k)
        played = record.moves[here.number - 1][1]
        who = 'Black' if here.color == BLACK else 'White'
        after = positions[k + 1].winrate
        lines = [f'{who} win rate: {percent(here.winrate)} before this move, '
                 f'{percent(None if after is None else 1 - after)} after it'
                 + ('' if loss is None else f' ({-100 * loss:+.1f})') + '.',
                 f'goengine prefers {coords.to_gtp(here.best, size)} ({percent(here.best_winrate)}, '
                 f'{here.visits} visits).']
        if here.score is not None:
            leader = here.color if here.score >= 0 else BLACK + WHITE - here.color
            lines.append(f"Score estimate before this move: {'Black' if leader == BLACK else 'White'} "
                         f'ahead by {abs(here.score):.1f} points ({here.score_source}).')
        if here.pv:
            lines.append('Variation: ' + ' '.join(coords.to_gtp(m, size) for m in here.pv))
        old = node.get('C') + '\n\n' if node.has_property('C') else ''
        node.set('C', old + '\n'.join(lines))
        if loss is not None and loss > bad:
            node.set('BM', 1)
        elif loss is not None and loss > doubtful:
            node.set('DO', True)
        elif played == here.best:
            node.set('TE', 1)
        elif loss is not None and loss < -doubtful:
            node.set('IT', True)
        if here.pv and played != here.best:
            add_variation(node.parent, here.color, here.pv, size)
    root = game.get_root()
    done = len(positions) - 1
    summary = (f'Reviewed by goengine: {done} of {len(record.moves)} moves '
               f'({positions[0].number}-{positions[-2].number}); '
               f'win rates for the side to move.')
    root.set('C', (root.get('C') + '\n\n' if root.has_property('C') else '') + summary)
    return game.serialise()


def add_variation(parent, color, pv, size):
    """The engine's line as a new child of `parent` (after the game's own move)."""
    node = parent
    for move in pv:
        node = node.new_child()
        rowcol = None if move == PASS else coords.to_rowcol(move, size)
        node.set_move('b' if color == BLACK else 'w', rowcol)
        color = WHITE if color == BLACK else BLACK


def draw_graph(record, positions, path):
    """A PNG of Black's win rate by move, the biggest swings labelled."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    points = [(p.number - 1, p.winrate if p.color == BLACK else 1 - p.winrate)
              for p in positions if p.winrate is not None]
    fig, ax = plt.subplots(figsize=(10, 4))
    if points:
        xs, ys = zip(*points)
        ax.plot(xs, [100 * y for y in ys], color='black', linewidth=1.2)
        ax.fill_between(xs, 50, [100 * y for y in ys], color='grey', alpha=0.25)
    swings = sorted(((abs(mover_loss(positions, i)), i) for i in range(len(positions) - 1)
                     if mover_loss(positions, i) is not None), reverse=True)[:SWINGS_LABELLED]
    for _, i in swings:
        number = positions[i].number
        color, move = record.moves[number - 1]
        black_after = positions[i + 1].winrate if positions[i + 1].color == BLACK \
            else 1 - positions[i + 1].winrate
        label = f"{number}. {'B' if color == BLACK else 'W'} {coords.to_gtp(move, record.size)}"
        ax.annotate(label, (number, 100 * black_after), textcoords='offset points',
                    xytext=(0, 10), ha='center', fontsize=8, color='darkred',
                    arrowprops=dict(arrowstyle='-', color='darkred', lw=0.6))
    ax.axhline(50, color='grey', linewidth=0.6)
    ax.set_ylim(0, 100)
    ax.set_xlim(0, max(1, len(record.moves)))
    ax.set_xlabel('move')
    ax.set_ylabel("Black's win rate (%)")
    ax.set_title(f'{record.name or "game"}: goengine review')
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, format='png', dpi=100)
    plt.close(fig)


def progress_bar(stream=sys.stderr):
    """progress(done, total): a one-line bar with an ETA."""
    start = time.monotonic()
    shown = [0.0]

    def progress(done, total):
        elapsed = time.monotonic() - start
        if done < total and elapsed - shown[0] < 0.5:   # a few updates a second at most
            return
        shown[0] = elapsed
        eta = elapsed / done * (total - done) if done else 0
        width = 30
        filled = int(width * done / total)
        stream.write(f'\r[{"#" * filled}{"." * (width - filled)}] {done}/{total} positions, '
                     f'{elapsed:.0f} s, ETA {eta:.0f} s ')
        if done == total:
            stream.write('\n')
        stream.flush()
    return progress


def output_paths(path, out=None):
    stem = os.path.splitext(path)[0]
    return out or f'{stem}-reviewed.sgf', f'{stem}-winrate.png'


def move_range(text):
    """'120-200' -> (120, 200); '120-' or '120' -> (120, None), to the end."""
    first, _, last = text.partition('-')
    try:
        first, last = int(first), (int(last) if last else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f'{text!r} is not FIRST-LAST, e.g. 120-200') from None
    if first < 1 or last is not None and last < first:
        raise argparse.ArgumentTypeError(f'{text!r}: need 1 <= FIRST <= LAST')
    return first, last


def build_parser():
    p = argparse.ArgumentParser(prog='goengine-review', description=__doc__.split('\n')[0],
                                epilog=__doc__.split('\n', 3)[3],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('sgf', help='the game to review (.sgf)')
    p.add_argument('--seconds', type=float, default=2.0, help='search time per position')
    p.add_argument('--visits', type=int, help='simulations per position (instead of time)')
    p.add_argument('--moves', type=move_range, default=(1, None), metavar='FIRST-LAST',
                   help='review only these moves, e.g. 120-200, or 120- to the end '
                        '(default: all)')
    add_network_flags(p)
    p.add_argument('--value-weights', help='value network (default: value.pt beside the policy)')
    add_device_flag(p)
    add_backend_flag(p)
    add_search_flags(p)
    p.add_argument('--bad', type=float, default=0.20,
                   help='win rate a move may lose before it is marked a bad move (BM)')
    p.add_argument('--doubtful', type=float, default=0.10,
                   help='win rate a move may lose before it is marked doubtful (DO)')
    p.add_argument('--out', help='the reviewed SGF (default: GAME-reviewed.sgf)')
    p.add_argument('--no-graph', action='store_true', help='no win-rate PNG')
    p.add_argument('--quiet', action='store_true', help='no progress bar')
    return p


INTERRUPTED = 'goengine-review: interrupted'


def main(argv=None):
    from goengine.programs.interrupt import ctrl_c_exits_at_once
    with ctrl_c_exits_at_once(INTERRUPTED):   # torch is imported while --device is parsed
        args = build_parser().parse_args(argv)
    if args.visits is not None and args.visits < 1 or args.seconds <= 0:
        print('goengine-review: --visits and --seconds must be positive', file=sys.stderr)
        return 2
    try:
        record, data = read_record(args.sgf)
    except ReviewError as exc:
        print(f'goengine-review: {exc}', file=sys.stderr)
        return 1
    if args.moves[0] > len(record.moves):
        print(f'goengine-review: --moves starts at {args.moves[0]}, but the game has '
              f'{len(record.moves)} moves', file=sys.stderr)
        return 2
    from goengine.nn import int8, netfile
    from goengine.programs import engine_spec
    from goengine.rollout.rollout_weights import RolloutLoadError
    say = lambda message: print(message, file=sys.stderr)   # noqa: E731
    spec = engine_spec.spec_from_args(args, say, engine_spec.PlayerKind.SEARCH)
    if spec is None:
        return 2
    try:
        with ctrl_c_exits_at_once(INTERRUPTED):
            player = engine_spec.build_engine(spec, say, player_log=lambda message: None)
    except engine_spec.BuildError as exc:
        print(f'goengine-review: {exc}', file=sys.stderr)
        return 2
    except (netfile.NetworkLoadError, int8.Int8Error, RolloutLoadError) as exc:
        print(f'goengine-review: {exc}', file=sys.stderr)
        return 1
    try:
        seconds = None if args.visits else args.seconds
        positions = analyse(record, player, seconds, args.visits,
                            None if args.quiet else progress_bar(), args.moves)
    finally:
        player.close()
    if len(positions) < 2:
        print('goengine-review: stopped before a move was reviewed; nothing written',
              file=sys.stderr)
        return 1
    sgf_path, png_path = output_paths(args.sgf, args.out)
    with open(sgf_path, 'wb') as f:
        f.write(annotate(data, record, positions, args.bad, args.doubtful))
    print(f'{sgf_path}: {len(positions) - 1} of {len(record.moves)} moves reviewed')
    if not args.no_graph:
        draw_graph(record, positions, png_path)
        print(png_path)
    return 0


if __name__ == '__main__':
    sys.exit(main())
