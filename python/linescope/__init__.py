"""LineScope's engine for Python: linear morphology by digital line segments.

The same engine as ``linescope-cli`` and the desktop window, with the command line's names
and defaults, so that every result equals the CLI's bit for bit::

    import linescope
    img = linescope.imread("page.png")             # or any 2-D NumPy array
    out = linescope.open(img, angle=30, length=15)  # = linescope-cli open --angle 30 --length 15

Images are 2-D NumPy arrays of uint8, uint16 or float32 (C-contiguous or strided: rows that
are contiguous and aligned are read in place, other layouts are copied once), or any array
that NumPy takes through DLPack. Results are new arrays of the input's type.

GPU arrays (CuPy, PyTorch and anything else with ``__dlpack__`` or
``__cuda_array_interface__``) are taken by every function, and give the same numbers bit for
bit as the same call on a NumPy copy. ``open``, ``close``, ``erode``, ``dilate``, ``tophat``,
``sweep``, ``spectrum`` and ``contours`` read them in place on the CUDA engine; the others
start with a stage that runs on the host (a Gaussian, a page reduction, OpenCV's rotation), so
they copy the array to host memory once, after the producer's queued work, and go on there
with the backend asked for. Images come back as ``DeviceArray``, which ``torch.from_dlpack``
and ``cupy.asarray`` read in place too (``.get()`` copies one to NumPy); numbers, lists and
per-block fields come back as for NumPy input. Results are complete when returned::

    t = torch.from_dlpack(linescope.open(torch_tensor_on_gpu, angle=30, length=15))

Every function releases the GIL while the engine computes and may be called from several
threads at once.

Bad input raises ``TypeError`` (a pixel type LineScope does not take, a parameter of the
wrong type) or ``ValueError`` (the shape, NaN pixels, an out-of-range parameter) with the
CLI's message; the engine's own errors are ``linescope.Error``, a ``ValueError``. Asking for
``backend="cuda"`` where no GPU is usable raises ``RuntimeError``; ``"auto"`` (the default)
then runs on the CPU.

Angles are degrees counter-clockwise from East as seen on screen (y down), taken modulo 180
for lines; the definitions are in docs/definitions.md.

Many files, or one image too large to handle whole, on Dask (threads, processes or a
cluster): ``import linescope.dask`` (needs python3-dask; see its docstring).
"""

import os as _os
import warnings as _warnings

import numpy as _np

from . import _linescope
from ._results import OrientationField, Skew, Spectrum, SpectrumPeak, SweepResult
from ._linescope import Error

__version__ = _linescope.__version__

__all__ = [
    "Error", "DeviceArray", "open", "close", "erode", "dilate", "tophat", "sweep", "SweepResult", "spectrum",
    "Spectrum", "SpectrumPeak", "orientation_field", "OrientationField", "skew", "Skew", "deskew",
    "contours", "otsu_threshold", "imread", "imwrite", "resolve_backend", "backend_note",
    "MAX_SWEEP_ANGLES",
]

#: A result in GPU memory (the functions' answer to a GPU array); None without CUDA.
DeviceArray = getattr(_linescope, "DeviceArray", None)

_DLPACK_CPU, _DLPACK_CUDA, _DLPACK_CUDA_MANAGED = 1, 2, 13


def _dlpack_device_type(img):
    """The DLPack device type of ``img``, or None when it does not say."""
    device = getattr(img, "__dlpack_device__", None)
    if device is None:
        return None
    try:
        return int(device()[0])
    except Exception:  # a __dlpack_device__ that fails says nothing
        return None


def _on_gpu(img):
    """Whether ``img`` is an array in GPU memory (DLPack's CUDA devices, or the CUDA array interface)."""
    kind = _dlpack_device_type(img)
    if kind is not None:
        return kind in (_DLPACK_CUDA, _DLPACK_CUDA_MANAGED)
    return hasattr(img, "__cuda_array_interface__")


def _host(img):
    """A host DLPack array that is not NumPy's (a CPU PyTorch tensor, JAX) as a NumPy view."""
    if (not isinstance(img, _np.ndarray) and _dlpack_device_type(img) == _DLPACK_CPU
            and hasattr(_np, "from_dlpack")):
        return _np.from_dlpack(img)
    return img


