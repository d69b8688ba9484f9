#!/usr/bin/env python3
"""Check our end-of-game scoring against GNU Go and against the recorded results.

For held-out games (or any --sgf file or folder) that ended by counting (RE[B+3.5], not resignation or
time), the final position is scored three ways: by GNU Go
(`final_status_list dead` and `final_score`, Chinese rules), and by
goengine.rollout.scoring with each ownership estimate: light playouts
(RolloutPolicy.light()) and the trained rollout policy (RolloutPolicy.ownership).
Reported for each: the share of stones whose dead/alive call equals GNU
Go's, the positions where the whole dead set equals GNU Go's, the stones
called seki (and how many of them GNU Go calls seki too), and how often
the area score names the recorded winner (the records were counted by
territory, so a margin of a point or so may flip; GNU Go's own line shows
how often that happens). Each estimator's area margin is also compared with
GNU Go's (mean absolute difference in points); with --search-sims N so is
the search's score estimate (what kata-analyze reports as scoreLead: the
mean final score of the rollouts after N simulations from the final position).
With --weights naming a four-headed network, its heads are scored too: the
ownership head judging the dead stones in the playouts' place ("head"), the
score head's expected margin, and the lead that kata-analyze and goengine-review
report with that network (the count where its ownership head calls the board
settled, else the score head's margin); with --lead-before N that lead is read N
moves before the end, against the same count of the final board. With --doubtful too,
the chains the rollouts leave in doubt are set beside the ownership head's view of them
and GNU Go's call: would the head, as a second judge, call them better?

    python tools/research/scoring_vs_gnugo.py [--games 100] [--sgf FILE] [--playouts 400] [--search-sims 0]
    python tools/research/scoring_vs_gnugo.py --sgf runs/matches --games 1000   # our counted match games,
                                        # once docs/matches/*.tar are extracted into runs/matches
    python tools/research/scoring_vs_gnugo.py --games 20 --weights weights/sl.pt
    python tools/research/scoring_vs_gnugo.py --show-differences   # each board a judge scores otherwise
    python tools/research/scoring_vs_gnugo.py --weights weights/heads-k96.pt --doubtful   # chains in doubt

Last line: `stones_light=0.XXXX stones_rollout=0.XXXX games=N`.
"""

import argparse
import random
import time
from typing import NamedTuple

import _checkout  # noqa: F401  (this checkout's packages first)
from goengine.game import coords
from goengine.rollout import scoring
from goengine.rollout.rollout_weights import DEFAULT_PATH, load as load_rollout
from goengine.game.sgffile import SgfError, new_board, read_games
from goengine.players.decision import Decision
from goengine.search.limits import SearchLimits
from goengine.nn import on_planes
from goengine.search.limits import Barred
from harness.gnugo import GNUGO, GnuGo
from harness.match import parse_score
from training.dataset import HELD_OUT_FILE


def counted(game):
    """A game decided by counting: RE like B+3.5 (a number after the colour)."""
    try:
        float(game.result.strip()[2:])
    except ValueError:
        return False
    return game.winner is not None


def final_board(game):
    board = new_board(game)
    for color, move in game.moves:
        board.play(move, color)
    return board


def counted_games(sgf_path, count, seed):
    games = [g for g in read_games(sgf_path) if counted(g) and len(g.moves) > 100]
    random.Random(seed).shuffle(games)
    return games[:count]


def gnugo_verdict(gnugo, board):
    """(dead points, seki points, Black's area margin) from GNU Go for this position."""
    gnugo.send(f"komi {board.komi}")
    gnugo.set_position(board)
    dead, seki = (set(coords.from_gtp(vertex.lower(), board.size)
                      for vertex in gnugo.send(f"final_status_list {status}").split())
                  for status in ("dead", "seki"))
    return dead, seki, parse_score(gnugo.send("final_score"))


def stones_of(board):
    return [m for m in range(board.size * board.size) if board.color_at(m)]


