"""Every module of goengine/ is named in docs/LAYOUT.md's table, and every module that
docs/API.md gives a section of its own exists."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def layout_paths():
    table = (REPO / 'docs' / 'LAYOUT.md').read_text()
    named = set()
    for cell in re.findall(r'^\| ([^|]+) \|', table, re.M):
        paths = re.findall(r'`([^`]+)`', cell)
        folder = str(Path(paths[0]).parent) if paths else ''
        for path in paths:
            named.add(path if '/' in path else f'{folder}/{path}')
    return named


def test_the_readme_names_every_module():
    named = layout_paths()
    modules = sorted(str(p.relative_to(REPO)) for p in (REPO / 'goengine').rglob('*')
                     if p.suffix in ('.py', '.pyx') and p.name != '__init__.py'
                     and 'goengine/__init__' not in str(p))
    missing = [m for m in modules if m not in named and
               m.replace('.pyx', '.pxd') not in named]
    assert missing == []


def test_api_md_names_only_modules_that_exist():
    text = (REPO / 'docs' / 'API.md').read_text()
    for dotted in set(re.findall(r'^## (goengine(?:\.\w+)+)', text, re.M)):
        parts = dotted.split('.')
        found = [parts[:i] for i in range(len(parts), 1, -1)
                 if any((REPO.joinpath(*parts[:i])).with_suffix(s).exists()
                        for s in ('.py', '.pyx'))]
        assert found, dotted


def documented_calls(text):
    """(section heading, callable name, parameter names) for every `name(a, b=1, ...)`
    that docs/API.md writes in backticks."""
    section = ''
    for line in text.splitlines():
        if line.startswith('## '):
            section = line[3:]
            continue
        for name, params in re.findall(r'`((?:[\w]+\.)*[\w]+)\(([^()`]*)\)', line):
            names = [p.strip().split('=')[0].strip().lstrip('*') for p in params.split(',')]
            names = [n for n in names if n]
            if all(n.isidentifier() for n in names):      # not an example (from_gtp("d4"), ...)
                yield section, name, names


def resolve(section, name):
    """The object `name` stands for in a section about goengine modules, or None."""
    import importlib
    modules = re.findall(r'goengine(?:\.\w+)*', section)
    candidates = [name] + [f'{m}.{name}' for m in modules]
    for m in modules:                    # 'goengine.search.search and ...players.mcts_player'
        for part in re.findall(r'\.(\w+)', section):
            candidates.append(f'{m}.{part}.{name}')
    for dotted in candidates:
        parts = dotted.split('.')
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj = importlib.import_module('.'.join(parts[:cut]))
            except ImportError:
                continue
            try:
                for attr in parts[cut:]:
                    obj = getattr(obj, attr)
            except AttributeError:
                break
            return obj
    return None


def test_api_md_signatures_are_the_codes():
    """Each documented call whose name resolves in its section's modules takes the
    parameters API.md gives it, in that order (self aside)."""
    import inspect
    text = (REPO / 'docs' / 'API.md').read_text()
    checked, wrong = 0, []
    for section, name, params in documented_calls(text):
        obj = resolve(section, name)
        if obj is None or not callable(obj):
            continue
        try:
            real = [p for p in inspect.signature(obj).parameters if p != 'self']
        except (TypeError, ValueError):
            continue                                   # Cython code without a signature
        checked += 1
        if params != real[:len(params)] or len(params) < len(
                [p for p in inspect.signature(obj).parameters.values()
                 if p.default is inspect.Parameter.empty and p.name != 'self'
                 and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]):
            wrong.append(f'{section}: {name}({", ".join(params)}) but the code has '
                         f'({", ".join(real)})')
    assert checked >= 15 and wrong == [], '\n'.join(wrong)


# Where a README path may point that the repository does not hold: what programs write, and
# the reader's own files.
NOT_IN_THE_REPOSITORY = ('runs/', '.venv/', '/path/to/', 'mygame')


# The README and the pages that were once its sections: their paths are written from the
# repository's root.
USER_PAGES = ('README.md', 'docs/GUIS.md', 'docs/LAYOUT.md', 'docs/TUNING.md', 'docs/SUITES.md')


def readme_paths(page='README.md'):
    """Every repository path a user page names: in backticks, in a link, or in a command."""
    text = (REPO / page).read_text()
    tops = '|'.join(sorted({p.name for p in REPO.iterdir() if p.is_dir()
                            and not p.name.startswith('.')} - {'runs', 'build'}))
    packages = '|'.join(p.name for p in (REPO / 'goengine').iterdir() if p.is_dir()
                        and (p / '__init__.py').exists())
    pattern = rf'(?<![\w./-])((?:{tops})/[\w./-]*[\w/]|gtp_main\.py|Makefile|setup\.py)'
    in_the_package = rf'(?<![\w./-])((?:{packages})/\w+\.pyx?)\b'   # "nn/inference.py"
    paths = set(re.findall(pattern, text)) | {
        f'goengine/{path}' for path in re.findall(in_the_package, text)}
    return {path for path in paths if not any(skip in path for skip in NOT_IN_THE_REPOSITORY)}


def in_an_archive(path):
    """Whether `path` lies inside one of the repository's tar archives (docs/matches)."""
    import tarfile
    parts = Path(path).parts
    for i, part in enumerate(parts):
        if part.endswith('.tar'):
            with tarfile.open(REPO.joinpath(*parts[:i + 1])) as tar:
                inner = '/'.join(parts[i + 1:])
                return any(name == inner or name.startswith(inner + '/')
                           for name in tar.getnames())
    return False


def test_every_path_the_readme_names_exists():
    """The README and docs/GUIS.md, LAYOUT.md, TUNING.md and SUITES.md name no file, folder or
    module that is not there (the layout test above checks the other way round); a path
    inside a month's match archive is looked for there."""
    paths = set().union(*(readme_paths(page) for page in USER_PAGES))
    assert {'gtp_main.py', 'goengine/players/decision.py', 'docs/DECISIONS.md',
            'goengine/nn/inference.py', 'tools/match.py'} <= paths
    missing = sorted(p for p in paths if not (REPO / p).exists() and not in_an_archive(p))
    assert missing == []


def test_the_readme_stays_short():
    """The README is for a user: the two commands, the GUI five-liner, and pointers."""
    text = (REPO / 'README.md').read_text()
    assert len(text.splitlines()) <= 220
    assert text.index('## The two commands') < text.index('## A GUI in five lines')