def _host_copy(img, allow_bool=False):
    """A GPU array copied once into a new NumPy array (on the engine's stream, after the
    producer's queued work); any other array as ``_host`` gives it."""
    if _on_gpu(img):
        return _device_function("device_download")(img, allow_bool)
    return _host(img)


def _device_function(name):
    """The CUDA module's function for GPU arrays, or a RuntimeError saying why there is none."""
    f = getattr(_linescope, name, None)
    if f is None:
        raise RuntimeError("this linescope was built without CUDA, so it cannot take GPU arrays "
                           "(copy the array to the host first: a.get(), t.cpu())")
    return f


#: The most angles a sweep, a spectrum or a skew search takes (as the CLI).
MAX_SWEEP_ANGLES = _linescope.MAX_SWEEP_ANGLES

_ENGINE_DOC = """
    backend: "auto" (CUDA when usable, else the CPU), "cpu" or "cuda" (RuntimeError where
        no GPU is usable).
    algorithm: "auto", "sheared", "vhgw", "fifo", "stack" or "reference"; all give the
        same pixels (the CLI's --algorithm).
    threads: CPU worker threads, 0 = one per core (the CLI's --threads)."""


def _documented(doc):
    def wrap(f):
        f.__doc__ = doc.replace("{engine}", _ENGINE_DOC)
        return f
    return wrap


_MORPH_DOC = """{what} of ``img`` by a digital line segment (``linescope-cli {op}``).

    Applied along the digital line paths of the angle (docs/definitions.md): the segment
    has ``length`` pixels (1 … 1000000; longer than the image is allowed, the border is
    ignored) and points at ``angle`` degrees, counter-clockwise from East, modulo 180.

    img: 2-D array of uint8, uint16 or float32 (no NaN).
    angle: degrees, any finite number (default 0).
    length: λ, required.
    line: the digital line, "paths" (default), "segment" (the 2-D kernel OpenCV's
        morphologyEx uses) or "periodic" (``--line``).{{engine}}

    Returns a new array of ``img``'s shape and type. A GPU array is read in place on the CUDA
    engine (backend "auto" or "cuda"), and the result is a DeviceArray.
    """


def _line_operator(op, what):
    """The function of one line operator: the five differ only in their name."""

    @_documented(_MORPH_DOC.format(what=what, op=op))
    def operator(img, angle=0.0, length=None, *, line="paths", backend="auto", algorithm="auto", threads=0):
        if length is None:
            # As the CLI, which needs --length; the angle has a default, the length none.
            raise TypeError(f"{op}() needs length (the segment's length in pixels, λ ≥ 1)")
        if _on_gpu(img):
            return _device_function("device_morph")(op, img, angle, length, line, backend, algorithm)
        return _linescope.morph(op, _host(img), angle, length, line, backend, algorithm, threads)

    operator.__name__ = operator.__qualname__ = op
    return operator


open = _line_operator("open", "The opening (erosion then dilation)")
close = _line_operator("close", "The closing (dilation then erosion)")
erode = _line_operator("erode", "The erosion (minimum over the segment)")
dilate = _line_operator("dilate", "The dilation (maximum over the segment)")
tophat = _line_operator("tophat", "The top-hat (``img`` minus its opening)")


def _angles_doc(default):
    return f"""angles: the CLI's text, "start:stop:step" with stop excluded (default
        "{default}") or "N" (N angles over 180°); a whole number N (the same); or a
        (start, step, count) tuple. At most MAX_SWEEP_ANGLES angles."""


@_documented(f"""The sweep of one operator over a set of angles (``linescope-cli sweep``).

    img: 2-D array of uint8, uint16 or float32 (no NaN).
    length: λ of the segment, 1 … 1000000.
    {_angles_doc("0:180:1")}
    op: "open" (default), "close", "erode" or "dilate".
    line: "paths" (default), "segment" or "periodic" (``--line``).{{engine}}

    Returns a SweepResult. For a GPU array the sweep runs on the CUDA engine from the array in
    place (every kind of line; ``algorithm`` and ``threads`` do not apply) and its images are
    DeviceArrays, ``colours`` too: a (H, W, 3) uint8 DeviceArray, coloured on the device, of
    the same bytes as a host array's colours.
    """)
