#!/usr/bin/env python3
"""OpenCV peer of linescope-gpu-bench: cv2.morphologyEx openings with the digital segment as
a 2-D kernel, and cv2.findContours, with all of OpenCV's threads and with one
(cv2.setNumThreads), timed with time.perf_counter (median of a few runs after one warm-up).

  cv2_peer.py [--out DIR] [--inputs DIR] [--quick] [--mask-style path|round] [--budget S]
              [--only morph,contours]
  cv2_peer.py --combine GPU_SUMMARY.csv CV2.csv [--out FILE]

Workloads (keys shared with gpu-bench-summary.csv):
  sweep-640-41        180 openings of 640x640 (0:180:1 deg), lambda=41, folded in numpy into
                      sup, inf, arg (smallest k reaching sup), strength and the spectrum
  sweep-640-41-opens  the same 180 morphologyEx calls alone (no numpy fold)
  open-4096-30-L      one opening of 4096x4096 at 30 deg, lambda = 11, 41, 251, 501
  sweep-3840x2160-41  as sweep-640-41 at 3840x2160; when the estimate exceeds --budget seconds,
                      every n-th angle is timed and the time scaled to 180 angles (said so)
  contours-WxH-N      cv2.findContours(RETR_TREE, CHAIN_APPROX_NONE) on each binary image the
                      GPU bench's contours section dumped (DIR/contours-WxH-N.bits: N borders
                      asked for, packed bits, little bit order); findContours itself runs on one
                      thread whatever setNumThreads says, both settings are timed all the same

Inputs: DIR/input-WxH.u8 written by `linescope-gpu-bench --dump-inputs DIR` (the same pixels
as the GPU bench); without them, a seeded image of the same kind (noise, lines, rectangles).
The kernel is the engine's own segment (--mask-style path: the pixels (k, off(k)) of the
engine's fixed-point line family, k = -a..b, in its tight bounding box, anchored at k = 0) or
(round(k cos a), round(-k sin a)) (--mask-style round). OpenCV's default border for erode and
dilate ignores the outside of the image, as the engine does.
"""

import argparse
import csv
import math
import os
import re
import statistics
import sys
import time


# --- The engine's line geometry (compute/line_geometry.cpp), for the kernels --------------------

def llround(x):
    """C's llround: to nearest, halves away from zero."""
    a = abs(x)
    r = math.floor(a)
    if a - r >= 0.5:
        r += 1
    return int(r) if x >= 0 else -int(r)


def normalize_angle(deg):
    a = math.fmod(deg, 180.0)
    if a < 0:
        a += 180.0
    if a >= 180.0:
        a = 0.0
    return a


def line_family(deg):
    """(y_major, S): the major axis and the 16.16 fixed-point slope of the engine."""
    a = normalize_angle(deg)
    y_major = 45.0 < a < 135.0
    r = a * math.pi / 180.0
    s = -math.cos(r) / math.sin(r) if y_major else -math.tan(r)
    return y_major, llround(s * 65536.0)


def segment_points(deg, length, style):
    a = (length - 1) // 2
    b = length - 1 - a
    pts = []
    if style == "path":
        y_major, slope = line_family(deg)
        for k in range(-a, b + 1):
            o = (k * slope + 32768) >> 16  # Python's >> floors, like the arithmetic shift
            pts.append((o, k) if y_major else (k, o))
    else:
        r = normalize_angle(deg) * math.pi / 180.0
        for k in range(-a, b + 1):
            pts.append((llround(k * math.cos(r)), llround(-k * math.sin(r))))
    return pts


def segment_kernel(np, deg, length, style):
    """The mask in its tight bounding box and its anchor (x, y) = the pixel of k = 0."""
    pts = segment_points(deg, length, style)
    x0 = min(p[0] for p in pts)
    y0 = min(p[1] for p in pts)
    x1 = max(p[0] for p in pts)
    y1 = max(p[1] for p in pts)
    kernel = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    for x, y in pts:
        kernel[y - y0, x - x0] = 1
    return kernel, (-x0, -y0)


