"""LineScope on Dask: many files as a bag, one huge image as tiles (``import linescope.dask``).

Both run on whichever scheduler is in use: Dask's threads (the default), processes, or a
``distributed`` cluster (a ``Client`` made the default, or passed as ``scheduler=``)::

    import linescope.dask as lsd
    records = lsd.batch("scans", "skew", "out/")                # out/batch-manifest.jsonl
    tiles = lsd.tiled(huge, "open", angle=30, length=41)          # a dask.array, lazy
    result = tiles.compute()                                      # = linescope.open(huge, 30, 41)

**Batches** (``batch``, ``batch_bag``) are ``linescope-cli batch`` on Dask: the inputs (a
folder, glob or @LIST as ``--inputs`` takes them, or a list of paths) are planned by the
CLI's code (what an earlier run, by either, completed is skipped), each file runs on a worker
through the CLI's own per-input code (the same outputs, byte for byte, under the same
names), and its record, the CLI's manifest line, is appended to
``out_dir/batch-manifest.jsonl`` by the calling process as its task finishes. A file that
fails is recorded with its reason and the batch goes on; a re-run tries it again.

**Tiles** (``tiled``): ``dask.array.map_overlap`` with the depth and chunks that make every
tile's result equal, bit for bit, to the whole image's (see ``overlap_depth`` and
``exact_chunks`` for why and where that restricts the chunks).

Dask is imported when this module is; ``import linescope`` alone does not need it.
"""

import functools
import json
import math
import os
import socket

import numpy as np

import dask
import dask.array as da
import dask.bag as db
from dask.callbacks import Callback

import linescope
from linescope import _linescope

__all__ = [
    "OPERATIONS", "TILED_OPERATIONS", "MANIFEST", "batch", "batch_bag", "cli_options", "read_manifest", "tiled",
    "overlap_depth", "exact_chunks", "line_reach",
]

#: The commands a batch runs (linescope-cli's; "orientation_field" is taken for "orientation").
OPERATIONS = ("open", "close", "erode", "dilate", "tophat", "sweep", "spectrum",
              "orientation", "skew", "contours")
#: The operations ``tiled`` runs: those whose result at a pixel depends only on the pixels
#: within a segment's reach. spectrum, skew, orientation_field and contours depend on the
#: whole image (sums over it, a block grid smoothed over the image, connected borders).
TILED_OPERATIONS = ("open", "close", "erode", "dilate", "tophat", "sweep")

_MORPH = ("open", "close", "erode", "dilate", "tophat")
_SWEEP_FIELDS = ("sup", "inf", "strength", "orientation", "arg_index")
_FIXED = 1 << 16  # the 16.16 fixed point of the line slope (design.md §1)
_PIXEL_TYPES = (np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.float32))


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
    if np.dtype(image.dtype) not in _PIXEL_TYPES:  # the tiles would each raise it later
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
# Batches: linescope-cli batch's own code (app/cli, through _linescope), tasks on Dask
# ---------------------------------------------------------------------------------------

#: The manifest's name in out_dir, as linescope-cli batch writes it.
MANIFEST = _linescope.BATCH_MANIFEST_NAME
# The package's name of a command where it differs from the CLI's.
_ALIASES = {"orientation_field": "orientation"}


def _word(value):
    """A parameter's value as the CLI's word: numbers written so that they parse back to the
    same value (30.0 as "30", 0.1 as "0.1")."""
    if isinstance(value, (float, np.floating)):
        text = repr(float(value))
        return text[:-2] if text.endswith(".0") else text
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"a batch takes numbers and strings as parameters (the CLI's words), got {value!r}")


def cli_options(**params):
    """The options of ``linescope-cli batch … COMMAND`` for these parameters, in their order:
    ``name=value`` → ``--name VALUE`` (underscores as dashes), ``name=True`` → ``--name``;
    False and None leave the option out. ``cli_options(angle=30, length=9)`` is
    ``["--angle", "30", "--length", "9"]``."""
    words = []
    for name, value in params.items():
        if value is None or value is False:
            continue
        words.append("--" + name.replace("_", "-"))
        if value is not True:
            words.append(_word(value))
    return words


def _command(op):
    command = _ALIASES.get(op, op)
    if command not in OPERATIONS:
        raise ValueError(f"op must be one of {', '.join(OPERATIONS)} (got {op!r})")
    return command


