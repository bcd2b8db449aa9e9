"""replay, compare, calibrate and evaluate (docs/python.md, "The rest of
readsim"): the frames hold what the commands print."""


import pandas as pd
import pytest

import readsim
from conftest import readme_eval, readsim_json


def test_replay_trace(sample):
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    trace = readsim.replay(q, r, topics=["2026001"], t2i=300)
    want = readsim_json("replay", "--qrels", q, "--run", r, "--topic", "2026001", "--t2i", 300)
    assert len(trace) == len(want)
    # the README's first events of this replay, copied by hand
    first = trace.iloc[0]
    assert (first.ev, first.topic, first.run, first.trel) == ("topic", "2026001", "readsim-ric", 3)
    opened = trace.iloc[1]
    assert (opened.ev, opened.doc, opened.len, opened.nrc) == ("open", "1001", 4621, 3334)
    assert opened.passages == [[76, 620], [1051, 2262], [2282, 2619], [3659, 4144]]
    read = trace.iloc[3]
    assert (read.ev, read["from"], read.to, read.rel, read.nonrel, read.screen) == ("read", 76, 376, 300, 0, 1)
    for got, rec in zip(trace.to_dict("records"), want):
        for k, v in rec.items():
            assert got[k] == v, (k, got[k], v)


def test_compare_table(sample):
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    df = readsim.compare(q, [r], [r"ANCE[20]\LE(300,5)", "map"], doc_baseline=True)
    assert set(df.measure) == {r"ANCE[20]\LE(300,5)", "map"}
    ance = df[df.measure == r"ANCE[20]\LE(300,5)"].iloc[0]
    # README: ANCE[20] falls from 7.98 to 3.62 (lower is better), 11 topics of 12
    assert round(ance.mean_run, 2) == 3.62 and round(ance.mean_vs, 2) == 7.98
    assert ance.wins + ance.ties + ance.losses == 12
    assert df.attrs["baseline"] == "readsim-ric (document baseline)"


def test_calibrate_recovers_the_reader(tmp_path, sample):
    """README: a replay with T2I 500 and a 1000-character screen, calibrated,
    gives back 500 and 1000; the trace goes in as a frame."""
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    trace = readsim.replay(q, r, t2i=500, screen=1000)
    rep = readsim.calibrate(q, [trace])
    assert rep["t2i"] == 500 and rep["screen"] == 1000 and rep["order"] == "natural"
    assert rep["visits"] == 61
    assert isinstance(rep["topics"], pd.DataFrame) and len(rep["topics"]) == 12
    assert (rep["topics"].recorded_AgP_Read == rep["topics"].simulated_AgP_T2Ip).all()


def test_evaluate_readme_values(sample):
    """README's eval of ric.fol, read from the README."""
    df = readsim.evaluate(sample / "judgments.qrels", sample / "runs" / "ric.fol", per_topic=False)
    got = dict(zip(df.measure, df.value))
    for name in (r"AgP\F(0.25)", r"ANCE[100]\LE(300,5)", "AP"):
        assert got[name] == readme_eval(name), name
    assert set(df.run) == {"readsim-ric"} and set(df.topic) == {"all"}


def test_evaluate_frames_equal_files(sample):
    q, r = sample / "judgments.qrels", sample / "runs" / "ric.fol"
    a = readsim.evaluate(q, r, per_topic=True)
    b = readsim.evaluate(readsim.read_qrels(q), readsim.read_run(r), per_topic=True)
    pd.testing.assert_frame_equal(a, b)


def test_errors_carry_readsims_message(tmp_path, sample):
    bad = tmp_path / "bad.qrels"
    bad.write_text("2026001 Q0 1001 10 100 0 5:10\n2026001 Q0 1002 x 100 0\n")
    with pytest.raises(readsim.ReadsimError) as e:
        readsim.evaluate(bad, sample / "runs" / "ric.fol")
    assert e.value.file == str(bad) and e.value.line == 2 and e.value.status == 2
    with pytest.raises(readsim.ReadsimError) as e:
        readsim.evaluate(sample / "judgments.qrels", sample / "runs" / "ric.fol", ["nosuch"])
    assert "unknown measure" in e.value.cause and e.value.status == 2


def test_version_and_main(capfd):
    import subprocess, sys, os
    line = readsim.version()
    assert line.startswith("readsim ")
    out = subprocess.run([sys.executable, "-m", "readsim", "version"], capture_output=True, text=True,
                         env=dict(os.environ))
    assert out.returncode == 0 and out.stdout.strip() == line
    bad = subprocess.run([sys.executable, "-m", "readsim", "eval"], capture_output=True, text=True)
    assert bad.returncode == 2 and "usage: readsim eval" in bad.stderr