def sweep(img, length, angles="0:180:1", op="open", *, line="paths", backend="auto", algorithm="auto", threads=0):
    if _on_gpu(img):
        return SweepResult(**_device_function("device_sweep")(img, length, angles, op, line, backend))
    return SweepResult(**_linescope.sweep(_host(img), length, angles, op, line, backend, algorithm, threads))


@_documented(f"""The angular spectrum and its dominant orientations (``linescope-cli spectrum``).

    Bright strokes on a dark ground: op="open" (default); dark strokes on a light ground:
    op="close".

    img: 2-D array of uint8, uint16 or float32 (no NaN).
    length: λ (default None: a quarter of the image's smaller side).
    {_angles_doc("0:180:1")}
    op: "open", "close", "erode" or "dilate".
    peaks: at most this many peaks, 1 … 100 (default 4).
    min_prominence: peaks below it are left out, 0 … 1 (default 0.1).
    line: "paths" (default), "segment" or "periodic" (``--line``).{{engine}}

    Returns a Spectrum. A GPU array is swept on the CUDA engine in place, as by ``sweep``.
    """)
def spectrum(img, length=None, angles="0:180:1", op="open", *, peaks=4, min_prominence=0.1,
             line="paths", backend="auto", algorithm="auto", threads=0):
    if _on_gpu(img):
        d = _device_function("device_spectrum")(img, length, angles, op, peaks, min_prominence, line, backend)
    else:
        d = _linescope.spectrum(_host(img), length, angles, op, peaks, min_prominence, line, backend, algorithm,
                                threads)
    d["peaks"] = [SpectrumPeak(*p) for p in d["peaks"]]
    return Spectrum(**d)


@_documented("""The orientation of the lines per block (``linescope-cli orientation``).

    For fingerprint ridges and hatching: per block and angle, the closing minus the opening
    by the segment, summed over the block, is small along the lines and large across them.

    img: 2-D array of uint8, uint16 or float32 (no NaN).
    block: the block size in pixels, 1 … 4096 (default 16).
    length: λ, a Euclidean length (default None: 9, about one ridge period at 500 dpi).
    angle_count: angles over 180°, 2 … MAX_SWEEP_ANGLES (default 24).
    smoothing: σ of the fine Gaussian over blocks, 0 … 100 (default 0.8; 0: none).
    method: "block" (default) or "pixel" (each pixel's orientation-map angle averaged per
        block).{engine}

    Returns an OrientationField (per-block NumPy arrays for every input). A GPU array is copied
    to host memory once: the field's first stage, a Gaussian over the image, runs on the host;
    the openings and closings of the smoothed image then run on ``backend``.
    """)
def orientation_field(img, *, block=16, length=None, angle_count=24, smoothing=0.8, method="block",
                      backend="auto", algorithm="auto", threads=0):
    img = _host_copy(img)
    return OrientationField(**_linescope.orientation_field(
        img, block, length, angle_count, smoothing, method, backend, algorithm, threads))


@_documented(f"""The skew of a page or music sheet (``linescope-cli skew``).

    page: 2-D array of uint8, uint16 or float32 (no NaN): dark lines on light paper, or
        bright lines with bright_lines=True.
    length: the fine stage's λ on the reduced page (default None: three fifths of its width).
    {_angles_doc("-16:16.5:0.5")}
    refine_range: degrees either side of the coarse angle, 0 … 10 (default 0.3; 0: no fine
        stage).
    refine_step: the fine stage's step in degrees, 0.0001 … 5 (default 0.05).
    reduction: the reduction factor, 0 … 64 (default None or 0: width / 1200, rounded, ≥ 1).
    bright_lines: openings instead of closings.
    line: the digital line of the smear and the spectra, "paths" (default), "segment" or
        "periodic" (``--line``; the confidence was calibrated with paths).{{engine}}

    Returns a Skew. ``deskew(page, result.angle)`` straightens the page. A GPU array is copied
    to host memory once: the first stage, the page's reduction, runs on the host; the spectra
    of the reduced page then run on ``backend``.
    """)
def skew(page, *, length=None, angles="-16:16.5:0.5", refine_range=1.0, refine_step=0.05,
         reduction=None, bright_lines=False, line="paths", backend="auto", algorithm="auto", threads=0):
    page = _host_copy(page)
    return Skew(**_linescope.skew(page, length, angles, refine_range, refine_step, reduction,
                                  bool(bright_lines), line, backend, algorithm, threads))


