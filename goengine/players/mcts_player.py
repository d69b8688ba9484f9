"""The APV-MCTS search as the engine's Player: what gtp_main plays with.

It owns one Search (goengine.search.search) for the whole game, so the tree is
reused between moves and grows while pondering. Besides moves it answers
the analysis commands (lz-analyze) from the tree and the GoGui network
commands from the networks directly.
"""

import time

from goengine import BLACK, WHITE
from goengine.players.player import Player
from goengine.rollout.scoring import Scorer
from goengine.search.limits import Barred, SearchLimits
from goengine.search.search import Search


class MCTSPlayer(Player):
    """The APV-MCTS engine behind the GTP layer.

    Its threads are the config's (sim_threads, net_threads); each move's limits
    come from the caller. resign_threshold is a win rate (ResignRule: AlphaGo's
    10 % by default); 0 never resigns.
    """

    name = 'apv-mcts'
    has_win_rate = True            # the search's, with or without a value network

    def __init__(self, policy_eval=None, value_eval=None, rollout=None, config=None,
                 resign_threshold=None, log=None, scorer=None, cluster=None):
        # the networks' own answers (GoGui analyze, kata-analyze's leads), as the policy
        # player gives them; the search's rollouts judge dead stones
        super().__init__(config, policy_eval, value_eval, resign_threshold,
                         scorer or Scorer(rollout), log)
        # cluster: the workers of the distributed search (goengine.programs.cluster.Workers)
        self.search = Search(policy_eval, value_eval, rollout, self.config,
                             remote_rollouts=getattr(cluster, 'rollouts', None),
                             network_copies=getattr(cluster, 'network_copies', ()))
        self._error_reported = False

    def think(self, game, color, limits, cleanup=False, report=None, interval=1.0,
              full=False):
        """One search of the position (Search.run's stop rule): the limits' desired
        seconds, up to their maximum while the search is unsure, less once the move is
        decided (genmove's; a review's spends its whole time)."""
        start = time.monotonic()
        fillers = self.dead_group_fillers(game, color)
        if fillers and self.verbose:
            self.log(f'goengine: not adding stones to a dead group: {len(fillers)} moves')
        barred = Barred(self.pass_barred(game, color, cleanup), frozenset(fillers))
        reused = self.search.set_position(game, color, dynamic_komi=color == WHITE,
                                          barred=barred)
        self.search.run(limits, report=report, interval=interval,
                        stop_when_decided=self.config.stop_when_decided and not full)
        elapsed = time.monotonic() - start
        if limits.desired is not None and elapsed > limits.desired + 0.05 and self.verbose:
            self.log(f'goengine: unsure, searched {elapsed - limits.desired:.2f}s past '
                     f'the desired time')
        self._note(reused, self.search.last_sims, elapsed)
        self._report_network_error()
        return self.search.result()

    def pass_barred(self, game, color, cleanup):
        """Decision.pass_barred with this search's pass ban."""
        return self.decision.pass_barred(game, color, cleanup, self.config.pass_ban_fraction)

    def _note(self, reused, simulations, elapsed):
        if not self.verbose:
            return
        s = self.search
        root = s.root()
        rate = root.winrate()
        self.log(f'goengine: {simulations} simulations in {elapsed:.2f}s, '
                 f'{s.last_evals} network evaluations, '
                 f'{root.visits()} root visits{" (tree reused)" if reused else ""}, '
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

    def analyze(self, game, color, report, interrupt, interval=1.0, barred=None,
                limits=None, count=10):
        self._stand_on(game, color, barred=barred)
        self.search.run(limits or SearchLimits(), interrupt=interrupt, report=report,
                        interval=max(0.01, interval))
        return self.search.result(count)

    def clear_tree(self):
        self.search.forget()

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
                                        barred=Barred(self.pass_barred(game, color, False),
                                                      plies=barred or {}))

    def win_rate(self, game, color):
        """The search's win rate if the tree stands on this position, else the value net's."""
        if self.search.stands_on(game, color):
            rate = self.search.root().winrate()
            if rate is not None:
                return rate
        return self.answers.value(game, color)

    def close(self):
        self.search.close()
