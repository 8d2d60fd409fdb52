#!/usr/bin/env python3
"""Scaling of linescope.dask.batch on this machine's process cluster: in this process
(scheduler="sync"), then distributed.LocalCluster with 1 and 2 worker processes (one thread each, engine
threads=1), on the same files; the median of --repeat runs, each into a fresh folder (no
resumption). Results: tests/bench/cpu-results.md.

  PYTHONPATH=build/python /usr/bin/python3 tests/bench/dask_batch_scaling.py [--files 24]
      [--size 1024] [--op sweep] [--repeat 3] [--workers 1,2]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

import linescope
import linescope.dask as lsd

PARAMS = {"sweep": {"length": 41, "angles": "0:180:2"}, "open": {"angle": 30, "length": 41},
          "skew": {}}


def make_inputs(folder, count, size):
    rng = np.random.default_rng(1)
    yy, xx = np.mgrid[0:size, 0:size]
    os.makedirs(folder)
    paths = []
    for i in range(count):
        # Oriented stripes plus noise, a different angle per file.
        a = np.deg2rad(7.5 * i)
        stripes = np.sin((xx * np.cos(a) - yy * np.sin(a)) / 3.0) * 60 + 128
        img = np.clip(stripes + rng.normal(0, 25, stripes.shape), 0, 255).astype(np.uint8)
        path = os.path.join(folder, f"in{i:03d}.png")
        linescope.imwrite(path, img)
        paths.append(path)
    return paths


def timed(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=24)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--op", default="sweep", choices=sorted(PARAMS))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", default="1,2")
    args = ap.parse_args()
    import distributed

    params = PARAMS[args.op]
    work = tempfile.mkdtemp(prefix="linescope-dask-bench-")
    try:
        paths = make_inputs(os.path.join(work, "in"), args.files, args.size)
        run = [0]

        def fresh():
            run[0] += 1
            return os.path.join(work, f"out{run[0]}")

        print(f"{args.files} files {args.size}x{args.size} u8 PNG, op {args.op} {params}, "
              f"median of {args.repeat}", flush=True)
        base, all_ = timed(lambda: lsd.batch(paths, args.op, fresh(), scheduler="sync", **params),
                           args.repeat)
        print(f"one process (scheduler='sync'): {base:.2f} s  "
              f"({args.files / base:.2f} files/s) runs {[round(t, 2) for t in all_]}", flush=True)
        for n in [int(w) for w in args.workers.split(",")]:
            with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=50) as cluster, \
                    distributed.Client(cluster) as client:
                lsd.batch(paths[:2], args.op, fresh(), scheduler=client, **params)  # warm the workers
                t, all_ = timed(lambda: lsd.batch(paths, args.op, fresh(), scheduler=client, **params),
                                args.repeat)
            print(f"LocalCluster {n} worker(s): {t:.2f} s  ({args.files / t:.2f} files/s) "
                  f"runs {[round(x, 2) for x in all_]}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
