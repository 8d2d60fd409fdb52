"""Every function against linescope-cli on the same input: the same pixels, bit for bit, and
the same numbers as its JSON (which writes doubles in shortest round-trip form)."""

import json
import os

import numpy as np
import pytest

import linescope
from helpers import random_image, same_pixels
from imagefiles import read_pfm, read_pgm, read_png, write_image

# Angles on both sides of the x-major / y-major split and off the axes; odd and even λ.
WINDOWS = [(0, 9), (30, 15), (45, 4), (100.5, 21), (167, 40)]


def input_file(tmp_path, img, name="in"):
    path = tmp_path / (name + (".pfm" if img.dtype == np.float32 else ".pgm"))
    write_image(path, img)
    return path


def read_output(path):
    path = str(path)
    if path.endswith(".pfm"):
        return read_pfm(path)
    if path.endswith(".pgm"):
        return read_pgm(path)
    if path.endswith(".png"):
        return read_png(path)
    return linescope.imread(path)  # TIFF (float32 sweeps): OpenCV's reader


@pytest.mark.parametrize("op", ["open", "close", "erode", "dilate", "tophat"])
@pytest.mark.parametrize("angle,length", WINDOWS)
def test_line_operators_equal_the_cli(cli, tmp_path, dtype, op, angle, length):
    img = random_image(dtype)
    src = input_file(tmp_path, img)
    out = tmp_path / ("out" + src.suffix)
    cli(op, "--angle", angle, "--length", length, "--backend", "cpu", src, out)
    mine = getattr(linescope, op)(img, angle, length, backend="cpu")
    assert same_pixels(mine, read_output(out))


def test_a_sample_opening_equals_the_cli(cli, samples, tmp_path):
    path = os.path.join(samples, "oriented_texture.png")
    out = tmp_path / "out.png"
    cli("open", "--angle", 30, "--length", 25, path, out)
    assert same_pixels(linescope.open(linescope.imread(path), 30, 25), read_png(out))


@pytest.mark.parametrize("line", ["segment", "periodic"])
@pytest.mark.parametrize("angle,length", [(30, 11), (100.5, 8)])
def test_line_kinds_equal_the_cli(cli, tmp_path, dtype, line, angle, length):
    img = random_image(dtype, shape=(37, 29))
    src = input_file(tmp_path, img)
    out = tmp_path / ("out" + src.suffix)
    cli("close", "--angle", angle, "--length", length, "--line", line, src, out)
    assert same_pixels(linescope.close(img, angle, length, line=line), read_output(out))
    assert not same_pixels(linescope.close(img, angle, length, line=line), linescope.close(img, angle, length))
    sweep_dir = tmp_path / "sweep"
    cli("sweep", "--length", length, "--angles", "0:180:30", "--line", line, src, "--out-dir", sweep_dir)
    ext = "tiff" if dtype == np.float32 else "png"
    assert same_pixels(linescope.sweep(img, length, "0:180:30", line=line).sup, read_output(sweep_dir / f"supremum.{ext}"))
    printed = cli.json("spectrum", "--length", length, "--angles", "0:180:30", "--line", line, src)
    assert linescope.spectrum(img, length, "0:180:30", line=line).spectrum.tolist() == printed["spectrum"]


def test_an_unknown_line_kind_is_refused():
    with pytest.raises(ValueError, match="paths"):
        linescope.open(random_image(np.uint8), 30, 5, line="straight")


@pytest.mark.parametrize("op,angles", [("open", "0:180:1"), ("close", "-10:10.25:0.25"), ("erode", "36"),
                                       ("dilate", "5:95:7.5")])
def test_sweep_equals_the_cli_folder(cli, tmp_path, dtype, op, angles):
    img = random_image(dtype, shape=(41, 30))
    src = input_file(tmp_path, img)
    out = tmp_path / "sweep"
    cli("sweep", "--length", 11, "--angles", angles, "--op", op, "--backend", "cpu", src, "--out-dir", out)
    r = linescope.sweep(img, 11, angles, op, backend="cpu")
    ext = "tiff" if dtype == np.float32 else "png"
    assert same_pixels(r.sup, read_output(out / f"supremum.{ext}"))
    assert same_pixels(r.inf, read_output(out / f"infimum.{ext}"))
    assert same_pixels(r.strength, read_output(out / f"strength.{ext}"))
    assert same_pixels(r.orientation, read_output(out / "orientation-angles.tiff"))
    assert same_pixels(r.colours, read_png(out / "orientation.png"))
    saved = json.loads((out / "spectrum.json").read_text())
    assert (r.op, r.length) == (saved["op"], saved["length"])
    assert r.angles.tolist() == saved["angles"]
    assert r.spectrum.dtype == (np.float64 if dtype == np.float32 else np.int64)
    assert r.spectrum.tolist() == saved["spectrum"]
    assert np.array_equal(r.angles[r.arg_index].astype(np.float32), r.orientation)


def test_sweep_angle_forms_agree(dtype):
    img = random_image(dtype)
    by_text = linescope.sweep(img, 7, "10:40:5")
    by_tuple = linescope.sweep(img, 7, (10, 5, 6))
    by_count = linescope.sweep(img, 7, 12)
    assert by_text.angles.tolist() == by_tuple.angles.tolist()
    for a, b in zip(by_text, by_tuple):
        assert same_pixels(a, b) if isinstance(a, np.ndarray) else a == b
    assert by_count.angles.tolist() == linescope.sweep(img, 7, "12").angles.tolist()