def _inputs(files, root, out_dir):
    """(path, relative) of each input: a source as linescope-cli batch --inputs takes it, or a
    list of paths mirrored relative to root."""
    if isinstance(files, (str, os.PathLike)):
        return _linescope.batch_inputs([os.fspath(files)], out_dir)
    out_dir = os.path.abspath(out_dir)
    files = [os.fspath(f) for f in files]
    if not files:
        return []
    absolute = [os.path.abspath(f) for f in files]
    if root is None:
        root = os.path.commonpath([os.path.dirname(a) for a in absolute])
    root = os.path.abspath(os.fspath(root))
    if out_dir == root:
        raise ValueError("out_dir is the inputs' folder (root): outputs would replace inputs")
    inputs, seen = [], {}
    for f, a in zip(files, absolute):
        rel = os.path.relpath(a, root)
        if rel.startswith(os.pardir + os.sep) or rel == os.pardir or os.path.isabs(rel):
            raise ValueError(f"{f} is not under root {root}")
        if rel in seen:
            raise ValueError(f"{f} is listed twice (as {seen[rel]})")
        seen[rel] = f
        inputs.append((f, rel))
    return inputs


def _file_ids(paths):
    """(device, inode) of each input that exists: no output may replace one, however named."""
    ids = []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        ids.append((st.st_dev, st.st_ino))
    return ids


_JOBS = {}  # per process: the checked command of each (command, options, recorded)


def _job(spec):
    job = _JOBS.get(spec)
    if job is None:
        command, options, recorded = spec
        job = _JOBS[spec] = _linescope.BatchJob(command, list(options), list(recorded))
    return job


def _record(line, worker=None):
    return dict(json.loads(line), worker=worker)


def _process_partition(tasks, spec, out_dir, protected):
    """Runs a partition's tasks on this worker: each (line, worker)."""
    job = _job(spec)
    worker = f"{socket.gethostname()}:{os.getpid()}"
    return [(job.run(task, out_dir, protected), worker) for task in tasks]


class _Batch:
    """A planned batch: the manifest, the settled lines, the tasks and how to run them."""

    def __init__(self, files, op, out_dir, root, redo, params):
        self.command = _command(op)
        recorded = tuple(cli_options(**params))
        # Dask runs files in parallel: one engine thread a file unless told otherwise. Not
        # recorded, so that the CLI's manifest and this one resume each other.
        engine = recorded if "threads" in params else recorded + ("--threads", "1")
        self.spec = (self.command, engine, recorded)
        self.job = _job(self.spec)  # bad options fail here, once, with the CLI's message
        # As given, as the CLI takes --out-dir: files that name another output name it so.
        self.out_dir = os.fspath(out_dir)
        inputs = _inputs(files, root, self.out_dir)
        os.makedirs(self.out_dir, exist_ok=True)
        self.manifest = _linescope.BatchManifest(self.out_dir)
        self.tasks, self.settled = self.manifest.plan(self.command, self.job, self.out_dir, inputs, bool(redo))
        self.inputs = [path for path, _ in inputs]
        self.protected = _file_ids(self.inputs)

    def bag(self, files_per_task):
        if not self.tasks:
            return db.from_sequence([], npartitions=1)
        tasks = db.from_sequence(self.tasks, partition_size=max(1, int(files_per_task)))
        return tasks.map_partitions(_process_partition, self.spec, self.out_dir,
                                    dask.delayed(self.protected, traverse=False))

    def in_input_order(self, done):
        """The records of the settled lines and of `done` ((line, worker) pairs), one per input
        in the inputs' order."""
        by_input = {}
        for line in self.settled:
            by_input.setdefault(json.loads(line)["input"], _record(line))
        for line, worker in done:
            record = _record(line, worker)
            by_input[record["input"]] = record
        return [by_input[i] for i in dict.fromkeys(self.inputs) if i in by_input]


def batch_bag(files, op, out_dir, /, *, root=None, redo=False, files_per_task=1, **params):
    """A lazy Dask bag of the (manifest line, worker) of each input to process: computing it
    runs ``op`` on those files and writes their outputs under ``out_dir``. ``batch`` computes it
    and appends the lines to the manifest; use this bag to compose with other bags (and append
    the lines yourself, with ``_linescope.BatchManifest(out_dir).append``, to resume later).

    files, op, out_dir, root, redo, files_per_task, params: as ``batch``.
    """
    return _Batch(files, op, out_dir, root, redo, params).bag(files_per_task)


