"""Arrays that are not NumPy's: host arrays through DLPack (here, in CI), and GPU arrays of
PyTorch and CuPy straight into the CUDA engine and back without a copy (on a machine with a
GPU and either library: the GPU machine runs this file with tests/gpu/run-python-device.sh).

Every GPU result is compared bit for bit with the CPU backend on the same pixels.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import linescope


class HostDlpack:
    """A host array that offers only DLPack (as a CPU PyTorch tensor or a JAX array does)."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, stream=None):
        return self._a.__dlpack__()

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()


class FakeGpuArray:
    """Claims GPU memory through the CUDA array interface (never dereferenced: refused first)."""

    __cuda_array_interface__ = {"shape": (8, 8), "typestr": "|u1", "data": (0, False), "version": 3}


def random_image(rng, dtype, height, width):
    if dtype == np.float32:
        return rng.uniform(-50, 300, size=(height, width)).astype(np.float32)
    high = 256 if dtype == np.uint8 else 65536
    return rng.integers(0, high, size=(height, width), dtype=np.int64).astype(dtype)


# --- host arrays through DLPack (every build) -------------------------------------------

@pytest.mark.skipif(not hasattr(np, "from_dlpack"), reason="NumPy without from_dlpack")
def test_a_host_dlpack_array_gives_the_numpy_result(dtype):
    rng = np.random.default_rng(7)
    a = random_image(rng, dtype, 61, 83)
    np.testing.assert_array_equal(linescope.open(HostDlpack(a), 30, 9, backend="cpu"),
                                  linescope.open(a, 30, 9, backend="cpu"))
    r = linescope.sweep(HostDlpack(a), 7, angles=12, backend="cpu")
    np.testing.assert_array_equal(r.sup, linescope.sweep(a, 7, angles=12, backend="cpu").sup)


@pytest.mark.parametrize("call", [
    lambda g: linescope.orientation_field(g),
    lambda g: linescope.skew(g),
    lambda g: linescope.deskew(g, 1.0),
    lambda g: linescope.contours(g),
    lambda g: linescope.otsu_threshold(g),
], ids=["orientation_field", "skew", "deskew", "contours", "otsu_threshold"])
def test_functions_without_a_gpu_path_refuse_gpu_arrays_by_name(call):
    with pytest.raises(TypeError, match="takes host arrays"):
        call(FakeGpuArray())


def test_a_gpu_array_with_backend_cpu_or_without_cuda_is_refused_clearly():
    with pytest.raises((ValueError, RuntimeError), match="GPU"):
        linescope.open(FakeGpuArray(), 0, 3, backend="cpu")
    if linescope.DeviceArray is None or linescope.resolve_backend("auto") != "cuda":
        with pytest.raises(RuntimeError, match="CUDA"):
            linescope.open(FakeGpuArray(), 0, 3)


# --- GPU arrays (a machine with CUDA, and PyTorch or CuPy) ------------------------------

def _cuda_usable():
    return linescope.DeviceArray is not None and linescope.resolve_backend("auto") == "cuda"


@pytest.fixture(scope="module")
def torch():
    if not _cuda_usable():
        pytest.skip("no usable CUDA device in this linescope")
    return pytest.importorskip("torch")


@pytest.fixture(scope="module")
def cupy():
    if not _cuda_usable():
        pytest.skip("no usable CUDA device in this linescope")
    return pytest.importorskip("cupy")


def to_torch(torch, a):
    # torch has no uint16 arithmetic on every version, but holds and moves it.
    return torch.from_numpy(a).cuda()


def from_device(torch, d):
    assert isinstance(d, linescope.DeviceArray)
    t = torch.from_dlpack(d)
    return t.cpu().numpy()


CASES = [(op, line) for op in ("erode", "dilate", "open", "close", "tophat") for line in ("paths", "segment", "periodic")]


@pytest.mark.parametrize("op,line", CASES, ids=[f"{o}-{k}" for o, k in CASES])
def test_torch_tensors_equal_the_cpu_backend(torch, dtype, op, line):
    rng = np.random.default_rng(hash((op, line, np.dtype(dtype).name)) % 2**32)
    for _ in range(3):
        h, w = int(rng.integers(1, 300)), int(rng.integers(1, 300))
        a = random_image(rng, dtype, h, w)
        angle = float(rng.uniform(-200, 400))
        length = int(rng.integers(1, 80)) if line == "paths" else int(rng.integers(1, 30))
        got = getattr(linescope, op)(to_torch(torch, a), angle, length, line=line)
        want = getattr(linescope, op)(a, angle, length, line=line, backend="cpu")
        np.testing.assert_array_equal(from_device(torch, got), want,
                                      err_msg=f"{op} {line} {a.shape} {a.dtype} angle {angle} length {length}")


def test_strided_tensors_are_read_in_place_and_columns_apart_are_refused(torch, dtype):
    rng = np.random.default_rng(11)
    a = random_image(rng, dtype, 301, 257)
    t = to_torch(torch, a)
    sliced = t[13:250, 7:201]  # rows of 194 pixels, 257 apart, not from the buffer's start
    np.testing.assert_array_equal(from_device(torch, linescope.open(sliced, 33.0, 17)),
                                  linescope.open(np.ascontiguousarray(a[13:250, 7:201]), 33.0, 17, backend="cpu"))
    with pytest.raises(ValueError, match="not in rows"):
        linescope.open(t[:, ::2], 10, 5)


