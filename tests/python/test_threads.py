"""Calls from several threads at once give the sequential results, and a call lets other
Python threads run while the engine computes (the GIL is released)."""

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import linescope
from helpers import random_image, same_pixels

CALLS = [
    lambda img: linescope.open(img, 30, 15),
    lambda img: linescope.close(img, 100, 8),
    lambda img: linescope.sweep(img, 9, "0:180:6").sup,
    lambda img: linescope.sweep(img, 9, "0:180:6", "close").orientation,
    lambda img: np.concatenate([c.ravel() for c in linescope.contours(img, threshold=img.mean())[0]]),
    lambda img: linescope.orientation_field(img, block=8).angles,
]


def test_parallel_calls_equal_sequential_ones(dtype):
    images = [random_image(dtype, shape=(90, 70), seed=s) for s in range(4)]
    jobs = [(call, img) for call in CALLS for img in images] * 3
    expected = [call(img) for call, img in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda job: job[0](job[1]), jobs))
    assert all(same_pixels(a, b) for a, b in zip(results, expected))


def test_other_threads_run_while_the_engine_computes():
    # With the switch interval out of reach, a thread that holds the GIL keeps it until it
    # blocks or releases it: the main thread can then only run while the worker is inside
    # the call if the call released the GIL.
    img = random_image(np.uint8, shape=(1024, 1024))
    started = threading.Event()
    finished = []

    def work():
        started.set()
        finished.append(linescope.sweep(img, 41, "0:180:1"))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e6)
    try:
        worker = threading.Thread(target=work)
        worker.start()
        started.wait()
        ran_during_the_call = not finished  # the worker has not come back from sweep
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert ran_during_the_call
    assert finished and finished[0].sup.shape == img.shape
