# Type stubs of the linescope package (the docstrings are in __init__.py).
import os
from typing import List, Literal, Optional, Protocol, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from ._results import (OrientationField as OrientationField, Skew as Skew, Spectrum as Spectrum,
                       SpectrumPeak as SpectrumPeak, SweepResult as SweepResult)

__version__: str
MAX_SWEEP_ANGLES: int

class Error(ValueError): ...

# uint8, uint16 or float32, 2-D (bool too where contours take a mask).
Image = npt.NDArray[Union[np.uint8, np.uint16, np.float32]]
Backend = Literal["auto", "cpu", "cuda"]
Algorithm = Literal["auto", "sheared", "vhgw", "fifo", "stack", "reference"]
SweepOp = Literal["open", "close", "erode", "dilate"]
LineKind = Literal["paths", "segment", "periodic"]
# "start:stop:step" (stop excluded) or "N"; N; or (start, step, count).
Angles = Union[str, int, Tuple[float, float, int], Sequence[float]]

class DeviceArray:
    """A result in GPU memory (the answer to a GPU array), read in place through DLPack or
    __cuda_array_interface__."""
    @property
    def shape(self) -> Union[Tuple[int, int], Tuple[int, int, int]]: ...
    @property
    def dtype(self) -> np.dtype: ...
    @property
    def __cuda_array_interface__(self) -> dict: ...
    def __dlpack__(self, *, stream: Optional[int] = ...) -> object: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def get(self) -> Image: ...

# An array in GPU memory: anything with __dlpack__ (a CUDA device) or __cuda_array_interface__.
# Every function takes one. Read in place on the CUDA engine: the line operators, sweep, spectrum
# and contours (uint8/bool, or uint16 with a threshold); copied to the host once, then on the
# backend asked for: orientation_field, skew, deskew, otsu_threshold, imwrite, and contours with
# otsu, a float32 threshold or backend="cpu".
class _GpuArray(Protocol):
    def __dlpack__(self, *, stream: Optional[int] = ...) -> object: ...

_Input = Union[npt.ArrayLike, _GpuArray]

class _LineOperator(Protocol):
    def __call__(self, img: Union[npt.ArrayLike, _GpuArray], angle: float = ..., length: Optional[int] = ..., *,
                 line: LineKind = ..., backend: Backend = ..., algorithm: Algorithm = ...,
                 threads: int = ...) -> Union[Image, DeviceArray]: ...

open: _LineOperator
close: _LineOperator
erode: _LineOperator
dilate: _LineOperator
tophat: _LineOperator

# A GPU array: every line kind on the device; every image a DeviceArray, colours (H, W, 3) too.
def sweep(img: _Input, length: int, angles: Angles = ..., op: SweepOp = ..., *, line: LineKind = ...,
          backend: Backend = ..., algorithm: Algorithm = ..., threads: int = ...) -> SweepResult: ...

def spectrum(img: _Input, length: Optional[int] = ..., angles: Angles = ..., op: SweepOp = ..., *,
             peaks: int = ..., min_prominence: float = ..., line: LineKind = ..., backend: Backend = ...,
             algorithm: Algorithm = ...,
             threads: int = ...) -> Spectrum: ...

# A GPU array: copied to the host once (the presmoothing Gaussian is the host's).
def orientation_field(img: _Input, *, block: int = ..., length: Optional[int] = ..., angle_count: int = ...,
                      smoothing: float = ..., method: Literal["block", "pixel"] = ..., backend: Backend = ...,
                      algorithm: Algorithm = ..., threads: int = ...) -> OrientationField: ...

# A GPU array: copied to the host once (the page's reduction is the host's).
def skew(page: _Input, *, length: Optional[int] = ..., angles: Angles = ..., refine_range: float = ...,
         refine_step: float = ..., reduction: Optional[int] = ..., bright_lines: bool = ..., line: LineKind = ...,
         backend: Backend = ...,
         algorithm: Algorithm = ..., threads: int = ...) -> Skew: ...
# A GPU array: copied to the host, rotated there, the result uploaded as a DeviceArray.
def deskew(page: _Input, angle: float, *,
           border: Literal["replicate", "white"] = ...) -> Union[Image, DeviceArray]: ...

ContourMode = Union[Literal["external", "list", "ccomp", "tree"], int]
ContourApprox = Union[Literal["none", "simple"], int]

# Host lists and arrays for every input (a GPU array: see _GpuArray).
def contours(img: _Input, mode: ContourMode = ..., approx: ContourApprox = ..., *,
             threshold: Optional[float] = ..., otsu: bool = ..., backend: Backend = ...,
             threads: int = ...) -> Tuple[List[npt.NDArray[np.int32]], Optional[npt.NDArray[np.int32]]]: ...
def otsu_threshold(img: _Input) -> float: ...
def imread(path: Union[str, os.PathLike[str]]) -> Image: ...
def imwrite(path: Union[str, os.PathLike[str]], img: Union[_Input, DeviceArray]) -> None: ...
def resolve_backend(backend: Backend = ...) -> Literal["cpu", "cuda"]: ...
def backend_note() -> str: ...
