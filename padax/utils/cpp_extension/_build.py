"""Compiling a C++ extension into the per-user cache: one directory per (name, hash of sources+flags+padax).

A build compiles into a fresh temporary directory beside the cache entry and renames it into place,
which is atomic: processes building the same extension at once each compile, the first rename wins
and the others use its library; a process never sees a half-written library. A cache entry holds the
library and `build.log` (the command and the compiler's output).
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
from typing import Sequence

import padax
import padax.ffi

logger = logging.getLogger("padax.utils.cpp_extension")

HEADER_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
_HEADER_EXTS = (".h", ".hpp", ".hh", ".cuh", ".inc")
_CUDA_EXTS = (".cu",)


class BuildError(RuntimeError):
    """The compiler failed on an extension's sources (its output is in the message)."""


def get_build_directory(verbose: bool = False) -> str:
    """The root of the extension cache: $PADAX_EXTENSION_DIR, else ~/.cache/padax/cpp_extension.

    Args:
        verbose: log the directory.

    Returns:
        The directory (created if missing).
    """
    root = os.environ.get("PADAX_EXTENSION_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "padax", "cpp_extension")
    os.makedirs(root, exist_ok=True)
    if verbose:
        logger.info("padax cpp_extension build directory: %s", root)
    return root


def include_paths(cuda: bool = False) -> list[str]:
    """The include directories an extension compiles with: padax's paddle/extension.h and XLA's FFI headers."""
    return [HEADER_DIR, padax.ffi.include_dir()]


def compiler(cuda: bool = False) -> str:
    if cuda:
        return os.environ.get("NVCC") or shutil.which("nvcc") or "nvcc"
    return os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++") or "g++"


def cuda_home() -> str:
    """$CUDA_HOME, else the installation holding nvcc (for cuda_runtime_api.h and libcudart)."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home:
        return home
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise BuildError("cpp_extension: .cu sources need CUDA's nvcc (not found on PATH; set CUDA_HOME)")
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))


def _file_bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def source_hash(name: str, sources: Sequence[str], flags: Sequence[str]) -> str:
    """A hash of what the library depends on: sources (and headers beside them), flags, padax, its headers."""
    h = hashlib.sha256()
    h.update(f"padax {padax.__version__}\0{name}\0".encode())
    for f in flags:
        h.update(b"F" + f.encode() + b"\0")
    seen = set()
    for src in sources:
        h.update(b"S" + os.path.basename(src).encode() + b"\0" + _file_bytes(src))
        d = os.path.dirname(src)
        if d not in seen:
            seen.add(d)
            for n in sorted(os.listdir(d)):
                if n.endswith(_HEADER_EXTS) and os.path.isfile(os.path.join(d, n)):
                    h.update(b"H" + n.encode() + b"\0" + _file_bytes(os.path.join(d, n)))
    for root in include_paths():
        for dirpath, _, files in sorted(os.walk(os.path.join(root, "paddle"))):
            for n in sorted(files):
                h.update(b"P" + n.encode() + b"\0" + _file_bytes(os.path.join(dirpath, n)))
    ffi_h = os.path.join(padax.ffi.include_dir(), "xla", "ffi", "api", "api.h")
    if os.path.exists(ffi_h):
        h.update(b"X" + _file_bytes(ffi_h))
    return h.hexdigest()[:20]


def _run(cmd: list[str], name: str, log: list[str], verbose: bool) -> None:
    log.append(" ".join(cmd))
    if verbose:
        logger.info("%s", " ".join(cmd))
    p = subprocess.run(cmd, capture_output=True, text=True)
    out = (p.stdout + p.stderr).strip()
    if out:
        log.append(out)
    if p.returncode != 0:
        raise BuildError(f"cpp_extension.load({name!r}): the compiler failed (exit {p.returncode}):\n"
                         f"{' '.join(cmd)}\n{out}")


def build(name: str, sources: Sequence[str], *, cflags: Sequence[str] = (), cuda_cflags: Sequence[str] = (),
          ldflags: Sequence[str] = (), extra_include_paths: Sequence[str] = (),
          extra_library_paths: Sequence[str] = (), build_directory: str | None = None,
          verbose: bool = False) -> tuple[str, str, bool]:
    """Compile (or find in the cache) the extension library. Returns (library path, hash, compiled now)."""
    if not name.isidentifier():
        raise ValueError(f"cpp_extension.load: name must be a Python identifier (the module's name), got {name!r}")
    if isinstance(sources, str):
        sources = [sources]
    srcs = [os.path.abspath(s) for s in sources]
    for s in srcs:
        if not os.path.isfile(s):
            raise FileNotFoundError(f"cpp_extension.load({name!r}): source file {s} does not exist")
    cuda = any(s.endswith(_CUDA_EXTS) for s in srcs)
    incs = [f"-I{p}" for p in list(extra_include_paths) + include_paths(cuda)]
    libs = [f"-L{p}" for p in extra_library_paths]
    base = ["-O2", "-std=c++17", "-fPIC"]
    flags = base + list(cflags) + incs
    digest = source_hash(name, srcs, [compiler(), *flags, *cuda_cflags, *ldflags, *libs, str(cuda)])
    root = build_directory or get_build_directory()
    os.makedirs(root, exist_ok=True)
    final = os.path.join(root, f"{name}-{digest}")
    lib = os.path.join(final, f"{name}.so")
    if os.path.isfile(lib):
        if verbose:
            logger.info("cpp_extension.load(%r): using the cached build %s", name, lib)
        return lib, digest, False
    tmp = tempfile.mkdtemp(prefix=f".{name}-{digest}-", dir=root)
    log: list[str] = []
    try:
        objs = []
        if cuda:
            for i, s in enumerate(x for x in srcs if x.endswith(_CUDA_EXTS)):
                obj = os.path.join(tmp, f"cu{i}.o")
                _run([compiler(True), "-c", s, "-o", obj, "-O2", "-std=c++17", "-Xcompiler", "-fPIC",
                      "-DPADAX_WITH_CUDA", *incs, *cuda_cflags], name, log, verbose)
                objs.append(obj)
        cxx_srcs = [s for s in srcs if not s.endswith(_CUDA_EXTS)]
        cuda_link = []
        if cuda:
            home = cuda_home()
            cuda_link = ["-DPADAX_WITH_CUDA", f"-I{os.path.join(home, 'include')}",
                         f"-L{os.path.join(home, 'lib64')}", "-lcudart"]
        _run([compiler(), "-shared", *flags, *cuda_link, *cxx_srcs, *objs, "-o", os.path.join(tmp, f"{name}.so"),
              *libs, *ldflags], name, log, verbose)
        with open(os.path.join(tmp, "build.log"), "w") as f:
            f.write("\n".join(log) + "\n")
        try:
            os.rename(tmp, final)  # atomic; fails if another process put its build there first
        except OSError:
            if not os.path.isfile(lib):
                raise
            shutil.rmtree(tmp, ignore_errors=True)
            return lib, digest, False
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if verbose:
        logger.info("cpp_extension.load(%r): compiled %s", name, lib)
    return lib, digest, True
