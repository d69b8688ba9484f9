"""GTP version 2 engine: parsing, responses, and the command handlers.

Protocol (GTP v2 spec, sections 2-3):

* Each input line is preprocessed: control characters other than HT and LF
  are removed, everything from '#' on is a comment, HT becomes a space, and
  empty or blank lines are ignored (no response).
* A command is `[id] command_name [arguments]`; id is a non-negative integer.
* A success is `=[id] result`, a failure `?[id] message`; every response ends
  with an empty line, so a response never contains one itself.
* Colours ('b', 'black', ...) and vertices ('D4', 'pass') are
  case-insensitive; we also accept command names in any case. Arguments
  keep their case (file names).

Handlers are grouped by family in small classes (administration, setup,
play, time, SGF, analysis, GoGui; KGS extensions sit with their family);
each method marked with @command implements one GTP command. A handler raises GtpError(message) for a `?`
response, and must leave the state unchanged when it does; as a last line of
defence any other exception is reported as an internal error and the game is
restored to its state before the command.

Streaming commands (lz-analyze, lz-genmove_analyze) write partial output as
they go and stop when `engine.interrupt.wait()` says new input is pending;
`serve()` feeds stdin through a reader thread to make that possible.
"""

import math
import os
import sys
import threading
import time
import traceback
from collections import deque
from typing import NamedTuple, Optional

from goengine import BLACK, PASS, WHITE, IllegalMove, coords, scoring
from goengine.game import MAX_SIZE, MIN_SIZE, RULESETS, GameError, GameState, \
    fixed_handicap_points, free_handicap_points, from_record
from goengine.player import RESIGN, SimplePlayer
from goengine.timecontrol import TimeManager

PROTOCOL_VERSION = 2
ENGINE_NAME = 'goengine'
ENGINE_VERSION = '0.1'


class GtpError(Exception):
    """A failure response: str(exc) is the message after '?'."""


class Command(NamedTuple):
    id: Optional[int]
    name: str
    args: list


# -- parsing and formatting ----------------------------------------------

def preprocess(line):
    """Spec 3.1 preprocessing of one line; None when nothing is left to execute."""
    line = ''.join(ch for ch in line if ch == '\t' or (ord(ch) >= 32 and ord(ch) != 127))
    line = line.split('#', 1)[0].replace('\t', ' ').strip()
    return line or None


def parse_command(line):
    """One raw input line -> Command, or None for an empty/comment line.

    The name is lower-cased; it is '' when the line holds only an id.
    """
    line = preprocess(line)
    if line is None:
        return None
    words = line.split()
    cmd_id = None
    if words[0].isdigit() and words[0].isascii():
        cmd_id = int(words.pop(0))
    name = words.pop(0).lower() if words else ''
    return Command(cmd_id, name, words)


def format_response(cmd_id, ok, text=''):
    """'=id text\n\n' or '?id text\n\n', with no empty line inside.

    A text starting with a newline (showboard) keeps it, so its first row
    starts on a line of its own.
    """
    text = str(text)
    body = '\n'.join(line.rstrip() for line in text.split('\n') if line.strip())
    head = ('=' if ok else '?') + ('' if cmd_id is None else str(cmd_id))
    if text.startswith('\n') and body:
        return f'{head}\n{body}\n\n'
    return f'{head} {body}\n\n'


def parse_color(text):
    color = {'b': BLACK, 'black': BLACK, 'w': WHITE, 'white': WHITE}.get(text.lower())
    if color is None:
        raise GtpError('syntax error')
    return color


def parse_vertex(text, size):
    """'D4'/'pass' -> move; GtpError('syntax error') for anything else."""
    try:
        move = coords.from_gtp(text.lower(), size)
    except (ValueError, TypeError, IndexError):
        raise GtpError('syntax error') from None
    if move != PASS and not 0 <= move < size * size:
        raise GtpError('syntax error')
    return move


