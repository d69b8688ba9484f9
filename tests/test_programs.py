"""The programs under tools/ run against the checkout they live in, whatever checkout
`pip install -e .` points to: a match run from a second checkout must start that
checkout's engine and use its harness."""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"
PROJECT = ("goengine", "harness", "training")


def test_a_program_in_another_checkout_imports_that_checkouts_packages(tmp_path):
    # A bare second checkout: tools/_checkout.py, a program, and its own harness.
    (tmp_path / "tools" / "bench").mkdir(parents=True)
    shutil.copy(TOOLS / "_checkout.py", tmp_path / "tools")
    (tmp_path / "tools" / "bench" / "_checkout.py").symlink_to("../_checkout.py")
    (tmp_path / "harness").mkdir()
    (tmp_path / "harness" / "__init__.py").write_text("")
    probe = "import _checkout\nimport harness\nprint(harness.__file__)\n"
    for program in (tmp_path / "tools" / "probe.py", tmp_path / "tools" / "bench" / "probe.py"):
        program.write_text(probe)
        out = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                             cwd=tmp_path, check=True).stdout
        assert Path(out.strip()) == tmp_path / "harness" / "__init__.py"


def top_level_imports(path):
    """The modules a program imports at its top level, in order."""
    names = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_every_program_puts_its_checkout_first_before_the_projects_packages():
    programs = [p for p in sorted(TOOLS.rglob("*.py")) if p.name != "_checkout.py"]
    assert len(programs) > 20
    for program in programs:
        names = top_level_imports(program)
        uses_project = any(name.split(".")[0] in PROJECT for name in names) or any(
            f"from {package}" in program.read_text() for package in PROJECT)
        if not uses_project:
            continue
        assert "_checkout" in names, f"{program} does not import _checkout"
        first_project = next((i for i, n in enumerate(names) if n.split(".")[0] in PROJECT),
                             len(names))
        assert names.index("_checkout") < first_project, program
    for folder in (TOOLS / "bench", TOOLS / "research"):
        assert (folder / "_checkout.py").resolve() == TOOLS / "_checkout.py"
