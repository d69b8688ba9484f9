"""The GTP commands goengine answers, in families (as Minigo's gtp_cmd_handlers).

Administration, setup, play, time, SGF, analysis and GoGui; KGS extensions sit
with their family. Each method marked with @command implements one GTP
command and reads or changes the engine's state (gtp.GtpEngine). A handler
raises GtpError(message) for a `?` response and must leave the state
unchanged when it does. Colours ('b', 'black', ...) and vertices ('D4',
'pass') are case-insensitive.

Streaming commands (lz-analyze, lz-genmove_analyze) write partial output as
they go and stop when `engine.interrupt.wait()` says new input is pending.
"""

import os
import time
from dataclasses import replace

from goengine import BLACK, PASS, WHITE, IllegalMove, __version__
from goengine.game import coords, sgffile
from goengine.rollout import scoring
from goengine.game.state import MAX_SIZE, MIN_SIZE, RULESETS, GameError, \
    fixed_handicap_points, free_handicap_points, from_record
from goengine.gtp.protocol import PROTOCOL_VERSION, GtpError, command, expect_args, \
    parse_float, parse_int
from goengine.game.moves import RESIGN

ENGINE_NAME = 'goengine'
ENGINE_VERSION = __version__   # 0.16 and up: Lizzie takes it for an analysis engine
# KataGo's kata-analyze options that take true|false (ownership is drawn; the rest accepted).
KATA_FLAGS = ('ownership', 'ownershipstdev', 'movesownership', 'pvvisits', 'pvedgevisits',
              'rootinfo')


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


def move_text(move, size):
    return 'resign' if move == RESIGN else coords.to_gtp(move, size)


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
        points = self._place(lambda: placement(count, self.game.size))
        return ' '.join(coords.to_gtp(p, self.game.size) for p in points)

    @command('set_free_handicap')
    def set_free_handicap(self, args):
        if not args:
            raise GtpError('syntax error')
        points = [parse_vertex(a, self.game.size) for a in args]
        self._place(lambda: points)
        return ''

    def _place(self, points_of):
        """Put the handicap stones points_of() on the empty board; returns them."""
        if not self.game.is_empty():
            raise GtpError('board not empty')
        try:
            points = points_of()
            self.game.place_handicap(points)
        except GameError as exc:
            raise GtpError(str(exc)) from None
        return points

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
        _, dead, seki = self.engine.score()
        size = self.game.size
        stones = self.game.board.stones()
        points = [r * size + c for r in range(size) for c in range(size) if stones[r, c]]
        called = {'dead': set(dead), 'seki': set(seki)}
        if status == 'alive':
            wanted = [p for p in points if p not in called['dead'] and p not in called['seki']]
        else:
            wanted = [p for p in points if p in called[status]]
        return ' '.join(coords.to_gtp(p, size) for p in wanted)

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
        try:
            with open(args[0], 'rb') as f:
                record = sgffile.parse_game(f.read(), os.path.basename(args[0]))
            # A record without a readable KM keeps the komi the controller set (GNU Go too).
            game = from_record(record, move_number, self.game.ruleset,
                               default_komi=self.game.komi)
        except OSError as exc:
            self.engine.log(f'loadsgf {args[0]}: {exc.strerror or exc}')
            raise GtpError('cannot load file') from None
        except (ValueError, GameError) as exc:
            self.engine.log(f'loadsgf {args[0]}: {exc}')
            raise GtpError('cannot load file') from None
        for warning in record.warnings:
            self.engine.log(f'loadsgf {args[0]}: {warning}; komi stays {game.komi:g}')
        self.game.replace(game)
        return ''

    @command('printsgf')
    def printsgf(self, args):
        expect_args(args, 0, 1)
        text = sgffile.game_to_sgf(self.game, (ENGINE_NAME, ENGINE_VERSION))
        if args:
            try:
                with open(args[0], 'wb') as f:
                    f.write(text)
            except OSError as exc:
                raise GtpError(f'cannot write file: {exc.strerror}') from None
            return ''
        return text.decode('utf-8')


