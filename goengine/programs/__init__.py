"""What the programs share on top of everything: loading networks and players from files
(gtp_main, goengine-review, tools) and the game reviewer."""