# --- Inputs ----------------------------------------------------------------------------------------

def load_or_make(np, cv2, inputs, w, h, log):
    if inputs:
        path = os.path.join(inputs, "input-%dx%d.u8" % (w, h))
        if os.path.exists(path):
            img = np.fromfile(path, dtype=np.uint8)
            if img.size == w * h:
                return img.reshape(h, w), "the GPU bench's input"
            log.append("%s has %d bytes, not %d: using an own image" % (path, img.size, w * h))
    rng = np.random.default_rng(20261100 + w * 100003 + h)
    img = rng.integers(0, 64, size=(h, w), dtype=np.uint8)
    lines = max(8, w * h // 20000)
    for _ in range(lines):
        ax, ay = int(rng.integers(0, w)), int(rng.integers(0, h))
        ang = float(rng.random()) * math.pi
        ln = 10 + float(rng.random()) * (0.5 * max(w, h) - 10)
        bx, by = int(ax + ln * math.cos(ang)), int(ay - ln * math.sin(ang))
        cv2.line(img, (ax, ay), (bx, by), int(rng.integers(96, 256)), int(rng.integers(1, 4)), cv2.LINE_8)
    for _ in range(lines // 8):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        cv2.rectangle(img, (x, y), (x + int(rng.integers(4, 64)), y + int(rng.integers(4, 64))),
                      int(rng.integers(64, 200)), cv2.FILLED)
    return img, "an own seeded image (no GPU-bench input found)"


# --- Timing ----------------------------------------------------------------------------------------

def timed(fn, repeats, warmup=1):
    for _ in range(warmup):
        fn()
    ms = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        ms.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ms), min(ms), max(ms), len(ms)


def repeats_for(one_ms, wanted, budget_s):
    """At most `wanted` repeats, fewer when one run is long, never fewer than one."""
    return max(1, min(wanted, int(budget_s * 1e3 / max(one_ms, 1e-3))))


# --- Workloads -------------------------------------------------------------------------------------

class Sweep:
    """180 openings folded into sup, inf, arg, strength and the spectrum (numpy)."""

    def __init__(self, np, cv2, src, kernels):
        self.np, self.cv2, self.src, self.kernels = np, cv2, src, kernels
        h, w = src.shape
        self.sup = np.empty((h, w), np.uint8)
        self.inf = np.empty((h, w), np.uint8)
        self.arg = np.zeros((h, w), np.uint16)
        self.gt = np.empty((h, w), np.bool_)
        self.strength = np.empty((h, w), np.uint8)
        self.spectrum = np.zeros(len(kernels), np.int64)

    def run(self, indices=None, fold=True):
        np, cv2 = self.np, self.cv2
        first = True
        for k in (range(len(self.kernels)) if indices is None else indices):
            kernel, anchor = self.kernels[k]
            o = cv2.morphologyEx(self.src, cv2.MORPH_OPEN, kernel, anchor=anchor)
            if not fold:
                continue
            if first:
                np.copyto(self.sup, o)
                np.copyto(self.inf, o)
                self.arg.fill(0)
                first = False
            else:
                np.greater(o, self.sup, out=self.gt)
                np.copyto(self.arg, k, where=self.gt)
                np.maximum(self.sup, o, out=self.sup)
                np.minimum(self.inf, o, out=self.inf)
            self.spectrum[k] = int(o.sum(dtype=np.uint64))
        if fold:
            np.subtract(self.sup, self.inf, out=self.strength)