def search_score(game, rollout, sims, seed):
    """The search's mean rollout score for Black at the game's final position."""
    from goengine import BLACK
    from goengine.game.state import from_record
    from goengine.search.search import Search
    from goengine.search.config import SearchConfig
    state = from_record(game)
    search = Search(rollout=rollout, config=SearchConfig(mixing=1.0, sim_threads=1, seed=seed))
    try:
        search.set_position(state, state.to_move, barred=Barred(Decision.pass_barred(
            state, state.to_move, False, SearchConfig.pass_ban_fraction)))
        search.run(SearchLimits(playouts=sims))
        score = search.result().score or 0.0
    finally:
        search.close()
    return score if state.to_move == BLACK else -score


def head_estimates(evaluator, board):
    """(ownership, Black's expected margin) from a four-headed network's ownership and
    score heads: ownership (size, size) with +1 Black, the margin komi included."""
    from goengine import BLACK
    from goengine.nn import features
    planes = features.input_planes(board, evaluator.planes)
    sign = 1.0 if board.to_move == BLACK else -1.0     # the heads speak for the player to move
    lead, own = on_planes.lead_and_ownership(evaluator, planes, board.komi, board.to_move != BLACK)
    return sign * own.reshape(board.size, board.size), sign * lead


def reported_lead(player, game, before=0):
    """Black's lead `before` moves before the end of the game as the engine reports it
    (the player's score_lead: kata-analyze's scoreLead, goengine-review's score)."""
    from goengine import BLACK
    from goengine.game.state import from_record
    state = from_record(game, len(game.moves) + 1 - before)
    lead = player.answers.score_lead(state, state.to_move)
    return lead if state.to_move == BLACK else -lead


class Difference(NamedTuple):
    """A final board that a judge (`judge`: light, rollout or head) scored otherwise
    than GNU Go: the stones only it calls dead or seki, and those only GNU Go does."""
    game: str
    judge: str
    size: int
    dead_ours: set
    dead_theirs: set
    seki_ours: set
    seki_theirs: set

    def describe(self):
        def vertices(points):
            return " ".join(sorted(coords.to_gtp(p, self.size) for p in points)) or "-"
        return (f"{self.game} ({self.judge}): dead only ours {vertices(self.dead_ours)}; "
                f"only GNU Go's {vertices(self.dead_theirs)}; seki only ours "
                f"{vertices(self.seki_ours)}; only GNU Go's {vertices(self.seki_theirs)}")


class DoubtfulChain(NamedTuple):
    """A chain in no seki that the rollouts leave in doubt (its mean ownership from its
    own side under SURELY_ALIVE): the playouts can misread a fight whose one right
    answer a random player rarely finds. A stone of it, its stones, that mean, the
    ownership head's mean, and GNU Go's call."""
    game: str
    point: int
    stones: int
    playouts: float
    head: float
    dead: bool


def doubtful_chains(name, board, own, head_own, seki, their_dead):
    """The DoubtfulChains of a board, given the rollouts' and the head's ownership."""
    found, stones, size = [], board.stones(), board.size
    for point, chain in scoring.chains(board):
        if point in seki:
            continue
        share = scoring.own_share(own, size, chain, stones)
        if abs(share) < scoring.SURELY_ALIVE:
            found.append(DoubtfulChain(name, point, len(chain), share,
                                       scoring.own_share(head_own, size, chain, stones),
                                       point in their_dead))
    return found


# Rules for a doubtful chain: the playouts, the ownership head, the head where it is sure.
DOUBT_RULES = {"playouts": lambda c: c.playouts < 0, "head alone": lambda c: c.head < 0,
               **{f"head where >= {t}": (lambda c, t=t: c.head < 0 if abs(c.head) >= t
                                         else c.playouts < 0) for t in (0.5, 0.7, 0.8, 0.9)}}


def doubt_scores(chains):
    """{rule name: (chains, stones)} that each of DOUBT_RULES calls as GNU Go does."""
    scores = {}
    for name, rule in DOUBT_RULES.items():
        right = [c for c in chains if rule(c) == c.dead]
        scores[name] = len(right), sum(c.stones for c in right)
    return scores


