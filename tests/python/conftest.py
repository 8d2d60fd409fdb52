"""Fixtures of the linescope suite: the command line to compare with, the samples, and
deterministic test images.

CTest (label python) runs this folder with PYTHONPATH=<build>/python, LINESCOPE_CLI and
LINESCOPE_SAMPLES_DIR set; by hand:
    PYTHONPATH=build/python LINESCOPE_CLI=build/app/linescope-cli \\
        LINESCOPE_SAMPLES_DIR=resources/samples /usr/bin/python3 -m pytest tests/python
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))  # imagefiles

import linescope  # noqa: E402,F401  (fails the whole suite at once when the module is missing)


@pytest.fixture(scope="session")
def cli():
    """Runs linescope-cli with the arguments; returns its stdout. A failure fails the test."""
    path = os.environ.get("LINESCOPE_CLI")
    if not path:
        pytest.skip("LINESCOPE_CLI is not set (CTest sets it): no command line to compare with")

    def run(*args):
        done = subprocess.run([path, *map(str, args), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, f"linescope-cli {' '.join(map(str, args))}: {done.stderr}"
        return done.stdout

    run.json = lambda *args: json.loads(run(*args))
    return run


@pytest.fixture(scope="session")
def samples():
    path = os.environ.get("LINESCOPE_SAMPLES_DIR") or os.path.join(
        os.path.dirname(__file__), "..", "..", "resources", "samples")
    if not os.path.isdir(path):
        pytest.skip("no samples folder (set LINESCOPE_SAMPLES_DIR)")
    return path


@pytest.fixture(params=[np.uint8, np.uint16, np.float32], ids=["uint8", "uint16", "float32"])
def dtype(request):
    return request.param
