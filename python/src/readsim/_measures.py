"""readsim's measures in ir_measures: ReadsimMeasure, measure() and Provider.

A ReadsimMeasure is an ir_measures measure named as ``readsim measures``
names it. Two providers compute measures by running ``readsim eval``:
``provider`` (readsim.provider) takes readsim's measures and trec_eval's
measures under ir_measures' names (AP, P@10, nDCG@10 ...); a second instance
that takes readsim's measures only is appended to ir_measures' default
pipeline, so that ``ir_measures.calc_aggregate`` and PyTerrier's
``pt.Experiment`` compute readsim's measures and leave every other measure
to the providers that had it before. docs/python.md says how topics are
counted: every judged topic, as ir_measures does (``readsim eval -c``).
"""

import math
import json
import os
import tempfile

import ir_measures
from ir_measures import providers as _providers
from ir_measures.measures import Measure, ParamInfo, SumAgg, MeanAgg
from ir_measures.providers.base import NOT_PROVIDED
from ir_measures.util import Metric

from readsim._binary import run, run_feeding
from readsim._frames import offsets_of, write_qrels, write_run, _frame


_described = {}


def describe(name):
    """How readsim reads the measure name: a dict with its canonical name,
    kind, direction (better), aggregation (all), ranking (ranks: line or
    score), needs (passages, lengths) and the names eval prints it under
    (topic_name, all_name, summary_only), from ``readsim measures NAME``.
    An unknown name raises ReadsimError with readsim's "did you mean"."""
    if name not in _described:
        describe_all([name])
    return _described[name]


def describe_all(names):
    """describe of every name, asking readsim once for those not known yet."""
    new = [n for n in dict.fromkeys(names) if n not in _described]
    if new:
        out = run(["measures", "--format", "json", *new]).decode("utf-8").splitlines()
        for n, line in zip(new, out):
            _described[n] = json.loads(line)
    return [_described[n] for n in names]


class ReadsimMeasure(Measure):
    """An ir_measures measure computed by readsim: ``readsim.measure(NAME)``.

    Its string is the name as asked (``AgP\\T2Ip(300)``, ``ANCE[100]``,
    ``map``); its aggregate is the sum over topics for readsim's counts and
    the mean otherwise, as ``readsim eval`` forms its ``all``.
    """

    NAME = "readsim"
    __name__ = "readsim"
    SUPPORTED_PARAMS = {"name": ParamInfo(dtype=str, required=True, desc="the measure's name in readsim")}
    DEFAULT = 0.0

    @property
    def info(self):
        """describe(name): what readsim says of this measure."""
        return describe(self.params["name"])

    def __repr__(self):
        return self.params["name"]

    def aggregator(self):
        if self.info["all"] == "sum":
            return SumAgg()
        if self.info["all"] == "geometric mean":
            return _ExpMeanAgg()  # their topic values are logarithms
        return MeanAgg()


class _ExpMeanAgg(MeanAgg):
    """The geometric mean of gm_map and gm_bpref, whose topic values readsim
    (as trec_eval) gives as logarithms: the exponential of their mean."""

    def result(self):
        r = super().result()
        return math.exp(r) if self.count else r


def measure(name):
    """The ir_measures measure for the readsim measure name, any name
    ``readsim measures`` lists (``AgP\\T2Ip(300)``, ``ANCE[100]\\LE(300,5)``,
    ``iP[0.01]``, ``map``, ``P@10``, ``bpref``, ``DOCUMENT`` ...). An
    unknown name raises ReadsimError with readsim's "did you mean"."""
    if not isinstance(name, str):
        raise TypeError(f"a measure name is a str, not {type(name).__name__}")
    describe(name)
    return ReadsimMeasure(name=name)


def _cut(m):
    c = m["cutoff"]
    return None if c is NOT_PROVIDED else c


def _default(m, param, value):
    try:
        v = m[param]
    except KeyError:
        return True
    return v is NOT_PROVIDED or v == value


def trec_name(m):
    """The name readsim eval reads for an ir_measures measure m of
    trec_eval's (AP -> map, nDCG@10 -> ndcg_cut_10 ...), or None when
    readsim does not compute it with m's parameters (a relevance level
    other than 1, judged_only, gains, another beta ...)."""
    if isinstance(m, ReadsimMeasure):
        return m.params["name"]
    if not (_default(m, "rel", 1) and _default(m, "judged_only", False)):
        return None
    n = m.NAME
    if n == "AP":
        return "map" if _cut(m) is None else f"map_cut_{_cut(m)}"
    if n == "P" and _cut(m) is not None:
        return f"P_{_cut(m)}"
    if n == "RR" and _cut(m) is None:
        return "recip_rank"
    if n == "Rprec":
        return "Rprec"
    if n == "nDCG" and _default(m, "dcg", "log2") and _default(m, "gains", None):
        return "ndcg" if _cut(m) is None else f"ndcg_cut_{_cut(m)}"
    if n == "R" and _cut(m) is not None:
        return f"recall_{_cut(m)}"
    if n == "Bpref":
        return "bpref"
    if n == "infAP":
        return "infAP"
    if n == "IPrec" and m["recall"] is not NOT_PROVIDED:
        return f"iprec_at_recall_{m['recall']:.2f}"
    if n == "Success" and _cut(m) is not None:
        return f"success_{_cut(m)}"
    if n == "SetP":
        return "set_relative_P" if m["relative"] is True else "set_P"
    if n == "SetR":
        return "set_recall"
    if n == "SetF" and _default(m, "beta", 1.0):
        return "set_F"
    if n == "SetAP":
        return "set_map"
    if n == "NumQ":
        return "num_q"
    if n == "NumRel":
        return "num_rel"
    if n == "NumRet":
        return "num_ret" if m["rel"] is NOT_PROVIDED else "num_rel_ret"
    if n == "Judged" and _cut(m) is not None:
        return f"Judged@{_cut(m)}"
    return None


