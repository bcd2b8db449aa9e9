"""The package as a user installs it (docs/python.md, "Install"): a wheel
built from the clone carries the Go binary, installs from its file with no
index, and python -m readsim version prints what readsim version prints."""

import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import PYTHON_DIR, ROOT, _go, readme_eval


@pytest.mark.slow
def test_wheel_installs_offline(tmp_path):
    go = _go()
    if go is None:
        pytest.skip("no Go to build the wheel with")
    dist = tmp_path / "dist"
    env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", GO=go)
    env.pop("READSIM_BINARY", None)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(dist),
                    str(PYTHON_DIR)], check=True, env=env, capture_output=True)
    wheels = list(dist.glob("readsim-*.whl"))
    assert len(wheels) == 1 and wheels[0].name.endswith(
        "-py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_") + ".whl")
    # a new environment that sees this one's packages (pandas, ir_measures)
    # but not its readsim, and no index: the wheel's file is all it gets
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    vpy = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "parent-env.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    subprocess.run([str(vpy), "-m", "pip", "install", "--no-index", str(wheels[0])], check=True, env=env,
                   capture_output=True)
    clean = {k: v for k, v in env.items() if k not in ("PYTHONPATH", "READSIM_BINARY")}
    where = subprocess.run([str(vpy), "-c", "import readsim; print(readsim.binary())"], capture_output=True,
                           text=True, check=True, env=clean, cwd=tmp_path).stdout.strip()
    assert where.startswith(str(venv)), where
    got = subprocess.run([str(vpy), "-m", "readsim", "version"], capture_output=True, text=True, check=True,
                         env=clean, cwd=tmp_path).stdout
    ref = tmp_path / "readsim-ref"
    # built as the wheel's hook builds it (-buildvcs=auto: the commit, whatever GOFLAGS says)
    subprocess.run([go, "build", "-buildvcs=auto", "-o", str(ref), "./cmd/readsim"], cwd=ROOT, check=True)
    want = subprocess.run([str(ref), "version"], capture_output=True, text=True, check=True).stdout
    assert got == want
    # the measures work from the installed package, with its own binary
    out = subprocess.run([str(vpy), "-c", "import readsim, ir_measures; "
                          f"q = readsim.read_qrels({str(ROOT / 'corpus-sample' / 'judgments.qrels')!r}); "
                          f"r = readsim.read_run({str(ROOT / 'corpus-sample' / 'runs' / 'ric.fol')!r}); "
                          "m = readsim.measure('AgP\\\\F(0.25)'); print(ir_measures.calc_aggregate([m], q, r)[m])"],
                         capture_output=True, text=True, check=True, env=clean, cwd=tmp_path).stdout
    assert float(out) == readme_eval(r"AgP\F(0.25)")
