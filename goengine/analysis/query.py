"""One line of KataGo's analysis protocol read: a Query of positions to analyse, or an
Action, or a QueryError naming the field at fault (docs: KataGo's Analysis_Engine.md).

Everything a line says is checked here, before anything is queued, so that a bad query
is one error line and changes nothing.
"""

import json
import math
from dataclasses import dataclass, field

from goengine import BLACK, PASS, WHITE, IllegalMove
from goengine.game import coords
from goengine.game.state import MAX_SIZE, MIN_SIZE, GameError, GameState

# The rules a query may name, as goengine counts them: by area always (rollout/scoring.py);
# Japanese and Korean are counted by area too, which the answer's warning says.
RULES = {'chinese': 'chinese', 'tromp-taylor': 'tromp-taylor', 'aga': 'aga',
         'new-zealand': 'new_zealand', 'new_zealand': 'new_zealand', 'japanese': 'japanese',
         'korean': 'japanese', 'stone-scoring': 'chinese'}
TERRITORY_RULES = ('japanese', 'korean')
PERSPECTIVES = ('BLACK', 'WHITE', 'SIDETOMOVE')
ACTIONS = ('query_version', 'clear_cache', 'terminate', 'terminate_all', 'query_models')
MAX_LINE = 1 << 20   # a line longer than this is refused unread (no real query comes near)
MAX_VISITS = 2 ** 31 - 1   # the search counts its playouts in C ints


class QueryError(ValueError):
    """A line that cannot be analysed: KataGo's {"error": ..., "field": ..., "id": ...}."""

    def __init__(self, message, field_name=None, query_id=None):
        super().__init__(message)
        self.field, self.id = field_name, query_id

    def answer(self):
        out = {'error': str(self)}
        if self.field is not None:
            out['field'] = self.field
        if self.id is not None:
            out['id'] = self.id
        return out


@dataclass
class Action:
    """A special query: 'query_version', 'clear_cache', 'terminate' (terminate_id, turns),
    'terminate_all' or 'query_models'; `fields` the line as it came (echoed back)."""
    name: str
    id: str
    fields: dict
    terminate_id: str = None
    turns: list = None


@dataclass
class Query:
    """Positions of one game to analyse: turn t is the position after `moves[:t]`."""
    id: str
    size: int
    komi: float
    ruleset: str
    initial_black: list
    initial_white: list
    initial_player: int
    moves: list                    # [(colour, move)]
    turns: list                    # the turns to analyse, as asked
    priorities: list               # one a turn
    max_visits: int = None
    max_time: float = None
    report_every: float = None
    include_ownership: bool = False
    include_moves_ownership: bool = False
    include_policy: bool = False
    include_pv_visits: bool = False
    perspective: str = 'BLACK'     # reportAnalysisWinratesAs
    barred: dict = field(default_factory=dict)   # {(colour, move): plies}, Tree.restrict's
    warnings: list = field(default_factory=list)  # (field, message)

    def game_at(self, turn):
        """(GameState, colour to move) at `turn`; the moves were checked legal at parse."""
        game = self._start()
        for colour, move in self.moves[:turn]:
            game.play(colour, move)
        colour = self.moves[turn][0] if turn < len(self.moves) else (
            game.to_move if self.moves else self.initial_player)
        return game, colour

    def _start(self):
        game = GameState(self.size, self.komi, self.ruleset)
        if self.initial_black or self.initial_white:
            game.setup(self.initial_black, self.initial_white,
                       self.moves[0][0] if self.moves else self.initial_player)
        return game


def parse(line, default_visits=None):
    """The Query or Action one line of the protocol holds. Raises QueryError."""
    if len(line) > MAX_LINE:
        raise QueryError(f'line of {len(line)} characters is longer than {MAX_LINE}')
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:
        raise QueryError(f'could not parse JSON: {exc}') from None
    if not isinstance(data, dict):
        raise QueryError('a query is a JSON object')
    query_id = data.get('id')
    if not isinstance(query_id, str):
        raise QueryError('id must be a string', 'id')
    if 'action' in data:
        return _action(data, query_id)
    return _query(data, query_id, default_visits)


