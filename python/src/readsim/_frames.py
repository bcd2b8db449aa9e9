"""Judgments and runs as pandas DataFrames, read by readsim's own readers.

``readsim rows`` writes a file as readsim reads it (every format, gzip,
errors naming file and line) as tab-separated rows under ir_measures' column
names; read_qrels and read_run turn them into DataFrames. The writers here go
the other way: a DataFrame (or a dict of dicts, or an iterable of
ir_measures' namedtuples) into a file readsim reads, for eval and the other
commands. docs/python.md describes the columns.
"""

import io
import os
import tempfile
from contextlib import contextmanager

import numpy as np
import pandas as pd

from readsim._binary import run

# PyTerrier's column names and ir_measures' (docs/python.md).
_PT_NAMES = {"qid": "query_id", "docno": "doc_id", "label": "relevance"}

_QRELS_DTYPES = {"query_id": str, "doc_id": str, "relevance": "int64",
                 "start": "Int64", "length": "Int64", "doc_length": "Int64", "bep": "Int64", "aspects": str}
_RUN_DTYPES = {"query_id": str, "doc_id": str, "rank": "Int64", "score": "float64", "run_id": str,
               "start": "Int64", "length": "Int64", "bep": "Int64"}


def _rows(args, dtypes):
    """readsim rows with args as a frame of dtypes. Integers that may be
    empty are parsed as float64 (exact below 2**53; readsim's bounds are far
    below) and made nullable Int64 at once; scores are parsed as text, then
    by Python's float: exact, where pandas' fast float parser may be off by
    one unit in the last place, and faster than its exact one."""
    out = run(["rows", *args])
    parse = {c: (str if t in (str, "float64") else "float64") for c, t in dtypes.items()}
    parse.update({c: "int64" for c, t in dtypes.items() if t == "int64"})
    df = pd.read_csv(io.BytesIO(out), sep="\t", dtype=parse, keep_default_na=False, na_values={
        c: [""] for c, t in parse.items() if t != str}, quoting=3)
    for c, t in dtypes.items():
        if t == "float64":
            df[c] = df[c].astype("float64")
        elif t == "Int64":
            col = df[c].to_numpy()
            missing = np.isnan(col)
            values = np.where(missing, 0, col).astype("int64")
            df[c] = pd.arrays.IntegerArray(values, missing)
    return df


def read_qrels(path, *, lengths=None, offsets=None, columns="ir_measures"):
    """Reads judgments (INEX FOL, TREC qrels, span judgments, the TREC
    Genomics gold standard; gzip or not) as readsim reads them.

    Returns a DataFrame with ir_measures' columns ``query_id``, ``doc_id``,
    ``relevance`` (the grade; -1 for a negative TREC grade) and, for
    judgments of passages, ``start`` and ``length`` (one row per relevant
    passage; a document without passage has them empty), ``doc_length``
    (FOL, or span judgments with ``lengths``), ``bep`` (FOL) and
    ``aspects`` (span judgments that have them: numbered per topic, joined
    by "|"). lengths
    names a file of document lengths for span judgments; offsets
    ("chars" or "bytes") what their offsets count. columns="pyterrier"
    names the first three columns as PyTerrier does (qid, docno, label). A
    file readsim refuses raises ReadsimError naming the file and the line.
    """
    args = ["--qrels", path]
    if lengths is not None:
        args += ["--lengths", lengths]
    if offsets is not None:
        args += ["--offsets", offsets]
    df = _rows(args, _QRELS_DTYPES)
    passages = df["start"].notna().any() or df["doc_length"].notna().any()
    keep = ["query_id", "doc_id", "relevance"]
    if passages:
        keep += ["start", "length"]
    for col in ("doc_length", "bep"):
        if df[col].notna().any():
            keep.append(col)
    if (df["aspects"] != "").any():
        keep.append("aspects")
    df = _columns(df[keep], columns)
    df.attrs["readsim_offsets"] = offsets or _sniff_offsets(path)
    return df


def _columns(df, columns):
    if columns == "ir_measures":
        return df
    if columns == "pyterrier":
        return df.rename(columns={v: k for k, v in _PT_NAMES.items()})
    raise ValueError(f'columns is "ir_measures" or "pyterrier", not {columns!r}')


