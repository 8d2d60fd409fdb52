"""The results of linescope's functions: named tuples whose fields are the CLI's outputs."""

from typing import List, NamedTuple

import numpy as _np


class SweepResult(NamedTuple):
    """A sweep's results: the files of ``linescope-cli sweep --out-dir DIR``."""

    sup: _np.ndarray
    """max over the angles of op_k (supremum.png/.tiff), the input's type."""
    inf: _np.ndarray
    """min over the angles of op_k (infimum.png/.tiff), the input's type."""
    strength: _np.ndarray
    """sup − inf (strength.png/.tiff), the input's type."""
    orientation: _np.ndarray
    """float32 degrees: α_k of the smallest k reaching sup (inf for close and dilate), as
    orientation-angles.tiff."""
    arg_index: _np.ndarray
    """uint16: that k, so that ``angles[arg_index]`` is ``orientation`` in float64."""
    colours: _np.ndarray
    """uint8 RGB, shape (H, W, 3): the orientation map (orientation.png, which is stored as
    the file's RGB; OpenCV reads it as BGR). For a GPU array's sweep, like the images above,
    a DeviceArray."""
    spectrum: _np.ndarray
    """σ(k) = Σ_x op_k(x): int64 (exact) for integer images, float64 for float32 ones
    (spectrum.json)."""
    angles: _np.ndarray
    """float64: α_k = start + k·step."""
    op: str
    length: int


class SpectrumPeak(NamedTuple):
    """A dominant orientation: a peak of the spectrum refined by a parabola."""

    angle: float
    """degrees."""
    prominence: float
    """the peak's height over the higher of its two valleys, over the spectrum's range (0 … 1)."""
    index: int
    """k of the sample at the extreme."""


class Spectrum(NamedTuple):
    """The angular spectrum: the JSON of ``linescope-cli spectrum`` (but time_ms)."""

    op: str
    length: int
    angles: _np.ndarray
    """float64 degrees."""
    spectrum: _np.ndarray
    """float64: σ(k) = Σ_x op_k(x)."""
    peaks: List[SpectrumPeak]
    """strongest first: maxima for open and erode, minima for close and dilate."""


class OrientationField(NamedTuple):
    """The block orientation field: the JSON of ``linescope-cli orientation`` (but time_ms),
    each per-block list as a (blocks_y, blocks_x) array."""

    blocks_x: int
    blocks_y: int
    block_size: int
    length: int
    """the λ used."""
    angle_count: int
    smoothing: float
    method: str
    angles: _np.ndarray
    """float32 degrees in [0, 180)."""
    coherence: _np.ndarray
    """float32, 0 … 1: how strongly one orientation stands out in the block."""
    weight: _np.ndarray
    """float32: the block's line contrast in the image's units (the CLI's --csv)."""
    foreground: _np.ndarray
    """bool: the block has lines."""


class Skew(NamedTuple):
    """A page's skew: the JSON of ``linescope-cli skew`` (but time_ms), with the coarse
    spectrum it searched."""

    angle: float
    """degrees, counter-clockwise positive: the angle of the lines."""
    confidence: float
    """0 … 1."""
    dominant: bool
    """confidence ≥ 0.75: the page has a dominant line direction and ``angle`` can be trusted."""
    at_range_edge: bool
    """the extreme is at an end of ``angles``: the lines may lie outside the range."""
    coarse_angle: float
    reduction: int
    length: int
    coarse_length: int
    lines: str
    """"dark" or "bright"."""
    spectrum_angles: _np.ndarray
    """float64: the coarse stage's angles."""
    spectrum: _np.ndarray
    """float64: the coarse stage's spectrum."""
