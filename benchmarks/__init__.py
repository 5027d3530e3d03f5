"""padax benchmarks: side-by-side timings against jax and paddle (`python -m benchmarks`).

Each module named in `MODULES` defines `workloads() -> list[harness.Workload]`;
`harness` holds the timing, statistics, table and result-file code. To add a
workload family (autodiff, vmap, sharding, ...), write `benchmarks/<name>.py`
with a `workloads()` function and append its name here.
"""
MODULES = ["dispatch", "autodiff", "vmap", "compute", "sharding", "debug", "research_ad", "nn", "dataloader",
           "indexing", "scientific", "vision", "amp", "training", "attention", "tape", "native", "quantization", "batteries"]