def main_bench(args):
    import cv2
    import numpy as np

    log = []
    rows = []  # dicts: key, description, threads, median_ms, min_ms, max_ms, repeats, note
    default_threads = cv2.getNumThreads()
    modes = [("all (%d)" % default_threads, default_threads), ("1", 1)]
    repeats = 2 if args.quick else 3
    budget = args.budget if args.budget else (8.0 if args.quick else 20.0)
    header = ["# OpenCV peer (cv2.morphologyEx, cv2.findContours)", "",
              "- OpenCV %s, NumPy %s, Python %s; %d CPUs; OpenCV default threads: %d" % (
                  cv2.__version__, np.__version__, sys.version.split()[0], os.cpu_count() or 0, default_threads),
              "- kernel: the segment, mask style '%s'; time.perf_counter, 1 warm-up + median of up to %d runs"
              % (args.mask_style, repeats), ""]
    print("\n".join(header), flush=True)

    def add(key, description, threads, stats, note=""):
        med, lo, hi, n = stats
        rows.append(dict(key=key, description=description, threads=threads, median_ms=med, min_ms=lo,
                         max_ms=hi, repeats=n, note=note))
        print("  %-22s %-8s %10.2f ms  (%s)%s" % (key, threads, med, description,
                                                  "  [" + note + "]" if note else ""), flush=True)
        write_outputs(args.out, header, rows, modes, log)  # a run cut short keeps what it measured

    def probe(fn):
        t0 = time.perf_counter()
        fn()
        return (time.perf_counter() - t0) * 1e3

    if "morph" in args.only:
        morph_workloads(np, cv2, args, log, add, probe, modes, repeats, budget)
    if "contours" in args.only:
        contour_workloads(np, cv2, args, log, add, probe, modes, repeats)
    cv2.setNumThreads(default_threads)

    print("\n" + write_outputs(args.out, header, rows, modes, log), flush=True)
    return 0


def contour_inputs(inputs):
    """(width, height, borders, path) of each dumped contours image, smallest first."""
    found = []
    if not inputs or not os.path.isdir(inputs):
        return found
    for name in os.listdir(inputs):
        m = re.fullmatch(r"contours-(\d+)x(\d+)-(\d+)\.bits", name)
        if m:
            found.append((int(m.group(1)), int(m.group(2)), int(m.group(3)), os.path.join(inputs, name)))
    return sorted(found, key=lambda f: (f[0] * f[1], f[2]))


def contour_workloads(np, cv2, args, log, add, probe, modes, repeats):
    """cv2.findContours on the GPU bench's contours images, within a time budget."""
    images = contour_inputs(args.inputs)
    if not images:
        log.append("contours: no contours-WxH-N.bits in %s (run linescope-gpu-bench --dump-inputs with the "
                   "contours section): skipped" % args.inputs)
        return
    budget = args.contours_budget if args.contours_budget else (10.0 if args.quick else 40.0)
    per_image = budget / len(images) / len(modes)
    for w, h, n, path in images:
        packed = np.fromfile(path, dtype=np.uint8)
        if packed.size * 8 < w * h:
            log.append("%s has %d bytes, too few for %dx%d: skipped" % (path, packed.size, w, h))
            continue
        img = np.ascontiguousarray(np.unpackbits(packed, count=w * h, bitorder="little").reshape(h, w))
        run = lambda: cv2.findContours(img, cv2.RETR_TREE, cv2.CHAIN_APPROX_NONE)
        found = len(run()[0])
        for label, threads in modes:
            cv2.setNumThreads(threads)
            one = probe(run)
            add("contours-%dx%d-%d" % (w, h, n), "findContours %dx%d, %d contours (RETR_TREE, CHAIN_APPROX_NONE)"
                % (w, h, found), label, timed(run, repeats_for(one, max(repeats, 7), per_image), warmup=0))


