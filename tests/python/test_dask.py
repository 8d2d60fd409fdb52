"""linescope.dask: tiles equal to the whole image bit for bit, and batches over files equal to
the package's (and the CLI's) per-file results, on a distributed.LocalCluster of two worker
processes (and on Dask's local schedulers); a worker killed mid-batch loses and duplicates
nothing; re-runs resume.

Why the tiles can be exact, and why at most angles only in bands: python/linescope/dask.py,
the comment above _line_family. The tests below check each step of that argument: the
depth (tiles equal, and one pixel less is not enough), the alignment along the major axis
(naive tiles at 137.3° differ), and the image's own borders (boundary="none").
"""

import json
import os
import signal
import threading
import time

import numpy as np
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

import linescope  # noqa: E402
import linescope.dask as lsd  # noqa: E402
from helpers import random_image, same_pixels  # noqa: E402
from imagefiles import read_pfm, read_pgm, write_image  # noqa: E402

MORPH = ["open", "close", "erode", "dilate", "tophat"]
DTYPES = [np.uint8, np.uint16, np.float32]
# Axes and diagonals (any tiles), slopes 1/2 and 1/4 on both majors (tiles along the major
# axis at even / multiple-of-4 origins), and angles whose slope has period 2^16 (bands).
ANGLES = [0, 45, 90, 135, 137.3, 26.56505117707799, 14.036243467926479, 63.43494882292201,
          104.03624346792648, 30, 100.5, 167, -20.25, 179.9, 44.99, 45.01, 200.5]
SHAPE = (157, 211)     # prime-ish: no chunk size divides it
CHUNKS = (40, 50)


@pytest.fixture(scope="module")
def client():
    """Two worker processes with one thread each, as CI's two cores."""
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, silence_logs=50)
    c = distributed.Client(cluster, set_as_default=False)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def whole(op, img, angle, length):
    return getattr(linescope, op)(img, angle, length)


# --- tiles -------------------------------------------------------------------------------

def test_tiles_equal_the_whole_image_on_the_cluster(client):
    """Angles 0, 45, 90, 137.3 and a slope-1/2 one; λ odd and even; the five operators; the
    three pixel types; chunks that do not divide the image: one compute of all of them."""
    cases, lazy = [], []
    for d, dtype in enumerate(DTYPES):
        img = random_image(dtype, shape=SHAPE, seed=11 + d)
        for a, angle in enumerate([0, 45, 90, 137.3, 63.43494882292201]):
            for length in (8, 15):
                op = MORPH[(a + length + d) % len(MORPH)]
                cases.append((op, img, angle, length))
                lazy.append(lsd.tiled(img, op, angle, length, chunks=CHUNKS))
    # More than one tile wherever the angle allows it (else the test would prove little).
    assert all(arr.numblocks[0] > 1 for arr in lazy)
    assert any(arr.numblocks[1] > 1 for arr in lazy)
    results = client.gather(client.compute(lazy))
    for (op, img, angle, length), got in zip(cases, results):
        assert same_pixels(got, whole(op, img, angle, length)), (op, img.dtype, angle, length)


@pytest.mark.parametrize("dtype", DTYPES, ids=["uint8", "uint16", "float32"])
def test_tiles_equal_the_whole_image_at_many_angles(dtype):
    """The exactness claim at many angles (both majors, every period class), every operator,
    λ = 1, 2, 7, 16; in-process (Dask's synchronous scheduler) to keep it quick."""
    img = random_image(dtype, shape=SHAPE, seed=3)
    rng = np.random.default_rng(5)
    angles = ANGLES + list(rng.uniform(-180, 360, 6))
    bad = []
    for angle in angles:
        for length in (1, 2, 7, 16):
            for op in MORPH:
                got = lsd.tiled(img, op, angle, length, chunks=CHUNKS).compute(scheduler="sync")
                if not same_pixels(got, whole(op, img, angle, length)):
                    bad.append((op, angle, length))
    assert not bad


