"""Bad input raises TypeError, ValueError or RuntimeError with the command line's message:
each case runs the CLI on the same input and compares the sentences, the option "--name"
standing for the keyword "name" and quotes aside."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

import linescope
from helpers import random_image
from imagefiles import write_image

IMG = random_image(np.uint8)
NAN_IMG = random_image(np.float32)
NAN_IMG[5, 11] = np.nan


def as_python_words(cli_message):
    """--min-prominence → min_prominence, and no quotes (the CLI quotes what it parsed)."""
    words = re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), cli_message)
    return words.replace("'", "")


def cli_error(cli_path, args):
    done = subprocess.run([cli_path, *map(str, args)], capture_output=True, text=True)
    assert done.returncode != 0, f"linescope-cli {args} succeeded"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("linescope-cli: error: "), done.stderr
    return lines[0][len("linescope-cli: error: "):]


# (name, the Python call, the CLI's arguments with IN for the input and OUT for an output,
#  the input image, the exception)
CASES = [
    ("NaN pixels", lambda: linescope.open(NAN_IMG, 0, 3), ["open", "--length", 3, "IN", "OUT"], NAN_IMG, ValueError),
    ("λ < 1", lambda: linescope.erode(IMG, 0, 0), ["erode", "--length", 0, "IN", "OUT"], IMG, ValueError),
    ("λ too long", lambda: linescope.close(IMG, 0, 1_000_001), ["close", "--length", 1_000_001, "IN", "OUT"], IMG,
     ValueError),
    ("λ not whole", lambda: linescope.open(IMG, 0, 1.5), ["open", "--length", 1.5, "IN", "OUT"], IMG, TypeError),
    ("angle NaN", lambda: linescope.open(IMG, float("nan"), 3), ["open", "--angle", "nan", "--length", 3, "IN", "OUT"],
     IMG, ValueError),
    ("too many angles", lambda: linescope.sweep(IMG, 3, "0:180:0.1"),
     ["sweep", "--length", 3, "--angles", "0:180:0.1", "IN", "--out-dir", "OUT"], IMG, ValueError),
    ("bad angle text", lambda: linescope.sweep(IMG, 3, "0:x:1"),
     ["sweep", "--length", 3, "--angles", "0:x:1", "IN", "--out-dir", "OUT"], IMG, ValueError),
    ("sweep of tophat", lambda: linescope.sweep(IMG, 3, op="tophat"),
     ["sweep", "--length", 3, "--op", "tophat", "IN", "--out-dir", "OUT"], IMG, ValueError),
    ("no peaks", lambda: linescope.spectrum(IMG, peaks=0), ["spectrum", "--peaks", 0, "IN"], IMG, ValueError),
    ("prominence over 1", lambda: linescope.spectrum(IMG, min_prominence=2),
     ["spectrum", "--min-prominence", 2, "IN"], IMG, ValueError),
    ("one orientation angle", lambda: linescope.orientation_field(IMG, angle_count=1),
     ["orientation", "--angle-count", 1, "IN"], IMG, ValueError),
    ("orientation angles over the limit", lambda: linescope.orientation_field(IMG, angle_count=721),
     ["orientation", "--angle-count", 721, "IN"], IMG, ValueError),
    ("orientation method", lambda: linescope.orientation_field(IMG, method="x"),
     ["orientation", "--method", "x", "IN"], IMG, ValueError),
    ("block 0", lambda: linescope.orientation_field(IMG, block=0), ["orientation", "--block", 0, "IN"], IMG,
     ValueError),
    ("smoothing", lambda: linescope.orientation_field(IMG, smoothing=-1), ["orientation", "--smoothing", -1, "IN"],
     IMG, ValueError),
    ("fine skew angles", lambda: linescope.skew(IMG, refine_step=0.0001, refine_range=10),
     ["skew", "--refine-step", 0.0001, "--refine-range", 10, "IN"], IMG, ValueError),
    ("skew reduction", lambda: linescope.skew(IMG, reduction=65), ["skew", "--reduction", 65, "IN"], IMG, ValueError),
    ("page too small", lambda: linescope.skew(IMG[:6, :6], reduction=1), ["skew", "--reduction", 1, "IN"], IMG[:6, :6],
     ValueError),
    ("deskew border", lambda: linescope.deskew(IMG, 1, border="x"), ["skew", "--border", "x", "IN"], IMG, ValueError),
    ("backend", lambda: linescope.open(IMG, 0, 3, backend="gpu"), ["open", "--length", 3, "--backend", "gpu", "IN", "OUT"],
     IMG, ValueError),
    ("algorithm", lambda: linescope.open(IMG, 0, 3, algorithm="x"),
     ["open", "--length", 3, "--algorithm", "x", "IN", "OUT"], IMG, ValueError),
    ("threads", lambda: linescope.open(IMG, 0, 3, threads=5000), ["open", "--length", 3, "--threads", 5000, "IN", "OUT"],
     IMG, ValueError),
    ("contour mode", lambda: linescope.contours(IMG, "x"), ["contours", "--threshold", 0, "--mode", "x", "IN"], IMG,
     ValueError),
    ("contour approx", lambda: linescope.contours(IMG, approx="x"),
     ["contours", "--threshold", 0, "--approx", "x", "IN"], IMG, ValueError),
    ("threshold NaN", lambda: linescope.contours(IMG, threshold=float("nan")), ["contours", "--threshold", "nan", "IN"],
     IMG, ValueError),
]


@pytest.mark.parametrize("name,call,args,img,error", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_the_cli_message(cli, tmp_path, name, call, args, img, error):
    src = tmp_path / ("in.pfm" if img.dtype == np.float32 else "in.pgm")
    write_image(src, img)
    args = [src if a == "IN" else tmp_path / ("out" + src.suffix) if a == "OUT" else a for a in args]
    expected = as_python_words(cli_error(os.environ["LINESCOPE_CLI"], args))
    with pytest.raises(error) as raised:
        call()
    assert as_python_words(str(raised.value)) == expected


@pytest.mark.skipif(linescope.resolve_backend() == "cuda", reason="this machine has a usable GPU")
def test_cuda_where_there_is_none_says_why(cli, tmp_path):
    src = tmp_path / "in.pgm"
    write_image(src, IMG)
    expected = cli_error(os.environ["LINESCOPE_CLI"], ["open", "--length", 3, "--backend", "cuda", src, tmp_path / "o.pgm"])
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        linescope.open(IMG, 0, 3, backend="cuda")
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        linescope.resolve_backend("cuda")
    # auto runs on the CPU, as the CLI does (which says so in a note).
    assert np.array_equal(linescope.open(IMG, 0, 3), linescope.open(IMG, 0, 3, backend="cpu"))


@pytest.mark.parametrize("bad", [np.int32, np.int16, np.float64, np.int8, np.complex64, ">u2"])
def test_unsupported_pixel_types_raise_type_error(bad):
    img = IMG.astype(bad)
    message = f"the image has {img.dtype} pixels, which LineScope does not support (use uint8, uint16 or float32)"
    for call in (lambda: linescope.open(img, 0, 3), lambda: linescope.sweep(img, 3), lambda: linescope.skew(img),
                 lambda: linescope.orientation_field(img), lambda: linescope.deskew(img, 1),
                 lambda: linescope.spectrum(img), lambda: linescope.otsu_threshold(img)):
        with pytest.raises(TypeError, match=re.escape(message)):
            call()


@pytest.mark.parametrize("shape", [(4, 5, 3), (20,), (), (2, 3, 4, 1)])
def test_images_that_are_not_2d_raise_value_error(shape, dtype):
    img = np.zeros(shape, dtype)
    with pytest.raises(ValueError, match=rf"^the image has {len(shape)} dimensions \(shape "):
        linescope.open(img, 0, 3)
    with pytest.raises(ValueError, match=rf"^the image has {len(shape)} dimensions"):
        linescope.contours(img.astype(np.uint8))


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (0, 0)])
def test_empty_images_raise_value_error(shape, dtype):
    img = np.zeros(shape, dtype)
    for call in (lambda: linescope.open(img, 0, 3), lambda: linescope.sweep(img, 3, 4), lambda: linescope.skew(img),
                 lambda: linescope.contours(img, threshold=0), lambda: linescope.deskew(img, 1)):
        with pytest.raises(ValueError, match="^the image is empty$"):
            call()


def test_values_that_are_not_images_raise_type_error():
    with pytest.raises(TypeError, match="pixels, which LineScope does not support"):
        linescope.open([[1.5, 2.5], [3.5, 4.5]], 0, 3)  # a list becomes float64
    with pytest.raises(TypeError, match="pixels, which LineScope does not support"):
        linescope.open("an image", 0, 3)


def test_length_is_required_as_by_the_cli():
    with pytest.raises(TypeError, match="needs length"):
        linescope.open(IMG, 30)


def test_contour_arguments():
    with pytest.raises(ValueError, match="not both"):
        linescope.contours(IMG, threshold=3, otsu=True)
    with pytest.raises(TypeError, match="give threshold=T or otsu=True"):
        linescope.contours(IMG.astype(np.uint16))


def test_engine_errors_are_linescope_errors():
    with pytest.raises(linescope.Error, match="NaN"):
        linescope.sweep(NAN_IMG, 3)


def test_the_bad_input_corpus_never_crashes(tmp_path):
    # The corpus of tests/badinput through imread and, for what it reads, every operation:
    # each file either works or raises one of the documented exceptions; a crash or a signal
    # fails the run, naming the file it was on.
    generator = os.environ.get("LINESCOPE_BAD_INPUTS_GENERATOR")
    if not generator:
        pytest.skip("LINESCOPE_BAD_INPUTS_GENERATOR is not set (CTest sets it)")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    subprocess.run([generator, corpus], check=True, capture_output=True)
    script = r"""
import os, resource, sys, warnings
import linescope
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
warnings.simplefilter("ignore")
for name in sorted(os.listdir(sys.argv[1])):
    print(ascii(name), flush=True)
    try:
        img = linescope.imread(os.path.join(sys.argv[1], name))
        small = img[:64, :64]
        linescope.open(small, 30, 9)
        linescope.sweep(small, 5, 12)
        linescope.contours(small, otsu=True)
        linescope.orientation_field(small, block=8)
        linescope.skew(img[:512, :512])
    except (OSError, ValueError, TypeError) as e:
        assert str(e) and "\n" not in str(e).strip(), repr(e)
print("done", flush=True)
"""
    done = subprocess.run([sys.executable, "-c", script, corpus], capture_output=True, text=True, errors="replace",
                          timeout=600)
    last = done.stdout.strip().splitlines()[-1:] or ["(none)"]
    assert done.returncode == 0 and last == ["done"], f"stopped at {last[0]}: status {done.returncode}, {done.stderr}"
