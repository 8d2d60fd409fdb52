"""What GPU arrays save in Python: one operation on a PyTorch CUDA tensor (in place through
DLPack, the result read by torch.from_dlpack) against the same operation on a NumPy array with
backend="cuda" (host → device → host inside the call). Medians of N calls after a warm-up.
On the GPU machine, after tests/gpu/run-python-device.sh has built the module:
    PYTHONPATH=/tmp/pyb/python /opt/torch/.venv/bin/python tests/bench/python_device_bench.py
"""

import sys
import time

import numpy as np
import torch

import linescope


def median_ms(f, n):
    f()
    torch.cuda.synchronize()
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    rng = np.random.default_rng(1)
    print(f"GPU: {torch.cuda.get_device_name(0)}; linescope {linescope.__version__}; median of {n} calls")
    print("| workload | GPU tensor in, DeviceArray out (ms) | NumPy in and out, backend cuda (ms) | ratio |")
    print("|---|---:|---:|---:|")
    opening = (lambda img: linescope.open(img, 30, 41), lambda img: linescope.open(img, 30, 41, backend="cuda"))
    sweeping = (lambda img: linescope.sweep(img, 41), lambda img: linescope.sweep(img, 41, backend="cuda"))
    for name, (h, w), (call, call_host) in [
        ("open 4096×4096 u8, 30°, λ 41", (4096, 4096), opening),
        ("open 4096×4096 float32, 30°, λ 41", (4096, 4096), opening),
        ("sweep 640×640 u8, 180 angles, λ 41", (640, 640), sweeping),
        ("sweep 3840×2160 u8, 180 angles, λ 41", (2160, 3840), sweeping),
    ]:
        dtype = np.float32 if "float32" in name else np.uint8
        a = (rng.integers(0, 256, size=(h, w), dtype=np.int64)).astype(dtype)
        t = torch.from_numpy(a).cuda()

        def on_device():
            r = call(t)
            if isinstance(r, linescope.DeviceArray):
                torch.from_dlpack(r)
            else:
                torch.from_dlpack(r.sup)

        def on_host():
            return call_host(a)

        d, hst = median_ms(on_device, n), median_ms(on_host, n)
        print(f"| {name} | {d:.2f} | {hst:.2f} | {hst / d:.1f}× |")


if __name__ == "__main__":
    main()