def parse_int(text, low=None, high=None):
    try:
        value = int(text, 10)
    except (ValueError, TypeError):
        raise GtpError('syntax error') from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise GtpError('syntax error')
    return value


def parse_float(text):
    try:
        value = float(text)
    except (ValueError, TypeError):
        raise GtpError('syntax error') from None
    if not math.isfinite(value):
        raise GtpError('syntax error')
    return value


def expect_args(args, low, high=None):
    high = low if high is None else high
    if not low <= len(args) <= high:
        raise GtpError('syntax error')


def command(name):
    """Mark a handler method as implementing GTP command `name`."""
    def mark(method):
        method.gtp_name = name
        return method
    return mark


def vertex(move, size):
    return coords.to_gtp(move, size)


def move_text(move, size):
    return 'resign' if move == RESIGN else vertex(move, size)


# -- handler families -----------------------------------------------------

class Family:
    """A group of related handlers sharing the engine (game, player, clocks)."""

    def __init__(self, engine):
        self.engine = engine

    @property
    def game(self):
        return self.engine.game

    def commands(self):
        for attr in dir(type(self)):
            method = getattr(self, attr)
            name = getattr(method, 'gtp_name', None)
            if name:
                yield name, method


class AdminHandlers(Family):
    """protocol_version, name, version, known_command, list_commands, quit."""

    @command('protocol_version')
    def protocol_version(self, args):
        return str(PROTOCOL_VERSION)

    @command('name')
    def name(self, args):
        return ENGINE_NAME

    @command('version')
    def version(self, args):
        return ENGINE_VERSION

    @command('known_command')
    def known_command(self, args):
        expect_args(args, 1)
        return 'true' if args[0].lower() in self.engine.handlers else 'false'

    @command('list_commands')
    def list_commands(self, args):
        return '\n'.join(sorted(self.engine.handlers))

    @command('quit')
    def quit(self, args):
        self.engine.quit_requested = True
        return ''


class SetupHandlers(Family):
    """Board size, clearing, komi, handicap placement and rules."""

    @command('boardsize')
    def boardsize(self, args):
        expect_args(args, 1)
        size = parse_int(args[0])
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise GtpError('unacceptable size')
        self.game.clear(size)
        return ''

    @command('clear_board')
    def clear_board(self, args):
        self.game.clear()
        return ''

    @command('komi')
    def komi(self, args):
        expect_args(args, 1)
        self.game.komi = parse_float(args[0])
        return ''

    @command('fixed_handicap')
    def fixed_handicap(self, args):
        return self._handicap(args, fixed_handicap_points)

    @command('place_free_handicap')
    def place_free_handicap(self, args):
        return self._handicap(args, free_handicap_points)

    def _handicap(self, args, placement):
        expect_args(args, 1)
        count = parse_int(args[0])
        if not self.game.is_empty():
            raise GtpError('board not empty')
        try:
            points = placement(count, self.game.size)
            self.game.place_handicap(points)
        except GameError as exc:
            raise GtpError(str(exc)) from None
        return ' '.join(vertex(p, self.game.size) for p in points)

    @command('set_free_handicap')
    def set_free_handicap(self, args):
        if not args:
            raise GtpError('syntax error')
        points = [parse_vertex(a, self.game.size) for a in args]
        if not self.game.is_empty():
            raise GtpError('board not empty')
        try:
            self.game.place_handicap(points)
        except GameError as exc:
            raise GtpError(str(exc)) from None
        return ''

    @command('kgs-rules')
    def kgs_rules(self, args):
        expect_args(args, 1)
        name = args[0].lower()
        if name not in RULESETS:
            raise GtpError(f'unknown rules, expected one of: {" ".join(RULESETS)}')
        self.game.ruleset = name
        return ''


