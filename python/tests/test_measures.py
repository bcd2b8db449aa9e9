"""readsim.measure and readsim.provider in ir_measures (docs/python.md,
"Measures in ir_measures"): the values are readsim eval's, topic by topic,
and the official INEX tool's where it has them."""

import json
import math
import subprocess
import os

import ir_measures
import pytest

import readsim
from conftest import readsim_json

DEFAULTS = [r"AgP\F(0.25)", r"gP[5]\F(0.25)", r"gP[10]\F(0.25)", r"gP[25]\F(0.25)", r"gP[50]\F(0.25)",
            r"AgP\T2Ip(300)", r"AgP\T2Ip(2000)", r"AgP\aveChP", r"ANCE[100]\LE(300,5)",
            r"ANCE[100]\LE(2000,5)", "AP"]


def concrete(form, kind):
    """A name of the catalogue's form (gP[k]\\D, P@k, T2Ip(x) ...) with its
    parameters given values, or None for a form that is no name."""
    name = form.split(" (")[0]
    for a, b in [("[\\D]", ""), ("\\D", "\\F(0.25)"), ("\\LE(s,NR[,x])", "\\LE(300,5)"), ("LE(s,NR,x)", "LE(300,5,300)"),
                 ("(x,β)", "(300,1)"), ("(β)", "(0.5)"), ("(p=x)", "(p=0.8)"), ("(x)", "(300)"), ("[n]", "[600]"),
                 ("[k]", "[10]"), ("_k", "_10"), ("@k", "@10"), ("[x]", "[0.5]"), (".x", ".0.50"), ("_x", "_0.50"),
                 ("@x", "@0.5")]:
        name = name.replace(a, b)
    if kind == "document score":
        name = ("ANCE[10]\\" if name.startswith("LE") else "AgP\\") + name
    return name


def catalogue_names():
    exe = os.environ["READSIM_BINARY"]
    cat = json.loads(subprocess.run([exe, "measures", "--format", "json"], capture_output=True, check=True).stdout)
    names = []
    for e in cat:
        for form in [e["form"], *e["aliases"]]:
            names.append((concrete(form, e["kind"]), e["kind"]))
    return names


def test_every_catalogue_name_is_a_measure():
    names = catalogue_names()
    assert len(names) > 90
    for name, kind in names:
        m = readsim.measure(name)
        assert isinstance(m, ir_measures.Measure) and str(m) == name
        assert readsim.provider.supports(m)
        assert ir_measures.DefaultPipeline.supports(m)


def test_unknown_name_says_did_you_mean():
    with pytest.raises(readsim.ReadsimError) as e:
        readsim.measure(r"Agp\T2Ip(300")
    assert e.value.status == 2 and "did you mean" in str(e.value) and r"AgP\T2Ip(300)" in str(e.value)


def by_topic(rows):
    return {(r["measure"], r["topic"]): r["value"] for r in rows}


def close(a, b, tol=1e-12):
    return math.isclose(a, b, rel_tol=tol, abs_tol=tol)


def test_catalogue_names_equal_readsim_eval(sample):
    """Every name of the catalogue through ir_measures equals readsim eval -c -q."""
    qrels_path, run_path = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    # Read: recorded readings only; ASPECT: span judgments with aspects (test_genomics)
    names = [n for n, k in catalogue_names() if n not in ("AgP\\Read", "ASPECT")]
    ms = [readsim.measure(n) for n in names]
    want = by_topic(readsim_json("eval", "--qrels", qrels_path, "-q", "-c", "--format", "json",
                                 *[a for n in names for a in ("-m", n)], run_path))
    qrels, run = readsim.read_qrels(qrels_path), readsim.read_run(run_path)
    got = list(ir_measures.iter_calc(ms, qrels, run))
    assert len(got) >= len(names)
    seen = set()
    for metric in got:
        key = (readsim.describe(str(metric.measure))["topic_name"], metric.query_id)
        if key in want:  # a summary-only name (ircl_prn.x) has no topic line
            assert close(metric.value, want[key]), key
            seen.add(key)
    assert {k for k in want if k[1] != "all"} <= seen
    agg = ir_measures.calc_aggregate(ms, qrels, run)
    for m in ms:
        assert close(agg[m], want[(readsim.describe(str(m))["all_name"], "all")]), str(m)