def _sniff_offsets(path):
    """bytes for the TREC Genomics gold standard (five tab-separated columns,
    as readsim recognises it), None otherwise."""
    try:
        with open(path, "rb") as f:
            head = f.read(2)
            if head == b"\x1f\x8b":
                return None  # gzip: readsim tells; the caller may say offsets=
            first = (head + f.readline()).decode("utf-8", "replace")
    except OSError:
        return None
    return "bytes" if first.count("\t") == 4 else None


def read_run(path, *, articles=None, columns="ir_measures"):
    """Reads a run (FOL, TREC, INEX XML submission, span run; gzip or not)
    as readsim reads it, rows in the file's line order.

    Returns a DataFrame with ``query_id``, ``doc_id``, ``rank``, ``score``,
    ``run_id`` and, for passages, ``start`` and ``length`` (empty for a
    whole document) and ``bep`` (an entry point of an XML submission).
    articles names the article folder that resolves an XML submission's
    element paths; columns="pyterrier" names the first two columns qid and
    docno. A file readsim refuses raises ReadsimError.
    """
    args = ["--run", path]
    if articles is not None:
        args += ["--articles", articles]
    df = _rows(args, _RUN_DTYPES)
    keep = ["query_id", "doc_id", "rank", "score", "run_id"]
    if df["start"].notna().any():
        keep += ["start", "length"]
    if df["bep"].notna().any():
        keep.append("bep")
    if df["rank"].isna().all():
        keep.remove("rank")
    return _columns(df[keep], columns)


def _frame(obj, kind):
    """obj (a DataFrame, a dict of dicts, an iterable of namedtuples) as a
    DataFrame in ir_measures' column names."""
    if isinstance(obj, pd.DataFrame):
        if any(c in obj.columns for c in _PT_NAMES):
            obj = obj.rename(columns={k: v for k, v in _PT_NAMES.items() if v not in obj.columns})
        return obj
    if isinstance(obj, dict):
        value = "relevance" if kind == "qrels" else "score"
        rows = [(q, d, v) for q, docs in obj.items() for d, v in docs.items()]
        return pd.DataFrame(rows, columns=["query_id", "doc_id", value])
    return pd.DataFrame([t._asdict() if hasattr(t, "_asdict") else t for t in obj])


def _col(df, name):
    """A column's values as a list of str (a column of strings as it is)."""
    col = df[name]
    if pd.api.types.infer_dtype(col, skipna=False) == "string":
        return col.tolist()
    return col.astype(str).tolist()


def _scores(col):
    """A column of scores as text that reads back as the same floats: each
    distinct score formatted once (runs repeat scores: ties, few decimals)."""
    codes, uniques = pd.factorize(col.astype("float64"))
    if (codes < 0).any():
        raise ValueError("the run has a row without score")
    text = np.array([repr(float(u)) for u in uniques], dtype=object)
    return text[codes].tolist()


def write_qrels(obj, f):
    """Writes judgments obj to the text file f in a format readsim reads:
    INEX FOL when the frame has start, length and doc_length; span
    judgments (topic doc offset length grade [aspects]) when it has start
    and length only, or aspects, or offsets in bytes (their lengths do not
    go with them: give evaluate lengths=FILE); TREC qrels (topic 0 doc
    grade) otherwise."""
    df = _frame(obj, "qrels")
    missing = {"query_id", "doc_id", "relevance"} - set(df.columns)
    if missing:
        raise ValueError(f"judgments lack the column(s) {sorted(missing)}")
    q, d, rel = _col(df, "query_id"), _col(df, "doc_id"), df["relevance"].astype("int64").tolist()
    if "start" in df.columns and "length" in df.columns:
        if "doc_length" in df.columns and "aspects" not in df.columns and offsets_of(df) != "bytes":
            _write_fol(f, df, q, d, rel)
            return
        start, length = _ints(df, "start", 0), _ints(df, "length", 0)
        aspects = _col(df, "aspects") if "aspects" in df.columns else [""] * len(df)
        lines = []
        for i in range(len(df)):
            a = aspects[i] if aspects[i] not in ("", "nan", "<NA>", "None") else ""
            lines.append(f"{q[i]}\t{d[i]}\t{start[i]}\t{length[i]}\t{rel[i]}" + (f"\t{a}\n" if a else "\n"))
        f.write("".join(lines))
        return
    f.write("".join([f"{a} 0 {b} {c}\n" for a, b, c in zip(q, d, rel)]))


def _ints(df, name, missing=-1):
    """A nullable integer column as Python ints, missing as `missing`."""
    if name not in df.columns:
        return [missing] * len(df)
    col = df[name].astype("Float64") if str(df[name].dtype) == "Int64" else df[name].astype("float64")
    return col.fillna(missing).to_numpy("float64").astype("int64").tolist()


