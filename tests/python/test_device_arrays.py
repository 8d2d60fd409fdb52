"""Arrays that are not NumPy's: host arrays through DLPack (here, in CI), and GPU arrays of
PyTorch and CuPy given to every function (on a machine with a GPU and either library: the GPU
machine runs this file with tests/gpu/run-python-device.sh): straight into the CUDA engine and
back without a copy, or copied to the host once where a function's first stage is the host's.

Every GPU result is compared bit for bit with the CPU backend, or with the same call on the
NumPy copy, on the same pixels.
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


def _cuda_usable():
    return linescope.DeviceArray is not None and linescope.resolve_backend("auto") == "cuda"


def _full_build():
    """The build with app/ (OpenCV): deskew, thresholds of host images, imwrite. The GPU
    machine's engine-only module has none of them."""
    return hasattr(linescope._linescope, "deskew")


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


EVERY_FUNCTION = {
    "open": lambda g: linescope.open(g, 0, 3),
    "sweep": lambda g: linescope.sweep(g, 3, angles=4),
    "sweep-segment": lambda g: linescope.sweep(g, 3, angles=4, line="segment"),
    "spectrum": lambda g: linescope.spectrum(g, angles=4),
    "orientation_field": lambda g: linescope.orientation_field(g),
    "skew": lambda g: linescope.skew(g),
    "deskew": lambda g: linescope.deskew(g, 1.0),
    "contours": lambda g: linescope.contours(g),
    "contours-otsu": lambda g: linescope.contours(g, otsu=True),
    "otsu_threshold": lambda g: linescope.otsu_threshold(g),
    "imwrite": lambda g: linescope.imwrite("never-written.png", g),
}


@pytest.mark.parametrize("name", EVERY_FUNCTION)
def test_every_function_takes_gpu_arrays_or_says_why_cuda_cannot(name):
    # Here (no GPU, or no CUDA in the build) each function routes the GPU array to the CUDA
    # engine or to its one copy to the host, and says that CUDA is what it lacks.
    if _cuda_usable():
        pytest.skip("CUDA is usable here: the GPU tests below run instead")
    with pytest.raises(RuntimeError, match="CUDA"):
        EVERY_FUNCTION[name](FakeGpuArray())


def test_a_gpu_array_with_backend_cpu_or_without_cuda_is_refused_clearly():
    with pytest.raises((ValueError, RuntimeError), match="GPU"):
        linescope.open(FakeGpuArray(), 0, 3, backend="cpu")
    if linescope.DeviceArray is None or linescope.resolve_backend("auto") != "cuda":
        with pytest.raises(RuntimeError, match="CUDA"):
            linescope.open(FakeGpuArray(), 0, 3)


# --- GPU arrays (a machine with CUDA, and PyTorch or CuPy) ------------------------------


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
        assert got.colours.shape == want.colours.shape
        np.testing.assert_array_equal(from_device(torch, got.colours), want.colours, err_msg=f"{op} colours")
        np.testing.assert_array_equal(got.colours.get(), want.colours)
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


def test_sweeps_and_spectra_of_every_line_kind_equal_the_cpu_backend(torch, dtype):
    # Segment and periodic lines: one opening an angle on the device, folded there; the
    # spectrum summed in the CPU's order, so equal for float32 too.
    rng = np.random.default_rng(17)
    for line in ("segment", "periodic"):
        a = random_image(rng, dtype, int(rng.integers(40, 160)), int(rng.integers(40, 160)))
        for op in ("open", "close", "erode", "dilate"):
            length = int(rng.integers(1, 25))
            got = linescope.sweep(to_torch(torch, a), length, angles="3:180:7", op=op, line=line)
            want = linescope.sweep(a, length, angles="3:180:7", op=op, line=line, backend="cpu")
            for field in ("sup", "inf", "strength", "orientation", "arg_index"):
                np.testing.assert_array_equal(from_device(torch, getattr(got, field)), getattr(want, field),
                                              err_msg=f"{line} {op} λ {length} {field}")
            np.testing.assert_array_equal(from_device(torch, got.colours), want.colours)
            np.testing.assert_array_equal(got.spectrum, want.spectrum, err_msg=f"{line} {op} spectrum")
            assert got.spectrum.dtype == want.spectrum.dtype
        s = linescope.spectrum(to_torch(torch, a), 9, angles=24, op="close", line=line)
        c = linescope.spectrum(a, 9, angles=24, op="close", line=line, backend="cpu")
        np.testing.assert_array_equal(s.spectrum, c.spectrum)
        assert s.peaks == c.peaks
    sliced = to_torch(torch, a)[5:, 3:-4]
    np.testing.assert_array_equal(
        from_device(torch, linescope.sweep(sliced, 7, angles=10, line="periodic").sup),
        linescope.sweep(np.ascontiguousarray(a[5:, 3:-4]), 7, angles=10, line="periodic", backend="cpu").sup)


