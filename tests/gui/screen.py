"""A virtual screen for the tests that drive a real GUI: Xvfb on a display of its own, the
GUI started in a process group of its own, and both stopped however the test ends."""

import contextlib
import os
import signal
import subprocess
import time


@contextlib.contextmanager
def virtual_screen(display, size, *extra):
    """Xvfb on `display` ('WxHxD' `size`) while the block runs."""
    xvfb = subprocess.Popen(['Xvfb', display, '-screen', '0', size, '-nolisten', 'tcp', *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    try:
        yield
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=30)


def stop(process):
    """End a GUI started with start_new_session=True, and all it started."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
