"""LineScope on Dask: many files as a bag, one huge image as tiles (``import linescope.dask``).

Both run on whichever scheduler is in use: Dask's threads (the default), processes, or a
``distributed`` cluster (a ``Client`` made the default, or passed as ``scheduler=``)::

    import linescope.dask as lsd
    records = lsd.batch(files, "skew", "out/")                   # out/manifest.jsonl
    tiles = lsd.tiled(huge, "open", angle=30, length=41)          # a dask.array, lazy
    result = tiles.compute()                                      # = linescope.open(huge, 30, 41)

**Batches** (``batch``, ``batch_bag``): every file is read with ``linescope.imread``, the
operation runs on it, and its outputs go to ``out_dir`` under the file's path relative to
``root`` (default: the inputs' common folder). Each output is written atomically (a
temporary file, then ``os.replace``); after its outputs, each file gets a record
(``out_dir/.linescope/records/``, also written atomically) and the manifest
(``out_dir/manifest.jsonl``, one JSON line a file) is assembled from the records at the end.
A re-run skips a file whose record says ``ok`` for the same operation, parameters and input
(size and modification time) and whose outputs all exist; so a batch that was killed, or a
task that a cluster retried after losing its worker, neither loses nor duplicates a
result. A file that fails (unreadable, bad parameters for it) is recorded with its error and
the batch goes on; a re-run tries it again.

**Tiles** (``tiled``): ``dask.array.map_overlap`` with the depth and chunks that make every
tile's result equal, bit for bit, to the whole image's (see ``overlap_depth`` and
``exact_chunks`` for why and where that restricts the chunks).

Dask is imported when this module is; ``import linescope`` alone does not need it.
"""

import functools
import hashlib
import inspect
import json
import math
import os
import socket
import tempfile
import time
import warnings

import numpy as np

import dask
import dask.array as da
import dask.bag as db

import linescope
from linescope import _linescope

__all__ = [
    "OPERATIONS", "TILED_OPERATIONS", "batch", "batch_bag", "read_manifest", "tiled",
    "overlap_depth", "exact_chunks", "line_reach",
]

#: The operations a batch runs (the package's functions of those names).
OPERATIONS = ("open", "close", "erode", "dilate", "tophat", "sweep", "spectrum",
              "orientation_field", "skew", "contours")
#: The operations ``tiled`` runs: those whose result at a pixel depends only on the pixels
#: within a segment's reach. spectrum, skew, orientation_field and contours depend on the
#: whole image (sums over it, a block grid smoothed over the image, connected borders).
TILED_OPERATIONS = ("open", "close", "erode", "dilate", "tophat", "sweep")

_MORPH = ("open", "close", "erode", "dilate", "tophat")
_SWEEP_FIELDS = ("sup", "inf", "strength", "orientation", "arg_index")
_FIXED = 1 << 16  # the 16.16 fixed point of the line slope (design.md §1)


