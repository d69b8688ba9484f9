"""Runs a line-protocol engine (GTP, or KataGo's analysis JSON) and copies every line each
way to a log file: what a GUI sent ('<< ') and what the engine answered ('>> '), for tests
that drive a real GUI.

    python tests/gui/gtp_tee.py LOG -- ENGINE COMMAND ...
"""

import subprocess
import sys
import threading
import time


def main():
    log_path, command = sys.argv[1], sys.argv[sys.argv.index('--') + 1:]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    log = open(log_path, 'a', buffering=1)
    start = time.monotonic()

    def note(prefix, line):
        log.write(f'{time.monotonic() - start:8.3f} {prefix}{line.rstrip()}\n')

    def answers():
        for line in engine.stdout:
            note('>> ', line)
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=answers, daemon=True).start()
    for line in sys.stdin:
        note('<< ', line)
        engine.stdin.write(line)
        engine.stdin.flush()
    engine.stdin.close()
    engine.wait()


if __name__ == '__main__':
    main()
