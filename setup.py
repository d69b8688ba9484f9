"""Build goengine and its Cython core with optimisation on."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

COMPILE_ARGS = ["-O3", "-fno-strict-aliasing"]
# The Cython core: the board at the package's root, where the design card puts it
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
    version="0.1.0",
    description="A Go engine in the shape of AlphaGo (Nature 2016), for ordinary CPUs",
    packages=find_packages(include=["goengine", "goengine.*", "training", "training.*",
                                    "harness", "harness.*"]),
    package_data={"goengine": ["*.pxd", "*.pyx", "*/*.pxd", "*/*.pyx"]},
    ext_modules=cythonize(
        [extension(name) for name in EXTENSIONS],
        compiler_directives=DIRECTIVES,
    ),
    entry_points={"console_scripts": ["goengine-review=goengine.programs.review:main"]},
    python_requires=">=3.10",
    install_requires=["torch==2.13.0", "numpy", "sgfmill", "tqdm", "matplotlib"],
    extras_require={"test": ["pytest"]},
)