class PlayHandlers(Family):
    """play, genmove and friends, undo, showboard, scoring."""

    @command('play')
    def play(self, args):
        expect_args(args, 2)
        color = parse_color(args[0])
        move = parse_vertex(args[1], self.game.size)
        try:
            self.game.play(color, move)
        except IllegalMove:
            raise GtpError('illegal move') from None
        return ''

    @command('genmove')
    def genmove(self, args):
        expect_args(args, 1)
        return self.engine.generate(parse_color(args[0]), play=True)

    @command('reg_genmove')
    def reg_genmove(self, args):
        expect_args(args, 1)
        return self.engine.generate(parse_color(args[0]), play=False)

    @command('kgs-genmove_cleanup')
    def genmove_cleanup(self, args):
        expect_args(args, 1)
        return self.engine.generate(parse_color(args[0]), play=True, cleanup=True)

    @command('undo')
    def undo(self, args):
        try:
            self.game.undo()
        except GameError as exc:
            raise GtpError(str(exc)) from None
        return ''

    @command('showboard')
    def showboard(self, args):
        return '\n' + render_board(self.game)

    @command('final_score')
    def final_score(self, args):
        return scoring.format_score(self.engine.score()[0])

    @command('final_status_list')
    def final_status_list(self, args):
        expect_args(args, 1)
        status = args[0].lower()
        if status not in ('alive', 'dead', 'seki'):
            raise GtpError('syntax error')
        if status == 'seki':      # not detected by our heuristic (see goengine.scoring)
            return ''
        dead = set(self.engine.score()[1])
        size = self.game.size
        stones = self.game.board.stones()
        points = [r * size + c for r in range(size) for c in range(size) if stones[r, c]]
        wanted = [p for p in points if (p in dead) == (status == 'dead')]
        return ' '.join(vertex(p, size) for p in wanted)

    @command('kgs-game_over')
    def game_over(self, args):
        self.engine.log('game over')
        return ''


class TimeHandlers(Family):
    """time_settings, kgs-time_settings, time_left, cputime."""

    @command('time_settings')
    def time_settings(self, args):
        expect_args(args, 3)
        main, byo_time, stones = (parse_int(a, low=0) for a in args)
        self.engine.clock.set_gtp(main, byo_time, stones)
        return ''

    @command('kgs-time_settings')
    def kgs_time_settings(self, args):
        if not args:
            raise GtpError('syntax error')
        kind = args[0].lower()
        values = [parse_int(a, low=0) for a in args[1:]]
        try:
            self.engine.clock.set_kgs(kind, *values)
        except ValueError:
            raise GtpError('syntax error') from None
        return ''

    @command('time_left')
    def time_left(self, args):
        expect_args(args, 3)
        color = parse_color(args[0])
        seconds = parse_float(args[1])
        stones = parse_int(args[2], low=0)
        if seconds < 0:
            raise GtpError('syntax error')
        self.engine.clock.time_left(color, seconds, stones)
        return ''

    @command('cputime')
    def cputime(self, args):
        return f'{time.process_time():.3f}'


class SgfHandlers(Family):
    """loadsgf and printsgf, through sgfmill."""

    @command('loadsgf')
    def loadsgf(self, args):
        expect_args(args, 1, 2)
        move_number = parse_int(args[1], low=0) if len(args) == 2 else None
        from goengine import sgffile
        try:
            with open(args[0], 'rb') as f:
                record = sgffile.parse_game(f.read(), os.path.basename(args[0]))
            game = from_record(record, move_number, self.game.ruleset)
        except (OSError, ValueError, GameError) as exc:
            self.engine.log(f'loadsgf {args[0]}: {exc}')
            raise GtpError('cannot load file') from None
        self.game.replace(game)
        return ''

    @command('printsgf')
    def printsgf(self, args):
        expect_args(args, 0, 1)
        text = game_to_sgf(self.game)
        if args:
            try:
                with open(args[0], 'wb') as f:
                    f.write(text)
            except OSError as exc:
                raise GtpError(f'cannot write file: {exc.strerror}') from None
            return ''
        return text.decode('utf-8')