def test_tiles_of_a_dask_array_keep_exact_chunks_and_fix_the_others():
    img = random_image(np.uint8, shape=SHAPE, seed=4)
    arr = da.from_array(img, chunks=(30, 53))
    # 0°: any chunks are exact along both axes; x needs 14 ≤ 52, y none.
    t = lsd.tiled(arr, "open", 0, 15)
    assert t.chunks == arr.chunks
    # A last chunk thinner than the depth is joined to its neighbour.
    t = lsd.tiled(da.from_array(img, chunks=(30, 70)), "open", 0, 15)
    assert t.chunks == (arr.chunks[0], (70, 70, 71))
    # 30°: the period along x is 2^16, so one chunk along x; y keeps its 30s (and joins the
    # last 7 to its neighbour: the depth along y is 9).
    t = lsd.tiled(arr, "close", 30, 15)
    assert t.chunks == ((30, 30, 30, 30, 37), (SHAPE[1],))
    assert same_pixels(t.compute(scheduler="sync"), linescope.close(img, 30, 15))
    # Chunks thinner than the depth are widened.
    t = lsd.tiled(da.from_array(img, chunks=(5, 5)), "open", 45, 31)
    assert min(min(c) for c in t.chunks) >= 30
    assert same_pixels(t.compute(scheduler="sync"), linescope.open(img, 45, 31))


def test_sweep_tiles_on_the_cluster(client):
    """Every per-pixel image of a sweep: over {0, 45, 90, 135} (tiles both ways) and over
    0:180:10 (bands: most of those angles have period 2^16 on both majors: one tile)."""
    img = random_image(np.uint16, shape=SHAPE, seed=8)
    cases, lazy = [], []
    for angles, op in (("0:180:45", "open"), ("0:180:45", "close"), ("0:180:10", "erode")):
        for field in ("sup", "inf", "strength", "orientation", "arg_index"):
            cases.append((angles, op, field))
            lazy.append(lsd.tiled(img, "sweep", length=12, angles=angles, sweep_op=op, field=field,
                                  chunks=CHUNKS))
    assert lazy[0].numblocks == (4, 5)
    results = client.gather(client.compute(lazy))
    for (angles, op, field), got in zip(cases, results):
        assert same_pixels(got, getattr(linescope.sweep(img, 12, angles, op), field)), (angles, op, field)


def naive(img, op, angle, length, depth, chunks):
    """map_overlap as one would write it without the alignment rule."""
    return da.map_overlap(lambda b: whole(op, b, angle, length), da.from_array(img, chunks=chunks),
                          depth={0: depth[0], 1: depth[1]}, boundary="none", trim=True,
                          allow_rechunk=False, dtype=img.dtype).compute(scheduler="sync")


def test_the_depth_is_needed_in_full():
    """One pixel less overlap than overlap_depth along an axis changes some pixel: the depth
    is the reach, not a generous bound."""
    img = random_image(np.uint8, shape=SHAPE, seed=9)
    for op, angle, length in (("open", 0, 15), ("erode", 0, 16), ("close", 45, 8), ("open", 90, 9),
                              ("dilate", 135, 11), ("tophat", 137.3, 10)):
        depth = lsd.overlap_depth(op, angle, length)
        chunks, used = lsd.exact_chunks(SHAPE, op, angle, length, chunks=CHUNKS)
        expected = whole(op, img, angle, length)
        assert same_pixels(naive(img, op, angle, length, used, chunks), expected)
        for axis in (0, 1):
            if used[axis] == 0:
                continue
            less = list(used)
            less[axis] -= 1
            assert not same_pixels(naive(img, op, angle, length, less, chunks), expected), (op, angle, axis)
        assert max(depth) == lsd.line_reach(op, length)


def test_tiles_across_the_major_axis_at_a_generic_angle_differ():
    """Why tiled() cuts 137.3° into bands: the line family is anchored on the image's origin,
    so a tile starting at x = 50 − depth draws other lines; even twice the depth does not help."""
    img = random_image(np.uint8, shape=SHAPE, seed=10)
    depth = lsd.overlap_depth("open", 137.3, 15)
    expected = linescope.open(img, 137.3, 15)
    for d in (depth, (2 * depth[0], 2 * depth[1])):
        assert not same_pixels(naive(img, "open", 137.3, 15, d, (40, 53)), expected)


