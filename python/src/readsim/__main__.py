"""python -m readsim ARGS...: the readsim program the package carries.

It runs the binary with the same arguments, standard streams and exit status,
so ``python -m readsim version`` prints what ``readsim version`` prints.
"""

import os
import subprocess
import sys

from readsim._binary import ReadsimError, binary


def main(argv=None):
    """Runs the binary with argv (sys.argv[1:]) and returns its exit status."""
    args = sys.argv[1:] if argv is None else argv
    try:
        exe = binary()
    except ReadsimError as err:
        print(err.message, file=sys.stderr)
        return 1
    if os.name == "posix" and argv is None:
        os.execv(exe, [exe, *args])  # the program itself: its signals, its status
    return subprocess.call([exe, *args])


if __name__ == "__main__":
    sys.exit(main())