def deskew(page, angle, *, border="replicate"):
    """The page rotated by −angle about its centre (``linescope-cli skew --deskew OUT``).

    page: 2-D array of uint8, uint16 or float32 (no NaN).
    angle: the skew, e.g. ``skew(page).angle`` (degrees, counter-clockwise positive).
    border: what fills the corners: "replicate" (default, the nearest edge pixel) or "white"
        (the type's maximum; for float32 the page's maximum).

    Returns a new array of the page's shape and type (bilinear interpolation, OpenCV's). A GPU
    array is copied to host memory, rotated there and the result uploaded: a DeviceArray.
    """
    if _on_gpu(page):
        return _device_function("device_upload")(_linescope.deskew(_host_copy(page), angle, border), page)
    return _linescope.deskew(_host(page), angle, border)


def contours(img, mode="tree", approx="none", *, threshold=None, otsu=False, backend="auto", threads=0):
    """The borders of the non-zero pixels, as ``cv2.findContours`` returns them.

    8-connectivity, outer and hole borders, the image frame taken as zero: the same
    contours, points, start points, order and hierarchy as OpenCV's (``linescope-cli
    contours``).

    img: the binary image (uint8 or bool, non-zero = foreground) when neither threshold nor
        otsu is given; else a uint8, uint16 or float32 image to threshold.
    mode: "external", "list", "ccomp" or "tree" (default), or cv2.RETR_*.
    approx: "none" (default) or "simple", or cv2.CHAIN_APPROX_NONE/_SIMPLE.
    threshold: pixels greater than it are foreground (the CLI's --threshold).
    otsu: Otsu's threshold (the CLI's --otsu; uint16 and float32 images are first scaled to
        8 bits, min → 0, max → 255).
    backend: "auto", "cpu" or "cuda"; both give the same contours.
    threads: CPU worker threads, 0 = one per core.

    Returns (contours, hierarchy): a list of (N, 1, 2) int32 arrays of (x, y) points, and a
    (1, N, 4) int32 array of (next, previous, first child, parent), -1 for none; None when
    there is no contour. Host arrays for every input.

    A GPU array (uint8 or bool, or uint16 with a threshold) is thresholded and traced
    on the CUDA engine in place; with otsu=True, a float32 threshold or backend="cpu" it is
    copied to host memory once and goes the host's way (Otsu's histogram and OpenCV's float
    comparison are the host's).
    """
    if _on_gpu(img) and not otsu and backend != "cpu":
        found = _device_function("device_contours")(img, mode, approx, threshold, backend, threads)
        if found is not None:
            return found
    img = _host_copy(img, allow_bool=True)
    return _linescope.contours(img, mode, approx, threshold, bool(otsu), backend, threads)


def otsu_threshold(img):
    """Otsu's threshold of ``img`` in its own units (uint16 and float32 images are scaled
    to 8 bits for it, min → 0, max → 255, and the 8-bit threshold mapped back). A GPU array
    is copied to host memory once (the histogram is the host's)."""
    img = _host_copy(img)
    return _linescope.otsu_threshold(img)


def imread(path):
    """The image file at ``path`` as ``linescope-cli`` and the window read it.

    One channel of uint8, uint16 or float32: colour images become grey, float64 and float16
    float32, each with a warning (the CLI's note); signed integer pixels are refused.
    Raises OSError when the file cannot be read.
    """
    image, notes = _linescope.imread(_os.fsencode(path))
    for note in notes:
        _warnings.warn(note, stacklevel=2)
    return image


def imwrite(path, img):
    """Writes ``img`` to ``path`` as ``linescope-cli`` writes its outputs: atomically (the
    old file or the new one, never half of one), the format from the extension (.png,
    .tiff, .pgm, .pfm, ...; float32 needs .tiff or .pfm). Raises OSError. A GPU array or a
    DeviceArray is copied to host memory once."""
    img = _host_copy(img)
    _linescope.imwrite(_os.fsencode(path), img)


def resolve_backend(backend="auto"):
    """"cpu" or "cuda": where ``backend`` runs on this machine (RuntimeError for "cuda"
    where no GPU is usable)."""
    return _linescope.resolve_backend(backend)


def backend_note():
    """The GPU the CUDA backend uses, or why there is none (what the CLI's notice says)."""
    return _linescope.backend_note()
