"""Ctrl-C while a program loads its networks ends it at once: status 130 and one line.

A KeyboardInterrupt raised while torch or OpenVINO runs its C++ start-up can leave as a C++
exception and abort the process ('terminate called after throwing an instance of
pybind11::error_already_set', SIGABRT). Before the program is up there is nothing to save,
so the handler ends the process itself rather than raising."""

import contextlib
import os
import signal
import threading


@contextlib.contextmanager
def ctrl_c_exits_at_once(line):
    """Within the block SIGINT writes `line` to stderr and exits with status 130; outside
    it, Ctrl-C is a KeyboardInterrupt again. Off the main thread, where handlers cannot be
    set, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def exit_now(signum, frame):
        os.write(2, (line + '\n').encode())
        os._exit(130)
    previous = signal.signal(signal.SIGINT, exit_now)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
