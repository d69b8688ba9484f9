"""KataGo's analysis engine over one player: JSON queries in, JSON answers out, a line each.

Lines are read as they come (`feed`); the turns of the queries wait in one queue, the
highest priority first and then in order of arrival, and one worker searches them one at
a time (on two cores one search already takes every core). A `terminate` answers the
waiting turns it names with noResults at once and stops the one being searched, which
answers with what it has. After the input ends the queue is searched out (`finish`).
Every turn ends in exactly one answer with isDuringSearch false; a bad line is one error
line and changes nothing.
"""

import heapq
import itertools
import json
import threading

from goengine.analysis import answer, query as queries
from goengine.players.heads import ChildScoreLeads
from goengine.search.limits import SearchLimits

VERSION = '1.16.0'   # the KataGo release whose analysis protocol this follows


class AnalysisEngine:
    """The protocol over `player` (a goengine Player); `write(text)` puts one line out."""

    def __init__(self, player, write, model_name, default_visits=500, log=None):
        self.player, self._write, self.model_name = player, write, model_name
        self.default_visits = default_visits
        self.log = log or (lambda line: None)
        self.queue, self.order = [], itertools.count()
        self.lock = threading.Condition()
        self.running = None          # (query, turn, threading.Event) being searched
        self.closed = False
        self.out_lock = threading.Lock()
        self.worker = threading.Thread(target=self._work, name='goengine-analysis',
                                       daemon=True)
        self.worker.start()

    def write(self, data):
        line = json.dumps(data, separators=(',', ':'), allow_nan=False)
        with self.out_lock:
            self._write(line + '\n')

    # -- input ----------------------------------------------------------------

    def feed(self, line):
        """Handle one input line: queue its turns, do its action, or answer its error."""
        if not line.strip():
            return
        try:
            parsed = queries.parse(line, self.default_visits)
        except queries.QueryError as exc:
            self.write(exc.answer())
            return
        if isinstance(parsed, queries.Action):
            self._act(parsed)
            return
        for name, message in parsed.warnings:
            self.write(answer.warning(parsed.id, name, message))
        with self.lock:
            for turn, priority in zip(parsed.turns, parsed.priorities):
                heapq.heappush(self.queue, (-priority, next(self.order), parsed, turn))
            self.lock.notify()

    def finish(self):
        """The input has ended: search out the queue, then return."""
        with self.lock:
            self.closed = True
            self.lock.notify()
        self.worker.join()

    def _act(self, action):
        if action.name == 'query_version':
            self.write({**action.fields, 'version': VERSION, 'git_hash': '<omitted>'})
        elif action.name == 'query_models':
            self.write({**action.fields, 'models': [{'name': self.model_name,
                                                     'internalName': self.model_name}]})
        elif action.name == 'clear_cache':
            self.player.clear_tree()
            self.write(action.fields)
        else:
            every = action.name == 'terminate_all'
            self._terminate(lambda q, t: every or (
                q.id == action.terminate_id and (action.turns is None or t in action.turns)))
            self.write(action.fields)

    def _terminate(self, matches):
        """Answer the waiting turns that `matches(query, turn)` with noResults; stop the
        running one if it matches."""
        with self.lock:
            kept, dropped = [], []
            for item in self.queue:
                (dropped if matches(item[2], item[3]) else kept).append(item)
            heapq.heapify(kept)
            self.queue = kept
            if self.running is not None and matches(self.running[0], self.running[1]):
                self.running[2].set()
        for _, _, query, turn in sorted(dropped, key=lambda item: item[1]):
            self.write(answer.no_results(query.id, turn))

    # -- the worker -----------------------------------------------------------

    def _work(self):
        while True:
            with self.lock:
                while not self.queue and not self.closed:
                    self.lock.wait()
                if not self.queue:
                    return
                _, _, query, turn = heapq.heappop(self.queue)
                stop = threading.Event()
                self.running = (query, turn, stop)
            try:
                self._analyse(query, turn, stop)
            except Exception as exc:   # one turn's failure is its error line, not the end
                self.log(f'goengine: analysis of {query.id} turn {turn} failed: {exc!r}')
                self.write({'error': f'analysis failed: {type(exc).__name__}: {exc}',
                            'id': query.id, 'turnNumber': turn})
            finally:
                with self.lock:
                    self.running = None

    def _analyse(self, query, turn, stop):
        game, colour = query.game_at(turn)   # this turn's own game: nothing else moves it
        player = self.player
        leads = ChildScoreLeads(player.answers, game, colour)

        def answer_to(result, **more):
            moves = [info.move for info in result.candidates]
            return answer.analysis(query, turn, result, game, colour, leads.of(moves), **more)

        def report(result):
            self.write(answer_to(result, during_search=True))
        limits = SearchLimits(desired=query.max_time, playouts=query.max_visits)
        result = player.analyze(game, colour, report if query.report_every else None,
                                stop, query.report_every or 1.0, barred=query.barred,
                                limits=limits, count=query.size * query.size)
        policy = player.answers.policy(game, colour) if query.include_policy else None
        if query.include_policy and policy is None:
            self.write(answer.warning(query.id, 'includePolicy', 'no policy network'))
        by_move = None
        if query.include_moves_ownership:
            moves = [info.move for info in result.candidates]
            owners = player.answers.child_ownerships(game, colour, moves)
            if owners is None:
                self.write(answer.warning(query.id, 'includeMovesOwnership',
                                          'no ownership head'))
            else:
                by_move = dict(zip(moves, owners))
        self.write(answer_to(
            result, root_lead=player.answers.score_lead(game, colour),
            ownership=player.ownership(game, colour) if query.include_ownership else None,
            policy=policy, move_ownership=by_move))
