"""readsim.provider against pytrec_eval and ranx through ir_measures
(docs/python.md, "Differences from pytrec_eval and ranx"): equal values
where both define them, and the differences the documentation names."""

import math
import random

import ir_measures
import pandas as pd
import pytest
from ir_measures import (AP, P, RR, R, Rprec, nDCG, Bpref, Success, SetP, SetR, SetF, SetAP, NumRet, NumRel,
                         NumQ, IPrec, infAP)

import readsim

SHARED = [AP, AP @ 10, P @ 5, P @ 10, P @ 100, RR, Rprec, nDCG, nDCG @ 10, R @ 10, R @ 100, Bpref, Success @ 10,
          SetP, SetR, SetF, SetAP, NumRet, NumRet(rel=1), NumRel, infAP]


def synthetic(seed, ties=True, topics=30, docs=200):
    """Graded judgments and a run with tied scores, a judged topic missing
    from the run and a run topic nobody judged."""
    rnd = random.Random(seed)
    qrels, run = [], []
    for t in range(topics):
        q = f"t{t}"
        pool = [f"d{rnd.randrange(10 * docs)}" for _ in range(docs)]
        pool = list(dict.fromkeys(pool))
        for d in rnd.sample(pool, len(pool) // 3) + [f"u{t}-{i}" for i in range(5)]:
            qrels.append((q, d, rnd.choice([0, 0, 0, 1, 1, 2, 3])))
        if t == 3:
            continue  # judged, not retrieved
        for i, d in enumerate(pool[: rnd.randrange(5, len(pool))]):
            score = round(rnd.random() * 5, 1) if ties else rnd.random() * 100 + i * 1e-6
            run.append((q, d, score))
    run.append(("nobody", "d1", 1.0))
    return (pd.DataFrame(qrels, columns=["query_id", "doc_id", "relevance"]),
            pd.DataFrame(run, columns=["query_id", "doc_id", "score"]))


def per_topic(provider, measures, qrels, run):
    return {(str(m.measure), m.query_id): m.value for m in provider.iter_calc(measures, qrels, run)}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_equal_to_pytrec_eval(seed):
    qrels, run = synthetic(seed)
    ours = per_topic(readsim.provider, SHARED, qrels, run)
    theirs = per_topic(ir_measures.pytrec_eval, SHARED, qrels, run)
    in_run = set(run.query_id) & set(qrels.query_id)
    checked = 0
    for (m, q), v in theirs.items():
        if q in in_run:
            assert math.isclose(ours[(m, q)], v, rel_tol=1e-12, abs_tol=1e-12), (m, q, ours[(m, q)], v)
            checked += 1
    assert checked == len(SHARED) * len(in_run)
    # the same names as readsim's measures go through readsim eval, not
    # readsim trec_eval: the same values
    names = {str(m): readsim.trec_name(m) for m in SHARED}
    via_eval = per_topic(readsim.provider, [readsim.measure(n) for n in set(names.values())], qrels, run)
    for (m, q), v in ours.items():
        assert math.isclose(via_eval[(names[m], q)], v, rel_tol=1e-12, abs_tol=1e-12), (m, q)
    # a judged topic missing from the run: ir_measures fills 0 (DEFAULT);
    # readsim evaluates it as trec_eval -c does, which differs for NumRel
    missing = "t3"
    for m in SHARED:
        if m == NumRel:
            assert ours[(str(m), missing)] == (qrels[(qrels.query_id == missing)].relevance >= 1).sum()
            assert theirs[(str(m), missing)] == 0
        else:
            assert ours[(str(m), missing)] == 0 == theirs[(str(m), missing)], m


IPREC = [IPrec @ 0.1, IPrec @ 0.25, IPrec @ 0.5, IPrec @ 0.6, IPrec @ 0.9]


@pytest.mark.compat9
def test_interpolation_rule_differs():
    """trec_eval 10 (readsim's default rule) rounds x·R;
    trec_eval 9 (pytrec_eval's, and --compat 9's) adds 0.9 and truncates:
    with R = 4 at x = 0.6, lround(2.4) = 2 relevant documents against
    (long)(2.4 + 0.9) = 3, so the precision interpolated from there differs
    (m_iprec_at_recall.c)."""
    qrels = pd.DataFrame([("q", f"r{i}", 1) for i in range(4)], columns=["query_id", "doc_id", "relevance"])
    # relevant at ranks 1, 2, 6, 10: precision 1, 1, 0.5, 0.4
    docs = ["r0", "r1", "n0", "n1", "n2", "r2", "n3", "n4", "n5", "r3"]
    run = pd.DataFrame([("q", d, 10.0 - i) for i, d in enumerate(docs)], columns=["query_id", "doc_id", "score"])
    ours = readsim.provider.calc_aggregate([IPrec @ 0.6], qrels, run)[IPrec @ 0.6]
    theirs = ir_measures.pytrec_eval.calc_aggregate([IPrec @ 0.6], qrels, run)[IPrec @ 0.6]
    assert ours == 1.0  # 2 relevant reached at rank 2: the best precision from there is 1
    assert theirs == 0.5  # 3 relevant reached at rank 6: 0.5
    nine = readsim.provider_compat9.calc_aggregate([IPrec @ 0.6], qrels, run)[IPrec @ 0.6]
    assert nine == 0.5


@pytest.mark.compat9
@pytest.mark.parametrize("seed", [1, 2])
def test_compat9_equals_pytrec_eval_iprec(seed):
    qrels, run = synthetic(seed)
    ours = per_topic(readsim.provider_compat9, IPREC, qrels, run)
    theirs = per_topic(ir_measures.pytrec_eval, IPREC, qrels, run)
    for k, v in theirs.items():
        if k[1] in set(run.query_id):
            assert math.isclose(ours[k], v, rel_tol=1e-12, abs_tol=1e-12), k


RANX = [AP, P @ 5, P @ 10, RR, Rprec, nDCG @ 10, nDCG, R @ 10, R @ 100, SetP, SetR, NumRet(rel=1), Success @ 10]


def test_equal_to_ranx_without_ties():
    """ranx breaks tied scores its own way: on a run without ties, readsim's
    values are ranx's (ranx computes in float32 where it sums, so 1e-6)."""
    qrels, run = synthetic(5, ties=False)
    # ranx wants the same topics on both sides
    qrels, run = qrels[qrels.query_id != "t3"], run[run.query_id != "nobody"]
    ours = per_topic(readsim.provider, RANX, qrels, run)
    theirs = per_topic(ir_measures.ranx, RANX, qrels, run)
    in_run = set(run.query_id) & set(qrels.query_id)
    checked = 0
    for (m, q), v in theirs.items():
        if q in in_run:
            assert math.isclose(ours[(m, q)], v, rel_tol=1e-6, abs_tol=1e-9), (m, q, ours[(m, q)], v)
            checked += 1
    assert checked == len(RANX) * len(in_run)


def test_unsupported_parameters_are_left_to_others():
    assert not readsim.provider.supports(P(rel=2) @ 10)
    assert not readsim.provider.supports(nDCG(dcg="exp-log2") @ 10)
    assert readsim.provider.supports(P @ 10) and readsim.provider.supports(readsim.measure("P@10"))
    # the pipeline's readsim provider takes readsim's measures only
    assert ir_measures.DefaultPipeline.providers[-1].supports(readsim.measure("AP"))
    assert not ir_measures.DefaultPipeline.providers[-1].supports(AP)


def test_readsim_measure_equals_ir_measures_name():
    """readsim.measure('P@10') through ir_measures is readsim's P@10, equal
    to ir_measures' P@10 from pytrec_eval on whole documents."""
    qrels, run = synthetic(7)
    ours = ir_measures.calc_aggregate([readsim.measure("P@10"), readsim.measure("map")], qrels, run)
    theirs = ir_measures.calc_aggregate([P @ 10, AP], qrels, run)
    assert math.isclose(ours[readsim.measure("P@10")], theirs[P @ 10], rel_tol=1e-12)
    assert math.isclose(ours[readsim.measure("map")], theirs[AP], rel_tol=1e-12)


def test_paths_equal_frames(tmp_path):
    """Files given by path (readsim reads them itself, trec_eval's way for
    TREC qrels) give the values of the same judgments and run as frames."""
    qrels, run = synthetic(9)
    qp, rp = tmp_path / "q.txt", tmp_path / "r.txt"
    qp.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, r in qrels.itertuples(index=False)))
    rp.write_text("".join(f"{q} Q0 {d} 0 {s!r} x\n" for q, d, s in run.itertuples(index=False)))
    a = per_topic(readsim.provider, SHARED + [NumQ], str(qp), str(rp))
    b = per_topic(readsim.provider, SHARED + [NumQ], qrels, run)
    assert a == b and len(a) == (len(SHARED) + 1) * 30