def test_sweep_colours_are_rgb_device_arrays_read_by_both_protocols(torch, cupy, dtype):
    rng = np.random.default_rng(41)
    a = random_image(rng, dtype, 57, 91)
    for img in (a, np.full((30, 40), 7, dtype)):  # a flat image has no orientation: black
        got = linescope.sweep(to_torch(torch, img), 9, angles="10:170:9", op="close")
        want = linescope.sweep(img, 9, angles="10:170:9", op="close", backend="cpu")
        assert got.colours.shape == want.colours.shape and got.colours.dtype == np.uint8
        np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(got.colours)), want.colours)
        np.testing.assert_array_equal(from_device(torch, got.colours), want.colours)
        assert "(57, 91, 3)" in repr(got.colours) or "(30, 40, 3)" in repr(got.colours)


def test_orientation_fields_and_skews_of_tensors_equal_the_numpy_copy(torch, dtype):
    # Both copy the array to the host once and go on as for NumPy: the same numbers, for every
    # method and backend, from contiguous and strided tensors.
    rng = np.random.default_rng(23)
    yy, xx = np.mgrid[0:181, 0:233]
    ridges = (127 + 100 * np.sin(0.45 * (xx * 0.8 + yy * 0.6))).astype(np.float32)
    a = (ridges + rng.uniform(0, 20, ridges.shape)).astype(dtype)
    for backend in ("auto", "cpu"):
        for method in ("block", "pixel"):
            got = linescope.orientation_field(to_torch(torch, a), block=12, method=method, backend=backend)
            want = linescope.orientation_field(a, block=12, method=method, backend=backend)
            for name, value in want._asdict().items():
                np.testing.assert_array_equal(getattr(got, name), value, err_msg=f"{method} {backend} {name}")
        got = linescope.skew(to_torch(torch, a), angles="-10:10.5:0.5", backend=backend)
        want = linescope.skew(a, angles="-10:10.5:0.5", backend=backend)
        for name, value in want._asdict().items():
            np.testing.assert_array_equal(getattr(got, name), value, err_msg=f"skew {backend} {name}")
    t = to_torch(torch, a)[7:170, 11:220]
    np.testing.assert_array_equal(linescope.orientation_field(t, block=9).angles,
                                  linescope.orientation_field(np.ascontiguousarray(a[7:170, 11:220]), block=9).angles)
    assert linescope.skew(t).angle == linescope.skew(np.ascontiguousarray(a[7:170, 11:220])).angle


def _assert_same_contours(got, want, what):
    assert len(got[0]) == len(want[0]), what
    for g, w in zip(got[0], want[0]):
        np.testing.assert_array_equal(g, w, err_msg=what)
    if want[1] is None:
        assert got[1] is None, what
    else:
        np.testing.assert_array_equal(got[1], want[1], err_msg=what)


def test_contours_of_tensors_equal_the_cpu_backend(torch):
    rng = np.random.default_rng(29)
    blobs = rng.uniform(0, 1, (97, 131)) > 0.6
    for mode in ("external", "list", "ccomp", "tree"):
        for approx in ("none", "simple"):
            want = linescope.contours(blobs.astype(np.uint8) * 200, mode, approx, backend="cpu")
            for tensor in (to_torch(torch, blobs.astype(np.uint8) * 200), torch.from_numpy(blobs).cuda()):
                _assert_same_contours(linescope.contours(tensor, mode, approx), want, f"{mode} {approx} {tensor.dtype}")
    for dtype in (np.uint8, np.uint16):
        a = random_image(rng, dtype, 83, 119)
        threshold = 100.5 if dtype == np.uint8 else 30000
        want = linescope.contours((a > threshold).astype(np.uint8), backend="cpu")
        _assert_same_contours(linescope.contours(to_torch(torch, a), threshold=threshold), want, f"{a.dtype} > T")
        _assert_same_contours(linescope.contours(to_torch(torch, a)[3:, 5:], threshold=threshold),
                              linescope.contours((a[3:, 5:] > threshold).astype(np.uint8), backend="cpu"), "strided")
        if _full_build():
            _assert_same_contours(linescope.contours(to_torch(torch, a), threshold=threshold),
                                  linescope.contours(a, threshold=threshold, backend="cpu"), f"{a.dtype} threshold")
    if _full_build():  # float32 thresholds and Otsu's: on a host copy, OpenCV's comparison
        f = random_image(rng, np.float32, 71, 89)
        for kwargs in ({"threshold": 0.1}, {"otsu": True}):
            _assert_same_contours(linescope.contours(to_torch(torch, f), **kwargs),
                                  linescope.contours(f, **kwargs, backend="cpu"), str(kwargs))
        assert linescope.otsu_threshold(to_torch(torch, f)) == linescope.otsu_threshold(f)


