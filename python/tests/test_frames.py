"""read_qrels, read_run and the frames written back (docs/python.md,
"Reading files"). Expected rows are copied by hand from the files."""

import gzip

import pandas as pd
import pytest

import readsim
from conftest import run_lines


def test_fol_qrels_rows(sample):
    q = readsim.read_qrels(sample / "judgments.qrels")
    assert list(q.columns) == ["query_id", "doc_id", "relevance", "start", "length", "doc_length", "bep"]
    # 2026001 Q0 1001 3334 4621 76 76:544 621:420 1051:1211 2282:966 3277:193
    first = q[(q.query_id == "2026001") & (q.doc_id == "1001")]
    assert first[["start", "length"]].values.tolist() == [[76, 544], [621, 420], [1051, 1211], [2282, 966], [3277, 193]]
    assert set(first.doc_length) == {4621} and set(first.bep) == {76} and set(first.relevance) == {1}
    # 61 lines: 37 relevant articles with 87 passages, 24 judged non-relevant (no passage)
    assert len(q) == 87 + 24
    nonrel = q[q.relevance == 0]
    assert len(nonrel) == 24 and nonrel.start.isna().all() and nonrel.length.isna().all()
    assert q.groupby(["query_id", "doc_id"]).ngroups == 61


@pytest.mark.parametrize("text,want", [
    ("q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 -1\n",
     [("q1", "d1", 2), ("q1", "d2", 0), ("q2", "d3", -1)]),
    ("7 0 b 1\n10 0 a 3\n",  # readsim's topic order: numeric
     [("7", "b", 1), ("10", "a", 3)]),
])
def test_trec_qrels_rows(tmp_path, text, want):
    path = tmp_path / "q.txt"
    path.write_text(text)
    q = readsim.read_qrels(path)
    assert list(q.columns) == ["query_id", "doc_id", "relevance"]
    assert [tuple(r) for r in q.itertuples(index=False)] == want


def test_runs_keep_line_order(tmp_path, sample):
    r = readsim.read_run(sample / "runs" / "ric.fol")
    assert list(r.columns) == ["query_id", "doc_id", "rank", "score", "run_id", "start", "length"]
    lines = run_lines(sample / "runs" / "ric.fol")
    assert len(r) == len(lines)
    q, _, doc, rank, score, tag, start, length = lines[0]
    assert r.iloc[0].tolist() == [q, doc, int(rank), float(score), tag, int(start), int(length)]
    d = readsim.read_run(sample / "runs" / "doc.trec")
    assert list(d.columns) == ["query_id", "doc_id", "rank", "score", "run_id"]
    q, _, doc, rank, score, tag = run_lines(sample / "runs" / "doc.trec")[1]
    assert d.iloc[1].tolist() == [q, doc, int(rank), float(score), tag]
    # rank and score against the line order: the rows keep the lines' order
    path = tmp_path / "r.fol"
    path.write_text("5 Q0 b 2 0.1 x 10 5\n5 Q0 a 1 0.30000000000000004 x 0 3\n")
    r = readsim.read_run(path)
    assert r.doc_id.tolist() == ["b", "a"] and r.score.tolist() == [0.1, 0.30000000000000004]


def test_gzip_and_genomics(tmp_path, genomics):
    gold = readsim.read_qrels(genomics / "gold-standard-07.txt")
    # 200	14747618	64716	19412	ICAM-1|TNF-ALPHA|CD14|E-SELECTIN
    row = gold.iloc[0]
    assert (row.query_id, row.doc_id, row.relevance, row.start, row.length) == ("200", "14747618", 1, 64716, 19412)
    assert gold.attrs["readsim_offsets"] == "bytes"
    run = readsim.read_run(genomics / "york07-ga-01.txt")
    assert len(run) == 36000
    assert run.iloc[0].tolist() == ["200", "12595615", 1, 48.63, "yorkuga1", 28426, 295]
    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress((genomics / "york07-ga-01.txt").read_bytes()))
    pd.testing.assert_frame_equal(readsim.read_run(gz), run)


@pytest.mark.parametrize("text,line,cause", [
    ("1 Q0 d1 1 2.0 r\n1 Q0 d2 x 1 r\n", 2, 'rank "x" is not a non-negative integer'),
    ("1 Q0 d1 1 nan r\n", 1, 'rsv "nan" is not a finite number'),
])
def test_errors_name_file_and_line(tmp_path, text, line, cause):
    path = tmp_path / "bad.run"
    path.write_text(text)
    with pytest.raises(readsim.ReadsimError) as e:
        readsim.read_run(path)
    err = e.value
    assert err.status == 2 and err.command == "rows"
    assert err.file == str(path) and err.line == line
    assert cause in err.cause and cause in str(err)


def test_missing_file():
    with pytest.raises(readsim.ReadsimError) as e:
        readsim.read_qrels("/nonexistent/q.txt")
    assert e.value.status == 2 and "/nonexistent/q.txt" in str(e.value)


@pytest.mark.parametrize("name", ["judgments.qrels", "runs/ric.fol", "runs/doc.trec"])
def test_frames_written_back_read_the_same(tmp_path, sample, name):
    """A frame written back (as the provider writes it) reads as the file."""
    from readsim._frames import write_qrels, write_run
    read, write = (readsim.read_qrels, write_qrels) if name.endswith("qrels") else (readsim.read_run, write_run)
    df = read(sample / name)
    path = tmp_path / "back.txt"
    with open(path, "w") as f:
        write(df, f)
    pd.testing.assert_frame_equal(read(path), df)


def test_xml_submission(tmp_path):
    """An INEX XML submission: no rank column, an entry point under bep."""
    path = tmp_path / "run.xml"
    path.write_text('<inex-submission participant-id="1" run-id="x1" task="BestInContext" query="automatic" '
                    'result-type="element">\n<topic topic-id="5"><result><file>d9</file><rank>1</rank>'
                    '<rsv>0.5</rsv><bep offset="17"/></result></topic>\n</inex-submission>\n')
    r = readsim.read_run(path)
    assert list(r.columns) == ["query_id", "doc_id", "score", "run_id", "bep"]
    assert r.iloc[0].tolist() == ["5", "d9", 0.5, "x1", 17]
