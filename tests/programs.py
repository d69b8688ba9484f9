"""The programs under tools/ loaded as modules for the tests: tools/ is a folder of
programs, not a package, and nothing imports one program from another."""

import functools
import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
FOLDERS = (TOOLS, TOOLS / "bench", TOOLS / "research")


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def tool(name):
    """The module of tools/[bench/|research/]<name>.py, loaded once."""
    if "_checkout" not in sys.modules:       # what every program imports first
        sys.modules["_checkout"] = _load("_checkout", TOOLS / "_checkout.py")
    for folder in FOLDERS:
        path = folder / f"{name}.py"
        if path.exists():
            return _load(name, path)
    raise FileNotFoundError(f"no program {name}.py under {TOOLS}")
