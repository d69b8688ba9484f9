"""KataGo's analysis engine protocol (goengine-analysis): query reads a line, answer
writes a result, engine queues the turns and searches them."""
