"""APV-MCTS: AlphaGo's asynchronous policy and value tree search (the driver).

Silver et al. 2016, Methods, "Search algorithm". Each simulation walks down
the tree by argmax Q + u, expands a leaf that has been visited more than
n_thr times (placeholder priors from the tree policy until the SL policy
answers; n_thr follows the network's pace, see ThresholdControl), queues
the leaf for the value network, plays one rollout from it, and backs both
results up. Q mixes the two statistics with lambda.

Who does what on a 2-core CPU:

* simulation threads (config.sim_threads) run selection, rollout and backup
  entirely in C with the GIL released (goengine.search._tree);
* one network thread (goengine.search.network_thread) batches policy and value requests
  and runs torch, which releases the GIL inside its kernels;
* the caller's thread only sleeps, watches the clock and reports.

The tree survives between moves: the subtree of the moves actually played
becomes the new root (tree reuse), and pondering grows the same tree on the
opponent's time. The node pool has a fixed cap (config.max_nodes); when it is
full the search goes on without expanding, so memory stays bounded however
long we ponder.

Superko is checked at the root only (forbidden root moves), simple ko
everywhere; children never fill their own true eyes.
"""

import itertools
import math
import threading
import time

from goengine import PASS, WHITE
from goengine.search._tree import Tree
from goengine.search.config import SearchConfig
from goengine.search.limits import Barred, SearchLimits
from goengine.search.root import Root
from goengine.nn.heads import Head

UNLIMITED = SearchLimits()


class ThresholdControl:
    """AlphaGo's dynamic n_thr: "adjusted dynamically to ensure that the rate at
    which positions are added to the policy queue matches the rate at which the
    GPU evaluates the policy network" (Methods).

    Called a few times a second while the search runs. If expansions had to be
    deferred since the last call (the policy queue was full), the network is
    behind and n_thr rises by a quarter; if none were deferred and the queue is
    at most a quarter full, the network has room and n_thr falls by a tenth
    (config.expand_threshold_raise and expand_threshold_lower).
    It stays within [config.expand_threshold, config.max_expand_threshold], so
    the paper's 40 is the floor. Only a search with a policy network adapts.
    """

    def __init__(self, tree, config):
        self.tree = tree
        self.floor = config.expand_threshold
        self.ceiling = max(config.expand_threshold, config.max_expand_threshold)
        self.queue_cap = config.max_pending_policy
        self.raise_by, self.lower_by = config.expand_threshold_raise, config.expand_threshold_lower
        self.deferred = tree.stats()['deferred_expansions']

    def update(self):
        stats = self.tree.stats()
        behind = stats['deferred_expansions'] > self.deferred
        self.deferred = stats['deferred_expansions']
        n_thr = self.tree.expand_threshold
        if behind:
            n_thr = math.ceil(n_thr * self.raise_by) + 1
        elif stats['pending_policy'] * 4 <= self.queue_cap:
            n_thr = math.floor(n_thr * self.lower_by)
        self.tree.expand_threshold = min(self.ceiling, max(self.floor, n_thr))


