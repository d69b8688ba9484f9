"""The GTP commands goengine answers, in families (as Minigo's gtp_cmd_handlers):
administration, setup, play, time and SGF here, analysis in goengine.gtp.analyze, GoGui's
in goengine.gtp.gogui; KGS extensions sit with their family. Each method marked with @command implements one GTP
command and reads or changes the engine's state (gtp.GtpEngine). A handler
raises GtpError(message) for a `?` response and must leave the state
unchanged when it does. Colours ('b', 'black', ...) and vertices ('D4',
'pass') are case-insensitive.

Streaming commands (lz-analyze, lz-genmove_analyze) write partial output as
they go and stop when `engine.interrupt.wait()` says new input is pending.
"""

import time

from goengine import BLACK, WHITE, IllegalMove
from goengine.game import coords, sgffile
from goengine.rollout import scoring
from goengine.game.state import MAX_SIZE, MIN_SIZE, RULESETS, GameError, \
    fixed_handicap_points, free_handicap_points, from_record
from goengine.gtp.protocol import PROTOCOL_VERSION, GtpError, command, expect_args, \
    parse_float, parse_int
from goengine.gtp.analyze import AnalyzeHandlers
from goengine.gtp.family import ENGINE_NAME, ENGINE_VERSION, Family, parse_color, parse_vertex
from goengine.gtp.gogui import GoguiHandlers

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
        try:   # FILE:N: game N of a collection (sgffile.read_record), for regression suites
            record = sgffile.parse_game(*sgffile.read_record(args[0]))
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


FAMILIES = [AdminHandlers, SetupHandlers, PlayHandlers, TimeHandlers, SgfHandlers,
            AnalyzeHandlers, GoguiHandlers]


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