class AnalyzeHandlers(Family):
    """Leela Zero's lz-analyze and lz-genmove_analyze (as used by Sabaki and Lizzie).

    Output: '=id', then lines of space-joined
    'info move D4 visits N winrate W prior P lcb L order K pv D4 Q16'
    entries (winrate/prior/lcb as integers 0..10000), one line per report,
    until the next command arrives; then the empty line ending the response.
    """

    @command('lz-analyze')
    def lz_analyze(self, args):
        color, interval = self.parse(args)
        engine = self.engine
        engine.write_partial(engine.response_head())
        report = self.reporter(color)
        engine.player.analyze(self.game.copy(), color, report, engine.interrupt,
                              interval if interval > 0 else 3600)
        return ''

    @command('lz-genmove_analyze')
    def lz_genmove_analyze(self, args):
        color, interval = self.parse(args)
        engine = self.engine
        engine.write_partial(engine.response_head())
        move = engine.choose(color, report=self.reporter(color),
                             interval=interval if interval > 0 else 3600)
        engine.commit(color, move)
        return f'play {move_text(move, self.game.size)}'

    def parse(self, args):
        """[color] [interval | interval N] [minmoves N] [maxmoves N] -> (color, seconds)."""
        color, interval = self.game.to_move, 1.0
        args = list(args)
        if args and args[0].lower() in ('b', 'w', 'black', 'white'):
            color = parse_color(args.pop(0))
        if args and args[0].isdigit():
            interval = parse_int(args.pop(0)) / 100
        while args:
            key = args.pop(0).lower()
            if key not in ('interval', 'minmoves', 'maxmoves') or not args:
                raise GtpError('syntax error')
            value = parse_int(args.pop(0), low=0)
            if key == 'interval':
                interval = value / 100
        return color, interval

    def reporter(self, color):
        size = self.game.size

        def report(infos):
            line = format_lz_info(infos, size)
            if line:
                self.engine.write_partial(line + '\n')
        return report


class GoguiHandlers(Family):
    """GoGui analyze commands: policy heatmap, value estimate, ladder planes."""

    ANALYZE_COMMANDS = [
        # %c: GoGui substitutes the colour chosen in its Analyze dialog
        # (the side to move unless the user picks the other).
        'gfx/Policy heatmap/goengine-policy_heatmap %c',
        'dboard/Policy (dboard)/goengine-policy_dboard %c',
        'string/Value estimate/goengine-value %c',
        'gfx/Ladder captures/goengine-ladder_captures %c',
        'gfx/Ladder escapes/goengine-ladder_escapes %c',
        'string/Final score (estimate)/final_score',
        'plist/Dead stones (estimate)/final_status_list dead',
    ]

    @command('gogui-analyze_commands')
    def analyze_commands(self, args):
        return '\n'.join(self.ANALYZE_COMMANDS)

    def _color(self, args):
        """Optional colour argument; the player to move by default."""
        expect_args(args, 0, 1)
        return parse_color(args[0]) if args else self.game.to_move

    def _policy(self, args):
        probs = self.engine.player.policy(self.game, self._color(args))
        if probs is None:
            raise GtpError('no policy network for this board')
        return probs

    @command('goengine-policy_heatmap')
    def policy_heatmap(self, args):
        probs, size = self._policy(args), self.game.size
        peak = max(float(probs.max()), 1e-9)
        points = [int(m) for m in probs.argsort()[::-1] if probs[m] > 0]
        influence = ' '.join(f'{vertex(m, size)} {probs[m] / peak:.3f}' for m in points)
        labels = ' '.join(f'{vertex(m, size)} {percent_label(probs[m])}' for m in points[:10])
        best = f'{vertex(points[0], size)} {100 * probs[points[0]]:.1f}%' if points else 'none'
        lines = [f'INFLUENCE {influence}' if influence else '',
                 f'LABEL {labels}' if labels else '',
                 f'TEXT policy best {best}']
        return '\n'.join(line for line in lines if line)

    @command('goengine-policy_dboard')
    def policy_dboard(self, args):
        probs, size = self._policy(args), self.game.size
        peak = max(float(probs.max()), 1e-9)
        rows = []
        for r in range(size - 1, -1, -1):
            rows.append(' '.join(f'{probs[r * size + c] / peak:.3f}' for c in range(size)))
        return '\n'.join(rows)

    @command('goengine-value')
    def value(self, args):
        color = self._color(args)
        winrate = self.engine.player.value(self.game, color)
        if winrate is None:
            raise GtpError('no value network for this board')
        who = 'Black' if color == BLACK else 'White'
        return f'{who} to move: win rate {100 * winrate:.1f}%'

    @command('goengine-ladder_captures')
    def ladder_captures(self, args):
        return self._ladder(args, 'is_ladder_capture', 'ladder captures')

    @command('goengine-ladder_escapes')
    def ladder_escapes(self, args):
        return self._ladder(args, 'is_ladder_escape', 'ladder escapes')

    def _ladder(self, args, method, label):
        """Points where AlphaGo's ladder capture / ladder escape feature is on, for a colour."""
        color = self._color(args)
        board, size = self.game.board, self.game.size
        test = getattr(board, method)
        points = [m for m in board.legal_moves(color) if m != PASS and test(m, color)]
        names = ' '.join(vertex(m, size) for m in points)
        who = 'Black' if color == BLACK else 'White'
        lines = [f'SQUARE {names}' if names else '', f'TEXT {who} {label}: {names or "none"}']
        return '\n'.join(line for line in lines if line)


