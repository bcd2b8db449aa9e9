"""Fixtures of the package's tests (docs/python.md, "Tests").

The tests run the package from this clone's src/ (PYTHONPATH) or as
installed. READSIM_BINARY names the readsim binary they use; without it, one
is built from this clone into a temporary folder, once per session. Tests on
../shared/data skip, saying so, when it is absent, and fail instead when the
environment variable CI is set (as the Go tests do).
"""

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
ROOT = PYTHON_DIR.parent
SAMPLE = ROOT / "corpus-sample"
SHARED = ROOT.parent / "shared" / "data"


def _go():
    for cand in (os.environ.get("GO"), shutil.which("go"), "/usr/local/go/bin/go"):
        if cand and Path(cand).is_file():
            return cand
    return None


def pytest_configure(config):
    if os.environ.get("READSIM_BINARY"):
        return
    go = _go()
    if go is None:
        return  # the package's own binary, if installed
    out = Path(tempfile.mkdtemp(prefix="readsim-pytest-")) / "readsim"
    subprocess.run([go, "build", "-o", str(out), "./cmd/readsim"], cwd=ROOT, check=True)
    os.environ["READSIM_BINARY"] = str(out)


def shared(name):
    """The folder ../shared/data/NAME, or a skip (a failure under CI)."""
    path = SHARED / name
    if not path.is_dir():
        msg = f"{path} absent: the tests on real data skip"
        if os.environ.get("CI"):
            pytest.fail(msg + " (CI is set: they must run)")
        pytest.skip(msg)
    return path


@pytest.fixture
def inex():
    return shared("inex")


@pytest.fixture
def genomics():
    return shared("genomics07")


@pytest.fixture
def sample():
    return SAMPLE


def readsim_json(*args):
    """readsim's own JSON lines (eval --format json) for args: the values
    the package must give, from the command itself."""
    exe = os.environ["READSIM_BINARY"]
    out = subprocess.run([exe, *map(str, args)], capture_output=True, check=True).stdout
    return [json.loads(l) for l in out.decode().splitlines() if l.strip()]


def readme_eval(measure):
    """The value README.md shows for MEASURE in its `readsim eval` of
    corpus-sample/runs/ric.fol (the README's own example, whose output a Go
    testscript keeps equal to what the program prints)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("$ readsim eval --qrels corpus-sample/judgments.qrels corpus-sample/runs/ric.fol\n", 1)[1]
    for line in block.split("```", 1)[0].splitlines():
        fields = line.split("\t")
        if len(fields) == 3 and fields[0] == measure and fields[1] == "all":
            return float(fields[2])
    raise LookupError(f"README.md: no line for {measure} in the eval of ric.fol")


def run_lines(path):
    """The white-space fields of each line of a run file, read here
    without readsim."""
    return [l.split() for l in Path(path).read_text().splitlines() if l.strip()]