def test_depth_and_chunk_rules():
    assert lsd.line_reach("open", 15) == 14 and lsd.line_reach("open", 16) == 15
    assert lsd.line_reach("erode", 15) == 7 and lsd.line_reach("dilate", 16) == 8
    assert lsd.overlap_depth("open", 0, 15) == (0, 14)
    assert lsd.overlap_depth("open", 90, 15) == (14, 0)
    assert lsd.overlap_depth("erode", 45, 16) == (8, 8)
    assert lsd.overlap_depth("close", 137.3, 15) == (13, 14)     # ⌈14 · 60475 / 65536⌉ = 13
    assert lsd.overlap_depth("open", 26.56505117707799, 15) == (7, 14)  # slope 1/2: period 2
    assert lsd.overlap_depth("open", 14.036243467926479, 15) == (4, 14)  # slope 1/4: period 4
    assert lsd.overlap_depth("sweep", length=15, angles="0:180:45") == (14, 14)
    # Generic angle: one chunk along the major axis, so no overlap there.
    assert lsd.exact_chunks((1000, 900), "open", 30, 15, chunks=256) == (
        ((256, 256, 256, 232), (900,)), (9, 0))  # ⌈14 · 37837 / 65536⌉ = 9
    assert lsd.exact_chunks((1000, 900), "open", 120, 15, chunks=256) == (
        ((1000,), (256, 256, 256, 132)), (0, 9))
    # Slope 1/4: x boundaries and depth multiples of 4; a last chunk thinner than the depth
    # joins its neighbour.
    (ys, xs), used = lsd.exact_chunks((100, 210), "open", 14.036243467926479, 15, chunks=(30, 50))
    assert used == (4, 16) and xs == (52, 52, 52, 54) and ys == (30, 30, 30, 10)
    (ys, xs), used = lsd.exact_chunks((100, 105), "open", 0, 15, chunks=(30, 50))
    assert xs == (50, 55)
    with pytest.raises(ValueError, match="whole"):
        lsd.tiled(np.zeros((4, 4), np.uint8), "skew", 0, 3)
    with pytest.raises(TypeError, match="length"):
        lsd.tiled(np.zeros((4, 4), np.uint8), "open", 0)
    with pytest.raises(ValueError, match="finite"):
        lsd.overlap_depth("open", float("nan"), 3)
    with pytest.raises(TypeError, match="float64"):
        lsd.tiled(da.zeros((8, 8), chunks=4), "open", 0, 3)
    with pytest.raises(ValueError, match="2-D"):
        lsd.tiled(np.zeros((2, 8, 8), np.uint8), "open", 0, 3)


def test_tiles_on_the_threads_and_processes_schedulers():
    img = random_image(np.float32, shape=SHAPE, seed=12)
    t = lsd.tiled(img, "tophat", 45, 9, chunks=CHUNKS)
    expected = linescope.tophat(img, 45, 9)
    assert same_pixels(t.compute(scheduler="threads"), expected)
    assert same_pixels(t.compute(scheduler="processes", num_workers=2), expected)


# --- batches -----------------------------------------------------------------------------

def make_files(folder, count, seed=0, shape=(60, 80)):
    """count images of the three types, some in a subfolder, as PGM/PFM."""
    paths = []
    for i in range(count):
        dtype = DTYPES[i % 3]
        img = random_image(dtype, shape=shape, seed=seed + i)
        sub = folder / ("b" if i % 2 else "a")
        sub.mkdir(parents=True, exist_ok=True)
        path = sub / (f"img{i:03d}" + (".pfm" if dtype == np.float32 else ".pgm"))
        write_image(path, img)
        paths.append(str(path))
    return paths


def read_any(path):
    return read_pfm(path) if str(path).endswith(".pfm") else read_pgm(path)