def _action(data, query_id):
    name = data['action']
    if name not in ACTIONS:
        raise QueryError(f'unknown action {name!r}', 'action', query_id)
    action = Action(name, query_id, data)
    if name == 'terminate':
        action.terminate_id = data.get('terminateId')
        if not isinstance(action.terminate_id, str):
            raise QueryError('terminateId must be a string', 'terminateId', query_id)
        turns = data.get('turnNumbers')
        if turns is not None and not _ints(turns):
            raise QueryError('turnNumbers must be a list of integers', 'turnNumbers', query_id)
        action.turns = turns
    return action


def _query(data, query_id, default_visits):
    def error(message, name):
        return QueryError(message, name, query_id)

    def get(name, kind, default=None, check=None, what=''):
        value = data.get(name, default)
        if value is default:
            return value
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)) or (
                check is not None and not check(value)):
            raise error(f'{name} must be {what or kind.__name__}', name)
        return value

    warnings = []
    x = get('boardXSize', int, None, lambda v: MIN_SIZE <= v <= MAX_SIZE,
            f'an integer from {MIN_SIZE} to {MAX_SIZE}')
    y = get('boardYSize', int, None, lambda v: MIN_SIZE <= v <= MAX_SIZE,
            f'an integer from {MIN_SIZE} to {MAX_SIZE}')
    if x is None or y is None:
        raise error('boardXSize and boardYSize are required', 'boardXSize' if x is None
                    else 'boardYSize')
    if x != y:
        raise error('only square boards are supported', 'boardYSize')
    size = x
    rules = data.get('rules', 'chinese')
    if isinstance(rules, dict):   # KataGo's full rules objects: counted by area here
        warnings.append(('rules', 'rules objects are not read: counted by area (Chinese)'))
        rules = 'chinese'
    if not isinstance(rules, str):
        raise error('rules must be a string or a rules object', 'rules')
    key = rules.strip().lower()
    if key not in RULES:
        raise error(f'unknown rules {rules!r} (known: {", ".join(RULES)})', 'rules')
    if key in TERRITORY_RULES:
        warnings.append(('rules', f'{rules} rules: counted by area, not by territory'))
    komi = get('komi', float, 7.5, lambda v: math.isfinite(v) and -150 <= v <= 150
               and (2 * v).is_integer(), 'an integer or half-integer in [-150, 150]')
    black, white = [], []
    for colour, move in _stones(data.get('initialStones', []), size, 'initialStones', error):
        if move == PASS:
            raise error('an initial stone cannot be a pass', 'initialStones')
        (black if colour == BLACK else white).append(move)
    initial_player = _colour(data.get('initialPlayer', 'W' if black and not white else 'B'),
                             'initialPlayer', error)
    if 'moves' not in data:
        raise error('moves is required', 'moves')
    moves = _stones(data['moves'], size, 'moves', error)
    turns = get('analyzeTurns', list, [len(moves)], _ints, 'a list of integers')
    if not turns or any(not 0 <= t <= len(moves) for t in turns):
        raise error(f'analyzeTurns must be turns from 0 to {len(moves)}', 'analyzeTurns')
    priority = get('priority', int, 0)
    priorities = get('priorities', list, [priority] * len(turns),
                     lambda v: _ints(v) and len(v) == len(turns),
                     'a list of integers as long as analyzeTurns')
    query = Query(query_id, size, komi, RULES[key], black, white, initial_player, moves,
                  list(turns), list(priorities), warnings=warnings)
    query.max_visits = get('maxVisits', int, default_visits, lambda v: 1 <= v <= MAX_VISITS,
                           f'an integer from 1 to {MAX_VISITS}')
    query.max_time = get('maxTime', float, None, lambda v: math.isfinite(v) and v > 0,
                         'a positive number of seconds')
    query.report_every = get('reportDuringSearchEvery', float, None,
                             lambda v: math.isfinite(v) and v > 0, 'a positive number')
    for name, attribute in (('includeOwnership', 'include_ownership'),
                            ('includeMovesOwnership', 'include_moves_ownership'),
                            ('includePolicy', 'include_policy'),
                            ('includePVVisits', 'include_pv_visits')):
        setattr(query, attribute, get(name, bool, False))
    settings = get('overrideSettings', dict, {})
    perspective = settings.get('reportAnalysisWinratesAs', 'BLACK')
    if perspective not in PERSPECTIVES:
        raise error(f'reportAnalysisWinratesAs must be one of {", ".join(PERSPECTIVES)}',
                    'overrideSettings')
    query.perspective = perspective
    if 'maxTime' in settings:   # where KaTrain puts it
        seconds = settings['maxTime']
        if (not isinstance(seconds, (int, float)) or isinstance(seconds, bool)
                or not math.isfinite(seconds) or seconds <= 0):
            raise error('overrideSettings.maxTime must be a positive number of seconds',
                        'overrideSettings')
        query.max_time = min(float(seconds), query.max_time or math.inf)
    for name in settings:
        if name not in ('reportAnalysisWinratesAs', 'maxTime'):
            warnings.append(('overrideSettings', f'{name} is not a goengine setting: ignored'))
    query.barred = _barred(data, size, error)
    _replay(query, error)
    return query


