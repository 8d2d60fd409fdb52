"""imread and imwrite (app/io, the CLI's reader and writer) against files written and read
here without OpenCV; the package's own surface."""

import warnings

import numpy as np
import pytest

import linescope
from helpers import random_image, same_pixels
from imagefiles import read_pfm, read_pgm, write_image


def test_imread_reads_what_was_written(tmp_path, dtype):
    img = random_image(dtype)
    path = tmp_path / ("in.pfm" if dtype == np.float32 else "in.pgm")
    write_image(path, img)
    assert same_pixels(linescope.imread(path), img)
    assert same_pixels(linescope.imread(str(path)), img)


def test_imwrite_writes_what_is_read_elsewhere(tmp_path, dtype):
    img = random_image(dtype)[::2, 1::3]  # strided
    path = tmp_path / ("out.pfm" if dtype == np.float32 else "out.pgm")
    linescope.imwrite(path, img)
    assert same_pixels((read_pfm if dtype == np.float32 else read_pgm)(path), img)
    linescope.imwrite(tmp_path / "out.tiff", img)
    assert same_pixels(linescope.imread(tmp_path / "out.tiff"), img)


def test_colour_files_become_grey_with_the_cli_note(tmp_path):
    rgb = np.dstack([random_image(np.uint8, seed=s) for s in (1, 2, 3)])
    path = tmp_path / "colour.ppm"
    with open(path, "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (rgb.shape[1], rgb.shape[0]) + rgb.tobytes())
    with pytest.warns(UserWarning, match="is a colour image: converted to grayscale"):
        grey = linescope.imread(path)
    assert grey.shape == rgb.shape[:2] and grey.dtype == np.uint8


def test_files_that_cannot_be_read_or_written_raise_os_error(tmp_path):
    with pytest.raises(OSError, match="no such file"):
        linescope.imread(tmp_path / "missing.png")
    with pytest.raises(OSError, match="float32"):
        linescope.imwrite(tmp_path / "x.png", np.zeros((3, 3), np.float32))


def test_results_are_new_writable_arrays(dtype):
    img = random_image(dtype)
    out = linescope.open(img, 10, 5)
    assert out is not img and out.flags.writeable and out.flags.c_contiguous and out.dtype == img.dtype
    sweep = linescope.sweep(img, 5, 4)
    for field in ("sup", "inf", "strength", "orientation", "arg_index", "colours"):
        a = getattr(sweep, field)
        assert a.flags.writeable and a.flags.c_contiguous and a.shape[:2] == img.shape, field
    sweep.sup[0, 0] = 0  # the arrays own their memory: writing one leaves the others alone
    assert same_pixels(sweep.inf, linescope.sweep(img, 5, 4).inf)


def test_public_names_are_documented():
    for name in linescope.__all__:
        obj = getattr(linescope, name)
        if callable(obj) and name != "Error":
            assert obj.__doc__ and len(obj.__doc__) > 40, name
    assert linescope.open.__name__ == "open" and "linescope-cli open" in linescope.open.__doc__
    assert isinstance(linescope.__version__, str) and linescope.__version__


def test_no_warning_on_a_plain_call():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        linescope.sweep(random_image(np.uint8), 5, 8)