def morph_workloads(np, cv2, args, log, add, probe, modes, repeats, budget):
    """The openings and sweeps."""
    # The 640x640 sweep.
    src640, origin = load_or_make(np, cv2, args.inputs, 640, 640, log)
    log.append("640x640: " + origin)
    kernels41 = [segment_kernel(np, k, 41, args.mask_style) for k in range(180)]
    sweep640 = Sweep(np, cv2, src640, kernels41)
    for label, n in modes:
        cv2.setNumThreads(n)
        one = probe(sweep640.run)
        add("sweep-640-41", "sweep 640x640, 180 angles, open lambda=41, numpy fold (sup/inf/arg/strength/spectrum)",
            label, timed(sweep640.run, repeats_for(one, repeats, budget / 2), warmup=0))
        add("sweep-640-41-opens", "the same 180 morphologyEx calls without the fold", label,
            timed(lambda: sweep640.run(fold=False), repeats_for(one, repeats, budget / 2), warmup=0))

    # One opening of 4096x4096 at 30 degrees.
    src4096, origin = load_or_make(np, cv2, args.inputs, 4096, 4096, log)
    log.append("4096x4096: " + origin)
    dst4096 = np.empty_like(src4096)
    for length in (11, 41, 251, 501):
        kernel, anchor = segment_kernel(np, 30, length, args.mask_style)
        run = lambda: cv2.morphologyEx(src4096, cv2.MORPH_OPEN, kernel, dst=dst4096, anchor=anchor)
        for label, n in modes:
            cv2.setNumThreads(n)
            one = probe(run)
            add("open-4096-30-%d" % length, "one opening 4096x4096, 30 deg, lambda=%d (%dx%d kernel)"
                % (length, kernel.shape[1], kernel.shape[0]), label,
                timed(run, repeats_for(one, repeats, budget / 4), warmup=0))

    # The 3840x2160 sweep, within the budget.
    src4k, origin = load_or_make(np, cv2, args.inputs, 3840, 2160, log)
    log.append("3840x2160: " + origin)
    sweep4k = Sweep(np, cv2, src4k, kernels41)
    for label, n in modes:
        cv2.setNumThreads(n)
        sample = [0, 30, 60, 90, 120, 150]
        per_angle = probe(lambda: sweep4k.run(indices=sample)) / len(sample)
        full = per_angle * 180
        if full / 1e3 <= budget:
            reps = repeats_for(full, min(repeats, 2), budget)
            add("sweep-3840x2160-41", "sweep 3840x2160, 180 angles, open lambda=41, numpy fold", label,
                timed(sweep4k.run, reps, warmup=0), "all 180 angles")
        else:
            step = int(math.ceil(full / 1e3 / budget))
            subset = list(range(0, 180, step))
            scale = 180.0 / len(subset)
            med, lo, hi, cnt = timed(lambda: sweep4k.run(indices=subset), 1, warmup=0)
            add("sweep-3840x2160-41", "sweep 3840x2160, 180 angles, open lambda=41, numpy fold", label,
                (med * scale, lo * scale, hi * scale, cnt),
                "extrapolated: %d of 180 angles (one in %d) timed once, x%.1f" % (len(subset), step, scale))


def write_outputs(out, header, rows, modes, log):
    """Writes cv2-peer.md and cv2-peer.csv; returns the Markdown table and notes."""
    by_key = {}
    for r in rows:
        by_key.setdefault(r["key"], {"description": r["description"]})[r["threads"]] = r
    lines = ["| workload | " + " | ".join("OpenCV %s thread%s ms" % (m[0], "" if m[1] == 1 else "s") for m in modes)
             + " | note |", "|---|" + "---:|" * len(modes) + "---|"]
    for cells in by_key.values():
        notes = sorted({c["note"] for t, c in cells.items() if t != "description" and c["note"]})
        lines.append("| %s | %s | %s |" % (cells["description"], " | ".join(
            "%.2f" % cells[m[0]]["median_ms"] if m[0] in cells else "" for m in modes), "; ".join(notes)))
    text = "\n".join(lines) + "\n\n" + "\n".join("- " + s for s in log) + "\n"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "cv2-peer.md"), "w") as f:
        f.write("\n".join(header) + "\n" + text)
    with open(os.path.join(out, "cv2-peer.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["key", "description", "threads", "median_ms", "min_ms", "max_ms",
                                          "repeats", "note"])
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, threads="1" if r["threads"] == "1" else "all",
                            median_ms="%.4f" % r["median_ms"], min_ms="%.4f" % r["min_ms"],
                            max_ms="%.4f" % r["max_ms"]))
    return text