def test_inex_run_equals_readsim_and_official(inex):
    """The shared run: ir_measures' values equal readsim eval's (1e-12) and
    the independent implementation's per topic (1e-9)."""
    qrels_path, run_path = inex / "inex2009-2010.qrels", inex / "passage-run.ric.fol"
    ms = [readsim.measure(n) for n in DEFAULTS]
    qrels, run = readsim.read_qrels(qrels_path), readsim.read_run(run_path)
    got = {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(ms, qrels, run)}
    want = by_topic(readsim_json("eval", "--qrels", qrels_path, "-q", "-c", "--format", "json",
                                 *[a for n in DEFAULTS for a in ("-m", n)], run_path))
    assert {k for k in want if k[1] != "all"} == set(got)
    for k, v in got.items():
        assert close(v, want[k]), k
    # expected/: the measures computed by an independent implementation
    ref = {}
    for line in (inex / "expected" / "passage-run.ric.effort-natural.tsv").read_text().splitlines():
        m, t, v = line.split("\t")
        ref[(m, t)] = float(v)
    checked = 0
    for (m, t), v in ref.items():
        if t != "all" and (m, t) in got:
            assert close(got[(m, t)], v, 1e-9), (m, t)
            checked += 1
    assert checked >= 118 * 5
    # two judged topics are not in the run: ir_measures counts them (0), as
    # readsim eval -c does; readsim eval without -c gives the official MAgP
    agg = ir_measures.calc_aggregate(ms, qrels, run)
    assert close(agg[ms[0]], want[(DEFAULTS[0], "all")])
    assert close(agg[ms[0]] * 120 / 118, 0.11152624190798616, 1e-9)
    plain = readsim.evaluate(qrels_path, run_path, [DEFAULTS[0]], per_topic=False)
    assert close(plain.value.iloc[0], 0.11152624190798616, 1e-12)


def test_paths_and_mixed_providers(sample):
    """Paths go to readsim as they are; ir_measures' own measures go to
    their providers in the same call."""
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    m = readsim.measure(r"AgP\T2Ip(300)")
    a = readsim.provider.calc_aggregate([m], str(q), str(r))[m]
    b = ir_measures.calc_aggregate([m, ir_measures.P @ 5], readsim.read_qrels(q), readsim.read_run(r))
    assert close(a, b[m])
    assert close(a, readsim.evaluate(q, r, [str(m)], per_topic=False, complete=True).value.iloc[0])


def test_counts_sum(sample):
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    ms = [readsim.measure("num_ret"), readsim.measure("num_q")]
    agg = ir_measures.calc_aggregate(ms, readsim.read_qrels(q), readsim.read_run(r))
    # articles retrieved: doc.trec ranks the same articles, one a line (190 lines)
    assert agg[ms[0]] == 190 and agg[ms[1]] == 12


def test_genomics(genomics):
    """The TREC Genomics measures on the shared gold standard: frames read
    with their offsets in bytes, written back for readsim, give readsim's
    values."""
    names = ["DOCUMENT", "PASSAGE", "ASPECT", "PASSAGE2"]
    gold, run_path = genomics / "gold-standard-07.txt", genomics / "york07-ga-01.txt"
    ms = [readsim.measure(n) for n in names]
    want = by_topic(readsim_json("eval", "--qrels", gold, "-q", "-c", "--format", "json",
                                 *[a for n in names for a in ("-m", n)], run_path))
    got = list(ir_measures.iter_calc(ms, readsim.read_qrels(gold), readsim.read_run(run_path)))
    assert len(got) == len([k for k in want if k[1] != "all"])
    for metric in got:
        assert close(metric.value, want[(str(metric.measure), metric.query_id)])
    # paths: a pathlib.Path passes through ir_measures' pipeline (a str does
    # not: ir_measures iterates it), a str through readsim.provider
    for agg in (ir_measures.calc_aggregate(ms, gold, run_path),
                readsim.provider.calc_aggregate(ms, str(gold), str(run_path))):
        for m in ms:
            assert close(agg[m], want[(str(m), "all")])


def test_num_q_alone_from_a_path(sample):
    """num_q alone has no topic line: the judged topics come from the file."""
    m = readsim.measure("num_q")
    assert readsim.provider.calc_aggregate([m], str(sample / "judgments.qrels"),
                                           str(sample / "runs" / "ric.fol"))[m] == 12
    assert readsim.provider.calc_aggregate([ir_measures.NumQ], str(sample / "judgments.qrels"),
                                           str(sample / "runs" / "doc.trec"))[ir_measures.NumQ] == 12
