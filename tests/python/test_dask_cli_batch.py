"""linescope.dask's batches against linescope-cli batch on the same folder and command: the
same output files, byte for byte (JSON that carries time_ms compared without it), and the
same manifest records (every field but time_ms); and each resumes the other's manifest.
Both run app/cli's code for an input; these tests hold the Python side's planning, options
and naming to the CLI's.
"""

import json
import os
import subprocess

import numpy as np
import pytest

pytest.importorskip("dask")

import linescope  # noqa: E402
import linescope.dask as lsd  # noqa: E402
from helpers import random_image  # noqa: E402
from imagefiles import write_image  # noqa: E402

# (command, its options as Python parameters); cli_options gives the CLI's words.
CASES = [
    ("open", dict(angle=30, length=9)),
    ("tophat", dict(angle=100.5, length=6)),
    ("sweep", dict(length=7, angles="0:180:30", op="close")),
    ("skew", dict(angles="-5:5.5:0.5", deskew=".deskewed.png")),
    ("spectrum", dict(length=9, angles="0:180:10")),
    ("orientation", dict(block=16, csv=".blocks.csv")),
    ("contours", dict(otsu=True, mode="tree", json=".contours.json", svg=".contours.svg")),
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """in/ with every pixel type in PNG, TIFF, PGM and PFM, in two subfolders, and a file
    that is not an image; the working directory is tmp_path, so that inputs are spelled
    in/… by both."""
    root = tmp_path / "in"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    linescope.imwrite(str(root / "a" / "p8.png"), random_image(np.uint8, (48, 64), seed=1))
    linescope.imwrite(str(root / "a" / "p16.png"), random_image(np.uint16, (40, 56), seed=2))
    linescope.imwrite(str(root / "b" / "f32.tiff"), random_image(np.float32, (36, 50), seed=3))
    write_image(root / "b" / "g8.pgm", random_image(np.uint8, (30, 44), seed=4))
    write_image(root / "b" / "g32.pfm", random_image(np.float32, (32, 40), seed=5))
    (root / "b" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def cli_batch(out, command, params):
    path = os.environ.get("LINESCOPE_CLI")
    if not path:
        pytest.skip("LINESCOPE_CLI is not set (CTest sets it)")
    done = subprocess.run([path, "batch", "--inputs", "in", "--out-dir", out, command,
                           *lsd.cli_options(**params)], capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr  # 1: the broken file failed
    return lsd.read_manifest(os.path.join(out, lsd.MANIFEST))


TIMES = ("time_ms", "timings_ms")


def without_time(record):
    return {k: v for k, v in record.items() if k not in TIMES}


def same_file(a, b):
    """Byte-equal, or for JSON with a time in it, equal but for the time. A file that names
    another output (skew's "deskewed") names it in its own folder: compared as if both
    folders had one name."""
    da, db = open(a, "rb").read().replace(b"cli-out/", b"OUT/"), open(b, "rb").read().replace(b"dask-out/", b"OUT/")
    if da == db:
        return True
    if a.endswith(".json"):
        ja, jb = json.loads(da), json.loads(db)
        return isinstance(ja, dict) and any(t in ja for t in TIMES) and without_time(ja) == without_time(jb)
    return False


@pytest.mark.parametrize("command,params", CASES, ids=[c for c, _ in CASES])
def test_outputs_and_manifest_equal_the_cli_batch(folder, command, params):
    cli = cli_batch("cli-out", command, params)
    records = lsd.batch("in", command, "dask-out", scheduler="threads", **params)
    dask = lsd.read_manifest(os.path.join("dask-out", lsd.MANIFEST))
    assert len(cli) == len(dask) == len(records) == 6
    by_input = {r["input"]: r for r in cli}
    assert sorted(by_input) == sorted(r["input"] for r in dask)
    for r in dask:
        c = by_input[r["input"]]
        assert list(r) == list(c)  # the same fields in the same order
        # An error names the output folder: compared as if both had one name.
        assert json.dumps(without_time(r)).replace("dask-out/", "OUT/") == \
            json.dumps(without_time(c)).replace("cli-out/", "OUT/"), r["input"]
        fails = r["input"].endswith("broken.png") or (command == "skew" and "32" in r["input"])
        assert r["status"] == ("failed" if fails else "ok"), r  # skew: a float32 page as .png
        for o in r["outputs"]:
            assert same_file(os.path.join("cli-out", o), os.path.join("dask-out", o)), o
    # The records returned are the manifest's lines with the worker added.
    lines = {r["input"]: r for r in dask}
    assert [{k: v for k, v in r.items() if k != "worker"} for r in records] == [lines[r["input"]] for r in records]
    # No other file in either folder.
    for out, manifest in (("cli-out", cli), ("dask-out", dask)):
        listed = sorted([o for r in manifest for o in r["outputs"]] + [lsd.MANIFEST])
        found = sorted(os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out) for f in fs)
        assert found == listed


def test_names_follow_the_cli(folder):
    """The outputs' names, spelled out: images keep a lossless extension that holds their type,
    a sweep is a folder NAME/, what a command prints is NAME.COMMAND.json."""
    open_ = {r["input"]: r["outputs"] for r in lsd.batch("in", "open", "o1", length=3)}
    assert open_["in/a/p8.png"] == ["a/p8.png"]
    assert open_["in/b/f32.tiff"] == ["b/f32.tiff"]
    assert open_["in/b/g32.pfm"] == ["b/g32.pfm"]
    sweep = {r["input"]: r["outputs"] for r in lsd.batch("in", "sweep", "o2", length=3, angles=4)}
    assert sweep["in/a/p16.png"][0] == "a/p16/supremum.png"
    assert sweep["in/b/f32.tiff"][-1] == "b/f32/manifest.json"
    skew = {r["input"]: r["outputs"] for r in lsd.batch("in", "skew", "o3")}
    assert skew["in/a/p8.png"] == ["a/p8.skew.json"]


@pytest.mark.parametrize("first", ["cli", "dask"])
def test_each_resumes_the_others_manifest(folder, first):
    command, params = "close", dict(angle=45, length=5)
    if first == "cli":
        cli_batch("out", command, params)
    else:
        lsd.batch("in", command, "out", scheduler="sync", **params)
    stamps = {f: os.stat(os.path.join("out", f)).st_mtime_ns for f in ("a/p8.png", "b/g32.pfm")}
    if first == "cli":
        lsd.batch("in", command, "out", scheduler="sync", **params)
    else:
        cli_batch("out", command, params)
    manifest = lsd.read_manifest(os.path.join("out", lsd.MANIFEST))
    assert len(manifest) == 12
    second = {r["input"]: r["status"] for r in manifest[6:]}
    assert second.pop("in/b/broken.png") == "failed"  # failed ones are tried again
    assert set(second.values()) == {"skipped"}
    assert {f: os.stat(os.path.join("out", f)).st_mtime_ns for f in stamps} == stamps