FAMILIES = [AdminHandlers, SetupHandlers, PlayHandlers, TimeHandlers, SgfHandlers,
            AnalyzeHandlers, GoguiHandlers]


# -- the engine -------------------------------------------------------------

class GtpEngine:
    """Executes GTP lines against a GameState with a Player.

    handle(line) returns the complete response text for that line ('' for
    empty/comment lines) and also passes every piece to `write` as soon as
    it exists (streaming commands write several pieces).
    """

    def __init__(self, player=None, game=None, clock=None, write=None, interrupt=None,
                 log=None, verbose=False, score_playouts=scoring.DEFAULT_PLAYOUTS, ponder=False):
        self.player = player or SimplePlayer()
        self.game = game or GameState()
        self.clock = clock or TimeManager()
        self.write = write or (lambda text: None)
        # Anything with wait(timeout) -> bool; serve() installs its stdin reader.
        self.interrupt = interrupt or threading.Event()
        self.verbose = verbose
        self.ponder = ponder
        self._log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.score_playouts = score_playouts
        self.player.score_playouts = score_playouts
        self.quit_requested = False
        self.last_command = None
        self.handlers = {}
        for family in FAMILIES:
            for name, method in family(self).commands():
                self.handlers[name] = method
        self._current_id = None
        self._pieces = []
        self.streamed = False
        self._score_cache = None
        self.game.listeners.append(self._game_changed)

    def _game_changed(self, event, game):
        """Clock hook: a new game (clear_board, boardsize, loadsgf) restarts the clocks."""
        if event in ('clear', 'load'):
            self.clock.reset()

    def log(self, message):
        self._log(f'goengine: {message}')

    # -- one line ------------------------------------------------------

    def handle(self, line):
        cmd = parse_command(line)
        if cmd is None:
            return ''
        self._current_id, self._pieces, self.streamed = cmd.id, [], False
        self.last_command = cmd.name
        if self.verbose:
            self.log(f'<< {line.strip()}')
        snapshot = self.game.copy()
        handler = self.handlers.get(cmd.name)
        try:
            if not cmd.name:
                raise GtpError('missing command')
            if handler is None:
                raise GtpError('unknown command')
            result = handler(cmd.args)
            if self.streamed:     # head and info lines are out: end the response
                tail = (result + '\n\n') if result else '\n'
            else:
                tail = format_response(cmd.id, True, result)
        except GtpError as exc:
            tail = self._failure(cmd.id, str(exc))
        except Exception as exc:   # a bug: report it, keep the game as it was
            self.log(f'internal error in {cmd.name}: {traceback.format_exc()}')
            self._restore(snapshot)
            tail = self._failure(cmd.id, f'internal error: {type(exc).__name__}')
        self.write_partial(tail)
        response = ''.join(self._pieces)
        if self.verbose:
            self.log(f'>> {response.rstrip()}')
        return response

    def _failure(self, cmd_id, message):
        if self.streamed or self._pieces:    # a stream was started: just end it
            return '\n'
        return format_response(cmd_id, False, message)

    def _restore(self, snapshot):
        listeners = self.game.listeners
        self.game.__dict__.update(snapshot.__dict__)
        self.game.listeners = listeners

    def response_head(self):
        """First line of a streamed success response ('=id')."""
        self.streamed = True
        return '=' + ('' if self._current_id is None else str(self._current_id)) + '\n'

    def write_partial(self, text):
        if text:
            self._pieces.append(text)
            self.write(text)

    # -- moves ---------------------------------------------------------

    def choose(self, color, cleanup=False, report=None, interval=1.0):
        """Ask the player for a move within the time budget; charge the clock."""
        game = self.game
        budget = self.clock.budget(color, game.move_number, game.size)
        start = time.monotonic()
        move = self.player.genmove(game.copy(), color, budget, cleanup=cleanup,
                                   report=report, interval=interval)
        self.clock.charge(color, time.monotonic() - start)
        if move not in (PASS, RESIGN) and not game.board.is_legal(move, color):
            self.log(f'player chose illegal move {move}; passing instead')
            move = PASS
        return move

    def commit(self, color, move):
        if move != RESIGN:
            self.game.play(color, move)

    def generate(self, color, play=True, cleanup=False):
        move = self.choose(color, cleanup=cleanup)
        if play:
            self.commit(color, move)
        return move_text(move, self.game.size)

    def score(self):
        """(score, dead stones) for the current position, cached by position."""
        board = self.game.board
        key = (board.hash, board.size, self.game.komi)
        if self._score_cache is None or self._score_cache[0] != key:
            dead = scoring.dead_stones(board, self.score_playouts, rollout=self.player.score_rollout)
            self._score_cache = (key, scoring.final_score(board, dead), dead)
        return self._score_cache[1], self._score_cache[2]

    # -- idle time -----------------------------------------------------

    def idle(self):
        """Ponder after our own move until the next command arrives (if enabled)."""
        ours = ('genmove', 'kgs-genmove_cleanup', 'lz-genmove_analyze')
        if self.ponder and self.last_command in ours and not self.game.is_over():
            self.player.ponder(self.game.copy(), self.interrupt)