def check_manifest(out, paths, records=None, runs=1):
    """The manifest has one line per input and run, appended as each finished: the last
    run's lines are those of the paths, each once."""
    manifest = lsd.read_manifest(out / lsd.MANIFEST)
    assert len(manifest) == runs * len(paths)
    last = manifest[(runs - 1) * len(paths):]
    assert sorted(r["input"] for r in last) == sorted(paths)  # every file once
    if records is not None:
        assert [r["input"] for r in records] == paths  # in the inputs' order
        by_input = {r["input"]: r for r in last}
        for r in records:
            assert {k: v for k, v in r.items() if k != "worker"} == by_input[r["input"]]
    return [next(r for r in last if r["input"] == p) for p in paths]


def test_batch_on_the_cluster_equals_the_package_and_the_cli(client, tmp_path, cli):
    paths = make_files(tmp_path / "in", 9)
    out = tmp_path / "out"
    records = lsd.batch(paths, "open", out, scheduler=client, angle=30, length=9)
    manifest = check_manifest(out, paths, records)
    workers = set()
    for path, r in zip(paths, records):  # the records add the worker to the manifest's fields
        assert r["status"] == "ok" and r["error"] is None
        rel = os.path.relpath(path, tmp_path / "in")
        assert r["outputs"] == [rel]  # mirrored: a/img000.pgm -> out/a/img000.pgm
        got = read_any(out / rel)
        assert same_pixels(got, linescope.open(read_any(path), 30, 9))
        workers.add(r["worker"])
    assert len(workers) == 2  # both workers took files
    # The CLI on each pixel type gives the batch's files.
    for path, r in zip(paths[:3], manifest):
        ref = tmp_path / ("cli-" + os.path.basename(path))
        cli("open", "--angle", 30, "--length", 9, path, ref)
        assert same_pixels(read_any(out / r["outputs"][0]), read_any(ref))


def test_batch_of_each_analysis_on_the_cluster(client, tmp_path, samples):
    page = os.path.join(samples, "task_score_skew_2.567.png")
    texture = os.path.join(samples, "oriented_texture.png")
    paths = [page, texture]
    for op, params in (("skew", {"deskew": ".deskewed.png"}), ("spectrum", {"angles": "0:180:5"}),
                       ("orientation_field", {"block": 32}),
                       ("contours", {"otsu": True, "json": ".contours.json"}),
                       ("sweep", {"length": 11, "angles": "0:180:15", "op": "close"})):
        out = tmp_path / op
        records = lsd.batch(paths, op, out, scheduler=client, **params)
        check_manifest(out, paths, records)
        for path, r in zip(paths, records):
            assert r["status"] == "ok", r["error"]
            for o in r["outputs"]:
                assert (out / o).is_file()
            img = linescope.imread(path)
            if op == "skew":
                result = linescope.skew(img)
                assert r["results"]["angle"] == result.angle
                stem = os.path.splitext(os.path.basename(path))[0]
                assert sorted(r["outputs"]) == sorted([stem + ".deskewed.png", stem + ".skew.json"])
                saved = json.loads((out / (stem + ".skew.json")).read_text())
                assert saved["angle"] == result.angle and saved["confidence"] == result.confidence
                assert same_pixels(linescope.imread(str(out / (stem + ".deskewed.png"))),
                                   linescope.deskew(img, result.angle))
            elif op == "spectrum":
                result = linescope.spectrum(img, angles="0:180:5")
                saved = json.loads((out / r["outputs"][0]).read_text())
                assert saved["spectrum"] == result.spectrum.tolist()
                assert r["results"]["peaks"] == [p.angle for p in result.peaks]
            elif op == "orientation_field":
                result = linescope.orientation_field(img, block=32)
                saved = json.loads((out / r["outputs"][0]).read_text())
                assert np.array_equal(np.float32(saved["angles"]), result.angles.ravel())
                assert np.array_equal(np.float32(saved["coherence"]), result.coherence.ravel())
            elif op == "contours":
                found, hierarchy = linescope.contours(img, otsu=True)
                saved = json.loads((out / r["outputs"][0]).read_text())
                assert len(saved["contours"]) == len(found)
                assert r["results"]["contours"] == len(found)
            else:
                result = linescope.sweep(img, 11, "0:180:15", "close")
                names = dict(zip(["supremum.png", "infimum.png", "strength.png",
                                  "orientation-angles.tiff"], [result.sup, result.inf, result.strength,
                                                               result.orientation]))
                stem = os.path.splitext(os.path.basename(path))[0]
                assert r["outputs"][0].startswith(stem + "/")  # the folder NAME/
                for o in r["outputs"][:3] + r["outputs"][4:5]:
                    assert same_pixels(linescope.imread(str(out / o)), names[os.path.basename(o)])