class AnalyzeHandlers(Family):
    """Leela Zero's lz-analyze and lz-genmove_analyze, KataGo's kata-analyze
    (as Sabaki and Lizzie use them).

    Output: '=id', then lines of space-joined
    'info move D4 visits N winrate W prior P lcb L order K pv D4 Q16'
    entries, one line per report, until the next command arrives; then the
    empty line ending the response. lz-analyze gives winrate/prior/lcb as
    integers 0..10000, kata-analyze as fractions plus 'scoreLead' (points the
    side to move ends ahead by after the move: a four-headed network's score
    head where the player has one, else the mean final score of the move's
    rollouts where the player searches), and with `ownership true`
    ends each line with 'ownership' and one value per point in [-1, 1] for
    the side to move, rows from the top (what Sabaki draws as territory).
    """

    @command('lz-analyze')
    def lz_analyze(self, args):
        color, interval, _, barred = self.parse(args)
        return self.analyze(color, interval, format_lz_info, barred=barred)

    @command('lz-genmove_analyze')
    def lz_genmove_analyze(self, args):
        color, interval, _, _ = self.parse(args)
        engine = self.engine
        engine.write_partial(engine.response_head())
        move = engine.choose(color, report=self.reporter(format_lz_info),
                             interval=interval if interval > 0 else 3600)
        engine.commit(color, move)
        return f'play {move_text(move, self.game.size)}'

    @command('kata-analyze')
    def kata_analyze(self, args):
        color, interval, ownership, barred = self.parse(args, ownership=True)
        tail = ' ' + format_ownership(self.ownership(color), color) if ownership else ''
        leads = HeadScoreLeads(self.engine.player, self.game.copy(), color)
        return self.analyze(color, interval,
                            lambda infos, size: format_kata_info(leads.apply(infos), size), tail,
                            barred)

    def analyze(self, color, interval, formatter, tail='', barred=None):
        """Stream the player's analysis of the position until the next command arrives."""
        engine = self.engine
        engine.write_partial(engine.response_head())
        engine.player.analyze(self.game.copy(), color, self.reporter(formatter, tail),
                              engine.interrupt, interval if interval > 0 else 3600,
                              barred=barred or {})
        return ''

    def ownership(self, color):
        """The player's ownership of the position with `color` to move: a four-headed
        network's ownership head, else the dead-stone scorer's playouts."""
        return self.engine.player.ownership(self.game.copy(), color)

    def parse(self, args, ownership=False):
        """The arguments of Leela Zero 0.17's lz-analyze and KataGo's kata-analyze:
        [color] [interval | interval N] [minmoves N] [maxmoves N] [avoid|allow COLOR
        VERTICES UNTIL]... and, with `ownership` (kata-analyze), [ownership true|false] and
        KataGo's other true|false options (accepted, not drawn). VERTICES is a comma list;
        avoid bars those moves to COLOR for the first UNTIL plies of the search, allow bars
        all others. -> (color, seconds, ownership, barred), barred as Tree.restrict takes it."""
        size = self.game.size
        color, interval, wants_ownership, barred = self.game.to_move, 1.0, False, {}
        args = list(args)
        if args and args[0].lower() in ('b', 'w', 'black', 'white'):
            color = parse_color(args.pop(0))
        if args and args[0].isdigit():
            interval = parse_int(args.pop(0)) / 100
        while args:
            key = args.pop(0).lower()
            if key in ('avoid', 'allow'):
                if len(args) < 3:
                    raise GtpError('syntax error')   # avoid|allow COLOR VERTICES UNTIL
                who = parse_color(args.pop(0))
                moves = {parse_vertex(v, size) for v in args.pop(0).split(',') if v}
                until = parse_int(args.pop(0), low=1)
                if key == 'allow':
                    moves = {m for m in [PASS, *range(size * size)] if m not in moves}
                for move in moves:
                    barred[who, move] = max(until, barred.get((who, move), 0))
                continue
            if not args:
                raise GtpError('syntax error')
            if ownership and key in KATA_FLAGS:
                value = args.pop(0).lower()
                if value not in ('true', 'false'):
                    raise GtpError('syntax error')
                if key == 'ownership':
                    wants_ownership = value == 'true'
                continue
            if key not in ('interval', 'minmoves', 'maxmoves'):
                raise GtpError('syntax error')
            value = parse_int(args.pop(0), low=0)
            if key == 'interval':
                interval = value / 100
        return color, interval, wants_ownership, barred

    def reporter(self, formatter, tail=''):
        size = self.game.size

        def report(infos):
            line = formatter(infos, size)
            if line:
                self.engine.write_partial(line + tail + '\n')
        return report