@pytest.mark.parametrize("op,extra", [("open", []), ("close", ["--length", 9, "--angles", "0:180:4"])])
def test_spectrum_equals_the_cli(cli, tmp_path, dtype, op, extra):
    img = random_image(dtype, shape=(48, 40))
    src = input_file(tmp_path, img)
    printed = cli.json("spectrum", "--op", op, *extra, "--peaks", 3, "--min-prominence", 0.05, src)
    kwargs = {"length": extra[1], "angles": extra[3]} if extra else {}
    mine = linescope.spectrum(img, op=op, peaks=3, min_prominence=0.05, **kwargs)
    assert (mine.op, mine.length) == (printed["op"], printed["length"])
    assert mine.angles.tolist() == printed["angles"]
    assert mine.spectrum.tolist() == printed["spectrum"]
    assert [p._asdict() for p in mine.peaks] == printed["peaks"]


@pytest.mark.parametrize("args,kwargs", [([], {}),
                                         (["--block", 12, "--length", 9, "--angle-count", 18, "--smoothing", 0,
                                           "--method", "pixel"],
                                          dict(block=12, length=9, angle_count=18, smoothing=0, method="pixel"))])
def test_orientation_field_equals_the_cli(cli, samples, args, kwargs):
    path = os.path.join(samples, "fingerprint.png")
    printed = cli.json("orientation", *args, path)
    f = linescope.orientation_field(linescope.imread(path), **kwargs)
    for key in ("blocks_x", "blocks_y", "block_size", "length", "angle_count", "smoothing", "method"):
        assert getattr(f, key) == printed[key], key
    assert f.angles.shape == (f.blocks_y, f.blocks_x)
    assert f.angles.ravel().astype(np.float64).tolist() == printed["angles"]
    assert f.coherence.ravel().astype(np.float64).tolist() == printed["coherence"]
    assert f.foreground.ravel().astype(int).tolist() == printed["foreground"]


def test_skew_and_deskew_equal_the_cli(cli, samples, tmp_path):
    page_path = os.path.join(samples, "music_sheet.png")
    out = tmp_path / "deskewed.pgm"
    printed = cli.json("skew", "--deskew", out, page_path)
    page = linescope.imread(page_path)
    s = linescope.skew(page)
    for key, value in printed.items():
        if key not in ("time_ms", "deskewed"):
            assert getattr(s, key) == value, key
    assert same_pixels(linescope.deskew(page, s.angle), read_pgm(out))


def test_skew_options_equal_the_cli(cli, samples, tmp_path, dtype):
    page = linescope.imread(os.path.join(samples, "text_page.png"))[::2, ::2]
    page = page.astype(dtype) * (257 if dtype == np.uint16 else 1)
    src = input_file(tmp_path, page)
    out = tmp_path / ("white" + src.suffix)
    printed = cli.json("skew", "--angles", "-6:6.5:0.5", "--refine-range", 0.5, "--refine-step", 0.1,
                       "--reduction", 1, "--length", 200, "--deskew", out, "--border", "white", src)
    s = linescope.skew(page, angles="-6:6.5:0.5", refine_range=0.5, refine_step=0.1, reduction=1, length=200)
    assert (s.angle, s.confidence, s.length, s.reduction) == (printed["angle"], printed["confidence"],
                                                              printed["length"], printed["reduction"])
    assert same_pixels(linescope.deskew(page, s.angle, border="white"), read_output(out))


@pytest.mark.parametrize("line", ["segment", "periodic"])
def test_skew_of_each_line_kind_equals_the_cli(cli, samples, tmp_path, line):
    page = linescope.imread(os.path.join(samples, "text_page.png"))[::2, ::2]
    src = input_file(tmp_path, page)
    printed = cli.json("skew", "--line", line, "--angles", "-4:4.5:0.5", src)
    s = linescope.skew(page, angles="-4:4.5:0.5", line=line)
    assert (s.angle, s.confidence, s.coarse_angle) == (printed["angle"], printed["confidence"], printed["coarse_angle"])
    paths = linescope.skew(page, angles="-4:4.5:0.5")
    assert s.spectrum.tolist() != paths.spectrum.tolist()  # the kind reaches the engine


@pytest.mark.parametrize("mode", ["external", "list", "ccomp", "tree"])
@pytest.mark.parametrize("approx", ["none", "simple"])
def test_contours_equal_the_cli(cli, samples, tmp_path, mode, approx):
    path = os.path.join(samples, "fingerprint.png")
    out = tmp_path / "contours.json"
    cli("contours", "--threshold", 128, "--mode", mode, "--approx", approx, path, "--json", out)
    saved = json.loads(out.read_text())["contours"]
    found, hierarchy = linescope.contours(linescope.imread(path), mode, approx, threshold=128)
    assert len(found) == len(saved) > 0
    for c, s in zip(found, saved):
        assert c.dtype == np.int32 and c.shape == (len(s["points"]), 1, 2)
        assert c[:, 0, :].tolist() == s["points"]
    assert hierarchy.dtype == np.int32 and hierarchy.shape == (1, len(found), 4)
    assert hierarchy[0, :, 3].tolist() == [s["parent"] for s in saved]


def test_otsu_contours_equal_the_cli(cli, tmp_path, dtype):
    img = random_image(dtype, shape=(60, 50))
    src = input_file(tmp_path, img)
    out = tmp_path / "contours.json"
    cli("contours", "--otsu", src, "--json", out)
    saved = json.loads(out.read_text())
    found, _ = linescope.contours(img, otsu=True)
    assert [c[:, 0, :].tolist() for c in found] == [s["points"] for s in saved["contours"]]
    assert linescope.otsu_threshold(img) == saved["threshold"]
