"""Analysis: Leela Zero's lz-analyze and lz-genmove_analyze, KataGo's kata-analyze, and
the info lines they stream (as Sabaki and Lizzie read them)."""

from goengine import BLACK, PASS
from goengine.game import coords
from goengine.gtp.family import Family, move_text, parse_color, parse_vertex
from goengine.gtp.protocol import GtpError, command, parse_int
from goengine.players.heads import ChildScoreLeads

# KataGo's kata-analyze options that take true|false (ownership is drawn; the rest accepted).
KATA_FLAGS = ('ownership', 'ownershipstdev', 'movesownership', 'pvvisits', 'pvedgevisits',
              'rootinfo')


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
        leads = ChildScoreLeads(self.engine.player.answers, self.game.copy(), color)
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

        def report(result):
            line = formatter(result.candidates, size)
            if line:
                self.engine.write_partial(line + tail + '\n')
        return report


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
    flat = own.reshape(-1)   # [row, col] row-major: a move's own index
    values = (f'{sign * float(flat[move]):.4f}'.replace('-0.0000', '0.0000')
              for move in coords.top_down(own.shape[0]))
    return 'ownership ' + ' '.join(values)


def format_lz_info(infos, size):
    """Leela Zero's analysis format: win rates and priors as integers 0..10000."""
    return format_info(infos, size, lambda x: max(0, min(10000, int(round(10000 * x)))))
