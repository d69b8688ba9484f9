"""The APV-MCTS search as the engine's Player: what gtp_main plays with.

It owns one Search (goengine.search.search) for the whole game, so the tree is
reused between moves and grows while pondering. Besides moves it answers
the analysis commands (lz-analyze) from the tree and the GoGui network
commands from the networks directly.
"""

import sys
import time

from goengine import BLACK, PASS, WHITE
from goengine.game.moves import RESIGN
from goengine.players.decision import Decision
from goengine.players.player import Player, sensible_mask
from goengine.players.heads import NetworkAnswers
from goengine.players.resign import ResignRule
from goengine.rollout.scoring import Scorer
from goengine.search.config import SearchConfig
from goengine.search.limits import SearchLimits
from goengine.search.search import Search


class MCTSPlayer(Player):
    """The APV-MCTS engine behind the GTP layer.

    Its threads are the config's (sim_threads, net_threads); each move's limits
    come from the caller. resign_threshold is a win rate (ResignRule: AlphaGo's
    10 % by default); 0 never resigns.
    """

    name = 'apv-mcts'

    def __init__(self, policy_eval=None, value_eval=None, rollout=None, config=None,
                 resign_threshold=None, log=None, scorer=None, cluster=None):
        self.config = config or SearchConfig()
        rule = ResignRule() if resign_threshold is None else ResignRule(resign_threshold)
        self.decision = Decision(rule, self.config.pass_ban_fraction)
        # cluster: the workers of the distributed search (goengine.programs.cluster.Workers)
        self.search = Search(policy_eval, value_eval, rollout, self.config,
                             remote_rollouts=getattr(cluster, 'rollouts', None),
                             network_copies=getattr(cluster, 'network_copies', ()))
        self.value_eval = value_eval
        self.scorer = scorer or Scorer(rollout)   # the search's rollouts judge dead stones
        # the networks' own answers (GoGui analyze, kata-analyze's leads), as the policy
        # player gives them
        self.answers = NetworkAnswers(policy_eval, value_eval, log)
        self.log = log or (lambda msg: print(msg, file=sys.stderr, flush=True))
        self.verbose = False
        self._error_reported = False

    def genmove(self, game, color, limits, cleanup=False, report=None, interval=1.0):
        """One search for the move (Search.run's stop rule): the limits' desired
        seconds, up to their maximum while the search is unsure, less once the
        move is decided; the time taken to set up the position counts."""
        start = time.monotonic()
        answer = self.answer_to_pass(game, color, sensible_mask(game.board_for(color), color),
                                     cleanup)
        if answer is not None:
            if answer == RESIGN and self.verbose:
                self.log('goengine: resigning: our count says we lose beyond doubt')
            return answer
        reused = self.search.set_position(game, color, dynamic_komi=color == WHITE,
                                          refuse_pass=self.decision.refuses_pass(game, cleanup))
        self.search.run(limits.after(time.monotonic() - start), report=report,
                        interval=interval, stop_when_decided=self.config.stop_when_decided)
        elapsed = time.monotonic() - start
        if limits.desired is not None and elapsed > limits.desired + 0.05 and self.verbose:
            self.log(f'goengine: unsure, searched {elapsed - limits.desired:.2f}s past '
                     f'the desired time')
        self._note(reused, self.search.last_sims, elapsed)
        self._report_network_error()
        if self.should_resign(game, color):
            return RESIGN
        ranked = self.search.ranked_moves()
        move = self.decision.from_ranking(game, color, ranked, cleanup)
        if self.verbose and ranked and ranked[0] == PASS and move != PASS:
            self.log('goengine: not passing: our count does not say we win beyond doubt')
        return move

    def resign_estimate(self, game, color):
        """(1 + max_a Q(s,a)) / 2, so resigning below resign_threshold is AlphaGo's
        max_a Q < resign_q; None while the root has too few visits to trust."""
        q = self.search.best_q()
        if q is None or self.search.root_visits() < self.config.resign_min_visits:
            return None
        return (1.0 + q) / 2.0

    def _note(self, reused, simulations, elapsed):
        if not self.verbose:
            return
        s = self.search
        rate = s.winrate()
        self.log(f'goengine: {simulations} simulations in {elapsed:.2f}s, '
                 f'{s.last_evals} network evaluations, '
                 f'{s.root_visits()} root visits{" (tree reused)" if reused else ""}, '
                 f'win rate {rate if rate is None else round(rate, 3)}, '
                 f'{s.tree.node_count} nodes')
        if s.remote is not None:
            self.log(f'goengine: {s.remote.rates(elapsed)}')

    def _report_network_error(self):
        networks = self.search.networks
        if networks is not None and networks.error is not None and not self._error_reported:
            self._error_reported = True
            self.log(f'goengine: network evaluation failed, searching on without it: '
                     f'{type(networks.error).__name__}: {networks.error}')

    def analyze(self, game, color, report, interrupt, interval=1.0, barred=None):
        self._stand_on(game, color, barred=barred)
        self.search.run(SearchLimits(), interrupt=interrupt, report=report,
                        interval=max(0.01, interval))

    def review(self, game, color, limits):
        """Search `game` for `color` within `limits` for a game review: (the best move's
        MoveInfo or None, the win rate over all the root's simulations, root visits)."""
        self._stand_on(game, color)
        self.search.run(limits)
        infos = self.search.infos(1)
        return (infos[0] if infos else None), self.search.root_winrate(), \
            self.search.root_visits()

    def ponder(self, game, interrupt):
        """Grow the tree for the position after our move until the next command."""
        if game.is_over():
            return
        self._stand_on(game, game.to_move, dynamic_komi=game.to_move == BLACK)
        self.search.run(SearchLimits(), interrupt=interrupt)

    def _stand_on(self, game, color, dynamic_komi=False, barred=None):
        """The search's root at `game`, passing as genmove would allow it outside cleanup;
        `barred` as Tree.restrict takes it (analysis only)."""
        return self.search.set_position(game, color, dynamic_komi=dynamic_komi,
                                        refuse_pass=self.decision.refuses_pass(game, False),
                                        barred=barred)

    def value(self, game, color):
        """The search's win rate if the tree stands on this position, else the value net's."""
        if self.search.stands_on(game, color):
            rate = self.search.winrate()
            if rate is not None:
                return rate
        return self.answers.value(game, color)

    def close(self):
        self.search.close()