# ---------------------------------------------------------------------------------------
# Tiles: the geometry of design.md §1 (compute/line_geometry.*, compute/pixel_rules.h)
# ---------------------------------------------------------------------------------------
#
# Why tiles can equal the whole image, and where they cannot. For an angle α the engine
# splits the image into digital lines: x-major (α in [0,45] ∪ [135,180)) line c is the
# pixels (t, c + off(t)), y-major line c the pixels (c + off(t), t), t the major coordinate,
# with off(t) = floor((t·S + 2^15) / 2^16) and S the fixed-point slope. Each line is a 1-D
# signal along t, cut where it leaves the image, and the operators are 1-D on it with
# positions outside the image ignored.
#
# 1. Reach along a line. B = {-a, …, b}, a = ⌊(λ-1)/2⌋, b = λ-1-a. erode(f)(t) reads
#    f[t-a … t+b], dilate(f)(t) reads f[t-b … t+a]: reach b. open = dilate(erode): the
#    dilation at t reads the erosion at t-b … t+a, each of which reads f up to a further
#    a or b away, so the opening reads f[t-(a+b) … t+(a+b)] = f[t-(λ-1) … t+(λ-1)]: reach
#    λ-1 (twice the one-sided extent for odd λ), and so do close and tophat (img − open).
#    Inside a tile the line is cut at the tile's border; a position inside the whole image
#    but outside the tile would be "ignored" wrongly. So every position within the reach R
#    of an output pixel that lies in the image must lie in the tile: that is the depth.
# 2. Reach in pixels. Along the major axis the reach is R pixels. Along the minor axis,
#    off(t+k) − off(t) ∈ {⌊kS/2^16⌋, ⌈kS/2^16⌉}, so |Δminor| ≤ ⌈R·|S| / 2^16⌉ (≤ R, as
#    |S| ≤ 2^16). These two are the depth along each axis.
# 3. The lines are anchored on the image. The family is a function of the absolute major
#    coordinate t, not of the tile: a tile whose major-axis origin is t0 computes its lines
#    with off(t − t0), the whole image with off(t). Shifting along the MINOR axis only
#    renumbers the lines (c → c − y0), so any tile origin is exact there. Along the MAJOR
#    axis, off(t) − off(t − t0) is constant (= t0·S / 2^16) for every t exactly when
#    t0·S ≡ 0 (mod 2^16); otherwise it takes two values and the tile's lines step at
#    other places than the image's (a different pixel set, a different result: the tests
#    show it). So along the major axis every tile origin must be a multiple of the period
#    p = 2^16 / gcd(S, 2^16): p = 1 for 0°, 45°, 90°, 135° (S = 0 or ±2^16), small for
#    slopes such as 1/2 or 1/4, and 2^16 for almost every other angle, which in practice
#    means one chunk along that axis (bands: x-major angles tile along y only, y-major
#    ones along x only). A sweep needs this for every angle of its set.
# 4. Borders of the image. With boundary="none" dask pads nothing at the image's edges: the
#    first tile starts at 0 and the last ends at the image's end, where tile and image cut
#    the lines at the same place. Interior tiles start at chunk_start − depth; with chunk
#    boundaries and depth multiples of p, those origins are multiples of p (point 3).
#    Every chunk must be at least the depth (dask takes the overlap from the neighbour
#    only), and ``exact_chunks`` makes them so; map_overlap is called with
#    allow_rechunk=False so that dask cannot move a boundary behind our back.


def _line_family(angle):
    """(y_major, S): the engine's own line family (compute/line_geometry.cpp lineFamily)."""
    try:
        return _linescope.line_family(float(angle))
    except _linescope.Error as e:  # a NaN or infinite angle
        raise ValueError(str(e)) from None


def _period(slope):
    """The smallest p > 0 with p·S ≡ 0 (mod 2^16): tile origins along the major axis must be
    multiples of it (point 3 above)."""
    return _FIXED // math.gcd(slope, _FIXED)  # gcd(0, 2^16) = 2^16: p = 1


def line_reach(op, length):
    """How far along its line, in positions, a result pixel of ``op`` reads the image: λ−1
    for open, close and tophat (and sweeps of them), ⌈(λ−1)/2⌉ for erode and dilate."""
    length = int(length)
    if length < 1:
        raise ValueError(f"the segment length must be at least 1 pixel (got {length})")
    a = (length - 1) // 2
    b = length - 1 - a
    return b if op in ("erode", "dilate") else a + b


def _sweep_angles(angles):
    """The angles α_k of a sweep's angle set, parsed by the engine itself (the CLI's text,
    N, or (start, step, count)), as the sweep will run them."""
    return linescope.sweep(np.zeros((1, 1), np.uint8), 1, angles).angles