def percent_label(p):
    """A board label of at most 3 characters: '31' (%), '.4' under 1 %."""
    percent = 100 * float(p)
    return f'{percent:.0f}' if percent >= 0.95 else f'{percent:.1f}'.lstrip('0')


def render_board(game):
    """Human-readable diagram with GTP coordinates (spec 2.11), last move in ()."""
    board, size = game.board, game.size
    stones = board.stones()
    header = '   ' + ' '.join(coords.to_gtp(c, size)[0] for c in range(size))
    last = game.last_move[1] if game.last_move else None
    lines = [header]
    for r in range(size - 1, -1, -1):
        row = ''
        for c in range(size):
            p = r * size + c
            sep = '(' if p == last else ')' if (c > 0 and p - 1 == last) else ' '
            row += sep + '.XO'[int(stones[r, c])]
        row += ')' if last == r * size + size - 1 else ' '
        lines.append(f'{r + 1:>2}{row}{r + 1}')
    lines.append(header)
    who = 'Black' if board.to_move == BLACK else 'White'
    lines.append(f'{who} to move, move {game.move_number}, komi {game.komi:g}, '
                 f'captures B {board.captures(BLACK)} W {board.captures(WHITE)}, '
                 f'rules {game.ruleset}')
    return '\n'.join(lines)


