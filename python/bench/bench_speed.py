"""Speed of readsim through ir_measures, side by side with its peers
(docs/python.md, "Speed").

    python bench_speed.py gen DIR            # synthetic files (below)
    python bench_speed.py trec MODE DIR      # 2 M-line TREC run, MODE:
        readsim (readsim.provider, frames), readsim-path (readsim.provider,
        the files' paths), pytrec (pytrec_eval through ir_measures, frames)
    python bench_speed.py trec-alternate DIR # readsim (frames, paths) and
        pytrec in one process, alternated, 5 rounds
    python bench_speed.py inex-alternate DIR # the paths mode's calc_aggregate
        and readsim eval, alternated in one process, 5 rounds after one
    python bench_speed.py inex MODE DIR      # 1 M lines of FOL, MODE:
        frames (readsim's INEX measures through ir_measures on frames read
        by read_qrels/read_run), paths (the same measures, the files'
        pathlib.Paths through ir_measures)
    readsim eval --qrels DIR/inex.qrels DIR/inex.fol   # the reference of inex

Each mode prints the seconds of calc_aggregate alone, then of the whole
mode (reading the files into frames included), and the values, so that the
modes can be checked to agree. Time whole processes side by side with
/usr/bin/time or any harness that alternates two commands.
"""

import random
import sys
import time
from pathlib import Path


# readsim eval's defaults on INEX judgments (cli.md)
INEX_DEFAULTS = [r"AgP\F(0.25)", r"gP[5]\F(0.25)", r"gP[10]\F(0.25)", r"gP[25]\F(0.25)", r"gP[50]\F(0.25)",
                 r"AgP\T2Ip(300)", r"AgP\T2Ip(2000)", r"AgP\aveChP", r"ANCE[100]\LE(300,5)",
                 r"ANCE[100]\LE(2000,5)", "AP"]


def gen(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rnd = random.Random(7)
    with open(out / "trec.qrels", "w") as q, open(out / "trec.run", "w") as r:
        for t in range(2000):
            docs = list(dict.fromkeys(f"d{rnd.randrange(50000)}" for _ in range(1100)))[:1000]
            for d in rnd.sample(docs, 150) + [f"x{t}-{i}" for i in range(50)]:
                q.write(f"{t + 1} 0 {d} {rnd.choice([0, 0, 1, 2, 3])}\n")
            for i, d in enumerate(docs):
                r.write(f"{t + 1} Q0 {d} {i + 1} {round(rnd.random() * 10, 1)} bench\n")
    with open(out / "inex.qrels", "w") as q, open(out / "inex.fol", "w") as r:
        for t in range(1000):
            arts = list(dict.fromkeys(str(rnd.randrange(10 ** 6)) for _ in range(400)))[:334]
            lengths = {a: rnd.randrange(2000, 40000) for a in arts}
            for a in rnd.sample(arts, 60):
                n = lengths[a]
                if rnd.random() < 0.5:
                    q.write(f"{t + 1} Q0 {a} 0 {n} 0\n")
                    continue
                cuts = sorted(rnd.sample(range(n), 4))
                spans = [(cuts[0], cuts[1] - cuts[0]), (cuts[2], cuts[3] - cuts[2])]
                rsize = sum(s for _, s in spans)
                q.write(f"{t + 1} Q0 {a} {rsize} {n} {spans[0][0]} " + " ".join(f"{o}:{s}" for o, s in spans) + "\n")
            rank, lines = 0, 0
            for a in arts:
                n = lengths[a]
                cuts = sorted(rnd.sample(range(n), 6))
                score = round(1000 - rank * 0.5, 3)
                for k in range(0, 6, 2):
                    if lines == 1000:
                        break
                    rank += 1
                    lines += 1
                    r.write(f"{t + 1} Q0 {a} {rank} {score} bench {cuts[k]} {cuts[k + 1] - cuts[k]}\n")


def trec(mode, d):
    import pandas as pd
    import ir_measures
    from ir_measures import AP, P, nDCG, RR, R, Bpref
    import readsim
    d = Path(d)
    ms = [AP, P @ 10, nDCG @ 10, nDCG, RR, R @ 1000, Bpref]
    t0 = time.perf_counter()
    if mode == "readsim-path":
        qrels, run = d / "trec.qrels", d / "trec.run"
    else:
        if not (d / "trec-run.pkl").exists():
            pd.read_csv(d / "trec.run", sep=" ", header=None, names=["query_id", "Q0", "doc_id", "rank", "score", "run_id"],
                        dtype={"query_id": str, "doc_id": str, "score": float}).to_pickle(d / "trec-run.pkl")
            pd.read_csv(d / "trec.qrels", sep=" ", header=None, names=["query_id", "iteration", "doc_id", "relevance"],
                        dtype={"query_id": str, "doc_id": str, "relevance": int}).to_pickle(d / "trec-qrels.pkl")
        # frames from a pickle: what is timed is the evaluation, not pandas' reader
        run, qrels = pd.read_pickle(d / "trec-run.pkl"), pd.read_pickle(d / "trec-qrels.pkl")
    t1 = time.perf_counter()
    provider = ir_measures.pytrec_eval if mode == "pytrec" else readsim.provider
    agg = provider.calc_aggregate(ms, qrels, run)
    t2 = time.perf_counter()
    print(f"{mode}: calc_aggregate {t2 - t1:.2f} s, whole {t2 - t0:.2f} s")
    print({str(k): round(v, 12) for k, v in sorted(agg.items(), key=lambda kv: str(kv[0]))})


def inex(mode, d):
    import ir_measures
    import readsim
    d = Path(d)
    ms = [readsim.measure(n) for n in INEX_DEFAULTS]
    t0 = time.perf_counter()
    if mode == "paths":
        qrels, run = d / "inex.qrels", d / "inex.fol"
    else:
        qrels, run = readsim.read_qrels(d / "inex.qrels"), readsim.read_run(d / "inex.fol")
    t1 = time.perf_counter()
    agg = ir_measures.calc_aggregate(ms, qrels, run)
    t2 = time.perf_counter()
    print(f"{mode}: calc_aggregate {t2 - t1:.2f} s, whole {t2 - t0:.2f} s")
    print({str(k): round(v, 12) for k, v in agg.items()})


def inex_alternate(d, rounds=5):
    """In one process, as in a notebook with pandas and ir_measures loaded:
    calc_aggregate of the INEX measures on the files' paths, alternated
    with readsim eval on the same files as a process; each one's seconds."""
    import subprocess
    import ir_measures
    import readsim
    d = Path(d)
    ms = [readsim.measure(n) for n in INEX_DEFAULTS]
    cmd = [readsim.binary(), "eval", "--qrels", str(d / "inex.qrels"), str(d / "inex.fol")]
    ours, theirs = [], []
    for _ in range(rounds + 1):
        t0 = time.perf_counter()
        ir_measures.calc_aggregate(ms, d / "inex.qrels", d / "inex.fol")
        t1 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=True)
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
    ours, theirs = ours[1:], theirs[1:]  # the first round warms up
    ratios = sorted(a / b for a, b in zip(ours, theirs))
    print(f"calc_aggregate {sorted(ours)} s; readsim eval {sorted(theirs)} s; ratios {[round(r, 3) for r in ratios]}, "
          f"median {ratios[len(ratios) // 2]:.3f}")


