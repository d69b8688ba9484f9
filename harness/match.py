"""Games between two GTP engines, refereed: what tools/match.py, tools/tune.py and
tools/research/clock_game.py play with.

Each game gets fresh engine processes, treats a crash, a hang or an illegal move as a
loss for that engine, and is scored twice: by our rules (Tromp-Taylor area after
dead-stone removal, goengine.rollout.scoring) and by a separate referee engine's
`final_score` (GNU Go, Chinese rules), which decides. Results, summaries with a 95 %
Wilson interval live here too; the record a match leaves on disk is harness.records.
"""

import datetime
import functools
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from harness import records
from harness.stats import counts_agree
from harness.gtp_client import EngineCrashed, EngineError, GtpFailure, GtpProcess

from goengine import BLACK, WHITE, IllegalMove
from goengine.game import coords
from goengine.rollout import scoring
from goengine.game.state import GameState

REPO = Path(__file__).resolve().parent.parent

GNUGO = '/usr/games/gnugo'
DEFAULT_OPPONENT = f'{GNUGO} --mode gtp --level 10'
DEFAULT_SCORER = f'{GNUGO} --mode gtp --chinese-rules'
COLOR_LETTER = {BLACK: 'B', WHITE: 'W'}


def default_ours():
    """The engine as a user starts it: gtp_main.py with its default network."""
    return f'{shlex.quote(sys.executable)} {shlex.quote(str(REPO / "gtp_main.py"))}'


# -- statistics ---------------------------------------------------------------

class MoveLimit:
    """No game clock, only a limit per move: a slower answer loses on time.

    The interface every controller clock has (see clock_game.CanadianClock):
    commands to announce the settings and the time left, how long to wait
    for a move, and whether a move's elapsed time was within the clock.
    """

    def __init__(self, seconds):
        self.seconds = seconds

    def setup_commands(self):
        return []

    def before_move(self, color):
        return []

    def available(self, color):
        return self.seconds

    def timeout(self, color):
        return self.seconds

    def charge(self, color, elapsed):
        return elapsed <= self.seconds


# -- one game -----------------------------------------------------------------

@dataclass
class Side:
    """One engine of the match: 'ours' or 'opponent'."""
    label: str
    command: str
    clock: object
    proc: GtpProcess = None
    name: str = ''
    move_times: list = field(default_factory=list)


@dataclass
class GameResult:
    number: int
    black: str              # side labels
    white: str
    winner: object          # BLACK, WHITE or None (draw)
    reason: str             # score, cap, resign, time, crash, illegal
    result: str             # SGF RE value: B+3.5, W+R, B+T, W+F, 0
    moves: int
    our_score: float = None
    scorer_score: float = None
    note: str = ''
    sgf: str = ''
    our_times: list = field(default_factory=list)

    def winner_label(self):
        return None if self.winner is None else (self.black if self.winner == BLACK else self.white)


class Forfeit(Exception):
    """`color` loses the game without scoring (time, crash, illegal move)."""

    def __init__(self, color, reason, message):
        super().__init__(message)
        self.color, self.reason = color, reason


def ask(sides, color, command, timeout):
    """One command to `color`'s engine; a process failure forfeits the game for it."""
    side = sides[color]
    try:
        return side.proc.send(command, timeout)
    except EngineCrashed as exc:
        raise Forfeit(color, 'crash', str(exc)) from None
    except EngineError as exc:   # EngineTimeout
        raise Forfeit(color, 'time', str(exc)) from None
    except GtpFailure as exc:
        raise Forfeit(color, 'illegal', str(exc)) from None


def start(sides, game, handicap, log_prefix, startup_timeout):
    for color, side in sides.items():
        try:
            side.proc = GtpProcess(side.command, side.label,
                                   stderr_path=f'{log_prefix}-{side.label}.log', cwd=REPO)
        except EngineCrashed as exc:
            raise Forfeit(color, 'crash', str(exc)) from None
        side.name = ask(sides, color, 'name', startup_timeout) or side.label
        for command in [f'boardsize {game.size}', 'clear_board', f'komi {game.komi}',
                        *side.clock.setup_commands()]:
            ask(sides, color, command, startup_timeout)
    if handicap:
        place_handicap(sides, game, handicap, startup_timeout)


def place_handicap(sides, game, stones, timeout):
    """GTP's fixed placement: Black's engine names the points (fixed_handicap),
    White's is told them (set_free_handicap), and White moves first.

    Points that are not the requested number of distinct legal vertices
    forfeit the game for Black's engine, as an illegal move would.
    """
    reply = ask(sides, BLACK, f'fixed_handicap {stones}', timeout)
    try:
        points = [coords.from_gtp(word.lower(), game.size) for word in reply.split()]
        if len(points) != stones:
            raise ValueError(f'{len(points)} points for {stones} stones')
        game.place_handicap(points)
    except ValueError as exc:   # GameError is a ValueError
        raise Forfeit(BLACK, 'illegal', f'{sides[BLACK].label} placed handicap '
                                        f'{reply!r}: {exc}') from None
    ask(sides, WHITE, f'set_free_handicap {reply}', timeout)