# --- Combined table --------------------------------------------------------------------------------

def read_csv(path):
    if not path or not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def as_ms(text):
    try:
        v = float(text)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def fmt(v):
    if v is None:
        return ""
    return "%.3g" % v if v < 100 else "%.0f" % v


def main_combine(args):
    gpu = read_csv(args.combine[0])
    peer = read_csv(args.combine[1])
    cv = {}
    for r in peer:
        cv.setdefault(r["key"], {})[r["threads"]] = r
    order = [r["key"] for r in gpu] + [k for k in cv if k not in {r["key"] for r in gpu}]
    gpu_by_key = {r["key"]: r for r in gpu}
    out = ["## Combined: LineScope on the GPU against NPP and OpenCV (milliseconds, medians)", "",
           "| workload | LineScope GPU | LineScope end to end | NPP | OpenCV all threads | OpenCV 1 thread "
           "| best peer ÷ LineScope GPU | goal / reference |",
           "|---|---:|---:|---:|---:|---:|---:|---|"]
    notes = []
    for key in order:
        g = gpu_by_key.get(key, {})
        c = cv.get(key, {})
        engine = as_ms(g.get("engine_device_ms"))
        e2e = as_ms(g.get("engine_e2e_ms"))
        npp = as_ms(g.get("npp_ms"))
        cv_all = as_ms(c.get("all", {}).get("median_ms"))
        cv_one = as_ms(c.get("1", {}).get("median_ms"))
        peers = [v for v in (npp, cv_all, cv_one) if v is not None]
        ratio = "%.3g×" % (min(peers) / engine) if peers and engine else ""
        mark = lambda v, note: fmt(v) + (" *" if v is not None and note and "extrapolated" in note else "")
        for who, note in (("NPP", g.get("npp_note")), ("OpenCV all threads", c.get("all", {}).get("note")),
                          ("OpenCV 1 thread", c.get("1", {}).get("note"))):
            if note and "extrapolated" in note:
                notes.append("- * %s, %s: %s" % (key, who, note))
        desc = g.get("description") or c.get("all", c.get("1", {})).get("description", key)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            desc, fmt(engine), fmt(e2e), mark(npp, g.get("npp_note")), mark(cv_all, c.get("all", {}).get("note")),
            mark(cv_one, c.get("1", {}).get("note")), ratio, g.get("goal", "")))
    if not gpu:
        notes.append("- no GPU bench summary (%s): the bench did not finish" % args.combine[0])
    if not peer:
        notes.append("- no OpenCV results (%s)" % args.combine[1])
    text = "\n".join(out + [""] + notes) + "\n"
    if args.out and args.out != "-":
        with open(args.out, "w") as f:
            f.write(text)
    print(text)
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=None, help="folder for cv2-peer.md/.csv (with --combine: the output file)")
    p.add_argument("--inputs", default=None, help="folder with input-WxH.u8 from linescope-gpu-bench --dump-inputs")
    p.add_argument("--quick", action="store_true", help="fewer repeats, a smaller time budget")
    p.add_argument("--mask-style", choices=["path", "round"], default="path")
    p.add_argument("--budget", type=float, default=None, help="seconds for the 3840x2160 sweep per thread setting")
    p.add_argument("--contours-budget", type=float, default=None, help="seconds for all contours workloads")
    p.add_argument("--only", default="morph,contours", help="comma-separated: morph, contours")
    p.add_argument("--combine", nargs=2, metavar=("GPU_SUMMARY_CSV", "CV2_CSV"))
    args = p.parse_args()
    args.only = set(x.strip() for x in args.only.split(",") if x.strip())
    if not args.only <= {"morph", "contours"}:
        p.error("--only takes morph and/or contours")
    if args.combine:
        return main_combine(args)
    if args.out is None:
        args.out = os.environ.get("OUT", "bench-out")
    return main_bench(args)


if __name__ == "__main__":
    sys.exit(main())
