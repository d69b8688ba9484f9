"""GTP version 2, the protocol alone: it knows no Go (as Minigo's gtp_engine).

* Each input line is preprocessed: control characters other than HT and LF
  are removed, everything from '#' on is a comment, HT becomes a space, and
  empty or blank lines are ignored (no response).
* A command is `[id] command_name [arguments]`; id is a non-negative integer.
* A success is `=[id] result`, a failure `?[id] message`; every response ends
  with an empty line, so a response never contains one itself.
* Command names are accepted in any case; arguments keep their case (file names).

`serve()` runs the stdin/stdout loop. It feeds stdin through a reader thread,
so that a streaming command (lz-analyze) can see the next command arrive and stop.
"""

import math
import os
import sys
import threading
from collections import deque
from typing import NamedTuple, Optional

PROTOCOL_VERSION = 2


class GtpError(Exception):
    """A failure response: str(exc) is the message after '?'."""


class Command(NamedTuple):
    id: Optional[int]
    name: str
    args: list


# -- parsing and formatting ----------------------------------------------

def preprocess(line):
    """Spec 3.1 preprocessing of one line; None when nothing is left to execute."""
    line = ''.join(ch for ch in line if ch == '\t' or (ord(ch) >= 32 and ord(ch) != 127))
    line = line.split('#', 1)[0].replace('\t', ' ').strip()
    return line or None


def parse_command(line):
    """One raw input line -> Command, or None for an empty/comment line.

    The name is lower-cased; it is '' when the line holds only an id.
    """
    line = preprocess(line)
    if line is None:
        return None
    words = line.split()
    cmd_id = None
    if words[0].isdigit() and words[0].isascii():
        cmd_id = int(words.pop(0))
    name = words.pop(0).lower() if words else ''
    return Command(cmd_id, name, words)


def format_response(cmd_id, ok, text=''):
    """'=id text\n\n' or '?id text\n\n', with no empty line inside.

    A text starting with a newline (showboard) keeps it, so its first row
    starts on a line of its own.
    """
    text = str(text)
    body = '\n'.join(line.rstrip() for line in text.split('\n') if line.strip())
    head = ('=' if ok else '?') + ('' if cmd_id is None else str(cmd_id))
    if text.startswith('\n') and body:
        return f'{head}\n{body}\n\n'
    return f'{head} {body}\n\n'


def parse_int(text, low=None, high=None):
    try:
        value = int(text, 10)
    except (ValueError, TypeError):
        raise GtpError('syntax error') from None
    if (low is not None and value < low) or (high is not None and value > high):
        raise GtpError('syntax error')
    return value


def parse_float(text):
    try:
        value = float(text)
    except (ValueError, TypeError):
        raise GtpError('syntax error') from None
    if not math.isfinite(value):
        raise GtpError('syntax error')
    return value


def expect_args(args, low, high=None):
    high = low if high is None else high
    if not low <= len(args) <= high:
        raise GtpError('syntax error')


def command(name):
    """Mark a handler method as implementing GTP command `name`."""
    def mark(method):
        method.gtp_name = name
        return method
    return mark




# -- the stdin/stdout loop -----------------------------------------------

class LineReader:
    """Reads lines from a file descriptor on a thread, so a running command can
    see that the next one has arrived (`wait`). Reads with os.read: a daemon
    thread blocked inside a buffered stdin would hang interpreter shutdown.
    """

    def __init__(self, fd):
        self.fd = fd
        self.lines = deque()
        self.eof = False
        self.cond = threading.Condition()
        self.thread = threading.Thread(target=self._run, name='gtp-stdin', daemon=True)
        self.thread.start()

    def _run(self):
        buffer = b''
        while True:
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                break
            buffer += chunk
            *complete, buffer = buffer.split(b'\n')
            if complete:
                with self.cond:
                    self.lines.extend(line.decode('utf-8', 'replace') for line in complete)
                    self.cond.notify_all()
        with self.cond:
            if buffer:
                self.lines.append(buffer.decode('utf-8', 'replace'))
            self.eof = True
            self.cond.notify_all()

    def pending(self):
        return bool(self.lines) or self.eof

    def wait(self, timeout):
        """True once a line (or EOF) is waiting; otherwise False after `timeout`."""
        with self.cond:
            return self.cond.wait_for(self.pending, timeout)

    def get(self):
        """Next line, or None at EOF."""
        with self.cond:
            self.cond.wait_for(self.pending)
            return self.lines.popleft() if self.lines else None


def serve(engine, in_fd=0, out=None):
    """Run the GTP loop on stdin/stdout until quit or EOF. Returns the exit code."""
    out = out or sys.stdout
    reader = LineReader(in_fd)
    engine.interrupt = reader

    def write(text):
        out.write(text)
        out.flush()
    engine.write = write
    try:
        while not engine.quit_requested:
            line = reader.get()
            if line is None:
                break
            engine.handle(line)
            if not engine.quit_requested and not reader.pending():
                engine.idle()
    except BrokenPipeError:
        pass
    except KeyboardInterrupt:
        return 130
    return 0
