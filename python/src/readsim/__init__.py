"""readsim for Python: readsim's files, measures and reader in pandas,
ir_measures and PyTerrier (docs/python.md).

- read_qrels, read_run: judgments and runs as DataFrames, read by readsim;
- measure(NAME): an ir_measures measure for any name ``readsim measures``
  lists, computed by readsim in ir_measures.calc_aggregate, iter_calc and
  PyTerrier's pt.Experiment; provider: an ir_measures provider for readsim's
  and trec_eval's measures (provider_compat9: trec_eval 9's interpolation);
- evaluate, replay, compare, calibrate: readsim eval, replay, compare and
  calibrate, their results as DataFrames;
- ReadsimError: readsim's refusal, with its message (file, line, cause).

The readsim program itself is built into the package; ``python -m readsim``
runs it.
"""

from readsim._version import __version__
from readsim._binary import ReadsimError, ReadsimWarning, binary
from readsim._frames import read_qrels, read_run
from readsim._measures import (
    Provider, ReadsimMeasure, describe, measure, provider, provider_compat9, trec_name,
)
from readsim._commands import calibrate, compare, evaluate, replay, version

__all__ = [
    "__version__", "ReadsimError", "ReadsimWarning", "binary",
    "read_qrels", "read_run",
    "Provider", "ReadsimMeasure", "describe", "measure", "provider", "provider_compat9", "trec_name",
    "calibrate", "compare", "evaluate", "replay", "version",
]
