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
    def shape(self) -> Tuple[int, int]: ...
    @property
    def dtype(self) -> np.dtype: ...
    @property
    def __cuda_array_interface__(self) -> dict: ...
    def __dlpack__(self, *, stream: Optional[int] = ...) -> object: ...
    def __dlpack_device__(self) -> Tuple[int, int]: ...
    def get(self) -> Image: ...

# An array in GPU memory: anything with __dlpack__ (a CUDA device) or __cuda_array_interface__.
class _GpuArray(Protocol):
    def __dlpack__(self, *, stream: Optional[int] = ...) -> object: ...

class _LineOperator(Protocol):
    def __call__(self, img: Union[npt.ArrayLike, _GpuArray], angle: float = ..., length: Optional[int] = ..., *,
                 line: LineKind = ..., backend: Backend = ..., algorithm: Algorithm = ...,
                 threads: int = ...) -> Union[Image, DeviceArray]: ...

open: _LineOperator
close: _LineOperator
erode: _LineOperator
dilate: _LineOperator
tophat: _LineOperator

def sweep(img: Union[npt.ArrayLike, _GpuArray], length: int, angles: Angles = ..., op: SweepOp = ..., *, line: LineKind = ...,
          backend: Backend = ..., algorithm: Algorithm = ..., threads: int = ...) -> SweepResult: ...

def spectrum(img: Union[npt.ArrayLike, _GpuArray], length: Optional[int] = ..., angles: Angles = ..., op: SweepOp = ..., *,
             peaks: int = ..., min_prominence: float = ..., line: LineKind = ..., backend: Backend = ...,
             algorithm: Algorithm = ...,
             threads: int = ...) -> Spectrum: ...

def orientation_field(img: npt.ArrayLike, *, block: int = ..., length: Optional[int] = ..., angle_count: int = ...,
                      smoothing: float = ..., method: Literal["block", "pixel"] = ..., backend: Backend = ...,
                      algorithm: Algorithm = ..., threads: int = ...) -> OrientationField: ...

def skew(page: npt.ArrayLike, *, length: Optional[int] = ..., angles: Angles = ..., refine_range: float = ...,
         refine_step: float = ..., reduction: Optional[int] = ..., bright_lines: bool = ..., line: LineKind = ...,
         backend: Backend = ...,
         algorithm: Algorithm = ..., threads: int = ...) -> Skew: ...
def deskew(page: npt.ArrayLike, angle: float, *, border: Literal["replicate", "white"] = ...) -> Image: ...

ContourMode = Union[Literal["external", "list", "ccomp", "tree"], int]
ContourApprox = Union[Literal["none", "simple"], int]

def contours(img: npt.ArrayLike, mode: ContourMode = ..., approx: ContourApprox = ..., *,
             threshold: Optional[float] = ..., otsu: bool = ..., backend: Backend = ...,
             threads: int = ...) -> Tuple[List[npt.NDArray[np.int32]], Optional[npt.NDArray[np.int32]]]: ...
def otsu_threshold(img: npt.ArrayLike) -> float: ...
def imread(path: Union[str, os.PathLike[str]]) -> Image: ...
def imwrite(path: Union[str, os.PathLike[str]], img: npt.ArrayLike) -> None: ...
def resolve_backend(backend: Backend = ...) -> Literal["cpu", "cuda"]: ...
def backend_note() -> str: ...
