"""A virtual screen for the tests that drive a real GUI: Xvfb on a display of its own, the
GUI started in a process group of its own, and both stopped however the test ends."""

import contextlib
import os
import re
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


def wait_for(path, pattern, timeout, after=0.0):
    """The first log line matching `pattern` written `after` seconds or later, waiting up to
    `timeout` seconds; None if none came."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if path.exists():
            for line in path.read_text().splitlines():
                stamp, _, rest = line.strip().partition(' ')
                if float(stamp) >= after and re.search(pattern, rest):
                    return float(stamp), rest
        time.sleep(0.2)
    return None
