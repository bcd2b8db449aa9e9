"""Finding and running the readsim binary; readsim's errors as exceptions."""

import io
import os
import re
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

_EXE = "readsim.exe" if sys.platform == "win32" else "readsim"


class ReadsimError(Exception):
    """readsim refused its input or failed; ``str(err)`` is readsim's message.

    ``message`` is what readsim wrote on standard error, ``status`` its exit
    status (2: bad usage or bad input, 1: another failure). When the message
    names a place, ``file``, ``line`` and ``cause`` hold it (``line`` is None
    when the message names an existing file but no line; ``file`` is None
    when it names none); ``command`` is the readsim command that failed
    (``eval``, ``rows`` ...) and ``cause`` the message after the place.
    """

    _PLACE = re.compile(r"^readsim (?P<command>\S+): (?P<file>.+?):(?P<line>\d+): (?P<cause>.*)$", re.S)
    _FILE = re.compile(r"^readsim (?P<command>\S+): (?P<file>[^:]+): (?P<cause>.*)$", re.S)
    _COMMAND = re.compile(r"^readsim (?P<command>\S+): (?P<cause>.*)$", re.S)

    def __init__(self, message, status=2):
        message = message.strip()
        super().__init__(message)
        self.message = message
        self.status = status
        self.command = self.file = self.line = None
        self.cause = message
        first = message.splitlines()[0] if message else ""
        for pattern in (self._PLACE, self._FILE, self._COMMAND):
            m = pattern.match(first)
            if m and pattern is self._FILE and not os.path.exists(m.group("file")):
                continue  # "unknown measure X: ..." names no file
            if m:
                d = m.groupdict()
                self.command = d.get("command")
                self.file = d.get("file")
                self.line = int(d["line"]) if d.get("line") else None
                self.cause = d["cause"]
                break


class ReadsimWarning(UserWarning):
    """A warning readsim wrote on standard error (a tied score, a topic left out...)."""


def binary():
    """The path of the readsim binary this package runs.

    READSIM_BINARY names another (a development build); otherwise it is the
    binary the wheel carries, in the package's ``_bin`` folder.
    """
    env = os.environ.get("READSIM_BINARY")
    if env:
        return env
    path = Path(__file__).with_name("_bin") / _EXE
    if not path.is_file():
        raise ReadsimError(
            f"readsim: no binary at {path}: install the package with pip (pip install ./python "
            "builds it), or name one in READSIM_BINARY",
            status=1,
        )
    return str(path)


def run(args, *, stdin=None, warn=True, check=True):
    """Runs readsim with args; returns its standard output (bytes).

    stdin, bytes or None, is written to its standard input. Its warnings
    become ReadsimWarning (unless warn is false); a non-zero exit status
    raises ReadsimError carrying readsim's message.
    """
    proc = subprocess.run(
        [binary(), *[os.fspath(a) for a in args]],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
    )
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0 and check:
        raise ReadsimError(_strip_usage(err), status=proc.returncode)
    if warn:
        for line in err.splitlines():
            if line.strip():
                warnings.warn(line, ReadsimWarning, stacklevel=3)
    return proc.stdout


def _strip_usage(err):
    """readsim's message without the usage line that follows bad usage."""
    lines = [l for l in err.splitlines() if not l.startswith("usage: readsim ")]
    return "\n".join(lines).strip() or err.strip()


def run_feeding(args, feed, *, warn=True):
    """Runs readsim with args, whose input "-" is standard input, and feed(f)
    writing text to it while readsim reads; returns its standard output
    (bytes). Errors and warnings as run's."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([binary(), *[os.fspath(a) for a in args]], stdin=subprocess.PIPE,
                                stdout=out, stderr=err)
        broken = False
        try:
            with io.TextIOWrapper(proc.stdin, encoding="utf-8", newline="\n", write_through=False) as f:
                feed(f)
        except BrokenPipeError:
            broken = True  # readsim stopped reading: its message says why
        except BaseException:
            proc.kill()
            proc.wait()
            raise
        status = proc.wait()
        err.seek(0)
        msg = err.read().decode("utf-8", "replace")
        if status != 0:
            raise ReadsimError(_strip_usage(msg), status=status)
        if broken:
            raise ReadsimError("readsim stopped reading its input and said nothing", status=1)
        if warn:
            for line in msg.splitlines():
                if line.strip():
                    warnings.warn(line, ReadsimWarning, stacklevel=3)
        out.seek(0)
        return out.read()