class HeadScoreLeads:
    """kata-analyze's scoreLead from the player's score head, where it has one: each
    reported move's position is evaluated once (one batched call for the moves new to a
    report) and remembered for the rest of the analysis."""

    def __init__(self, player, game, color):
        self.player, self.game, self.color = player, game, color
        self.leads = {}
        self.available = True

    def apply(self, infos):
        """`infos` with score_lead from the head (unchanged without a score head)."""
        if not self.available:
            return infos
        new = [info.move for info in infos if info.move not in self.leads]
        if new:
            leads = self.player.child_score_leads(self.game, self.color, new)
            if leads is None:
                self.available = False
                return infos
            self.leads.update(zip(new, leads))
        return [replace(info, score_lead=self.leads[info.move]) if info.move in self.leads
                else info for info in infos]


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
        influence = ' '.join(f'{coords.to_gtp(m, size)} {probs[m] / peak:.3f}' for m in points)
        labels = ' '.join(f'{coords.to_gtp(m, size)} {percent_label(probs[m])}' for m in points[:10])
        best = f'{coords.to_gtp(points[0], size)} {100 * probs[points[0]]:.1f}%' if points else 'none'
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
        names = ' '.join(coords.to_gtp(m, size) for m in points)
        who = 'Black' if color == BLACK else 'White'
        lines = [f'SQUARE {names}' if names else '', f'TEXT {who} {label}: {names or "none"}']
        return '\n'.join(line for line in lines if line)


FAMILIES = [AdminHandlers, SetupHandlers, PlayHandlers, TimeHandlers, SgfHandlers,
            AnalyzeHandlers, GoguiHandlers]


# -- formatting ---------------------------------------------------------------

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


def format_info(infos, size, number, score=False):
    """The 'info move ... pv ...' entries of a list of MoveInfo, `number` formatting
    win rate, prior and lcb (what Leela Zero's and KataGo's formats differ in,
    besides KataGo's scoreLead, which `score` adds where a move has one)."""
    parts = []
    for order, info in enumerate(infos):
        pv = ' '.join(coords.to_gtp(m, size) for m in (info.pv or [info.move]))
        lead = (f'scoreLead {info.score_lead:.2f} '
                if score and info.score_lead is not None else '')
        parts.append(f'info move {coords.to_gtp(info.move, size)} visits {int(info.visits)} '
                     f'winrate {number(info.winrate)} {lead}prior {number(info.prior)} '
                     f'lcb {number(info.lcb)} order {order} pv {pv}')
    return ' '.join(parts)


def format_kata_info(infos, size):
    """KataGo's analysis format: win rates and priors as fractions, and scoreLead."""
    return format_info(infos, size, lambda x: f'{x:.6f}', score=True)


def format_ownership(own, color):
    """'ownership' and size*size values for the side to move, rows from the top (row 19 first)."""
    sign = 1.0 if color == BLACK else -1.0
    size = own.shape[0]
    values = (f'{sign * float(own[row, col]):.4f}'.replace('-0.0000', '0.0000')
              for row in range(size - 1, -1, -1) for col in range(size))
    return 'ownership ' + ' '.join(values)


def format_lz_info(infos, size):
    """Leela Zero's analysis format: win rates and priors as integers 0..10000."""
    return format_info(infos, size, lambda x: max(0, min(10000, int(round(10000 * x)))))
