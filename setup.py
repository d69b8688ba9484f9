"""Build goengine and its Cython core with optimisation on."""

import re
from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

COMPILE_ARGS = ["-O3", "-fno-strict-aliasing"]
# The Cython core: the board at the package's root
# (every layer stands on it), the rest each in its layer's package.
EXTENSIONS = ["_board", "nn._features", "rollout._patterns", "rollout._rollout",
              "search._tree"]
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def requirements(path=Path(__file__).with_name("requirements.txt")):
    """(install_requires, extras_require) from requirements.txt, the one list: the lines
    before the first "# [name]" heading are required, the rest belong to that extra."""
    required, extras, current = [], {}, None
    for line in path.read_text().splitlines():
        heading = re.fullmatch(r"#\s*\[(\w+)\]\s*", line)
        if heading:
            current = extras.setdefault(heading.group(1), [])
        elif line.strip() and not line.startswith("#"):
            (required if current is None else current).append(line.strip())
    return required, extras


INSTALL_REQUIRES, EXTRAS_REQUIRE = requirements()
VERSION = re.search(r'__version__ = "([^"]+)"',
                    Path(__file__).with_name("goengine").joinpath("__init__.py").read_text())[1]


def extension(name):
    """name: the dotted module under goengine, e.g. 'search._tree' (goengine/search/_tree.pyx)."""
    return Extension(
        f"goengine.{name}",
        [f"goengine/{name.replace('.', '/')}.pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=COMPILE_ARGS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


setup(
    name="goengine",
    version=VERSION,
    description="A Go engine in the shape of AlphaGo (Nature 2016), for ordinary CPUs",
    # The engine alone is installed; training/, harness/ and tools/ run from the checkout.
    packages=find_packages(include=["goengine", "goengine.*"]),
    package_data={"goengine": ["*.pxd", "*.pyx", "*/*.pxd", "*/*.pyx"]},
    ext_modules=cythonize(
        [extension(name) for name in EXTENSIONS],
        compiler_directives=DIRECTIVES,
    ),
    entry_points={"console_scripts": ["goengine=goengine.programs.gtp_main:run",
                                      "goengine-review=goengine.programs.review:main",
                                      "goengine-analysis=goengine.programs.analysis:main"]},
    python_requires=">=3.10",
    install_requires=INSTALL_REQUIRES,
    extras_require=EXTRAS_REQUIRE,
)
