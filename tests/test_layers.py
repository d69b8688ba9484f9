"""The layers of goengine (shared/ARCHITECTURE.md): data flows down, never up.

Every module of goengine/ is read (Python with ast, Cython by its import lines) and each
goengine import it makes is checked against the layer order below: a module may import its
own package and the layers beneath it, nothing beside or above it, and never the trainers
or the tools. The board (goengine/_board.pyx) sits at the root: it is the ground every
layer stands on, so everyone may import it and it imports no layer at all."""

import ast
import re
from pathlib import Path

from tests.parsing import parse_only

ROOT = Path(__file__).resolve().parent.parent / "goengine"
# Lower numbers are lower layers; packages of one number may not import each other.
LAYERS = {"_board": -1, "game": 0, "rollout": 1, "nn": 1, "search": 2, "players": 3, "gtp": 4,
          "analysis": 4, "programs": 5}
CYTHON_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+c?import|c?import\s+([\w.]+))", re.M)


def imports_of(path):
    """The dotted names a module imports (for `from goengine import x`, goengine.x)."""
    text = path.read_text()
    if path.suffix != ".py":
        return [a or b for a, b in CYTHON_IMPORT.findall(text)]
    names = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            if node.module == "goengine":
                names.extend(f"goengine.{alias.name}" for alias in node.names)
    return names


def layer_of(dotted):
    """The package of goengine.<package>.…, or None for the root's own names."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def upward_imports(root=ROOT):
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or path.name == "__init__.py" \
                and path.parent == root:
            continue
        package = path.relative_to(root).parts[0] if path.parent != root else path.stem
        for name in imports_of(path):
            top = name.split(".")[0]
            if top in ("training", "tools", "tests", "gtp_main"):
                found.append(f"{path.relative_to(root)} imports {name}")
            target = layer_of(name) if top == "goengine" else None
            if package not in LAYERS:
                found.append(f"{path.relative_to(root)} is at the root but is no layer")
            elif target and target != package and LAYERS[target] >= LAYERS[package]:
                found.append(f"{path.relative_to(root)} ({package}) imports {name} ({target})")
    return found


def test_no_module_imports_a_higher_or_sibling_layer():
    assert upward_imports() == []


def test_the_root_holds_the_packages_the_board_and_its_init():
    loose = {p.name for p in ROOT.iterdir()
             if p.is_file() and p.suffix in (".py", ".pyx", ".pxd") and p.name != "__init__.py"}
    assert loose == {"_board.pyx", "_board.pxd"}
    packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    assert packages == set(LAYERS) - {"_board"}


def test_the_root_imports_only_the_board_and_the_game_layer():
    names = [n for n in imports_of(ROOT / "__init__.py") if n.startswith("goengine.")]
    assert names and all(layer_of(n) in ("_board", "game") for n in names)


def test_the_walk_finds_an_upward_import(tmp_path):
    """The check itself can fail: a board module that imports the search is reported."""
    fake = tmp_path / "goengine"
    (fake / "game").mkdir(parents=True)
    (fake / "game" / "bad.py").write_text("from goengine.search import search\n")
    (fake / "game" / "_bad.pyx").write_text("from goengine.nn._features cimport x\n")
    (fake / "game" / "ok.py").write_text("from goengine import BLACK\nimport numpy\n")
    (fake / "game" / "board_user.pyx").write_text("from goengine._board cimport Board\n")
    (fake / "_board.pyx").write_text("from goengine.game.coords import x\n")
    assert len(upward_imports(fake)) == 3


def test_every_program_in_tools_answers_help(parsers):
    """tools/ holds programs only (shared code lives in packages), each with --help, and
    _checkout.py, which every program imports first."""
    import subprocess
    tools = ROOT.parent / "tools"
    assert (tools / "_checkout.py").is_file()
    programs = sorted(p for p in tools.iterdir() if p.is_file() and p.name != "_checkout.py")
    assert programs and all(p.suffix in (".py", ".sh") for p in programs)
    pending = {p: parse_only(parsers, [str(p)], ["--help"]) for p in programs if p.suffix == ".py"}
    answers = {p: answer.get(timeout=120) for p, answer in pending.items()}
    for program in (p for p in programs if p.suffix == ".sh"):
        result = subprocess.run(["bash", str(program), "--help"], capture_output=True,
                                text=True, timeout=120)
        answers[program] = (result.returncode, result.stdout, result.stderr)
    for program, (status, out, err) in answers.items():
        assert status == 0 and "usage" in out.lower(), (program, err)