def doubt_report(chains):
    """Lines: the doubtful chains, then doubt_scores rule by rule."""
    total = sum(c.stones for c in chains)
    lines = [f"{len(chains)} chains ({total} stones) the rollouts leave in doubt, in no seki"]
    for name, (right, stones) in doubt_scores(chains).items():
        lines.append(f"  {name:18s}: {right} chains, {stones} stones called as GNU Go does")
    return lines


def compare(sgf_path, count, playouts=scoring.DEFAULT_PLAYOUTS, rollout_weights=DEFAULT_PATH,
            seed=1, gnugo_path=GNUGO, search_sims=0, heads=None, lead_before=0,
            differences=None, doubtful=None):
    """Score the final boards of `count` counted games every way; the totals.

    {"games", "stones", "seki", "gnugo_winner", "light": {...}, "rollout": {...}}
    where each estimator has "stones" (dead or not as GNU Go says), "exact"
    (positions with GNU Go's dead set), "seki" and "seki_both" (stones called
    seki, and of them those GNU Go calls seki), "winner" (recorded winner
    named) and "seconds"; with `heads` (a four-headed network's NetworkEvaluator) also
    "head" (its ownership judging the dead), "score_head_error" and "reported_error"
    (the engine's reported lead off GNU Go's margin, summed).

    differences: if a list, gathers a Difference for every board and judge whose
    dead or seki stones are not GNU Go's. doubtful: if a list (and `heads` given),
    gathers a DoubtfulChain for every chain the rollouts leave in doubt.
    """
    estimators = {"light": None, "rollout": load_rollout(rollout_weights)}
    if heads is not None:
        estimators["head"] = heads
    totals = {name: dict(stones=0, exact=0, winner=0, seconds=0.0, margin_error=0.0,
                         seki=0, seki_both=0)
              for name in estimators}
    totals.update(games=0, stones=0, gnugo_winner=0, search_error=0.0, seki=0,
                  score_head_error=0.0, reported_error=0.0)
    if heads is not None:
        from goengine.players.policy_player import PolicyPlayer
        player = PolicyPlayer(heads)
    gnugo = GnuGo(gnugo_path, ("--chinese-rules",))
    try:
        for game in counted_games(sgf_path, count, seed):
            try:
                board = final_board(game)
            except SgfError:
                continue
            theirs, their_seki, their_margin = gnugo_verdict(gnugo, board)
            stones = stones_of(board)
            totals["games"] += 1
            totals["stones"] += len(stones)
            totals["seki"] += len(their_seki)
            totals["gnugo_winner"] += scoring.winner(their_margin) == game.winner
            judged = {}
            for name, policy in estimators.items():
                start = time.perf_counter()
                if name == "head":
                    own, lead = head_estimates(heads, board)
                    totals["score_head_error"] += abs(lead - their_margin)
                    totals["reported_error"] += abs(reported_lead(player, game, lead_before)
                                                    - their_margin)
                    dead, seki = map(set, scoring.stone_status(board, own=own))
                else:
                    own = scoring.ownership(board, playouts, 0, policy)
                    dead, seki = map(set, scoring.stone_status(board, playouts, rollout=policy,
                                                               own=own))
                judged[name] = own, seki
                t = totals[name]
                t["seki"] += len(seki)
                t["seki_both"] += len(seki & their_seki)
                t["seconds"] += time.perf_counter() - start
                t["stones"] += sum((m in dead) == (m in theirs) for m in stones)
                t["exact"] += dead == theirs
                if differences is not None and (dead != theirs or seki != their_seki):
                    differences.append(Difference(game.name, name, board.size, dead - theirs,
                                                  theirs - dead, seki - their_seki,
                                                  their_seki - seki))
                margin = scoring.final_score(board, dead)
                t["winner"] += scoring.winner(margin) == game.winner
                t["margin_error"] += abs(margin - their_margin)
            if doubtful is not None and heads is not None:
                (own, seki), (head_own, _) = judged["rollout"], judged["head"]
                doubtful.extend(doubtful_chains(game.name, board, own, head_own,
                                                seki | their_seki, theirs))
            if search_sims:
                score = search_score(game, estimators["rollout"], search_sims, seed)
                totals["search_error"] += abs(score - their_margin)
    finally:
        gnugo.close()
    return totals


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sgf", default=HELD_OUT_FILE)
    parser.add_argument("--playouts", type=int, default=scoring.DEFAULT_PLAYOUTS)
    parser.add_argument("--rollout-weights", default=DEFAULT_PATH)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-sims", type=int, default=0,
                        help="also compare the search's score estimate after this many simulations")
    parser.add_argument("--lead-before", type=int, default=0, metavar="N",
                        help="with --weights: read the engine's lead N moves before the end")
    parser.add_argument("--weights", metavar="FILE",
                        help="a four-headed network: also its ownership head as the dead-stone "
                             "judge and its score head's margin")
    parser.add_argument("--doubtful", action="store_true",
                        help="with --weights: how the playouts and the ownership head call "
                             "the chains the playouts leave in doubt")
    parser.add_argument("--show-differences", action="store_true",
                        help="print each board whose dead or seki stones a judge calls "
                             "otherwise than GNU Go")
    args = parser.parse_args(argv)
    heads = None
    if args.weights:
        from goengine.programs import loading
        from goengine.nn import netfile
        try:
            heads = loading.evaluator(args.weights, "ownership", threads=2)
            if "score" not in heads.heads:
                raise netfile.NetworkLoadError(f"{args.weights}: no score head")
        except netfile.NetworkLoadError as exc:
            parser.error(str(exc))
    if args.doubtful and not heads:
        parser.error("--doubtful needs --weights")
    differences = [] if args.show_differences else None
    doubtful = [] if args.doubtful else None
    t = compare(args.sgf, args.games, args.playouts, args.rollout_weights, args.seed,
                search_sims=args.search_sims, heads=heads, lead_before=args.lead_before,
                differences=differences, doubtful=doubtful)
    for difference in differences or ():
        print(difference.describe())
    games, stones = t["games"], max(1, t["stones"])
    print(f"{games} games that ended by counting, {t['stones']} stones on their final boards")
    print(f"GNU Go final_score names the recorded winner in {t['gnugo_winner']}/{games}")
    for name in ("light", "rollout") + (("head",) if heads else ()):
        e = t[name]
        print(f"{name:8s}: stones agreeing with GNU Go {e['stones'] / stones:.4f}, "
              f"same dead set {e['exact']}/{games}, recorded winner {e['winner']}/{games}, "
              f"margin off GNU Go's by {e['margin_error'] / max(1, games):.2f} points on average, "
              f"{1000 * e['seconds'] / max(1, games):.0f} ms a position "
              f"({'one network call' if name == 'head' else f'{args.playouts} playouts'}); "
              f"seki stones {e['seki']}, {e['seki_both']} of them in GNU Go's {t['seki']}")
    if heads:
        print(f"score head: expected margin off GNU Go's by "
              f"{t['score_head_error'] / max(1, games):.2f} points on average")
        when = f" {args.lead_before} moves before the end" if args.lead_before else ""
        print(f"scoreLead : the engine's reported lead{when} off GNU Go's final margin by "
              f"{t['reported_error'] / max(1, games):.2f} points on average")
    if args.search_sims:
        print(f"search  : mean rollout score after {args.search_sims} simulations off GNU Go's "
              f"margin by {t['search_error'] / max(1, games):.2f} points on average")
    for line in doubt_report(doubtful) if args.doubtful else ():
        print(line)
    print(f"stones_light={t['light']['stones'] / stones:.4f} "
          f"stones_rollout={t['rollout']['stones'] / stones:.4f} games={games}")


if __name__ == "__main__":
    main()