class Search:
    """One game tree, the threads that grow it and the position it stands for.

    policy_eval / value_eval: goengine.nn.inference.NetworkEvaluator or None (a
    network only serves boards of its own size; without networks the search
    runs on rollouts and tree-policy priors alone). rollout: a
    goengine.rollout._rollout.RolloutPolicy (None: uniform random rollouts).
    """

    def __init__(self, policy_eval=None, value_eval=None, rollout=None, config=None,
                 remote_rollouts=None, network_copies=()):
        self.config = config or SearchConfig()
        self.tree = Tree(self.config, rollout)
        self.remote = remote_rollouts   # goengine.search.remote.RemoteRollouts, or None
        self.networks = None
        self.more_networks = []         # a thread for each copy (a remote network worker)
        if policy_eval is not None or value_eval is not None:
            from goengine.search.network_thread import NetworkThread
            self.networks = NetworkThread(self.tree, policy_eval, value_eval,
                                          self.config.batch_size, self.config.seed,
                                          self.config.ladder_min_stones)
            self.more_networks = [
                NetworkThread(self.tree, p, v, self.config.batch_size, self.config.seed + k,
                              self.config.ladder_min_stones)
                for k, (p, v) in enumerate(network_copies, 1)]
            self.tree.values_with_priors = self.networks.shared
            self.tree.scores_with_values = (self.networks.shared
                                            and self.config.score_utility > 0
                                            and policy_eval.describe().answers(Head.SCORE))
        self.sim_threads = self.config.simulation_threads(self.networks is not None)
        if self.remote is not None and self.config.search_mode != 'zero':
            self.sim_threads = self.config.sim_threads   # 0: the workers play every rollout
        self.root_key = None       # what the root is: see _key()
        self.root_moves = []       # the game's moves up to the root
        self.root_color = None     # the player to move at the root
        self.seeds = itertools.count(1000 * self.config.seed + 1)
        self.last_sims = 0         # simulations in the last run()
        self.last_evals = 0        # network evaluations (policy and value) in the last run()

    def close(self):
        for thread in [self.networks] + self.more_networks:
            if thread is not None:
                thread.close()
        if self.remote is not None:
            self.remote.close()

    # -- the root -----------------------------------------------------------

    def stands_on(self, game, color):
        """Whether the tree's root is this game's position with `color` to move."""
        return (self.root_key == self._key(game) and self.root_moves == list(game.moves)
                and self.root_color == color)

    @staticmethod
    def _key(game):
        """What besides the moves makes a position (and its statistics)."""
        return (game.size, game.scoring_komi, game.superko, tuple(game.setup_black),
                tuple(game.setup_white), game.first_to_move)

    def forget(self):
        """The next position starts a fresh tree (the analysis engine's clear_cache)."""
        self.root_key = None

    def set_position(self, game, color, dynamic_komi=False, barred=Barred()):
        """Point the root at `game` with `color` to move, reusing the subtree of
        the moves played since the last root when possible. Returns True if the
        tree was reused.

        barred: what the root may not play (limits.Barred).
        dynamic_komi: White gives handicap and plays here, so its rollouts count
        with config.dynamic_komi() extra points (the win rates and scores reported,
        and the resign rule's, are the true count's).
        """
        board = game.board_for(color)
        moves = list(game.moves)
        reused = False
        old = self.root_moves
        if (self.root_key == self._key(game) and moves[:len(old)] == old
                and self._alternates(moves[len(old):], color)):
            extra = [m for _, m in moves[len(old):]]
            reused = self.tree.reuse(extra, board) if extra else True
        if not reused:
            self.tree.reset(board)
        self.root_key, self.root_moves, self.root_color = self._key(game), moves, color
        bonus = self.config.dynamic_komi(game.handicap, game.move_number) if dynamic_komi else 0.0
        self.tree.komi = board.komi + bonus     # tree.true_komi stays board.komi
        serves = self.networks.serves(game.size) if self.networks else (False, False)
        if not self.tree.prepare_root(*serves):       # pool full even after reuse
            self.tree.reset(board)
            self.tree.prepare_root(*serves)
        self.tree.forbid(self._barred_root_moves(board, color, barred))
        self.tree.restrict(barred.plies)
        return reused

    def _alternates(self, played, color):
        """The moves since the root alternate colours starting with the root's
        player, and leave `color` to move (GTP lets either colour move)."""
        if self.root_color is None:
            return False
        expected = self.root_color
        for c, _ in played:
            if c != expected:
                return False
            expected = 3 - expected
        return expected == color

    def _barred_root_moves(self, board, color, barred):
        """Root moves the real rules forbid (superko); `barred.moves` too while another
        legal move is left; and pass, where `barred.passing`, while any move is left."""
        moves = [int(m) for m in self.tree.children()['move'] if m != PASS]
        illegal = {m for m in moves if not board.is_legal(m, color)}
        fillers = set(barred.moves) - illegal
        out = set(illegal)
        if any(m not in illegal and m not in fillers for m in moves):
            out |= fillers
        if barred.passing and len(out) < len(moves):
            out.add(PASS)
        return sorted(out)

    # -- thinking -----------------------------------------------------------

    def run(self, limits=UNLIMITED, interrupt=None, report=None, interval=1.0,
            stop_when_decided=False):
        """Search, in one start of the threads, until the stop rule says so.

        The rule, whichever comes first (`limits`, a SearchLimits): its playouts
        are done; `interrupt.wait()` says stop; its desired seconds have passed
        and the search is not unsure (see unsure); it is unsure but its maximum
        seconds have passed; with stop_when_decided, no other move can catch up
        with the most visited one in the time left (see decided). report(infos)
        is called about every `interval` seconds and once at the end."""
        start = time.monotonic()
        max_sims = limits.playouts
        deadline = start + limits.desired if limits.desired is not None else math.inf
        last_deadline = start + limits.longest if limits.longest is not None else math.inf
        self._wait_for_root_priors(start, deadline)
        before, evals_before = self.tree.sims_done, self.network_evaluations()
        self.tree.start(max_sims)
        threads = [threading.Thread(target=self.tree.run, args=(next(self.seeds),),
                                    name='goengine-sim', daemon=True)
                   for _ in range(self.sim_threads)]
        for t in threads:
            t.start()
        remote = self.remote if self.remote is not None and not self.tree.zero else None
        if remote is not None:
            remote.begin(self.tree, next(self.seeds))
        next_report = start + interval if report is not None else math.inf
        control = self._threshold_control()
        next_adapt = start + self.config.adapt_period
        try:
            while any(t.is_alive() for t in threads) or (remote is not None
                                                         and self._remote_busy(max_sims, before)):
                now = time.monotonic()
                stop_at = deadline if now < deadline else last_deadline   # past it: unsure
                if now >= last_deadline or (now >= deadline and not self.root().unsure()):
                    break
                if now >= next_report:
                    report(self.result())
                    next_report = now + interval
                if now >= next_adapt:
                    if control is not None:
                        control.update()
                    if stop_when_decided and self.decided(
                            self.tree.sims_done - before, now - start, stop_at - now,
                            max_sims) and not self.root().unsure():
                        break
                    next_adapt = now + self.config.adapt_period
                wait = min(stop_at, next_report, now + 0.02) - now
                if interrupt is not None:
                    if interrupt.wait(max(0.0, wait)):
                        break
                else:
                    time.sleep(max(0.0, wait))
        finally:
            self.tree.stop()
            for t in threads:
                t.join()
            if remote is not None:
                remote.finish()
            self._settle(last_deadline)
        self.last_sims = self.tree.sims_done - before
        self.last_evals = self.network_evaluations() - evals_before
        if report is not None:
            report(self.result())

    def _remote_busy(self, max_sims, before):
        """Whether simulations are still to come with remote rollouts: leaves out, or
        the playout limit not reached."""
        if self.tree.rollouts_in_flight > 0:
            return True
        return not max_sims or self.tree.sims_done - before < max_sims

    def _settle(self, deadline):
        """Zero search: let the leaves still on their way to the network come back
        (config.zero_settle_wait at most, never past `deadline`), then take the virtual
        loss of any left back, so that the tree holds none between searches."""
        if not self.tree.zero:
            return
        until = min(time.monotonic() + self.config.zero_settle_wait, deadline)
        while self.tree.waiting_leaves() > 0 and time.monotonic() < until:
            time.sleep(0.001)
        self.tree.abandon_waiters()

    def network_evaluations(self):
        """Positions the network thread has evaluated so far (policy and value)."""
        if self.networks is None:
            return 0
        return sum(t.stats['policy_evals'] + (0 if t.shared else t.stats['value_evals'])
                   for t in [self.networks] + self.more_networks)

    def decided(self, sims, elapsed, time_left, max_sims=None):
        """True when no other root move can catch up with the most visited one:
        its lead is larger than all the simulations the rest of the budget
        would bring at the rate seen so far (`sims` in `elapsed` seconds). The
        move played is then already fixed, and the time is saved for the clock
        (Leela Zero stops its search the same way)."""
        if elapsed < self.config.adapt_period or sims <= 0:
            return False
        left = sims / elapsed * time_left
        if max_sims:
            left = min(left, max_sims - sims)
        c = self.tree.children()
        visits = sorted((int(n) for n, barred in zip(c['n_r'], c['forbidden']) if not barred),
                        reverse=True) + [0, 0]
        return visits[0] > visits[1] + left

    def _threshold_control(self):
        """A ThresholdControl when a policy network serves this board, else None (and in the
        zero search, which expands every leaf it reaches)."""
        if (self.networks is None or not self.networks.serves(self.tree.size)[0]
                or self.tree.zero):
            return None
        return ThresholdControl(self.tree, self.config)

    def _wait_for_root_priors(self, start, deadline):
        """Give the SL policy a moment to answer for the root: its priors steer
        the first simulations, which matter most in a short search."""
        if self.networks is None or not self.networks.serves(self.tree.size)[0]:
            return
        limit = start + min(self.config.root_policy_wait,
                            self.config.root_policy_wait_share * (deadline - start))
        if self.tree.zero:   # nothing to search below a root the network has not seen
            limit = deadline if deadline < math.inf else start + self.config.root_policy_wait
        while not self.tree.root_priors_final and time.monotonic() < limit:
            time.sleep(0.002)

    # -- results ------------------------------------------------------------

    def root(self):
        """The root as it stands (goengine.search.root.Root): one snapshot of its
        children, which result() and the stop rule read."""
        bonus = self.tree.komi - self.tree.true_komi
        barred = self.tree.barred_at_root(self.root_color) if self.root_color else ()
        return Root(self.tree.children(), self.config,
                    score_offset=bonus if self.root_color == WHITE else -bonus,
                    barred=barred, principal_variation=self.principal_variation)

    def result(self, count=10):
        """The search's SearchResult: the allowed root moves by visits, the win rates, the
        root's score and visits, and the `count` most visited moves' MoveInfo."""
        return self.root().result(count)

    def principal_variation(self, node, length=10):
        """The most visited moves below `node`, each with its visits: [(move, visits)]."""
        pv = []
        while len(pv) < length:
            c = self.tree.children(node)
            if len(c['n_r']) == 0 or c['n_r'].max() <= 0:
                break
            i = int(c['n_r'].argmax())
            pv.append((int(c['move'][i]), int(c['n_r'][i])))
            node = int(c['node'][i])
        return pv

    def stats(self):
        s = dict(self.tree.stats())
        if self.networks is not None:
            s.update(self.networks.stats)
            for thread in self.more_networks:   # summed over the threads
                for key, value in thread.stats.items():
                    s[key] += value
        return s