def test_deskew_of_a_tensor_is_a_device_array_of_the_numpy_result(torch, dtype, tmp_path):
    if not _full_build():
        pytest.skip("deskew and imwrite need the build with OpenCV")
    a = random_image(np.random.default_rng(31), dtype, 120, 160)
    for border in ("replicate", "white"):
        got = linescope.deskew(to_torch(torch, a), 2.5, border=border)
        np.testing.assert_array_equal(from_device(torch, got), linescope.deskew(a, 2.5, border=border))
    linescope.imwrite(tmp_path / "t.tiff", to_torch(torch, a))
    linescope.imwrite(tmp_path / "d.tiff", linescope.open(to_torch(torch, a), 0, 3))
    np.testing.assert_array_equal(linescope.imread(tmp_path / "t.tiff"), a)
    np.testing.assert_array_equal(linescope.imread(tmp_path / "d.tiff"), linescope.open(a, 0, 3, backend="cpu"))


def test_a_copy_to_the_host_waits_for_the_producers_stream(torch):
    a = np.random.default_rng(37).integers(0, 256, size=(1024, 1536), dtype=np.int64).astype(np.uint8)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        src = torch.from_numpy(a.astype(np.float32)).cuda(non_blocking=False)
        work = src
        for _ in range(30):
            work = (work * 3.0 - src * 2.0)
        t = work.to(torch.uint8)
        copied = linescope._linescope.device_download(t[1:, 2:], False)
        field = linescope.orientation_field(t)
    np.testing.assert_array_equal(copied, a[1:, 2:])
    want = linescope.orientation_field(a)
    np.testing.assert_array_equal(field.angles, want.angles)
    up = linescope._linescope.device_upload(a)
    np.testing.assert_array_equal(from_device(torch, up), a)


def _raised(call):
    with pytest.raises(Exception) as e:
        call()
    return type(e.value), str(e.value)


@pytest.mark.parametrize("name", ["orientation_field", "skew", "sweep-segment", "spectrum", "contours"])
def test_bad_gpu_arrays_to_every_function_raise_what_numpy_ones_raise(torch, name):
    call = EVERY_FUNCTION[name]
    nan = np.zeros((40, 50), np.float32)
    nan[7, 9] = np.nan
    cases = [nan, np.zeros((40, 50), np.int32), np.zeros((2, 40, 50), np.uint8), np.zeros((0, 8), np.uint8)]
    if name == "contours":
        cases.append(np.zeros((20, 30), np.float32))  # no threshold: uint8 or bool only
    for a in cases:
        got = _raised(lambda: call(torch.from_numpy(a).cuda()))
        want = _raised(lambda: call(a))
        assert got == want, f"{name} {a.dtype} {a.shape}"


# --- several GPUs ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def two_gpus(torch):
    if torch.cuda.device_count() < 2:
        pytest.skip("one GPU: no second one to put an array on")
    return torch


def test_an_array_on_the_second_gpu_is_worked_there(two_gpus):
    torch = two_gpus
    rng = np.random.default_rng(31)
    a = random_image(rng, np.uint8, 157, 211)
    before = torch.cuda.current_device()
    t = torch.from_numpy(a).to("cuda:1")
    torch.cuda.synchronize(1)  # PyTorch's __dlpack__ hands over on the current device's stream
    got = linescope.open(t, 30, 21)
    assert got.__dlpack_device__() == (2, 1)  # kDLCUDA, GPU 1
    back = torch.from_dlpack(got)
    assert back.device.index == 1
    np.testing.assert_array_equal(back.cpu().numpy(), linescope.open(a, 30, 21, backend="cpu"))
    s = linescope.sweep(t, 15, angles="0:180:6", op="close")
    want = linescope.sweep(a, 15, angles="0:180:6", op="close", backend="cpu")
    np.testing.assert_array_equal(s.sup.get(), want.sup)
    np.testing.assert_array_equal(s.spectrum, want.spectrum)
    assert s.sup.__dlpack_device__() == (2, 1)
    blobs = (a > 128).astype(np.uint8)
    on1 = torch.from_numpy(blobs).to("cuda:1")
    torch.cuda.synchronize(1)
    _assert_same_contours(linescope.contours(on1),
                          linescope.contours(blobs, backend="cpu"), "GPU 1")
    try:
        import cupy
    except ImportError:
        cupy = None
    if cupy is not None:  # the CUDA array interface names no device: its pointer's
        with cupy.cuda.Device(1):
            c = cupy.asarray(a)
        np.testing.assert_array_equal(linescope.open(c, 30, 21).get(), linescope.open(a, 30, 21, backend="cpu"))
    assert torch.cuda.current_device() == before


def test_a_call_leaves_the_callers_current_gpu_as_it_was(two_gpus):
    torch = two_gpus
    a = random_image(np.random.default_rng(33), np.uint16, 64, 96)
    t0 = torch.from_numpy(a).to("cuda:0")
    with torch.cuda.device(1):
        got = linescope.dilate(t0, 45, 9)
        np.testing.assert_array_equal(got.get(), linescope.dilate(a, 45, 9, backend="cpu"))
        assert torch.cuda.current_device() == 1
    assert got.__dlpack_device__() == (2, 0)
    np.testing.assert_array_equal(got.get(), linescope.dilate(a, 45, 9, backend="cpu"))
