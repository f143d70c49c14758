"""Bit tricks for the numba kernels: popcount and trailing zeros as LLVM intrinsics."""

from __future__ import annotations

from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def popcount(typingctx, value):
    """Number of set bits of an integer."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return value(value), codegen


@intrinsic
def trailing_zeros(typingctx, value):
    """Index of the lowest set bit of a non-zero integer."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, True))

    return value(value), codegen


@njit(cache=True)
def nth_set_bit(mask, n):
    """Index of the n-th (from 0) set bit of ``mask``."""
    for _ in range(n):
        mask &= mask - 1
    return trailing_zeros(mask)
