"""Build goengine and its Cython core with optimisation on."""

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

COMPILE_ARGS = ["-O3", "-fno-strict-aliasing"]
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def extension(name):
    return Extension(
        f"goengine.{name}",
        [f"goengine/{name}.pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=COMPILE_ARGS,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    )


setup(
    name="goengine",
    version="0.1.0",
    description="A Go engine in the shape of AlphaGo (Nature 2016), for ordinary CPUs",
    packages=find_packages(include=["goengine", "goengine.*", "training", "training.*"]),
    package_data={"goengine": ["*.pxd", "*.pyx"]},
    ext_modules=cythonize(
        [extension("_board"), extension("_features"), extension("_tree"),
         extension("_patterns"), extension("_rollout")],
        compiler_directives=DIRECTIVES,
    ),
    entry_points={"console_scripts": ["goengine-review=goengine.review:main"]},
    python_requires=">=3.10",
    install_requires=["torch==2.13.0", "numpy", "sgfmill", "tqdm", "matplotlib"],
    extras_require={"test": ["pytest"]},
)
