"""Fast play without a network: pattern keys, the rollout and tree policy (Cython), and
scoring with dead stones judged by playouts. Imports only goengine.game."""
