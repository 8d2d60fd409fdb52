"""The orientation field's time in one process on each backend (after a warm-up), and whether
the two backends agree, on the bundled prints. On the GPU machine, after
tests/gpu/run-python-device.sh has built the engine-only module (PIL reads the PNGs there):
    PYTHONPATH=/tmp/pyb/python /opt/torch/.venv/bin/python tests/bench/python_field_time.py
Results: tests/bench/task-results.md §2.
"""
import time

import numpy as np
from PIL import Image

import linescope

for name in ["fingerprint", "task_fingerprint_arch_degraded", "task_fingerprint_whorl"]:
    img = np.asarray(Image.open(f"resources/samples/{name}.png").convert("L"))
    for backend in ["cuda", "cpu"]:
        linescope.orientation_field(img, backend=backend)  # warm-up (CUDA context, pools)
        t = []
        for _ in range(20):
            t0 = time.perf_counter()
            linescope.orientation_field(img, backend=backend)
            t.append((time.perf_counter() - t0) * 1e3)
        print(f"{name} {img.shape} {backend}: median {np.median(t):.2f} ms, min {min(t):.2f} ms")
    a = linescope.orientation_field(img, backend="cuda")
    b = linescope.orientation_field(img, backend="cpu")
    print("  equal:", all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ("angles", "coherence", "weight", "foreground")))
