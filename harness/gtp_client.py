"""The controller side of GTP: one engine process spoken to over stdin/stdout.

What a match runner needs beyond a plain pipe: every command has a timeout
(an engine that hangs must lose, not stall the match), a dead process is
noticed at once (EOF on its stdout), and the engine's stderr goes to a log
file so a crash can be explained afterwards. Responses are read by a thread
into a queue, so a timeout never leaves a half-read line behind.
"""

import os
import queue
import shlex
import subprocess
import threading
import time


class EngineError(Exception):
    """The engine failed as a process: it crashed or did not answer in time."""


class EngineCrashed(EngineError):
    pass


class EngineTimeout(EngineError):
    pass


class GtpFailure(Exception):
    """The engine answered '? message' (the process itself is fine)."""


class GtpProcess:
    """A GTP engine started from a command line (a string, split like a shell would).

    `send(command, timeout)` returns the response text after '=' or raises
    GtpFailure / EngineTimeout / EngineCrashed. Use as a context manager, or
    call close().
    """

    def __init__(self, command, name=None, stderr_path=None, cwd=None):
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.name = name or os.path.basename(self.argv[0])
        self.stderr_path = stderr_path
        self._stderr = open(stderr_path, 'wb') if stderr_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, cwd=cwd)
        except OSError as exc:
            self._close_stderr()
            raise EngineCrashed(f'{self.name}: cannot start {self.argv[0]}: {exc}') from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, name=f'gtp-{self.name}', daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode('utf-8', 'replace').rstrip('\r\n'))
        self.lines.put(None)   # EOF: the process closed stdout (exited or crashed)

    @property
    def pid(self):
        return self.proc.pid

    def send(self, command, timeout=60.0):
        """Send one command; the text of a '=' response (multi-line joined by '\\n')."""
        try:
            self.proc.stdin.write(command.encode() + b'\n')
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crashed(command) from None
        deadline = time.monotonic() + timeout
        head, body = None, []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineTimeout(f'{self.name}: no answer to {command!r} '
                                    f'within {timeout:g} s') from None
            if line is None:
                self.lines.put(None)   # later calls see the EOF too
                raise self._crashed(command)
            if head is None:
                if line[:1] in ('=', '?'):   # anything before a response is noise
                    head = line
                continue
            if line.strip() == '':
                break
            body.append(line)
        text = '\n'.join([head.split(' ', 1)[1] if ' ' in head else ''] + body).strip()
        if head.startswith('?'):
            raise GtpFailure(f'{self.name}: {command!r} failed: {text}')
        return text

    def _crashed(self, command):
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        return EngineCrashed(f'{self.name}: exited (code {code}) during {command!r}'
                             f'{self.stderr_tail()}')

    def stderr_tail(self, lines=3):
        """The last lines of the engine's stderr log, for error messages."""
        if not self.stderr_path:
            return ''
        try:
            with open(self.stderr_path, 'rb') as f:
                f.seek(0, os.SEEK_END)
                f.seek(max(0, f.tell() - 2000))
                tail = f.read().decode('utf-8', 'replace').strip().splitlines()[-lines:]
        except OSError:
            return ''
        return ('; stderr: ' + ' | '.join(tail)) if tail else ''

    def rss_mb(self):
        """Resident memory of the engine process in MiB (Linux /proc), None if gone."""
        try:
            with open(f'/proc/{self.proc.pid}/status') as f:
                for line in f:
                    if line.startswith('VmRSS:'):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def close(self, timeout=5.0):
        """Ask politely (quit), then kill if the engine does not exit."""
        if self.proc.poll() is None:
            try:
                self.send('quit', timeout=timeout)
            except (EngineError, GtpFailure):
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def kill(self):
        """End the process now (an engine that hangs or misbehaves)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        try:
            self.proc.stdin.close()   # stdout is left to the reader thread, which sees EOF
        except OSError:
            pass
        self._close_stderr()

    def _close_stderr(self):
        if self._stderr not in (None, subprocess.DEVNULL):
            self._stderr.close()
            self._stderr = subprocess.DEVNULL

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