def test_a_failed_file_is_recorded_and_the_batch_goes_on(tmp_path):
    paths = make_files(tmp_path / "in", 4)
    broken = tmp_path / "in" / "a" / "broken.pgm"
    broken.write_bytes(b"P5\n10 10\n255\nshort")
    missing = str(tmp_path / "in" / "a" / "missing.pgm")
    paths[1:1] = [str(broken), missing]
    out = tmp_path / "out"
    records = lsd.batch(paths, "erode", out, scheduler="threads", angle=100.5, length=6)
    manifest = check_manifest(out, paths, records)
    status = {os.path.basename(r["input"]): (r["status"], r["error"]) for r in manifest}
    assert status["broken.pgm"][0] == "failed" and "broken.pgm" in status["broken.pgm"][1]
    assert status["missing.pgm"][0] == "failed" and "missing.pgm" in status["missing.pgm"][1]
    assert [r["status"] for r in manifest].count("ok") == 4
    # A re-run tries the failed ones again and skips the rest.
    broken.unlink()
    write_image(broken, random_image(np.uint8, shape=(20, 30)))
    again = lsd.batch(paths, "erode", out, scheduler="threads", angle=100.5, length=6)
    got = {os.path.basename(r["input"]): r for r in again}
    assert got["broken.pgm"]["status"] == "ok"
    assert got["missing.pgm"]["status"] == "failed"
    assert all(r["status"] == "skipped" for r in again
               if os.path.basename(r["input"]) not in ("broken.pgm", "missing.pgm"))
    check_manifest(out, paths, again, runs=2)


def test_rerun_resumes_and_redoes_only_what_changed(tmp_path):
    paths = make_files(tmp_path / "in", 6)
    out = tmp_path / "out"
    first = lsd.batch(paths, "close", out, scheduler="sync", angle=45, length=5)
    assert all(r["status"] == "ok" for r in first)
    outputs = [out / r["outputs"][0] for r in first]
    stamps = [o.stat().st_mtime_ns for o in outputs]
    again = lsd.batch(paths, "close", out, scheduler="sync", angle=45, length=5)
    assert all(r["status"] == "skipped" for r in again)
    assert [o.stat().st_mtime_ns for o in outputs] == stamps  # nothing rewritten
    assert all(r["outputs"] == f["outputs"] and r["results"] == f["results"] for r, f in zip(again, first))
    # A lost output, a changed input: those two are redone.
    outputs[0].unlink()
    assert paths[1].endswith(".pgm")
    write_image(paths[1], random_image(np.uint16, shape=(30, 40), seed=99))
    later = os.stat(paths[1]).st_mtime_ns + 10**9  # a new time even on a coarse clock
    os.utime(paths[1], ns=(later, later))
    third = lsd.batch(paths, "close", out, scheduler="sync", angle=45, length=5)
    assert [r["status"] for r in third] == ["ok", "ok"] + ["skipped"] * 4
    check_manifest(out, paths, third, runs=3)
    for path, r in zip(paths, third):
        assert same_pixels(read_any(out / r["outputs"][0]), linescope.close(read_any(path), 45, 5))
    # Other parameters: everything again.
    assert all(r["status"] == "ok" for r in lsd.batch(paths, "close", out, scheduler="sync",
                                                      angle=45, length=7))
    # redo=True (the CLI's --redo): everything again with the same options.
    assert all(r["status"] == "ok" for r in lsd.batch(paths, "close", out, scheduler="sync",
                                                      angle=45, length=7, redo=True))


