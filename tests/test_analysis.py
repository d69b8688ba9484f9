"""goengine-analysis: KataGo's analysis engine protocol (goengine.analysis), checked
against the queries and answers of KataGo's docs/Analysis_Engine.md."""

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from goengine import WHITE
from goengine.analysis.engine import AnalysisEngine
from goengine.players.policy_player import SimplePlayer

REPO = Path(__file__).resolve().parent.parent
# The example query of KataGo's docs/Analysis_Engine.md, word for word.
EXAMPLE = ('{"id":"foo","initialStones":[["B","Q4"],["B","C4"]],"moves":[["W","P5"],'
           '["B","P6"]],"rules":"tromp-taylor","komi":7.5,"boardXSize":19,"boardYSize":19,'
           '"analyzeTurns":[0,1,2]}')


class Lines:
    """What an AnalysisEngine writes, as parsed JSON, with a wait for a count of them."""

    def __init__(self):
        self.items, self.lock = [], threading.Condition()

    def write(self, text):
        assert text.endswith('\n') and text.count('\n') == 1
        with self.lock:
            self.items.append(json.loads(text))
            self.lock.notify_all()

    def wait_for(self, test, timeout=60):
        deadline = time.monotonic() + timeout
        with self.lock:
            while not any(test(item) for item in self.items):
                left = deadline - time.monotonic()
                assert left > 0, f'no such line in {self.items[-5:]}'
                self.lock.wait(left)

    def finals(self):
        return [item for item in self.items if item.get('isDuringSearch') is False]


def engine_of(player=None):
    lines = Lines()
    return AnalysisEngine(player or SimplePlayer(), lines.write, 'test', default_visits=8), lines


def run_analysis(args, stdin, timeout=180):
    return subprocess.run([sys.executable, '-m', 'goengine.programs.analysis', *args],
                          input=stdin, capture_output=True, text=True, timeout=timeout,
                          cwd=REPO)


def answers(stdout):
    return [json.loads(line) for line in stdout.splitlines()]


def test_kataGos_example_query_is_answered_field_by_field_by_the_real_search():
    """The documented query, three turns, on the small network: each answer has KataGo's
    fields with their types, moves from the search, maps in KataGo's layout."""
    query = json.loads(EXAMPLE)
    query.update(includeOwnership=True, includePolicy=True, includePVVisits=True,
                 includeMovesOwnership=True, maxVisits=40)
    result = run_analysis(['--network', 'small', '--precision', 'fp32'],
                          json.dumps(query) + '\n')
    assert result.returncode == 0, result.stderr
    got = answers(result.stdout)
    assert sorted(a['turnNumber'] for a in got) == [0, 1, 2]
    for a in got:
        assert a['id'] == 'foo' and a['isDuringSearch'] is False
        root = a['rootInfo']
        assert root['currentPlayer'] == ('W' if a['turnNumber'] in (0, 2) else 'B')
        assert 0 <= root['winrate'] <= 1 and isinstance(root['scoreLead'], float)
        assert root['visits'] >= 40
        infos = a['moveInfos']
        assert [i['order'] for i in infos] == list(range(len(infos))) and infos
        for info in infos:
            assert set(info) >= {'move', 'visits', 'winrate', 'scoreLead', 'scoreMean',
                                 'prior', 'order', 'pv', 'lcb', 'utility'}
            assert isinstance(info['visits'], int) and 0 <= info['winrate'] <= 1
            assert 0 <= info['prior'] <= 1 and info['pv'][0] == info['move']
            visits = info['pvVisits']   # each move of the line has at most its parent's
            assert len(visits) == len(info['pv']) and visits[0] == info['visits']
            assert visits == sorted(visits, reverse=True)
            assert len(info['ownership']) == 361
        assert sum(i['visits'] for i in infos) <= root['visits']
        assert len(a['ownership']) == 361 and all(-1 <= v <= 1 for v in a['ownership'])
        assert len(a['policy']) == 362
        legal = [p for p in a['policy'] if p >= 0]
        assert abs(sum(legal) - 1) < 1e-3
    first = next(a for a in got if a['turnNumber'] == 0)
    # the layout: row-major from A19; Q4 (column 15, row 4) holds a black stone
    q4 = (19 - 4) * 19 + 15
    assert first['policy'][q4] == -1.0 and first['ownership'][q4] > 0.5   # Black's, as asked


