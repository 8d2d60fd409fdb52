# Type stubs of linescope.dask (the docstrings are in dask.py).
import os
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy.typing as npt

from . import Algorithm, Angles, Backend, SweepOp

OPERATIONS: Tuple[str, ...]
TILED_OPERATIONS: Tuple[str, ...]
MANIFEST: str

Operation = Literal["open", "close", "erode", "dilate", "tophat", "sweep", "spectrum",
                    "orientation", "orientation_field", "skew", "contours"]
TiledOperation = Literal["open", "close", "erode", "dilate", "tophat", "sweep"]
SweepField = Literal["sup", "inf", "strength", "orientation", "arg_index"]
Path = Union[str, os.PathLike[str]]
Record = Dict[str, Any]

Files = Union[Path, Sequence[Path]]  # a folder, glob or @LIST as --inputs takes it, or paths

def cli_options(**params: Any) -> List[str]: ...
def batch_bag(files: Files, op: Operation, out_dir: Path, /, *, root: Optional[Path] = ...,
              redo: bool = ..., files_per_task: int = ..., **params: Any) -> Any: ...  # dask.bag.Bag of (line, worker)
def batch(files: Files, op: Operation, out_dir: Path, /, *, root: Optional[Path] = ...,
          redo: bool = ..., scheduler: Any = ..., files_per_task: int = ..., **params: Any) -> List[Record]: ...
def read_manifest(path: Path) -> List[Record]: ...
def line_reach(op: str, length: int) -> int: ...
def overlap_depth(op: TiledOperation, angle: float = ..., length: Optional[int] = ..., *, angles: Angles = ...,
                  sweep_op: SweepOp = ...) -> Tuple[int, int]: ...
def exact_chunks(shape: Tuple[int, int], op: TiledOperation, angle: float = ..., length: Optional[int] = ..., *,
                 angles: Angles = ..., sweep_op: SweepOp = ..., chunks: Union[int, Tuple[int, int]] = ...
                 ) -> Tuple[Tuple[Tuple[int, ...], Tuple[int, ...]], Tuple[int, int]]: ...
def tiled(image: npt.ArrayLike, op: TiledOperation, angle: float = ..., length: Optional[int] = ..., *,
          angles: Angles = ..., sweep_op: SweepOp = ..., field: SweepField = ...,
          chunks: Union[int, Tuple[int, int]] = ..., backend: Backend = ..., algorithm: Algorithm = ...,
          threads: int = ...) -> Any: ...  # dask.array.Array
