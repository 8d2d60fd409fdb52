"""Test images and comparisons shared by the suite."""

import numpy as np


def random_image(dtype, shape=(37, 53), seed=7):
    """Noise with runs (so that segments have something to find) in the type's range."""
    rng = np.random.default_rng(seed)
    base = rng.random(shape)
    # Smoothed along rows so that openings and closings differ from the identity.
    base = (base + np.roll(base, 1, axis=1) + np.roll(base, 2, axis=1)) / 3
    if dtype == np.float32:
        return (base * 200 - 50).astype(np.float32)  # negative values too
    top = np.iinfo(dtype).max
    return (base * top).astype(dtype)


def same_pixels(a, b):
    """Equal bit for bit (float -0 and +0 told apart, NaN never equal), shape and type too."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype == np.float32:
        return np.array_equal(a.view(np.uint32), b.view(np.uint32))
    return np.array_equal(a, b)
