"""jaxpr -> StableHLO lowering, compilation through PJRT, executable caches."""
from padax.lowering import rules  # noqa: F401  (registers every lowering rule)
from padax.lowering.compile import CompileError, compile_lowered
from padax.lowering.mlir import LoweredModule, LoweringError, lower_jaxpr, register_lowering