def trec_alternate(d, rounds=5):
    """In one process, the run and judgments as frames already loaded:
    readsim.provider's calc_aggregate alternated with pytrec_eval's through
    ir_measures, and readsim.provider on the files' paths; seconds of each."""
    import pandas as pd
    import ir_measures
    from ir_measures import AP, P, nDCG, RR, R, Bpref
    import readsim
    d = Path(d)
    trec("readsim", d)  # makes the pickles
    run, qrels = pd.read_pickle(d / "trec-run.pkl"), pd.read_pickle(d / "trec-qrels.pkl")
    ms = [AP, P @ 10, nDCG @ 10, nDCG, RR, R @ 1000, Bpref]
    times = {"readsim": [], "pytrec": [], "readsim-path": []}
    for _ in range(rounds):
        for name, call in (("readsim", lambda: readsim.provider.calc_aggregate(ms, qrels, run)),
                           ("pytrec", lambda: ir_measures.pytrec_eval.calc_aggregate(ms, qrels, run)),
                           ("readsim-path", lambda: readsim.provider.calc_aggregate(ms, d / "trec.qrels", d / "trec.run"))):
            t0 = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t0)
    for name in ("readsim", "readsim-path"):
        ratios = sorted(a / b for a, b in zip(times[name], times["pytrec"]))
        print(f"{name}: {sorted(round(t, 2) for t in times[name])} s against pytrec "
              f"{sorted(round(t, 2) for t in times['pytrec'])} s; ratios {[round(r, 3) for r in ratios]}, "
              f"median {ratios[len(ratios) // 2]:.3f}")


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "gen":
        gen(sys.argv[2])
    elif what == "trec":
        trec(sys.argv[2], sys.argv[3])
    elif what == "inex":
        inex(sys.argv[2], sys.argv[3])
    elif what == "trec-alternate":
        trec_alternate(sys.argv[2])
    elif what == "inex-alternate":
        inex_alternate(sys.argv[2])
    else:
        sys.exit(__doc__)
