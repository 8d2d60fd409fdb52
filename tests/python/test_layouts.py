"""Any memory layout gives the result of the same pixels packed: slices read in place,
transposed, reversed, Fortran-ordered, broadcast, unaligned and read-only arrays."""

import numpy as np
import pytest

import linescope
from helpers import random_image, same_pixels


def layouts(img):
    """(name, a view or copy of some pixels in an unusual layout)."""
    big = np.zeros((img.shape[0] + 9, img.shape[1] * 3 + 5), img.dtype)
    big[4:4 + img.shape[0], 2:2 + img.shape[1]] = img
    yield "rows apart (a crop)", big[4:4 + img.shape[0], 2:2 + img.shape[1]]
    big[4:4 + img.shape[0], 2:2 + 3 * img.shape[1]:3] = img
    yield "columns apart", big[4:4 + img.shape[0], 2:2 + 3 * img.shape[1]:3]
    yield "transposed", np.ascontiguousarray(img.T).T
    yield "Fortran order", np.asfortranarray(img)
    yield "reversed rows", np.ascontiguousarray(img[::-1])[::-1]
    yield "reversed columns", np.ascontiguousarray(img[:, ::-1])[:, ::-1]
    raw = np.zeros(img.size * img.itemsize + 1, np.uint8)
    unaligned = raw[1:].view(img.dtype).reshape(img.shape)
    unaligned[...] = img
    yield "unaligned", unaligned
    readonly = img.copy()
    readonly.flags.writeable = False
    yield "read-only", readonly
    yield "one row", img[3:4]
    yield "one column", img[:, 5:6]


def broadcast_rows(img):
    return np.broadcast_to(img[7], img.shape)


CALLS = {
    "open": lambda a: linescope.open(a, 33, 7),
    "tophat": lambda a: linescope.tophat(a, 120, 5),
    "sweep": lambda a: linescope.sweep(a, 5, "0:180:15"),
    "spectrum": lambda a: linescope.spectrum(a, 5, 12).spectrum,
    "orientation": lambda a: linescope.orientation_field(a, block=8),
    "deskew": lambda a: linescope.deskew(a, 3.5),
    "contours": lambda a: linescope.contours(a, "ccomp", "simple", threshold=float(np.median(a))),
}


def same_results(a, b):
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_results(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return same_pixels(a, b)
    return a == b


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_every_layout_equals_the_packed_image(dtype, call):
    img = random_image(dtype, shape=(29, 34))
    for name, arranged in layouts(img):
        packed = np.ascontiguousarray(arranged)
        assert np.array_equal(packed, arranged)
        assert same_results(call(arranged), call(packed)), name


def test_broadcast_rows_equal_the_packed_image(dtype):
    arranged = broadcast_rows(random_image(dtype, shape=(29, 34)))
    assert same_pixels(linescope.open(arranged, 80, 9), linescope.open(np.ascontiguousarray(arranged), 80, 9))


def test_a_crop_is_read_in_place_and_left_alone(dtype):
    img = random_image(dtype, shape=(40, 50))
    before = img.copy()
    crop = img[5:35, 10:45]
    assert not crop.flags.c_contiguous
    assert same_pixels(linescope.close(crop, 10, 6), linescope.close(crop.copy(), 10, 6))
    assert same_pixels(img, before)


def test_bool_masks_are_contours_of_their_true_pixels():
    img = random_image(np.uint8, shape=(40, 50))
    mask = img > 120
    by_mask = linescope.contours(mask, "tree")
    by_bytes = linescope.contours(mask.astype(np.uint8) * 255, "tree")
    assert same_results(by_mask, by_bytes)
