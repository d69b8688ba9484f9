"""Our programs' command lines parsed, not run: each is handed to its program in a process
forked from one that has imported torch, with argparse stopped right after a clean parse.
A command then takes a fraction of a second, where a new Python spends 3.5 s importing
torch on a slow CPU."""

import argparse
import contextlib
import io
import multiprocessing
import os
import runpy
import sys
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@contextlib.contextmanager
def parser_pool():
    """Processes for parse_and_stop, a fresh one a command."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["torch", "numpy"])
    with context.Pool(os.cpu_count(), maxtasksperchild=1) as pool:
        yield pool


def parse_and_stop(program, args):
    """`python PROGRAM ARGS` (PROGRAM a path, or -m and a module) in this process, its
    parse_args stopping right after a clean parse: (exit status, stdout, stderr)."""
    parse_args = argparse.ArgumentParser.parse_args

    def parse_then_exit(self, args=None, namespace=None):
        parse_args(self, args, namespace)
        raise SystemExit(0)

    argparse.ArgumentParser.parse_args = parse_then_exit
    os.chdir(REPO)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if program[0] == "-m":
                sys.argv = program[1:] + args
                runpy.run_module(program[1], run_name="__main__", alter_sys=True)
            else:
                sys.argv = program + args
                sys.path.insert(0, os.path.dirname(os.path.abspath(program[0])))
                runpy.run_path(program[0], run_name="__main__")
            status = 0
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else exit.code is not None
            if isinstance(exit.code, str):
                print(exit.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            status = 1
    return int(status), out.getvalue(), err.getvalue()


def parse_only(parsers, program, args):
    """The outcome of parse_and_stop in a fresh process (`.get()` it)."""
    return parsers.apply_async(parse_and_stop, (program, args))
