"""How the kernels read the solved child tiers' codes: where they lie in memory, read
through pointers (`child_addresses`, `child_code`, `child_run`, `prefetch`: numba intrinsics,
no copy), or copied side by side into one array (`side_by_side`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numba as nb
import numpy as np
import numpy.typing as npt
from llvmlite import ir as llvm_ir
from numba.extending import intrinsic


def child_addresses(arrays: Sequence[npt.NDArray[np.uint16]]) -> npt.NDArray[np.int64]:
    """Where each child tier's codes lie in memory, in units of two bytes (one entry more
    than the arrays, as `side_by_side`'s `base`): a game entry with
    `TierKernel.child_addresses` reads child s's entry i with `child_code(base[s] + i)`, from
    the arrays as they are, none copied. The caller keeps the arrays alive meanwhile."""
    base = np.zeros(len(arrays) + 1, np.int64)
    for s, a in enumerate(arrays):
        if a.dtype != np.uint16 or a.ndim != 1 or not (a.flags.c_contiguous and a.flags.aligned):
            raise ValueError("child codes must be one-dimensional contiguous aligned uint16 arrays")
        base[s] = a.ctypes.data >> 1  # aligned: an even address
    return base


@intrinsic
def _load_u16(typingctx: Any, address: Any) -> Any:
    """The uint16 at byte `address` (an int64)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = builder.inttoptr(args[0], llvm_ir.IntType(16).as_pointer())
        return builder.load(ptr)

    return nb.types.uint16(address), codegen


@intrinsic
def _pointer_u16(typingctx: Any, address: Any) -> Any:
    """A uint16 pointer to byte `address` (an int64)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.inttoptr(args[0], llvm_ir.IntType(16).as_pointer())

    return nb.types.CPointer(nb.types.uint16)(address), codegen


@nb.njit(inline="always")
def child_run(at):
    """The codes from `at` on (two-byte units, as `child_addresses` gives them), as a pointer
    to index: `child_run(at)[k]` is `child_code(at + k)`. A loop that reads `run[k * stride]`
    from one such pointer can be vectorised (the compiler sees one base and a stride, where
    an address made afresh in each step might be any of the loop's arrays)."""
    return _pointer_u16(at << 1)  # type: ignore[call-arg]  # numba passes the typing context


@intrinsic
def prefetch(typingctx: Any, address: Any) -> Any:
    """Ask the processor to bring the cache line of byte `address` (an int64) in, for a read
    soon; an address outside any array is harmless (a hint never faults)."""
    if not isinstance(address, nb.types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i8p = llvm_ir.IntType(8).as_pointer()
        i32 = llvm_ir.IntType(32)
        fnty = llvm_ir.FunctionType(llvm_ir.VoidType(), [i8p, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [i8p], fnty)
        ptr = builder.inttoptr(args[0], i8p)
        # a read (0), kept in every level of the cache (3), of data (1)
        builder.call(fn, [ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return nb.types.none(address), codegen


@nb.njit(inline="always")
def child_code(at):
    """A child's code at `at`, in two-byte units, as `child_addresses` gives them."""
    return _load_u16(at << 1)  # type: ignore[call-arg]  # numba passes the typing context


NO_CHILD_CODES = np.zeros(1, np.uint16)  # `child_codes` of a kernel that reads by address


def side_by_side(
    arrays: Sequence[npt.NDArray[Any]], dtype: Any
) -> tuple[npt.NDArray[Any], npt.NDArray[np.int64]]:
    """Child tiers' arrays as one array and where each starts (`base`, one entry more than
    the arrays): the kernels read child s's entry i at `joined[base[s] + i]`. A single array
    is used as it is; with none, a one-entry stand-in."""
    base = np.zeros(len(arrays) + 1, np.int64)
    if not arrays:
        return np.zeros(1, dtype), base
    np.cumsum([len(a) for a in arrays], out=base[1:])
    return (np.concatenate(arrays) if len(arrays) > 1 else arrays[0]), base