def play_opening(sides, game, opening, timeout):
    """Play the opening's moves on our referee's board and tell both engines each one;
    an engine that refuses one forfeits, as it would for any failed command."""
    for color, move in opening:
        game.play(color, move)
        vertex = coords.to_gtp(move, game.size)
        for side_color in sides:
            ask(sides, side_color, f'play {COLOR_LETTER[color]} {vertex}', timeout)


def play_moves(game, sides, max_moves, on_move=None):
    """Alternate genmove/play until two passes, a resignation or the cap.

    Returns (reason, resigned colour or None). Our own GameState referees:
    a move it rejects (positional superko included) forfeits the game.
    """
    while True:
        if game.is_over():
            return 'score', None
        if game.move_number >= max_moves:
            return 'cap', None
        color = game.to_move
        other = WHITE if color == BLACK else BLACK
        side = sides[color]
        for command in side.clock.before_move(color):
            ask(sides, color, command, 10)
        t0 = time.monotonic()
        reply = ask(sides, color, f'genmove {COLOR_LETTER[color]}', side.clock.timeout(color))
        elapsed = time.monotonic() - t0
        side.move_times.append(elapsed)
        if not side.clock.charge(color, elapsed):
            left = side.clock.available(color)
            raise Forfeit(color, 'time', f'{side.label}: move {game.move_number + 1} took '
                                         f'{elapsed:.2f} s with {left:.2f} s on the clock')
        if reply.lower() == 'resign':
            return 'resign', color
        try:
            move = coords.from_gtp(reply.lower(), game.size)
            game.play(color, move)
        except (ValueError, IllegalMove) as exc:
            raise Forfeit(color, 'illegal', f'{side.label} played {reply!r}: {exc}') from None
        ask(sides, other, f'play {COLOR_LETTER[color]} {reply}', 30)
        if on_move:
            on_move(game, color, elapsed, side)


def parse_score(text):
    """GTP final_score text ('B+3.5', 'W+R', '0') -> Black's margin, None if not a number."""
    text = text.strip().upper()
    if text in ('0', 'JIGO', 'DRAW'):
        return 0.0
    try:
        margin = float(text[2:])
    except ValueError:
        return None
    return margin if text.startswith('B+') else -margin if text.startswith('W+') else None


def scorer_score(game, command, log_path, timeout=300):
    """A separate scorer engine's final_score for the game (replayed move by move)."""
    with GtpProcess(command, 'scorer', stderr_path=log_path, cwd=REPO) as scorer:
        for cmd in [f'boardsize {game.size}', 'clear_board', f'komi {game.komi}']:
            scorer.send(cmd, 30)
        if game.setup_black:
            stones = ' '.join(coords.to_gtp(p, game.size) for p in game.setup_black)
            scorer.send(f'set_free_handicap {stones}', 30)
        for color, move in game.moves:
            scorer.send(f'play {COLOR_LETTER[color]} {coords.to_gtp(move, game.size)}', 30)
        return parse_score(scorer.send('final_score', timeout))


def play_game(number, ours, opponent, ours_black, size, komi, max_moves, out_dir,
              scorer=None, startup_timeout=120, on_move=None, handicap=0, opening=()):
    """Play one game in fresh processes, score it, write its SGF; a GameResult.

    handicap: stones Black places before White's first move (0: an even game).
    opening: moves [(color, move)] both engines are told before the first genmove
    (harness.openings), part of the game's record.
    """
    sides = {BLACK: ours, WHITE: opponent} if ours_black else {BLACK: opponent, WHITE: ours}
    for side in sides.values():
        side.proc, side.move_times = None, []
    game = GameState(size, komi)
    prefix = Path(out_dir) / f'game-{number:03d}'
    result = GameResult(number, sides[BLACK].label, sides[WHITE].label, None, '', '', 0)
    failed = None
    try:
        start(sides, game, handicap, prefix, startup_timeout)
        play_opening(sides, game, opening, startup_timeout)
        result.reason, resigned = play_moves(game, sides, max_moves, on_move)
        if resigned:
            result.winner = WHITE if resigned == BLACK else BLACK
            result.result = f'{COLOR_LETTER[result.winner]}+R'
    except Forfeit as exc:
        failed = exc.color
        result.reason, result.note = exc.reason, str(exc)
        result.winner = WHITE if exc.color == BLACK else BLACK
        result.result = f'{COLOR_LETTER[result.winner]}+{"T" if exc.reason == "time" else "F"}'
    finally:
        for color, side in sides.items():
            if side.proc is None:
                continue
            if color == failed:   # it may hang or be mid-answer: no polite quit
                side.proc.kill()
            else:
                side.proc.close()
    result.moves = game.move_number
    result.our_times = list(ours.move_times)
    if result.reason in ('score', 'cap'):
        score_game(game, result, scorer, f'{prefix}-scorer.log')
    result.sgf = write_sgf(game, result, sides, out_dir)
    return result


