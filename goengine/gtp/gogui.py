"""GoGui's analyze commands: the policy heatmap, the value, the ladder planes."""

from goengine import BLACK, PASS
from goengine.game import coords
from goengine.gtp.family import Family, parse_color
from goengine.gtp.protocol import GtpError, command, expect_args

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
        probs = self.engine.player.answers.policy(self.game, self._color(args))
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
        winrate = self.engine.player.win_rate(self.game, color)
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


def percent_label(p):
    """A board label of at most 3 characters: '31' (%), '.4' under 1 %."""
    percent = 100 * float(p)
    return f'{percent:.0f}' if percent >= 0.95 else f'{percent:.1f}'.lstrip('0')
