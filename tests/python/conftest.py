"""The Python API's tests (docs/python.md; one ctest each, tests/CMakeLists.txt): the package
from the build tree (PYTHONPATH), the CLI they compare with ($VPSIM) and the sources ($VPSIM_SOURCE)."""
import json
import os
import subprocess

import pytest


@pytest.fixture(scope="session")
def cli():
    exe = os.environ["VPSIM"]

    def call(*args, check=True):
        p = subprocess.run([exe, *args], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"vpsim {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return p
    return call


@pytest.fixture(scope="session")
def src():
    return os.environ["VPSIM_SOURCE"]


@pytest.fixture(scope="session")
def cli_json(cli):
    def call(*args):
        return json.loads(cli(*args).stdout)
    return call
