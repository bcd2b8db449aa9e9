"""The wheel's build hook: it builds readsim's Go binary and ships it inside.

hatchling calls ReadsimBuildHook.initialize before it writes a wheel. The hook
runs ``go build ./cmd/readsim`` in the Go module that holds this folder (the
clone's root, one folder up), into a temporary folder outside the clone, and
adds the binary to the wheel as ``readsim/_bin/readsim``. It asks go to
stamp the binary with the clone's commit (``-buildvcs=auto``, go build's
default, given on the command line so that a GOFLAGS holding
``-buildvcs=false`` does not drop it), so that ``python -m readsim version``
prints what ``readsim version`` prints for a binary built from the same
checkout (docs/python.md, "Install"). The wheel is
tagged for this platform only (py3-none-PLATFORM): the binary is the same for
every Python, and is built with CGO_ENABLED=0, so it needs no C library.

GO names the go command when it is not on PATH (/usr/local/go/bin/go is
tried last). An sdist is refused: it would lack the Go source.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _go():
    for cand in (os.environ.get("GO"), shutil.which("go"), "/usr/local/go/bin/go"):
        if cand and Path(cand).is_file() and os.access(cand, os.X_OK):
            return cand
    raise RuntimeError(
        "readsim: building the wheel needs Go 1.26 or later (https://go.dev/dl): "
        "put go on PATH or name it in GO"
    )


def _module_root(here):
    root = here.parent
    gomod = root / "go.mod"
    if not gomod.is_file() or "module github.com/readsim/readsim" not in gomod.read_text(encoding="utf-8"):
        raise RuntimeError(
            f"readsim: {root} is not readsim's Go module: build the package from a clone "
            "(pip install ./python, or python -m build --wheel python)"
        )
    return root


def _platform_tag():
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


class ReadsimBuildHook(BuildHookInterface):
    """Builds the Go binary into the wheel (see the module's doc)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            raise RuntimeError("readsim: only wheels are built (an sdist would lack the Go source)")
        root = _module_root(Path(self.root))
        self._tmp = tempfile.mkdtemp(prefix="readsim-wheel-")
        exe = "readsim.exe" if sys.platform == "win32" else "readsim"
        out = Path(self._tmp) / exe
        env = dict(os.environ, CGO_ENABLED="0")
        self.app.display_info(f"readsim: go build ./cmd/readsim in {root}")
        cmd = [_go(), "build", "-buildvcs=auto", "-o", str(out), "./cmd/readsim"]
        subprocess.run(cmd, cwd=root, env=env, check=True)
        build_data["force_include"][str(out)] = f"readsim/_bin/{exe}"
        build_data["pure_python"] = False
        build_data["tag"] = f"py3-none-{_platform_tag()}"

    def finalize(self, version, build_data, artifact_path):
        shutil.rmtree(getattr(self, "_tmp", ""), ignore_errors=True)