def _ints(value):
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value)


def _colour(text, name, error):
    if text in ('B', 'b'):
        return BLACK
    if text in ('W', 'w'):
        return WHITE
    raise error(f'{name}: a player is "B" or "W"', name)


def _point(text, size, name, error):
    if not isinstance(text, str):
        raise error(f'{name}: a location is a string such as "D4" or "pass"', name)
    try:
        return coords.from_gtp(text, size)
    except ValueError:
        raise error(f'{name}: {text!r} is not a point of a {size}x{size} board', name) from None


def _stones(items, size, name, error):
    """[(colour, move)] of a list of [player, location] pairs."""
    if not isinstance(items, list):
        raise error(f'{name} must be a list of [player, location] pairs', name)
    out = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 2):
            raise error(f'{name} must be a list of [player, location] pairs', name)
        out.append((_colour(item[0], name, error), _point(item[1], size, name, error)))
    return out


def _barred(data, size, error):
    """avoidMoves and allowMoves as {(colour, move): plies} (Tree.restrict's form)."""
    barred = {}
    for name in ('avoidMoves', 'allowMoves'):
        rules = data.get(name, [])
        if not isinstance(rules, list) or (name == 'allowMoves' and len(rules) > 1):
            raise error(f'{name} must be a list of dicts'
                        + (' (at most one)' if name == 'allowMoves' else ''), name)
        for rule in rules:
            if not (isinstance(rule, dict) and isinstance(rule.get('moves'), list)
                    and isinstance(rule.get('untilDepth'), int)
                    and not isinstance(rule.get('untilDepth'), bool)
                    and rule['untilDepth'] >= 1):
                raise error(f'{name}: each dict needs player, moves and a positive untilDepth',
                            name)
            colour = _colour(rule.get('player'), name, error)
            moves = {_point(text, size, name, error) for text in rule['moves']}
            if name == 'allowMoves':
                moves = {m for m in [PASS, *range(size * size)] if m not in moves}
            for move in moves:
                barred[colour, move] = max(rule['untilDepth'], barred.get((colour, move), 0))
    return barred


def _replay(query, error):
    """Check the setup and every move legal once, so the searches never meet a bad one."""
    try:
        game = query._start()
    except GameError as exc:
        raise error(f'initialStones: {exc}', 'initialStones') from None
    for number, (colour, move) in enumerate(query.moves):
        try:
            game.play(colour, move)
        except (IllegalMove, GameError) as exc:
            raise error(f'Illegal move {number}: {coords.to_gtp(move, query.size)} ({exc})',
                        'moves') from None