_TREC_CUTOFF = ("P_", "map_cut_", "ndcg_cut_", "recall_", "success_", "iprec_at_recall_")


def _trec_eval_spec(name):
    """The -m of readsim trec_eval for a trec_name (P_10 -> P.10), or None
    for a measure trec_eval does not have (Judged@k)."""
    if "@" in name:
        return None
    for head in _TREC_CUTOFF:
        if name.startswith(head) and not name.startswith("P_avgjg"):
            return head[:-1] + "." + name[len(head):]
    return name


class Provider(_providers.Provider):
    """An ir_measures provider whose measures ``readsim eval`` computes.

    ``readsim.provider`` takes readsim's measures (readsim.measure) and
    trec_eval's under ir_measures' names (trec_name); ``Provider(compat="9")``
    computes interpolated precision with trec_eval 9's rule, as pytrec_eval
    does (``readsim eval --compat 9``). Judgments and runs may be DataFrames
    (ir_measures' or PyTerrier's columns, with start and length for
    passages), dicts of dicts, iterables of ir_measures' namedtuples, or
    paths of files readsim reads, which it then reads itself (the fastest).
    Every judged topic gets a value (``readsim eval -c -q``), as ir_measures
    gives one.
    """

    NAME = "readsim"

    def __init__(self, compat=None, standard=True):
        super().__init__()
        self.compat = compat
        self.standard = standard

    def supports(self, measure):
        measure.validate_params()
        if isinstance(measure, ReadsimMeasure):
            return True
        return self.standard and trec_name(measure) is not None

    def _evaluator(self, measures, qrels):
        return ReadsimEvaluator(list(measures), qrels, self.compat)

    def run_inputs(self, measures):
        return ["query_id", "doc_id", "score"]

    def qrel_inputs(self, measures):
        return ["query_id", "doc_id", "relevance"]

    def install_instructions(self):
        return "pip install ./python (from a clone of readsim)"


