"""PyTerrier's pt.Experiment with readsim's measures (docs/python.md,
"PyTerrier"): document runs and passage runs (start and length columns),
from frames and from a Terrier pipeline over the bundled sample."""

import math
import os
import xml.etree.ElementTree as ET

import pandas as pd
import pytest

import readsim

pt = pytest.importorskip("pyterrier") if not os.environ.get("CI") else __import__("pyterrier")

MEASURES = [r"AgP\T2Ip(300)", r"ANCE[100]\LE(300,5)", "char_prec", "map"]


def test_experiment_on_frames(sample):
    """Frames as systems: the passage run and the document run of the sample,
    scored by readsim through pt.Experiment, equal readsim eval -c."""
    q, ric, doc = sample / "judgments.qrels", sample / "runs" / "ric.fol", sample / "runs" / "doc.trec"
    qrels = readsim.read_qrels(q, columns="pyterrier")
    runs = [readsim.read_run(ric, columns="pyterrier"), readsim.read_run(doc, columns="pyterrier")]
    topics = pd.DataFrame({"qid": sorted(set(qrels.qid)), "query": "x"})
    ms = [readsim.measure(n) for n in MEASURES]
    res = pt.Experiment(runs, topics, qrels, eval_metrics=ms, names=["ric", "doc"])
    want = readsim.evaluate(q, [ric, doc], MEASURES, per_topic=False, complete=True)
    for name, run_id in (("ric", "readsim-ric"), ("doc", "readsim-doc")):
        row = res[res.name == name].iloc[0]
        for m in MEASURES:
            w = want[(want.run == run_id) & (want.measure == m)].value.iloc[0]
            assert math.isclose(row[m], w, rel_tol=1e-12, abs_tol=1e-12), (name, m)
    # README: the passage run reads relevant text sooner (ANCE lower), same map
    ric_row, doc_row = res.iloc[0], res.iloc[1]
    assert ric_row[MEASURES[1]] < doc_row[MEASURES[1]] and ric_row["map"] == doc_row["map"]


def sample_articles(sample):
    """(docno, text, paragraph spans) of the sample's articles: the text as
    INEX counts it (every text node from the root on), the spans of the
    <p> elements as readsim inspect gives them."""
    out = []
    for path in sorted((sample / "articles").rglob("*.xml")):
        root = ET.parse(path).getroot()
        text = "".join(root.itertext())
        spans = []
        for line in readsim._binary.run(["inspect", path]).decode().splitlines()[1:]:
            xpath, start, end = line.split("\t")
            if xpath.rsplit("/", 1)[-1].startswith("p["):
                spans.append((int(start), int(end)))
        out.append((path.stem, text, spans))
    return out


def sample_topics(sample):
    root = ET.parse(sample / "topics.xml").getroot()
    return pd.DataFrame([(t.get("id"), t.findtext("title").strip()) for t in root.iter("topic")],
                        columns=["qid", "query"])


@pytest.mark.slow
def test_terrier_pipeline(tmp_path, sample):
    """BM25 over the sample, then each article's paragraphs that hold a query
    word as passages: pt.Experiment scores both pipelines with readsim."""
    articles = sample_articles(sample)
    paragraphs = {docno: (text, spans) for docno, text, spans in articles}
    index = pt.IterDictIndexer(str(tmp_path / "index"), meta={"docno": 20}).index(
        {"docno": d, "text": t} for d, t, _ in articles)
    bm25 = pt.terrier.Retriever(index, wmodel="BM25", num_results=10)

    def passages(res):
        rows = []
        for r in res.itertuples(index=False):
            text, spans = paragraphs[r.docno]
            words = [w for w in r.query.lower().split() if len(w) > 2]
            hits = [(s, e) for s, e in spans if any(w in text[s:e].lower() for w in words)]
            for s, e in hits or [(0, len(text))]:
                rows.append({**r._asdict(), "start": s, "length": e - s})
        return pd.DataFrame(rows)

    focused = bm25 >> pt.apply.generic(passages)
    topics = sample_topics(sample)
    qrels = readsim.read_qrels(sample / "judgments.qrels", columns="pyterrier")
    ms = [readsim.measure(n) for n in MEASURES]
    res = pt.Experiment([bm25, focused], topics, qrels, eval_metrics=ms, names=["BM25", "BM25 >> paragraphs"])
    assert len(res) == 2 and res.notna().all().all()
    doc_row, par_row = res.iloc[0], res.iloc[1]
    # the paragraphs cannot change the articles' order: map is the same
    assert math.isclose(doc_row["map"], par_row["map"], rel_tol=1e-12)
    # each value is readsim's for the same run written as a file
    run = focused.transform(topics).rename(columns={"qid": "query_id", "docno": "doc_id"})
    want = readsim.evaluate(qrels.rename(columns={"qid": "query_id", "docno": "doc_id", "label": "relevance"}),
                            run, MEASURES, per_topic=False, complete=True)
    for m in MEASURES:
        assert math.isclose(par_row[m], want[want.measure == m].value.iloc[0], rel_tol=1e-12), m