# Values no query may hold in these fields.
SPOILED = {'moves': [None, -3, 'x', [['B']], [['B', 'Z9']], {'a': 1}],
           'boardXSize': [None, -3, 'x', [1], 10 ** 30, 1.5, True],
           'analyzeTurns': [None, -3, 'x', [99], [-1], [True], []],
           'komi': [None, 'x', [1], 10 ** 30, 0.3, False],
           'maxVisits': [0, -1, 10 ** 30, 'x', 2.5, None]}


def test_a_malformed_or_hostile_line_is_one_error_and_the_engine_goes_on():
    rng = random.Random(7)
    good = json.loads(EXAMPLE)
    bad = ['', 'not json', '[1, 2]', '{"id": 5}', '{"id": "a", "action": "dance"}',
           '{"id": "a"}', '{"id": "a", "moves": [], "boardXSize": 19}',
           '{"id": "a", "moves": [["B", "D4"]], "boardXSize": 19, "boardYSize": 19, '
           '"analyzeTurns": [5]}',
           '{"id": "a", "moves": [["B", "D4"], ["W", "D4"]], "boardXSize": 19, "boardYSize": 19}',
           '{"id": "a", "moves": [], "boardXSize": 19, "boardYSize": 19, "maxVisits": "many"}',
           '{"id": "a", "moves": [], "boardXSize": 19, "boardYSize": 19, "komi": 1e400}',
           '{"id": "a", "moves": [], "boardXSize": 19, "boardYSize": 13}',
           '{"id": "a", "action": "terminate"}', '{' * 100000, '{"id": "a", "moves": [], '
           '"boardXSize": 19, "boardYSize": 19, "rules": 7}']
    lines = ['x' * (10 << 20)]   # one 10 MB line
    for n in range(999):
        line = bad[n % len(bad)]
        if n % len(bad) == 0:   # a valid query with one field spoiled
            spoiled = dict(good, id=f'q{n}')
            name = rng.choice(sorted(SPOILED))
            spoiled[name] = rng.choice(SPOILED[name])
            line = json.dumps(spoiled)
        lines.append(line)
    stdin = '\n'.join(lines) + '\n' + json.dumps(dict(good, id='last', maxVisits=4)) + '\n'
    result = run_analysis(['--weights', 'none'], stdin)
    assert result.returncode == 0, result.stderr
    got = answers(result.stdout)
    errors = [a for a in got if 'error' in a]
    assert len(errors) == sum(1 for line in lines if line.strip())
    assert all(isinstance(a['error'], str) for a in errors)
    assert sorted(a['turnNumber'] for a in got if a.get('id') == 'last') == [0, 1, 2]


def test_thirty_queries_of_mixed_priorities_are_all_answered_the_higher_first():
    engine, lines = engine_of()
    gate = threading.Event()
    real = engine.player.analyze

    def held(*args, **kwargs):   # the first turn waits until all 30 are queued
        gate.wait(10)
        return real(*args, **kwargs)
    engine.player.analyze = held
    for n in range(30):
        query = json.loads(EXAMPLE)
        query.update(id=f'q{n}', analyzeTurns=[2], priority=n % 3)
        engine.feed(json.dumps(query))
    gate.set()
    engine.finish()
    finals = lines.finals()
    assert sorted(a['id'] for a in finals) == sorted(f'q{n}' for n in range(30))
    later = [int(a['id'][1:]) % 3 for a in finals[1:]]   # after the one already started
    assert later == sorted(later, reverse=True)


