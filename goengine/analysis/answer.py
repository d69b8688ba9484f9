"""A search's result as KataGo's analysis engine answers it: moveInfos, rootInfo and, when
asked, ownership and policy, every value from the query's reportAnalysisWinratesAs side.

Maps run row-major from the top left (A19 first on 19x19), as KataGo lays them out.
"""

from goengine import BLACK, WHITE
from goengine.game import coords


def perspective_sign(query, colour):
    """+1 where the answer speaks for `colour` (the side to move), -1 for its opponent."""
    if query.perspective == 'SIDETOMOVE':
        return 1
    side = BLACK if query.perspective == 'BLACK' else WHITE
    return 1 if colour == side else -1


def analysis(query, turn, result, game, colour, leads=None, root_lead=None,
             ownership=None, policy=None, move_ownership=None, during_search=False):
    """The answer to turn `turn` of `query` from a SearchResult. leads: {move: score lead
    for the mover after it} (the score head's, where it has one); root_lead: the
    position's; ownership: (size, size) +1 Black; policy: (size*size,) probabilities;
    move_ownership: {move: ownership after it}."""
    sign = perspective_sign(query, colour)
    size = query.size

    def rate(w):
        return w if sign > 0 else 1.0 - w

    def points(lead):
        return None if lead is None else sign * float(lead)

    infos = []
    for order, info in enumerate(result.candidates):
        lead = (leads or {}).get(info.move, info.score_lead)
        winrate = rate(float(info.winrate))
        entry = {'move': coords.to_gtp(info.move, size), 'visits': int(info.visits),
                 'winrate': winrate, 'prior': float(info.prior),
                 'lcb': rate(float(info.lcb)), 'utility': 2 * winrate - 1, 'order': order,
                 'pv': [coords.to_gtp(m, size) for m in (info.pv or [info.move])]}
        if lead is not None:
            entry['scoreLead'] = entry['scoreMean'] = points(lead)
        if query.include_pv_visits:
            entry['pvVisits'] = [int(v) for v in info.pv_visits] or [int(info.visits)]
        if move_ownership and info.move in move_ownership:
            entry['ownership'] = layout(move_ownership[info.move], query, size)
        infos.append(entry)
    out = {'id': query.id, 'turnNumber': turn, 'isDuringSearch': during_search,
           'moveInfos': infos}
    root = {'visits': int(result.visits), 'currentPlayer': 'B' if colour == BLACK else 'W'}
    root_rate = result.root_winrate if result.root_winrate is not None else result.winrate
    if root_rate is not None:
        root['winrate'] = rate(float(root_rate))
        root['utility'] = 2 * root['winrate'] - 1
    lead = root_lead if root_lead is not None else result.score
    if lead is not None:
        root['scoreLead'] = points(lead)
    out['rootInfo'] = root
    if ownership is not None:
        out['ownership'] = layout(ownership, query, size)
    if policy is not None:
        board = game.board_for(colour)
        out['policy'] = [float(policy[move]) if board.is_legal(move, colour) else -1.0
                         for move in coords.top_down(size)] + [0.0]
    return out


def layout(ownership, query, size):
    """An ownership map (+1 Black, [row, col]) in KataGo's order and from the query's side."""
    black = perspective_sign(query, BLACK)
    flat = ownership.reshape(-1)   # [row, col] row-major: a move's own index
    return [black * float(flat[move]) for move in coords.top_down(size)]


def no_results(query_id, turn):
    """A turn terminated before its search began (KataGo's noResults answer)."""
    return {'id': query_id, 'turnNumber': turn, 'isDuringSearch': False, 'noResults': True}


def warning(query_id, field_name, message):
    return {'warning': message, 'field': field_name, 'id': query_id}