def _axis_needs(op, angles, length):
    """Per axis (y, x): (depth, period) for the angles."""
    reach = line_reach(op, length)
    depth = [0, 0]
    period = [1, 1]
    for angle in angles:
        y_major, slope = _line_family(angle)
        major, minor = (0, 1) if y_major else (1, 0)
        depth[major] = max(depth[major], reach)
        depth[minor] = max(depth[minor], -(-reach * abs(slope) // _FIXED))
        period[major] = math.lcm(period[major], _period(slope))
    return tuple(depth), tuple(period)


def _needs(op, angle, length, angles, sweep_op):
    """(depth, period) per axis (y, x) for a tiled operation."""
    _check_tiled_op(op)
    if length is None:
        raise TypeError(f"{op} needs length (the segment's length in pixels, λ ≥ 1)")
    if op == "sweep":
        if sweep_op not in ("open", "close", "erode", "dilate"):
            raise ValueError(f"sweep_op must be open, close, erode or dilate (got {sweep_op!r})")
        return _axis_needs(sweep_op, [float(a) for a in _sweep_angles(angles)], length)
    return _axis_needs(op, [angle], length)


def overlap_depth(op, angle=0.0, length=None, *, angles="0:180:1", sweep_op="open"):
    """The (y, x) overlap that makes tiles exact for ``op`` (one of TILED_OPERATIONS) at
    ``angle`` (or, for "sweep", every angle of ``angles``) with a segment of ``length``.

    Along the lines' major axis it is the reach (``line_reach``); along the minor axis
    ⌈reach·|S| / 2^16⌉ with the engine's fixed-point slope S: 0 along y at 0°, along x at
    90°. (``exact_chunks`` rounds it up to the period of the tile origins along the major
    axis, and drops it along an axis left in one chunk.)"""
    return _needs(op, angle, length, angles, sweep_op)[0]


def _axis_chunks(n, want, depth, period):
    """Chunk sizes along one axis of n pixels, about ``want`` each, every one at least the
    depth, every boundary and the depth multiples of ``period``; (sizes, depth to use)."""
    depth = -(-depth // period) * period  # tile origins b - depth: multiples of the period
    size = max(int(want), depth, 1)
    size = -(-size // period) * period
    if size >= n:
        return (n,), 0  # one chunk: nothing to overlap
    sizes = [size] * (n // size)
    rest = n - size * len(sizes)
    if rest:
        if rest >= depth:
            sizes.append(rest)
        else:
            sizes[-1] += rest  # a last chunk thinner than the depth joins its neighbour
    return tuple(sizes), depth


def _chunks_are_exact(sizes, depth, period):
    """Whether these chunk sizes are exact with the depth rounded up to the period."""
    if len(sizes) == 1:
        return True
    depth = -(-depth // period) * period
    if min(sizes) < depth:
        return False
    boundary = 0
    for s in sizes[:-1]:
        boundary += s
        if (boundary - depth) % period:
            return False
    return True


def exact_chunks(shape, op, angle=0.0, length=None, *, angles="0:180:1", sweep_op="open",
                 chunks=(2048, 2048)):
    """The chunks closest to ``chunks`` (a (y, x) pair or one size for both) for which
    ``tiled`` is exact, and the depth to use with them: ((y_sizes, x_sizes), (dy, dx)).

    Along the lines' major axis every tile must start at a multiple of the angle's period
    p = 2^16 / gcd(S, 2^16) (S: the fixed-point slope; the line family is anchored on the
    image's origin). p is 1 at 0°, 45°, 90° and 135°, so any chunks are exact there; for
    most other angles p = 65536, which leaves one chunk along that axis: the image is cut
    into full-width bands for x-major angles (0…45°, 135…180°) and full-height ones for
    y-major angles (45…135°). Chunks are also made at least as large as the depth."""
    if isinstance(chunks, (int, np.integer)):
        chunks = (int(chunks), int(chunks))
    depth, period = _needs(op, angle, length, angles, sweep_op)
    sizes, used = zip(*(_axis_chunks(n, c, d, p) for n, c, d, p in zip(shape, chunks, depth, period)))
    return tuple(sizes), tuple(used)


def _check_tiled_op(op):
    if op not in TILED_OPERATIONS:
        raise ValueError(f"tiled() runs {', '.join(TILED_OPERATIONS)}; {op!r} depends on the whole "
                         "image (run it on the image, or over files with batch())")


def _tile(block, op, angle, length, angles, sweep_op, field, backend, algorithm, threads):
    if block.size == 0:  # dask's meta probes
        return np.empty(block.shape, _tiled_dtype(op, field, block.dtype))
    if op == "sweep":
        return getattr(linescope.sweep(block, length, angles, sweep_op, backend=backend,
                                       algorithm=algorithm, threads=threads), field)
    return getattr(linescope, op)(block, angle, length, backend=backend, algorithm=algorithm,
                                  threads=threads)


def _tiled_dtype(op, field, dtype):
    if op == "sweep" and field == "orientation":
        return np.dtype(np.float32)
    if op == "sweep" and field == "arg_index":
        return np.dtype(np.uint16)
    return np.dtype(dtype)


def tiled(image, op, angle=0.0, length=None, *, angles="0:180:1", sweep_op="open", field="sup",
          chunks=(2048, 2048), backend="auto", algorithm="auto", threads=1):
    """``op`` over a large image in tiles: a lazy dask array equal, bit for bit, to
    ``linescope.<op>(image, angle, length)`` (or ``linescope.sweep(image, length, angles,
    sweep_op).<field>``) once computed.

    image: a 2-D NumPy or Dask array of uint8, uint16 or float32 (no NaN).
    op: "open", "close", "erode", "dilate", "tophat" or "sweep".
    angle, length: as ``linescope.open``; angles, sweep_op: as ``linescope.sweep``'s angles
        and op; field: the sweep's image to return: "sup", "inf", "strength", "orientation"
        (float32) or "arg_index" (uint16).
    chunks: the wanted tile size, (y, x) or one number. It is changed where exactness
        needs it (``exact_chunks``): at angles other than 0°, 45°, 90° and 135° the image
        is cut into bands across the lines' major axis only.
    backend, algorithm: as ``linescope.open``.
    threads: engine threads per tile (default 1: Dask runs tiles in parallel).

    The overlap is ``overlap_depth``'s, with boundary="none": the image's own borders are
    not padded, so the lines end there as in the whole image.

    A NumPy image is put into the task graph whole (Dask's from_array); for an image larger
    than memory pass a Dask array that reads its tiles lazily (dask.array.from_zarr, or
    from_array over a memory map or an HDF5 dataset).
    """
    if op == "sweep" and field not in _SWEEP_FIELDS:
        raise ValueError(f"field must be one of {', '.join(_SWEEP_FIELDS)} (got {field!r})")
    depth, period = _needs(op, angle, length, angles, sweep_op)
    if getattr(image, "ndim", None) != 2:
        raise ValueError("tiled() takes a 2-D image")
    if np.dtype(image.dtype) not in _LOSSLESS:  # the tiles would each raise it later
        raise TypeError(f"tiled() takes uint8, uint16 or float32 pixels (got {np.dtype(image.dtype)})")
    if isinstance(chunks, (int, np.integer)):
        chunks = (int(chunks), int(chunks))
    if isinstance(image, da.Array):
        # Keep the array's own chunks where they are exact, else re-cut it near their size.
        sizes, used = [], []
        for axis in range(2):
            have = image.chunks[axis]
            if _chunks_are_exact(have, depth[axis], period[axis]):
                sizes.append(have)
                used.append(-(-depth[axis] // period[axis]) * period[axis] if len(have) > 1 else 0)
            else:
                s, u = _axis_chunks(image.shape[axis], max(have), depth[axis], period[axis])
                sizes.append(s)
                used.append(u)
        arr = image.rechunk(tuple(sizes))
    else:
        image = np.asarray(image)
        sizes, used = zip(*(_axis_chunks(n, c, d, p)
                            for n, c, d, p in zip(image.shape, chunks, depth, period)))
        arr = da.from_array(image, chunks=tuple(sizes))
    fn = functools.partial(_tile, op=op, angle=angle, length=int(length), angles=angles,
                           sweep_op=sweep_op, field=field, backend=backend, algorithm=algorithm,
                           threads=threads)
    dtype = _tiled_dtype(op, field, arr.dtype)
    return da.map_overlap(fn, arr, depth={0: used[0], 1: used[1]}, boundary="none", trim=True,
                          allow_rechunk=False, dtype=dtype, meta=np.empty((0, 0), dtype))


# ---------------------------------------------------------------------------------------
# Batches
# ---------------------------------------------------------------------------------------

_RECORDS = os.path.join(".linescope", "records")
# Extensions that hold a result losslessly, by pixel type; any other input extension (JPEG,
# BMP, ...) gets .png (integers) or .tiff (float32) appended.
_LOSSLESS = {
    np.dtype(np.uint8): (".png", ".tif", ".tiff", ".pgm"),
    np.dtype(np.uint16): (".png", ".tif", ".tiff", ".pgm"),
    np.dtype(np.float32): (".tif", ".tiff", ".pfm"),
}
# Parameters of a batch that are not the function's: skew's deskewed page.
_BATCH_ONLY = {"skew": ("deskew", "border")}


def _atomic_write(path, data):
    """Writes bytes to path whole or not at all: a temporary file beside it, then os.replace."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _write_json(path, obj):
    _atomic_write(path, (json.dumps(obj, indent=None, separators=(",", ":")) + "\n").encode())


def _write_image(path, img):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    linescope.imwrite(path, img)  # atomic (app/io: a temporary file, then a rename)


def _image_name(rel, dtype):
    """The output name of an image result for the input ``rel``: the same name where its
    extension holds the pixel type losslessly, else the name with .png or .tiff appended."""
    ext = os.path.splitext(rel)[1].lower()
    if ext in _LOSSLESS[np.dtype(dtype)]:
        return rel
    return rel + (".tiff" if np.dtype(dtype) == np.float32 else ".png")


def _plain(v):
    """JSON-ready: arrays as lists, NumPy scalars as Python numbers."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, tuple) and hasattr(v, "_asdict"):
        return {k: _plain(x) for k, x in v._asdict().items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _run_operation(op, img, params, rel, out_dir):
    """Runs op on img; writes its outputs under out_dir; returns (outputs relative to
    out_dir, key results)."""
    fn = getattr(linescope, op)
    call = {k: v for k, v in params.items() if k not in _BATCH_ONLY.get(op, ())}
    written = []

    def image(name, data):
        _write_image(os.path.join(out_dir, name), data)
        written.append(name)

    def document(name, obj):
        _write_json(os.path.join(out_dir, name), obj)
        written.append(name)

    if op in _MORPH:
        out = fn(img, **call)
        image(_image_name(rel, out.dtype), out)
        return written, {"shape": list(out.shape), "dtype": str(out.dtype)}
    if op == "sweep":
        r = fn(img, **call)
        folder = rel + ".sweep"
        ext = ".tiff" if r.sup.dtype == np.float32 else ".png"  # as linescope-cli sweep
        for name, data in (("supremum", r.sup), ("infimum", r.inf), ("strength", r.strength)):
            image(os.path.join(folder, name + ext), data)
        image(os.path.join(folder, "orientation-angles.tiff"), r.orientation)
        document(os.path.join(folder, "spectrum.json"),
                 {"op": r.op, "length": r.length, "angles": _plain(r.angles), "spectrum": _plain(r.spectrum)})
        k = int(np.argmin(r.spectrum) if r.op in ("close", "dilate") else np.argmax(r.spectrum))
        return written, {"spectrum_extreme_angle": float(r.angles[k])}
    if op == "spectrum":
        r = fn(img, **call)
        document(rel + ".json", _plain(r))
        return written, {"peaks": [[p.angle, p.prominence] for p in r.peaks]}
    if op == "orientation_field":
        r = fn(img, **call)
        document(rel + ".json", _plain(r))
        return written, {"blocks_x": r.blocks_x, "blocks_y": r.blocks_y,
                         "foreground_blocks": int(np.count_nonzero(r.foreground))}
    if op == "skew":
        r = fn(img, **call)
        document(rel + ".json", _plain(r))
        if params.get("deskew"):
            image(_image_name(rel, img.dtype),
                  linescope.deskew(img, r.angle, border=params.get("border", "replicate")))
        return written, {"angle": r.angle, "confidence": r.confidence, "dominant": r.dominant,
                         "at_range_edge": r.at_range_edge}
    if op == "contours":
        found, hierarchy = fn(img, **call)
        document(rel + ".json", {
            "contours": [c.reshape(-1, 2).tolist() for c in found],
            "hierarchy": [] if hierarchy is None else hierarchy.reshape(-1, 4).tolist(),
            "width": int(img.shape[1]), "height": int(img.shape[0])})
        return written, {"contours": len(found)}
    raise ValueError(f"unknown operation {op!r}")  # batch_bag checked it


def _record_path(out_dir, rel):
    return os.path.join(out_dir, _RECORDS, hashlib.sha1(os.fsencode(rel)).hexdigest() + ".json")


def _input_state(path):
    st = os.stat(path)
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def _complete(record, job, state):
    """The stored record of an earlier run still stands for this job."""
    return (record.get("status") == "ok" and record.get("fingerprint") == job["fingerprint"]
            and record.get("input_state") == state
            and all(os.path.isfile(os.path.join(job["out_dir"], o)) for o in record.get("outputs", [])))


def _process(job):
    """One file: skip it if an earlier run completed it, else run the operation, write the
    outputs and then the record. Returns the record (with "skipped")."""
    record_path = _record_path(job["out_dir"], job["rel"])
    try:
        state = _input_state(job["input"])
    except OSError:
        state = None
    if state is not None:
        try:
            with open(record_path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError):
            old = None
        if old is not None and _complete(old, job, state):
            return dict(old, skipped=True)

    started = time.perf_counter()
    record = {"input": job["input"], "outputs": [], "status": "ok", "error": None, "results": {}}
    try:
        if state is None:
            _input_state(job["input"])  # raises the OSError with its reason
        with warnings.catch_warnings(record=True) as notes:
            warnings.simplefilter("always")
            img = linescope.imread(job["input"])
        if notes:
            record["notes"] = [str(n.message) for n in notes]
        record["outputs"], record["results"] = _run_operation(
            job["op"], img, job["params"], job["rel"], job["out_dir"])
    except (OSError, ValueError, TypeError, RuntimeError, MemoryError) as e:
        # This file's failure: recorded, and the batch goes on. (Anything else is a bug and
        # fails the task.)
        record["status"] = "error"
        record["error"] = f"{type(e).__name__}: {e}"
    record["time_s"] = round(time.perf_counter() - started, 6)
    record["op"] = job["op"]
    record["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    record["fingerprint"] = job["fingerprint"]
    record["input_state"] = state
    _write_json(record_path, record)  # last: a record means its outputs are complete
    return dict(record, skipped=False)


def _process_partition(jobs):
    return [_process(job) for job in jobs]


def _fingerprint(op, params):
    # Not threads, backend or algorithm: every choice of them gives the same pixels.
    kept = {k: v for k, v in params.items() if k not in ("threads", "backend", "algorithm")}
    return hashlib.sha1(json.dumps([linescope.__version__, op, _plain(kept)], sort_keys=True,
                                   default=repr).encode()).hexdigest()


def _plan(files, op, out_dir, root, params):
    if op not in OPERATIONS:
        raise ValueError(f"op must be one of {', '.join(OPERATIONS)} (got {op!r})")
    fn = getattr(linescope, op)
    call = {k: v for k, v in params.items() if k not in _BATCH_ONLY.get(op, ())}
    if "threads" in inspect.signature(fn).parameters:
        call.setdefault("threads", 1)
        params = dict(params, threads=call["threads"])
    try:  # unknown parameters fail here, once, not once a file
        inspect.signature(fn).bind(np.zeros((1, 1), np.uint8), **call)
    except TypeError as e:
        raise TypeError(f"{op}(): {e}") from None
    files = [os.fspath(f) for f in files]
    if not files:
        return [], params
    absolute = [os.path.abspath(f) for f in files]
    if root is None:
        root = os.path.commonpath([os.path.dirname(a) for a in absolute])
    root = os.path.abspath(os.fspath(root))
    out_dir = os.path.abspath(os.fspath(out_dir))
    if out_dir == root:
        raise ValueError("out_dir is the inputs' folder (root): outputs would replace inputs")
    fingerprint = _fingerprint(op, params)
    jobs, seen = [], {}
    for f, a in zip(files, absolute):
        rel = os.path.relpath(a, root)
        if rel.startswith(os.pardir + os.sep) or rel == os.pardir or os.path.isabs(rel):
            raise ValueError(f"{f} is not under root {root}")
        if rel in seen:
            raise ValueError(f"{f} is listed twice (as {seen[rel]})")
        seen[rel] = f
        jobs.append({"input": f, "rel": rel, "out_dir": out_dir, "op": op, "params": params,
                     "fingerprint": fingerprint})
    return jobs, params


def batch_bag(files, op, out_dir, /, *, root=None, files_per_task=1, **params):
    """A lazy Dask bag of one record a file: computing it runs ``op`` on each file and writes
    its outputs and record under ``out_dir`` (see the module's docstring). Use it to compose
    with other bags; ``batch`` computes it and writes the manifest.

    files: paths of image files; root: the folder their output names are relative to
        (default: their common folder); files_per_task: files in one Dask task (1: a lost
        worker costs one file's work; more: less scheduling for very many small files).
    params: ``op``'s parameters, as ``linescope.<op>`` takes them (threads defaults to 1:
        Dask runs the files in parallel); skew also takes deskew=True (write the
        straightened page) and border.
    """
    jobs, _ = _plan(files, op, out_dir, root, params)
    if not jobs:
        return db.from_sequence([], npartitions=1)
    # partition_size: consecutive runs of files_per_task jobs (batch() relies on it).
    return db.from_sequence(jobs, partition_size=max(1, int(files_per_task))).map_partitions(
        _process_partition)


def _lost_record(job, error):
    return {"input": job["input"], "outputs": [], "status": "error", "error": error, "results": {},
            "time_s": None, "op": job["op"], "worker": None, "fingerprint": job["fingerprint"],
            "input_state": None, "skipped": False}


def _distributed_client(scheduler):
    """The distributed Client to use, or None for Dask's local schedulers."""
    if scheduler is not None and not isinstance(scheduler, str):
        if hasattr(scheduler, "compute") and hasattr(scheduler, "gather"):
            return scheduler
        return None
    if scheduler is None and dask.config.get("scheduler", None) == "dask.distributed":
        from distributed import get_client
        return get_client()
    return None


def batch(files, op, out_dir, /, *, root=None, manifest="manifest.jsonl", scheduler=None,
          files_per_task=1, **params):
    """Runs ``op`` on every file on the current Dask scheduler and writes the manifest.

    files, op, out_dir, root, files_per_task, params: as ``batch_bag``.
    manifest: its name in out_dir (JSON lines, one a file in the order of ``files``).
    scheduler: None (Dask's current one: a default distributed Client, else threads),
        "threads", "processes", "sync", or a distributed Client. On a cluster, a file whose
        task keeps killing workers (distributed gives up after its allowed failures) is
        recorded as an error and the others go on.

    Returns the records, as in the manifest: input, outputs (relative to out_dir), status
    ("ok" or "error"), error, time_s, results (the operation's key results: the skew
    angle, ...), op, worker, skipped (this run found it complete), and the fingerprint and
    input_state that decide resumption.
    """
    jobs, _ = _plan(files, op, out_dir, root, params)
    out_dir = os.path.abspath(os.fspath(out_dir))
    bag = batch_bag(files, op, out_dir, root=root, files_per_task=files_per_task, **params)
    by_input = {}
    client = _distributed_client(scheduler)
    if jobs and client is not None:
        parts = bag.to_delayed()
        size = max(1, int(files_per_task))
        futures = client.compute(parts)
        for i, fut in enumerate(futures):
            try:
                for r in fut.result():
                    by_input[r["input"]] = r
            except Exception as e:  # KilledWorker and the like: this task's files only
                for job in jobs[i * size:(i + 1) * size]:
                    by_input[job["input"]] = _lost_record(job, f"{type(e).__name__}: {e}")
    elif jobs:
        for r in bag.compute(scheduler=scheduler):
            by_input[r["input"]] = r
    records = [by_input[j["input"]] for j in jobs]  # one a file, in the given order
    lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
    _atomic_write(os.path.join(out_dir, manifest), lines.encode())
    return records


def read_manifest(path):
    """The records of a manifest (JSON lines) as a list of dicts."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]