def test_results_are_read_without_a_copy(torch, cupy):
    t = to_torch(torch, np.zeros((64, 80), np.uint8))
    d = linescope.dilate(t, 45, 9)
    ptr = d.__cuda_array_interface__["data"][0]
    assert torch.from_dlpack(d).data_ptr() == ptr
    assert cupy.asarray(d).data.ptr == ptr
    assert d.shape == (64, 80) and d.dtype == np.uint8


def test_a_cuda_array_interface_input_equals_the_cpu_backend(cupy, dtype):
    class OnlyInterface:  # forces the __cuda_array_interface__ path (CuPy also offers DLPack)
        def __init__(self, a):
            self.a = a
            self.__cuda_array_interface__ = a.__cuda_array_interface__

    rng = np.random.default_rng(5)
    a = random_image(rng, dtype, 123, 211)
    got = linescope.close(OnlyInterface(cupy.asarray(a)), 71.5, 23)
    np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(got)), linescope.close(a, 71.5, 23, backend="cpu"))
    np.testing.assert_array_equal(got.get(), linescope.close(a, 71.5, 23, backend="cpu"))


def test_sweeps_and_spectra_of_tensors_equal_the_cpu_backend(torch, dtype):
    rng = np.random.default_rng(3)
    a = random_image(rng, dtype, 197, 263)
    for op in ("open", "close", "erode", "dilate"):
        got = linescope.sweep(to_torch(torch, a), 15, angles="0:180:4", op=op)
        want = linescope.sweep(a, 15, angles="0:180:4", op=op, backend="cpu")
        for field in ("sup", "inf", "strength", "orientation", "arg_index"):
            np.testing.assert_array_equal(from_device(torch, getattr(got, field)), getattr(want, field),
                                          err_msg=f"{op} {field}")
        assert got.colours is None
        if dtype == np.float32:  # summed in another order on the device
            np.testing.assert_allclose(got.spectrum, want.spectrum, rtol=1e-9)
        else:
            np.testing.assert_array_equal(got.spectrum, want.spectrum)
        np.testing.assert_array_equal(got.angles, want.angles)
    s = linescope.spectrum(to_torch(torch, a), angles=36)
    c = linescope.spectrum(a, angles=36, backend="cpu")
    assert s.length == c.length
    np.testing.assert_allclose(s.spectrum, c.spectrum, rtol=1e-9)
    assert [p.index for p in s.peaks] == [p.index for p in c.peaks]


def test_the_engine_waits_for_the_producers_stream(torch):
    # The input is written by a long kernel queued on a side stream: the engine must see the
    # finished pixels, through DLPack's stream hand-over, without a host wait by the caller.
    a = np.random.default_rng(9).integers(0, 256, size=(2048, 2048), dtype=np.int64).astype(np.uint8)
    want = linescope.open(a, 20, 31, backend="cpu")
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        src = torch.from_numpy(a.astype(np.float32)).cuda(non_blocking=False)
        work = src
        for _ in range(30):  # keeps the stream busy, leaves the values as they are
            work = (work * 3.0 - src * 2.0)
        t = work.to(torch.uint8)
        got = linescope.open(t, 20, 31)
    np.testing.assert_array_equal(from_device(torch, got), want)


def test_bad_gpu_arrays_raise_the_cpu_paths_errors(torch):
    with pytest.raises(TypeError, match="int32 pixels"):
        linescope.open(torch.zeros((8, 8), dtype=torch.int32, device="cuda"), 0, 3)
    with pytest.raises(ValueError, match="3 dimensions"):
        linescope.open(torch.zeros((2, 8, 8), dtype=torch.uint8, device="cuda"), 0, 3)
    with pytest.raises(ValueError, match="empty"):
        linescope.open(torch.zeros((0, 8), dtype=torch.uint8, device="cuda"), 0, 3)
    f = torch.zeros((20, 30), dtype=torch.float32, device="cuda")
    f[3, 5] = float("nan")
    with pytest.raises(linescope.Error, match=r"NaN at \(5, 3\)"):
        linescope.open(f, 0, 3)
    with pytest.raises(ValueError, match="backend=\"cpu\""):
        linescope.open(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), 0, 3, backend="cpu")
    with pytest.raises(ValueError, match="length"):
        linescope.open(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), 0, 0)
    with pytest.raises(ValueError, match="paths"):
        linescope.sweep(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), 3, line="segment")
    d = linescope.open(torch.zeros((8, 8), dtype=torch.uint8, device="cuda"), 0, 3)
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(d)


def test_threads_share_the_gpu_engine(torch):
    rng = np.random.default_rng(21)
    images = [random_image(rng, np.uint8, 200 + i, 150 + 3 * i) for i in range(16)]
    tensors = [to_torch(torch, a) for a in images]
    torch.cuda.synchronize()

    def run(i):
        return from_device(torch, linescope.open(tensors[i], 7.0 * i, 5 + i))

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(run, range(len(images))))
    for i, got in enumerate(results):
        np.testing.assert_array_equal(got, linescope.open(images[i], 7.0 * i, 5 + i, backend="cpu"))


def test_a_result_outlives_its_device_array_in_the_consumer(torch):
    d = linescope.dilate(to_torch(torch, np.arange(60 * 70, dtype=np.uint16).reshape(60, 70)), 90, 5)
    t = torch.from_dlpack(d)
    del d
    torch.cuda.synchronize()
    np.testing.assert_array_equal(
        t.cpu().numpy(), linescope.dilate(np.arange(60 * 70, dtype=np.uint16).reshape(60, 70), 90, 5, backend="cpu"))