def format_lz_info(infos, size):
    """Leela Zero's one-line analysis format for a list of MoveInfo."""
    def permyriad(x):
        return max(0, min(10000, int(round(10000 * x))))
    parts = []
    for order, info in enumerate(infos):
        pv = ' '.join(vertex(m, size) for m in (info.pv or [info.move]))
        parts.append(f'info move {vertex(info.move, size)} visits {int(info.visits)} '
                     f'winrate {permyriad(info.winrate)} prior {permyriad(info.prior)} '
                     f'lcb {permyriad(info.lcb)} order {order} pv {pv}')
    return ' '.join(parts)


def game_to_sgf(game):
    """The game as SGF bytes (sgfmill): size, komi, rules, handicap, moves."""
    from sgfmill import sgf
    record = sgf.Sgf_game(game.size)
    root = record.get_root()
    root.set('KM', game.komi)
    root.set('RU', game.ruleset.capitalize() if game.ruleset != 'tromp-taylor' else 'Tromp-Taylor')
    root.set('AP', (ENGINE_NAME, ENGINE_VERSION))
    size = game.size

    def rowcol(move):
        return None if move == PASS else coords.to_rowcol(move, size)
    if game.setup_black:
        root.set_setup_stones([rowcol(p) for p in game.setup_black],
                              [rowcol(p) for p in game.setup_white])
        if game.handicap:
            root.set('HA', game.handicap)
    elif game.setup_white:
        root.set_setup_stones([], [rowcol(p) for p in game.setup_white])
    if game.moves and game.moves[0][0] != (WHITE if game.handicap else BLACK):
        root.set('PL', 'b' if game.moves[0][0] == BLACK else 'w')
    elif not game.moves and (game.setup_black or game.setup_white):
        root.set('PL', 'b' if game.to_move == BLACK else 'w')
    node = root
    for color, move in game.moves:
        node = node.new_child()
        node.set_move('b' if color == BLACK else 'w', rowcol(move))
    return record.serialise()


# -- the stdin/stdout loop -----------------------------------------------

class LineReader:
    """Reads lines from a file descriptor on a thread, so a running command can
    see that the next one has arrived (`wait`). Reads with os.read: a daemon
    thread blocked inside a buffered stdin would hang interpreter shutdown.
    """

    def __init__(self, fd):
        self.fd = fd
        self.lines = deque()
        self.eof = False
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name='gtp-stdin', daemon=True)
        self.thread.start()

    def _run(self):
        buffer = b''
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                break
            buffer += chunk
            *complete, buffer = buffer.split(b'\n')
            if complete:
                with self.cond:
                    self.lines.extend(line.decode('utf-8', 'replace') for line in complete)
                    self.cond.notify_all()
        with self.cond:
            if buffer:
                self.lines.append(buffer.decode('utf-8', 'replace'))
            self.eof = True
            self.cond.notify_all()

    def pending(self):
        return bool(self.lines) or self.eof

    def wait(self, timeout):
        """True once a line (or EOF) is waiting; otherwise False after `timeout`."""
        with self.cond:
            return self.cond.wait_for(self.pending, timeout)

    def get(self):
        """Next line, or None at EOF."""
        with self.cond:
            self.cond.wait_for(self.pending)
            return self.lines.popleft() if self.lines else None


def serve(engine, in_fd=0, out=None):
    """Run the GTP loop on stdin/stdout until quit or EOF. Returns the exit code."""
    out = out or sys.stdout
    reader = LineReader(in_fd)
    engine.interrupt = reader

    def write(text):
        out.write(text)
        out.flush()
    engine.write = write
    try:
        while not engine.quit_requested:
            line = reader.get()
            if line is None:
                break
            engine.handle(line)
            if not engine.quit_requested and not reader.pending():
                engine.idle()
    except BrokenPipeError:
        pass
    except KeyboardInterrupt:
        return 130
    return 0
