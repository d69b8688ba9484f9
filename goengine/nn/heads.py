"""The heads a network can have, by name: what a caller asks an evaluator for and what
NetworkInfo.heads lists (a str enum, so a network file's names compare equal)."""

import enum


class Head(enum.StrEnum):
    POLICY = 'policy'          # move probabilities
    VALUE = 'value'            # the outcome for the player to move
    OWNERSHIP = 'ownership'    # who ends up owning each point
    SCORE = 'score'            # the final margin in points
