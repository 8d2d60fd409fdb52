"""The module against design.md §1 written out in plain Python on small images: line paths
by the fixed-point slope, erosion and dilation over the segment's offsets, the sweep's
supremum, infimum, first arg and spectrum. Slow, but independent of the engine."""

import math
from collections import defaultdict

import numpy as np
import pytest

import linescope
from helpers import random_image, same_pixels


def fixed_slope(angle):
    """S = llround(s · 65536), s = −tan α (x-major) or −cot α (y-major); and which major."""
    a = math.fmod(angle, 180.0)
    if a < 0:
        a += 180.0
    x_major = a <= 45 or a >= 135
    r = a * math.pi / 180
    s = -math.tan(r) if x_major else -math.cos(r) / math.sin(r)
    v = s * 65536
    return int(math.copysign(math.floor(abs(v) + 0.5), v)), x_major


def lines(shape, angle):
    """The digital lines of the angle: lists of (y, x), in order of the major coordinate."""
    h, w = shape
    S, x_major = fixed_slope(angle)
    off = lambda t: (t * S + (1 << 15)) >> 16  # Python's >> floors, as the definition's shift
    groups = defaultdict(list)
    if x_major:
        for x in range(w):
            for y in range(h):
                groups[y - off(x)].append((y, x))
    else:
        for y in range(h):
            for x in range(w):
                groups[x - off(y)].append((y, x))
    return groups.values()


def line_operator(img, op, angle, length):
    a = (length - 1) // 2
    b = length - 1 - a
    offsets = range(-a, b + 1)

    def erode(f):
        return [min(f[c + k] for k in offsets if 0 <= c + k < len(f)) for c in range(len(f))]

    def dilate(f):
        return [max(f[c - k] for k in offsets if 0 <= c - k < len(f)) for c in range(len(f))]

    steps = {"erode": [erode], "dilate": [dilate], "open": [erode, dilate], "close": [dilate, erode]}[op]
    out = img.copy()
    for path in lines(img.shape, angle):
        f = [img[p] for p in path]
        for step in steps:
            f = step(f)
        for p, v in zip(path, f):
            out[p] = v
    return out


@pytest.mark.parametrize("op", ["erode", "dilate", "open", "close"])
@pytest.mark.parametrize("angle,length", [(0, 5), (17.5, 6), (45, 3), (63, 8), (90, 4), (135, 7), (151, 9)])
def test_line_operators_follow_the_definition(dtype, op, angle, length):
    img = random_image(dtype, shape=(13, 17), seed=3)
    assert same_pixels(getattr(linescope, op)(img, angle, length, backend="cpu"),
                       line_operator(img, op, angle, length))


def test_tophat_is_the_image_minus_its_opening(dtype):
    img = random_image(dtype, shape=(13, 17), seed=4)
    assert same_pixels(linescope.tophat(img, 70, 5), img - line_operator(img, "open", 70, 5))


@pytest.mark.parametrize("op", ["open", "close"])
def test_sweep_follows_the_definition(dtype, op):
    img = random_image(dtype, shape=(12, 15), seed=5)
    start, step, count = 3.0, 29.0, 6
    stack = np.stack([line_operator(img, op, start + k * step, 5) for k in range(count)])
    r = linescope.sweep(img, 5, (start, step, count), op, backend="cpu")
    assert same_pixels(r.sup, stack.max(axis=0))
    assert same_pixels(r.inf, stack.min(axis=0))
    assert same_pixels(r.strength, stack.max(axis=0) - stack.min(axis=0))
    # The smallest k reaching the supremum (the infimum for closings): argmax/argmin's rule.
    first = stack.argmax(axis=0) if op == "open" else stack.argmin(axis=0)
    assert np.array_equal(r.arg_index, first.astype(np.uint16))
    assert np.array_equal(r.orientation, (start + first * step).astype(np.float32))
    sums = stack.reshape(count, -1).astype(np.float64 if dtype == np.float32 else np.int64).sum(axis=1)
    if dtype == np.float32:
        assert np.allclose(r.spectrum, sums, rtol=1e-12, atol=0)  # a summing order of its own
    else:
        assert r.spectrum.tolist() == sums.tolist()