@functools.cache
def our_rollout_policy():
    """The rollout policy our engine judges dead stones with (loaded once)."""
    from goengine.programs.loading import load_rollout
    return load_rollout()


def score_game(game, result, scorer, log_path):
    """The scorer engine's area score decides; ours is recorded beside it
    (and decides only when there is no scorer or it fails)."""
    result.our_score = scoring.final_score(game.board, rollout=our_rollout_policy())
    if scorer:
        try:
            result.scorer_score = scorer_score(game, scorer, log_path)
        except (EngineError, GtpFailure) as exc:
            result.note = f'scorer failed: {exc}'
    deciding = result.our_score if result.scorer_score is None else result.scorer_score
    result.winner = scoring.winner(deciding)
    result.result = scoring.format_score(deciding)


def write_sgf(game, result, sides, out_dir):
    """Add the game's SGF to the match record in `out_dir` (harness.records); its text."""
    from sgfmill import sgf
    from goengine.game.sgffile import game_to_sgf
    record = sgf.Sgf_game.from_bytes(game_to_sgf(game))
    root = record.get_root()
    root.set('PB', sides[BLACK].name or sides[BLACK].label)
    root.set('PW', sides[WHITE].name or sides[WHITE].label)
    root.set('RE', result.result or 'Void')
    root.set('DT', datetime.date.today().isoformat())
    root.set('GN', f'match game {result.number}')
    root.set('C', describe(result))
    text = records.one_line(record.serialise())
    records.append_game(out_dir, text)
    return text.decode()


# -- reporting ------------------------------------------------------------------

def describe(r):
    """The per-game line (also the SGF root comment)."""
    how = {'score': 'two passes', 'cap': 'move cap, adjudicated', 'resign': 'resignation',
           'time': 'loss on time', 'crash': 'engine crash', 'illegal': 'illegal move/refusal'}
    parts = [f'game {r.number}: B {r.black} W {r.white}: {r.result or "Void"} '
             f'({how.get(r.reason, r.reason)}, {r.moves} moves), '
             f'winner {r.winner_label() or "none (draw)"}']
    if r.our_score is not None:
        scores = f'score ours {scoring.format_score(r.our_score)}'
        if r.scorer_score is not None:
            scores += f' scorer {scoring.format_score(r.scorer_score)} ' \
                      f'{"agree" if counts_agree(r) else "DISAGREE"}'
        parts.append(scores)
    if r.our_times:
        parts.append(f'our time/move mean {statistics.fmean(r.our_times):.3f} s '
                     f'max {max(r.our_times):.3f} s')
    if r.note:
        parts.append(r.note)
    return '; '.join(parts)


def with_time_per_move(command, seconds):
    """Our command line with --time-per-move when it runs gtp_main.py without one.

    Other engines (e.g. GNU Go as `--ours` for a scoring check) would reject the flag.
    """
    words = shlex.split(command)
    if (seconds is None or '--time-per-move' in words
            or not any(w.endswith('gtp_main.py') for w in words)):
        return command
    return f'{command} --time-per-move {seconds:g}'


def add_game_arguments(p, run='match'):
    """The options of one game between two GTP engines and the run's --out folder
    (runs/<run>-<date-time> by default), shared by tools/match.py and tools/tune.py."""
    p.add_argument('--size', type=int, default=19)
    p.add_argument('--komi', type=float, default=7.5)
    p.add_argument('--scorer', default=DEFAULT_SCORER,
                   help='referee: engine whose final_score decides scored games (ours is '
                        'recorded beside it); "none": our own score decides '
                        '(default: %(default)s)')
    p.add_argument('--grace', type=float, default=5.0,
                   help='seconds over its time per move before our engine loses on time')
    p.add_argument('--startup-timeout', type=float, default=120.0)
    p.add_argument('--max-moves', type=int, default=None,
                   help='move cap, then adjudicate by score (default: 2 * size^2)')
    p.add_argument('--out', default=None,
                   help=f'folder for SGF files, engine logs and results.txt (default: '
                        f'runs/{run}-<date-time>); the same folder resumes a stopped run')