class ReadsimEvaluator(_providers.Evaluator):
    """Evaluates runs against one set of judgments with readsim eval: the
    judgments are written once (unless they are a path), each run once."""

    def __init__(self, measures, qrels, compat=None):
        self._tmp = tempfile.TemporaryDirectory(prefix="readsim-eval-")
        self._offsets = offsets_of(qrels)
        if isinstance(qrels, (str, os.PathLike)):
            # readsim reads the file itself; its head tells its format, and
            # the judged topics come with the values (-c gives each a line)
            self._qrels = os.fspath(qrels)
            topics = set()
            path, tmp = self._qrels, self._tmp.name
            documents = lambda: _four_columns(path) and _whole_documents(path, tmp)  # noqa: E731
        else:
            frame = _frame(qrels, "qrels")
            topics = set(frame["query_id"].astype(str))
            whole = "start" not in frame.columns
            documents = lambda: whole  # noqa: E731
            self._qrels = os.path.join(self._tmp.name, "qrels.txt")
            with open(self._qrels, "w", encoding="utf-8", newline="\n") as f:
                write_qrels(frame, f)
        self.compat = compat
        self._trec = self._trec_eval_plan(measures, documents)
        # otherwise readsim eval: the name asked of readsim for each
        # measure, and the measures each topic line stands for, by the
        # name readsim prints there
        self._ask, self._topic, self._ones = [], {}, []
        if self._trec is None:
            describe_all([trec_name(m) for m in measures])
            for m in measures:
                name = trec_name(m)
                info = describe(name)
                if info["summary_only"] and info["kind"] == "count":
                    self._ones.append(m)  # num_q: 1 a topic
                    continue
                if info["summary_only"]:
                    name = info["canonical"]  # ircl_prn.x: igP[x]\F(0.25) has topic lines
                    info = describe(name)
                if info["topic_name"] not in self._topic:
                    self._ask.append(name)
                self._topic.setdefault(info["topic_name"], []).append(m)
        super().__init__(measures, topics)

    def _trec_eval_plan(self, measures, documents):
        """The -m of readsim trec_eval and the measures of each name it
        prints, when every measure is one of ir_measures' that trec_eval
        computes and the judgments are of whole documents (documents(),
        asked last: it may read the judgments' head); None otherwise
        (readsim eval computes them). trec_eval's evaluation streams the
        run and is several times faster than eval's on large runs; its
        values are the same (docs/trec_eval.md)."""
        if not measures:
            return None
        plan = {}
        for m in measures:
            if isinstance(m, ReadsimMeasure):
                return None
            name = trec_name(m)
            spec = _trec_eval_spec(name)
            if spec is None:
                return None
            plan.setdefault(name, (spec, []))[1].append(m)
        return plan if documents() else None

    def _args(self):
        args = ["eval", "--qrels", self._qrels, "-q", "-c", "--format", "json"]
        if self._offsets:
            args += ["--offsets", self._offsets]
        if self.compat:
            args += ["--compat", self.compat]
        for name in self._ask:
            args += ["-m", name]
        return args

    def _judged(self):
        """The judged topics: from the values read (-c gives each judged
        topic a line), or, when no value had a topic line (num_q alone),
        from the judgments."""
        if not self.qrel_qids:
            out = run(["rows", "--qrels", self._qrels], warn=False).decode("utf-8").splitlines()[1:]
            self.qrel_qids = {l.split("\t", 1)[0] for l in out}
        return self.qrel_qids

    def _run(self, args, run_obj, ranks):
        """readsim with args and the run last: its path, or "-" and the
        run's lines written to readsim's standard input as it reads them."""
        if isinstance(run_obj, (str, os.PathLike)):
            return run([*args, os.fspath(run_obj)])
        return run_feeding([*args, "-"], lambda f: write_run(run_obj, f, ranks=ranks))

    def _iter_trec_eval(self, run_obj):
        args = ["trec_eval", "-q", "-c", "--full_precision"]
        if self.compat:
            args += ["--compat", self.compat]
        # one -m a measure: trec_eval keeps the last parameters given to
        # a measure, so cutoffs go together, sorted (-m P.5,10)
        params = {}
        for spec, _ in self._trec.values():
            head, _, param = spec.partition(".")
            params.setdefault(head, set())
            if param:
                params[head].add(param)
        for head, ps in params.items():
            args += ["-m", head + ("." + ",".join(sorted(ps, key=float)) if ps else "")]
        out = self._run([*args, self._qrels], run_obj, ranks=False)
        for line in out.decode("utf-8").splitlines():
            name, topic, value = line.split("\t")
            name = name.rstrip()
            if topic == "all" or name not in self._trec:
                continue
            self.qrel_qids.add(topic)
            for m in self._trec[name][1]:
                yield Metric(query_id=topic, measure=m, value=float(value))
        # num_q has no topic line: 1 for each judged topic (-c), summed
        for m in self._trec.get("num_q", (None, ()))[1]:
            for q in sorted(self._judged()):
                yield Metric(query_id=q, measure=m, value=1)

    def _iter_calc(self, run_obj):
        if self._trec is not None:
            yield from self._iter_trec_eval(run_obj)
            return
        if self._ask:
            out = self._run(self._args(), run_obj, ranks=True)
            for line in out.decode("utf-8").splitlines():
                rec = json.loads(line)
                if rec["topic"] == "all":
                    continue
                self.qrel_qids.add(rec["topic"])
                for m in self._topic.get(rec["measure"], ()):
                    yield Metric(query_id=rec["topic"], measure=m, value=rec["value"])
        # num_q has no topic line: 1 for each judged topic (-c), summed
        for m in self._ones:
            for q in sorted(self._judged()):
                yield Metric(query_id=q, measure=m, value=1)


def _whole_documents(path, tmp):
    """Whether readsim reads the judgments at path as TREC qrels (no
    passage, no length), from their first 256 KB."""
    with open(path, "rb") as f:
        head = f.read(1 << 18)
    if len(head) == 1 << 18:
        head = head[: head.rfind(b"\n") + 1]
    sample = os.path.join(tmp, "head.qrels")
    with open(sample, "wb") as f:
        f.write(head)
    out = run(["rows", "--qrels", sample], warn=False).decode("utf-8").splitlines()[1:]
    return all(r.split("\t")[3] == "" and r.split("\t")[5] == "" for r in out)


def _four_columns(path):
    """Whether the first line of the file at path has four columns (TREC
    qrels, which trec_eval reads; not gzip, which it does not)."""
    try:
        with open(path, "rb") as f:
            if f.read(2) == b"\x1f\x8b":
                return False
            f.seek(0)
            for line in f:
                if line.strip():
                    return len(line.split()) == 4
    except OSError:
        pass
    return False


provider = Provider()
"""readsim's provider: readsim's measures and trec_eval's (trec_eval 10's
interpolation rule)."""

provider_compat9 = Provider(compat="9")
"""readsim's provider with trec_eval 9's interpolation rule (pytrec_eval's)."""

_pipeline = Provider(standard=False)
if not any(isinstance(p, Provider) for p in ir_measures.DefaultPipeline.providers):
    ir_measures.DefaultPipeline.providers.append(_pipeline)
_providers.registry.setdefault("readsim", provider)
