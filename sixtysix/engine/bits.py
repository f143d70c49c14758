"""Bit tricks for the numba kernels: popcount, trailing zeros and the n-th set bit."""

from __future__ import annotations

import numpy as np
from llvmlite import binding, ir
from numba import njit, types
from numba.extending import intrinsic

#: Whether this CPU has a fast BMI2 ``pdep``, which selects the n-th set bit without a loop
#: (AMD's Zen 1 and Zen 2 run it in slow microcode, so they take the loop).
_SLOW_PDEP_CPUS = ("znver1", "znver2")
HAS_PDEP = bool(binding.get_host_cpu_features().get("bmi2", False)) and (
    binding.get_host_cpu_name() not in _SLOW_PDEP_CPUS
)


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


@intrinsic
def _deposit_bits(typingctx, source, mask):
    """BMI2 ``pdep`` of two int64 values."""
    if not (isinstance(source, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        function_type = ir.FunctionType(i64, [i64, i64])
        pdep = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=function_type)
        return builder.call(pdep, [builder.sext(args[0], i64), builder.sext(args[1], i64)])

    return types.int64(source, mask), codegen


@njit(cache=True, inline="always")
def nth_set_bit_pdep(mask, n):
    """Index of the n-th (from 0) set bit of ``mask``, branch-free (needs BMI2)."""
    return trailing_zeros(_deposit_bits(np.int64(1) << n, mask))


@njit(cache=True, inline="always")
def nth_set_bit_loop(mask, n):
    """Index of the n-th (from 0) set bit of ``mask``, clearing the lower ones."""
    for _ in range(n):
        mask &= mask - 1
    return trailing_zeros(mask)


#: The n-th set bit, by the fastest method this CPU has.
nth_set_bit = nth_set_bit_pdep if HAS_PDEP else nth_set_bit_loop


@njit(cache=True, inline="always")
def masked_sum(mask, values):
    """The sum of ``values[i]`` over the set bits ``i`` of ``mask``."""
    total = 0
    while mask:
        total += values[trailing_zeros(mask)]
        mask &= mask - 1
    return total