def _failed_lines(job, tasks, error):
    return [(job.failed_line(task, error), None) for task in tasks]


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


def _run_on_client(client, plan, bag, files_per_task):
    """The partitions as futures; each one's lines go into the manifest as it finishes."""
    from distributed import as_completed
    size = max(1, int(files_per_task))
    parts = bag.to_delayed()
    futures = client.compute(parts)
    index = {f.key: i for i, f in enumerate(futures)}
    done = []
    for fut in as_completed(futures, loop=client.loop):
        i = index[fut.key]
        try:
            lines = fut.result()
        except Exception as e:  # KilledWorker and the like: this task's files only
            lines = _failed_lines(plan.job, plan.tasks[i * size:(i + 1) * size], f"{type(e).__name__}: {e}")
        for line, _ in lines:
            plan.manifest.append(line)
        done += lines
    return done


class _AppendEachPartition(Callback):
    """On Dask's local schedulers: each partition's lines go into the manifest as it
    finishes (the scheduler calls _posttask in this process)."""

    def __init__(self, name, manifest):
        super().__init__()
        self._name, self._manifest = name, manifest

    def _posttask(self, key, result, dsk, state, worker_id):
        if isinstance(key, tuple) and key[0] == self._name:
            for line, _ in result:
                self._manifest.append(line)


def batch(files, op, out_dir, /, *, root=None, redo=False, scheduler=None, files_per_task=1, **params):
    """Runs ``op`` on every file on the current Dask scheduler, as ``linescope-cli batch``
    does, and appends each file's record to ``out_dir/batch-manifest.jsonl`` as it finishes.

    files: a folder, glob or @LIST (a str or path, taken as ``linescope-cli batch --inputs``
        takes it), or a list of image paths, mirrored relative to ``root`` (default: their
        common folder).
    op: the CLI's command: open, close, erode, dilate, tophat, sweep, spectrum, orientation
        (or orientation_field), skew or contours.
    out_dir: the output folder; the outputs have the CLI's names (NAME.EXT for images,
        the folder NAME/ for a sweep, NAME.skew.json, NAME.spectrum.json,
        NAME.orientation.json, and NAME + the suffix given to deskew, json, svg, csv or
        needles).
    params: the command's options, named as the CLI names them with underscores for dashes
        (``cli_options``): ``batch(files, "skew", out, deskew=".deskewed.png")`` runs
        ``linescope-cli batch … skew --deskew .deskewed.png``. threads defaults to 1 (Dask
        runs files in parallel).
    redo: process every file, even those complete from an earlier run (the CLI's --redo).
    scheduler: None (Dask's current one: a default distributed Client, else threads),
        "threads", "processes", "sync", or a distributed Client. On a cluster, a file whose
        task keeps killing workers (distributed gives up after its allowed failures) is
        recorded as failed and the others go on.
    files_per_task: files in one Dask task (1: a lost worker costs one file's work).

    A re-run, by this function or by the CLI, skips a file whose latest record is ok (or
    skipped) for the same command, options and input (size and modification time) and whose
    outputs all exist. Returns the records, one a file in the order of the inputs, as the
    manifest has them (input, status "ok", "failed" or "skipped", outputs relative to
    out_dir, error, time_ms, results, notes, command, options, input_bytes,
    input_mtime_ns), each with "worker" added (the host:pid that ran it; None when skipped).
    """
    plan = _Batch(files, op, out_dir, root, redo, params)
    for line in plan.settled:
        plan.manifest.append(line)
    bag = plan.bag(files_per_task)
    client = _distributed_client(scheduler)
    if not plan.tasks:
        done = []
    elif client is not None:
        done = _run_on_client(client, plan, bag, files_per_task)
    else:
        with _AppendEachPartition(bag.name, plan.manifest):
            done = bag.compute(scheduler=scheduler)
    return plan.in_input_order(done)


def read_manifest(path):
    """The records of a manifest (JSON lines) as a list of dicts; a line cut short by a crash
    is left out, as the CLI leaves it out."""
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                records.append(json.loads(line))
            except ValueError:
                continue
    return records