def test_batch_on_the_processes_scheduler(tmp_path):
    paths = make_files(tmp_path / "in", 3)
    records = lsd.batch(paths, "dilate", tmp_path / "out", scheduler="processes", files_per_task=2,
                        angle=167, length=4)
    assert [r["status"] for r in records] == ["ok"] * 3
    for path, r in zip(paths, records):
        assert same_pixels(read_any(tmp_path / "out" / r["outputs"][0]),
                           linescope.dilate(read_any(path), 167, 4))


def test_batch_bag_composes(tmp_path):
    paths = make_files(tmp_path / "in", 3)
    bag = lsd.batch_bag(paths, "open", tmp_path / "out", angle=0, length=3)
    assert bag.npartitions == 3
    lines = bag.pluck(0).map(json.loads).compute(scheduler="sync")
    assert sorted(r["status"] for r in lines) == ["ok"] * 3


def test_bad_batches_are_refused_before_any_work(tmp_path):
    paths = make_files(tmp_path / "in", 2)
    with pytest.raises(ValueError, match="op must be"):
        lsd.batch(paths, "blur", tmp_path / "out")
    with pytest.raises(ValueError, match="radius"):  # the CLI's words: unknown option '--radius'
        lsd.batch(paths, "open", tmp_path / "out", radius=3)
    with pytest.raises(ValueError, match="length"):
        lsd.batch(paths, "open", tmp_path / "out", length=0)
    with pytest.raises(ValueError, match="replace inputs"):
        lsd.batch(paths, "open", tmp_path / "in", root=tmp_path / "in", length=3)
    with pytest.raises(ValueError, match="twice"):
        lsd.batch(paths + paths[:1], "open", tmp_path / "out", length=3)
    assert not (tmp_path / "out").exists()


def test_a_worker_killed_mid_batch_loses_and_duplicates_nothing(client, tmp_path):
    """SIGKILL to the worker process that is computing a file, once some files are done and
    others are not: the cluster (its nanny restarts the worker) reruns the lost task; every
    file is in the manifest once, ok, with the right pixels."""
    paths = make_files(tmp_path / "in", 16, shape=(200, 240))
    out = tmp_path / "out"
    params = dict(length=15, angles="0:180:4", op="open")
    pids = client.run(os.getpid)  # worker address -> pid
    result = {}
    runner = threading.Thread(target=lambda: result.update(
        records=lsd.batch(paths, "sweep", out, scheduler=client, **params)))
    runner.start()
    victim = None
    deadline = time.monotonic() + 60
    while victim is None and time.monotonic() < deadline:
        done = len(lsd.read_manifest(out / lsd.MANIFEST)) if (out / lsd.MANIFEST).is_file() else 0
        busy = [w for w, tasks in client.processing().items() if tasks]
        if done >= 2 and busy:
            done_at_kill = done
            victim = busy[0]
            os.kill(pids[victim], signal.SIGKILL)
        time.sleep(0.01)
    runner.join(timeout=120)
    assert victim is not None, "no worker was busy after two files"
    assert done_at_kill < len(paths), "the batch ended before the kill"
    records = result["records"]
    manifest = check_manifest(out, paths, records)
    assert [r["status"] for r in manifest] == ["ok"] * len(paths)
    workers = {r["worker"] for r in records}
    assert len(workers) >= 2
    # The killed worker finished nothing after the kill: its file went to another worker.
    assert sum(r["worker"].endswith(f":{pids[victim]}") for r in records) <= done_at_kill
    for path, r in zip(paths, manifest):
        sweep = linescope.sweep(read_any(path), **params)
        ext = ".tiff" if sweep.sup.dtype == np.float32 else ".png"
        sup = [o for o in r["outputs"] if o.endswith("supremum" + ext)]
        assert len(sup) == 1 and same_pixels(linescope.imread(str(out / sup[0])), sweep.sup)
    # Every visible file is one record's output, once: a half-written file of the killed
    # worker can only be a hidden temporary.
    visible = sorted(os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out)
                     for f in fs if not f.startswith("."))
    listed = sorted([o for r in manifest for o in r["outputs"]] + [lsd.MANIFEST])
    assert visible == listed