def _write_fol(f, df, q, d, rel):
    start, length = _ints(df, "start"), _ints(df, "length")
    doc_len, bep = _ints(df, "doc_length"), _ints(df, "bep")
    order, groups = [], {}
    for i, key in enumerate(zip(q, d)):
        g = groups.get(key)
        if g is None:
            groups[key] = g = []
            order.append(key)
        g.append(i)
    lines = []
    for key in order:
        idx = groups[key]
        first = idx[0]
        spans = [(start[i], length[i]) for i in idx if rel[i] > 0 and start[i] >= 0 and length[i] >= 0]
        rsize = sum(n for _, n in spans)
        b = bep[first] if bep[first] >= 0 else (spans[0][0] if spans else 0)
        n = doc_len[first]
        if n < 0:
            raise ValueError(f"topic {key[0]}, document {key[1]}: no doc_length (FOL judgments need it)")
        passages = "".join([f" {s}:{m}" for s, m in spans])
        lines.append(f"{key[0]} Q0 {key[1]} {rsize} {n} {b}{passages}\n")
    f.write("".join(lines))


_CHUNK = 100_000  # rows formatted at a time: a pipe's reader works meanwhile


def write_run(obj, f, run_id="run", ranks=True):
    """Writes run obj to the text file f, rows in their order (the ranking
    of the INEX measures): FOL lines (topic Q0 doc rank score run offset
    length) where start and length are given, TREC lines (topic Q0 doc rank
    score run) elsewhere. A missing rank is the row's place in its topic
    (0 everywhere when ranks is false: trec_eval reads no rank); scores are
    written so that they read back as the same float. The lines go out
    _CHUNK rows at a time, so that readsim reading a pipe works meanwhile."""
    df = _frame(obj, "run")
    missing = {"query_id", "doc_id", "score"} - set(df.columns)
    if missing:
        raise ValueError(f"the run lacks the column(s) {sorted(missing)}")
    if not ranks:
        rank_col = None
    elif "rank" in df.columns and df["rank"].notna().all():
        rank_col = df["rank"].astype("int64")
    else:
        rank_col = df.groupby("query_id", sort=False).cumcount() + 1
    passages = "start" in df.columns and "length" in df.columns
    for lo in range(0, len(df), _CHUNK):
        part = df.iloc[lo:lo + _CHUNK]
        q, d = _col(part, "query_id"), _col(part, "doc_id")
        score = _scores(part["score"])
        rank = rank_col.iloc[lo:lo + _CHUNK].to_numpy("int64").tolist() if rank_col is not None else [0] * len(part)
        rid = _col(part, "run_id") if "run_id" in part.columns else [run_id] * len(part)
        if not passages:
            f.write("".join([f"{a} Q0 {b} {c} {s} {r}\n" for a, b, c, s, r in zip(q, d, rank, score, rid)]))
            continue
        if part["start"].notna().all() and part["length"].notna().all():
            start = part["start"].to_numpy("int64").tolist()
            length = part["length"].to_numpy("int64").tolist()
            f.write("".join([f"{a} Q0 {b} {c} {s} {r} {o} {n}\n"
                             for a, b, c, s, r, o, n in zip(q, d, rank, score, rid, start, length)]))
            continue
        start = part["start"].astype("Int64").tolist()
        length = part["length"].astype("Int64").tolist()
        f.write("".join([f"{a} Q0 {b} {c} {s} {r}\n" if o is pd.NA or n is pd.NA else
                         f"{a} Q0 {b} {c} {s} {r} {o} {n}\n"
                         for a, b, c, s, r, o, n in zip(q, d, rank, score, rid, start, length)]))


@contextmanager
def as_file(obj, kind, tmpdir=None):
    """Yields a path readsim can read for obj: obj itself when it is a path,
    otherwise a temporary file that write_qrels or write_run fills (removed
    afterwards)."""
    if isinstance(obj, (str, os.PathLike)):
        yield os.fspath(obj)
        return
    fd, path = tempfile.mkstemp(prefix=f"readsim-{kind}-", suffix=".txt", dir=tmpdir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            (write_qrels if kind == "qrels" else write_run)(obj, f)
        yield path
    finally:
        os.unlink(path)


def offsets_of(obj):
    """The offsets unit a judgments frame was read with (read_qrels), or None."""
    return getattr(obj, "attrs", {}).get("readsim_offsets")
