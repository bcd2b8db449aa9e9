"""readsim's commands from Python: eval, replay, compare and calibrate, their
results as DataFrames (docs/python.md, "The rest of readsim").

Judgments and runs are paths of files readsim reads or frames (read_qrels,
read_run, PyTerrier's results ...), which are written to temporary files
first. Each function runs the command once; readsim's warnings become
ReadsimWarning, its refusals ReadsimError.
"""

import json
import tempfile
from contextlib import ExitStack

import pandas as pd

from readsim._binary import run
from readsim._frames import as_file, offsets_of


def version():
    """readsim's version line, as ``readsim version`` prints it."""
    return run(["version"]).decode("utf-8").strip()


def _listify(x):
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _is_one(x):
    return not isinstance(x, (list, tuple))


def _flags(**kw):
    """readsim flags from keyword arguments: a name's underscores become
    dashes; True is a flag without value; None and False are left out; a
    list repeats the flag."""
    args = []
    for k, v in kw.items():
        flag = "--" + k.replace("_", "-") if len(k) > 1 else "-" + k
        if v is None or v is False:
            continue
        if v is True:
            args.append(flag)
        elif isinstance(v, (list, tuple)):
            for x in v:
                args += [flag, str(x)]
        else:
            args += [flag, str(v)]
    return args


def _measure_flags(measures):
    return [a for m in _listify(measures) for a in ("-m", str(m))]


class _Inputs:
    """The judgments and runs of a command as paths, temporary files for frames."""

    def __init__(self, qrels, runs, kind="run", offsets=None):
        self.stack = ExitStack()
        self.tmp = self.stack.enter_context(tempfile.TemporaryDirectory(prefix="readsim-"))
        self.qrels = self.stack.enter_context(as_file(qrels, "qrels", self.tmp))
        self.offsets = offsets or offsets_of(qrels)
        self.runs = [self.stack.enter_context(as_file(r, kind, self.tmp)) for r in _listify(runs)]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stack.close()


def evaluate(qrels, runs, measures=None, *, per_topic=True, complete=False, order=None,
             doc_baseline=False, compat=None, group=False, merge_overlaps=False,
             lengths=None, offsets=None, articles=None, readings=False):
    """``readsim eval``: every measure of each run (or recorded reading)
    against the judgments, as a DataFrame with columns ``run``, ``measure``,
    ``topic`` and ``value`` (``topic`` ``all`` for the mean, or sum, over
    topics; per_topic adds each topic's rows, as ``-q``). measures are
    readsim's names (None: the judgments' defaults); complete counts every
    judged topic (``-c``). The values are readsim's at full precision."""
    with _Inputs(qrels, runs, offsets=offsets) as io:
        args = ["eval", "--qrels", io.qrels, "--format", "json", *_measure_flags(measures)]
        args += _flags(q=per_topic, c=complete, order=order, doc_baseline=doc_baseline, compat=compat,
                       group=group, merge_overlaps=merge_overlaps, lengths=lengths, offsets=io.offsets,
                       articles=articles, readings=readings)
        out = run([*args, *io.runs])
    rows = [json.loads(l) for l in out.decode("utf-8").splitlines() if l.strip()]
    return pd.DataFrame(rows, columns=["run", "measure", "topic", "value"])


def replay(qrels, run_obj, *, topics=None, order=None, t2i=None, screen=None, nr=None, depth=None,
           doc_baseline=False, compat=None, group=False, merge_overlaps=False, measures=None):
    """``readsim replay``: the simulated reader's trace as a DataFrame, one
    row per event (columns as in docs/scenario.md: ev, topic, rank, doc,
    seq, and each kind's own fields; a field an event lacks is NaN)."""
    with _Inputs(qrels, run_obj) as io:
        args = ["replay", "--qrels", io.qrels, "--run", io.runs[0], *_measure_flags(measures)]
        args += _flags(topic=_listify(topics), order=order, t2i=t2i, screen=screen, nr=nr, depth=depth,
                       doc_baseline=doc_baseline, compat=compat, group=group, merge_overlaps=merge_overlaps)
        out = run(args)
    return pd.DataFrame([json.loads(l) for l in out.decode("utf-8").splitlines() if l.strip()])


def compare(qrels, runs, measures=None, *, doc_baseline=False, baseline=None, all_pairs=False,
            lengths=None, offsets=None, readings=False, **flags):
    """``readsim compare``: the paired comparison as a DataFrame, one row a
    measure and pair of runs (measure, run, vs, mean_run, mean_vs, diff,
    ci_low, ci_high, effect_size, wins, ties, losses, p_t, p_rand, p_holm,
    significant). The rest of readsim's report (the runs' means, the topics,
    the test) is in the frame's ``attrs``."""
    with _Inputs(qrels, runs, offsets=offsets) as io:
        args = ["compare", "--qrels", io.qrels, "--format", "json", *_measure_flags(measures)]
        args += _flags(doc_baseline=doc_baseline, baseline=baseline, all_pairs=all_pairs, lengths=lengths,
                       offsets=io.offsets, readings=readings, **flags)
        out = run([*args, *io.runs])
    rep = json.loads(out)
    df = pd.DataFrame(rep.pop("comparisons"))
    df.attrs.update(rep)
    return df


def calibrate(qrels, readings, *, bootstrap=None, seed=None):
    """``readsim calibrate``: the simulated reader that best explains
    recorded readings (paths of JSON Lines traces, or frames as replay
    returns them). Returns readsim's report as a dict (t2i, its interval,
    screen, order ...), its ``topics`` as a DataFrame."""
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="readsim-"))
        q = stack.enter_context(as_file(qrels, "qrels", tmp))
        paths = []
        for i, r in enumerate(_listify(readings)):
            if isinstance(r, pd.DataFrame):
                path = f"{tmp}/reading-{i}.jsonl"
                _write_trace(r, path)
                paths.append(path)
            else:
                paths.append(r)
        out = run(["calibrate", "--qrels", q, "--format", "json", *_flags(bootstrap=bootstrap, seed=seed), *paths])
    rep = json.loads(out)
    rep["topics"] = pd.DataFrame(rep.get("topics") or [])
    return rep


def _write_trace(df, path):
    """Writes a trace frame (replay) back as JSON Lines, leaving out the
    fields an event lacks."""
    with open(path, "w", encoding="utf-8") as f:
        for rec in df.to_dict("records"):
            clean = {k: _plain(v) for k, v in rec.items() if not _missing(v)}
            f.write(json.dumps(clean, ensure_ascii=False) + "\n")


def _missing(v):
    if isinstance(v, (list, dict)):
        return False
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):
        return False


def _plain(v):
    """v as JSON has it: a float that holds an integer (pandas widens an
    integer column with gaps to float) becomes the integer."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v
