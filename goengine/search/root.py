"""What the root says once searched: one snapshot of its children (Tree.children()) read
into a SearchResult (ranked moves, win rates, score, visits, the analysis lines), and
whether more time could change the move. Win rates are for the player to move, at the
true komi whatever komi the rollouts count with."""

import math

from goengine.game.moves import MoveInfo, SearchResult


class Root:
    """The root's children as the search left them. config: the SearchConfig (its
    resign, unsure and report guards); score_offset: what dynamic komi adds to the root
    player's rollout scores; barred: moves analysis must not show; principal_variation:
    node -> the most visited moves below it, each with its visits."""

    def __init__(self, children, config, score_offset=0.0, barred=(),
                 principal_variation=lambda node: []):
        self.c = children
        self.config = config
        self.score_offset = score_offset
        self.barred = set(barred)
        self.principal_variation = principal_variation

    def result(self, count=10):
        """The SearchResult, with the `count` most visited moves' MoveInfo."""
        visits = self.visits()
        q = self.best_q()
        trusted = q is not None and visits >= self.config.resign_min_visits
        return SearchResult(self.ranked_moves(), winrate=self.winrate(),
                            resign_winrate=(1.0 + q) / 2.0 if trusted else None,
                            root_winrate=self.visit_weighted_winrate(), score=self.score(),
                            visits=visits, candidates=self.infos(count))

    def visits(self):
        """The root's simulations: its children's visits."""
        return int(self.c['n_r'].sum())

    def ranked_moves(self):
        """The allowed root moves, most visited first (ties: higher Q, then prior)."""
        c = self.c
        keyed = [((c['n_r'][i], c['q'][i], c['prior'][i]), int(c['move'][i]))
                 for i in range(len(c['move'])) if not c['forbidden'][i]]
        return [move for _, move in sorted(keyed, key=lambda item: item[0], reverse=True)]

    def best_q(self):
        """max_a Q(s,a) over root moves with a fair share of the visits
        (config.resign_visit_share of the most visited one's), for the resign rule;
        None before any visit."""
        c = self.c
        visited = (c['n_r'] > 0) & ~c['forbidden']
        if not visited.any():
            return None
        enough = visited & (c['n_r'] >= self.config.resign_visit_share * c['n_r'][visited].max())
        return float(c['q_true'][enough].max())

    def winrate(self):
        """The most visited move's win rate; None before any visit."""
        c = self.c
        if len(c['n_r']) == 0 or c['n_r'].max() <= 0:
            return None
        return (1.0 + float(c['q_true'][int(c['n_r'].argmax())])) / 2.0

    def unsure(self):
        """True when the most visited root move is not the one with the best Q among
        the moves with config.unsure_visit_share of its visits: more time could
        change the move."""
        c = self.c
        allowed = ~c['forbidden'] & (c['n_r'] > 0)
        if allowed.sum() < 2:
            return False
        leader = int((c['n_r'] * allowed).argmax())
        rivals = allowed & (c['n_r'] >= self.config.unsure_visit_share * c['n_r'][leader])
        return bool((c['q'][rivals] > c['q'][leader]).any())

    def visit_weighted_winrate(self):
        """(1 + the visit-weighted mean of the moves' Q) / 2: steadier than winrate()
        when the search is short, as in a game review; None without visits."""
        visits = self.c['n_r'].astype(float)
        if visits.sum() <= 0:
            return None
        return (1.0 + float((visits * self.c['q_true']).sum() / visits.sum())) / 2.0

    def score(self):
        """By how many points the player to move ends ahead: the visit-weighted mean of
        its moves' rollout scores; None before any visit."""
        visits = self.c['n_r'].astype(float)
        if visits.sum() <= 0:
            return None
        return float((visits * self.c['score']).sum() / visits.sum()) - self.score_offset

    def infos(self, count=10):
        """The most visited root moves as MoveInfo.

        lcb is a rough 95% lower bound, treating each visit as a coin flip.
        score_lead is the mean final score the score utility weighs (the rollouts',
        mixed with the score head's where it weighs the head). A move with
        fewer than config.report_min_visits visits shows the root's win rate
        and score (its own are noise)."""
        c = self.c
        order = sorted((i for i in range(len(c['move'])) if c['n_r'][i] > 0
                        and not c['forbidden'][i] and int(c['move'][i]) not in self.barred),
                       key=lambda i: -c['n_r'][i])[:count]
        root, root_score = self.visit_weighted_winrate(), self.score()
        infos = []
        for i in order:
            n = int(c['n_r'][i])
            winrate = min(1.0, max(0.0, (1.0 + float(c['q_true'][i])) / 2.0))
            score = float(c['score'][i]) - self.score_offset
            if n < self.config.report_min_visits and root is not None:
                winrate, score = root, root_score
            lcb = max(0.0, winrate - 1.96 * 0.5 / math.sqrt(n))
            below = self.principal_variation(int(c['node'][i]))
            infos.append(MoveInfo(int(c['move'][i]), n, winrate, float(c['prior'][i]), lcb,
                                  [int(c['move'][i])] + [move for move, _ in below],
                                  score_lead=score, pv_visits=[n] + [v for _, v in below]))
        return infos