def test_terminate_stops_the_search_with_an_answer_and_drops_the_waiting_turns():
    engine, lines = engine_of()
    stop_seen = threading.Event()

    def endless(game, color, report, interrupt, interval=1.0, barred=None, limits=None,
                count=10):   # a search that runs until it is told to stop
        from goengine.game.moves import SearchResult
        while not interrupt.wait(0.02):
            if report is not None:
                report(SearchResult([], visits=1))
        stop_seen.set()
        return SearchResult([], visits=2)
    engine.player.analyze = endless
    query = json.loads(EXAMPLE)
    query.update(maxVisits=10_000_000, reportDuringSearchEvery=0.05)
    engine.feed(json.dumps(query))
    lines.wait_for(lambda a: a.get('isDuringSearch') is True)
    engine.feed('{"id": "t", "action": "terminate", "terminateId": "foo"}')
    assert stop_seen.wait(5)
    engine.finish()
    finals = lines.finals()
    assert len(finals) == 3 and {a['turnNumber'] for a in finals} == {0, 1, 2}
    assert sum(1 for a in finals if a.get('noResults')) == 2   # the two never started
    assert {'id': 't', 'action': 'terminate', 'terminateId': 'foo'} in lines.items


def test_winrates_are_reported_for_the_side_asked_for():
    from goengine.analysis import answer
    from goengine.analysis.query import parse
    from goengine.game.moves import MoveInfo, SearchResult
    from goengine.game.state import GameState
    result = SearchResult([60], winrate=0.8, root_winrate=0.8, score=3.0, visits=10,
                          candidates=[MoveInfo(60, 10, 0.8, 0.5, 0.7, [60], 3.0)])
    game = GameState(19)
    for side, winrate, lead in (('BLACK', 0.2, -3.0), ('WHITE', 0.8, 3.0),
                                ('SIDETOMOVE', 0.8, 3.0)):
        query = parse(json.dumps({'id': 'p', 'moves': [['B', 'D4']], 'boardXSize': 19,
                                  'boardYSize': 19, 'overrideSettings':
                                  {'reportAnalysisWinratesAs': side}}))
        out = answer.analysis(query, 1, result, game, WHITE)
        assert abs(out['rootInfo']['winrate'] - winrate) < 1e-9, side
        assert out['moveInfos'][0]['scoreLead'] == lead and out['rootInfo']['currentPlayer'] == 'W'


def test_version_models_and_clear_cache_echo_the_query():
    engine, lines = engine_of()
    for action in ('query_version', 'query_models', 'clear_cache'):
        engine.feed(json.dumps({'id': action, 'action': action}))
    engine.finish()
    by_id = {a['id']: a for a in lines.items}
    assert by_id['query_version']['version'] and by_id['query_version']['action'] == 'query_version'
    assert by_id['query_models']['models'][0]['name'] == 'test'
    assert by_id['clear_cache'] == {'id': 'clear_cache', 'action': 'clear_cache'}


def test_territory_rules_are_answered_with_a_warning_that_the_count_is_by_area():
    engine, lines = engine_of()
    query = json.loads(EXAMPLE)
    query.update(rules='japanese', analyzeTurns=[2])
    engine.feed(json.dumps(query))
    engine.finish()
    warnings = [a for a in lines.items if 'warning' in a]
    assert len(warnings) == 1 and warnings[0]['field'] == 'rules'
    assert 'area' in warnings[0]['warning'] and len(lines.finals()) == 1


@pytest.mark.parametrize('size', [9, 19])
def test_every_answer_is_one_line_of_json(size):
    engine, lines = engine_of()
    engine.feed(json.dumps({'id': 's', 'moves': [], 'boardXSize': size, 'boardYSize': size,
                            'includeOwnership': True, 'includePolicy': True}))
    engine.finish()
    (final,) = lines.finals()
    assert len(final['ownership']) == size * size and 'policy' not in final
    (warning,) = [a for a in lines.items if 'warning' in a]   # a player with no policy
    assert warning['field'] == 'includePolicy'
