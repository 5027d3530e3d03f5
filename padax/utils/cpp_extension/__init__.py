"""`padax.utils.cpp_extension`: C++ operators written with Paddle's custom-operator API, run by padax.

Sources include `"paddle/extension.h"` (padax's implementation of Paddle's header over XLA's typed FFI) and
declare ops with `PD_BUILD_OP(name).Inputs(...).Outputs(...).Attrs(...).SetKernelFn(PD_KERNEL(fn))
.SetInferShapeFn(PD_INFER_SHAPE(...)).SetInferDtypeFn(PD_INFER_DTYPE(...))`, and their gradients with
`PD_BUILD_GRAD_OP(name)`. `load(name, sources)` compiles them with the system compiler (g++) into a per-user
cache (reused by later processes while sources, flags and padax are unchanged) and returns a module whose
functions are padax ops: they run eagerly and inside `jit` (an XLA custom call: no Python per call), under
`vmap` (one kernel call per batch element) and under `grad` (the grad op is the op's VJP). `setup(...)`
with `CppExtension(sources)` builds an installable package instead. The code padax compiles is the user's
own; padax downloads nothing. See docs/native_code.md.
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Sequence

from padax.utils.cpp_extension._build import BuildError, build, compiler, get_build_directory, include_paths
from padax.utils.cpp_extension._ops import OpError, load_library, make_module

__all__ = ["load", "setup", "CppExtension", "CUDAExtension", "BuildExtension", "get_build_directory",
           "include_paths", "load_op_library", "BuildError", "OpError"]


def _list(x: Sequence[str] | str | None) -> list[str]:
    if x is None:
        return []
    return [x] if isinstance(x, str) else list(x)


def load(name: str, sources: Sequence[str], extra_cxx_cflags: Sequence[str] | None = None,
         extra_cuda_cflags: Sequence[str] | None = None, extra_ldflags: Sequence[str] | None = None,
         extra_include_paths: Sequence[str] | None = None, extra_library_paths: Sequence[str] | None = None,
         build_directory: str | None = None, verbose: bool = False, *,
         extra_cflags: Sequence[str] | None = None) -> Any:
    """Compile C++ custom operators (Paddle's PD_BUILD_OP API) and return a module of padax ops.

    The library is cached under `build_directory` (default: `get_build_directory()`, per user) by a hash of
    the sources (and the headers beside them), the flags and padax's version: a later call, in this process
    or another, loads it without compiling. Concurrent builds are safe (each builds in a temporary directory
    that is renamed into place atomically).

    Args:
        name: the module's name (a Python identifier).
        sources: C++ files (and `.cu` files, compiled with nvcc, where CUDA is installed).
        extra_cxx_cflags: more flags for g++ (e.g. ["-O3", "-march=native"]).
        extra_cuda_cflags: more flags for nvcc.
        extra_ldflags: more linker flags (e.g. ["-lm"]).
        extra_include_paths: more include directories.
        extra_library_paths: more library directories.
        build_directory: the cache root to use instead of the per-user one.
        verbose: log the compiler commands and whether the cache was used.
        extra_cflags: flags for both compilers (added before extra_cxx_cflags).

    Returns:
        A module with one function per forward op, named like the op: inputs positionally (or by their
        declared names), then the attributes (positionally or by name). One output is returned as a Tensor,
        several as a list. `module._padax_build` is "compiled" or "cached".
    """
    path, digest, compiled = build(
        name, _list(sources), cflags=_list(extra_cflags) + _list(extra_cxx_cflags),
        cuda_cflags=_list(extra_cflags) + _list(extra_cuda_cflags), ldflags=_list(extra_ldflags),
        extra_include_paths=_list(extra_include_paths), extra_library_paths=_list(extra_library_paths),
        build_directory=build_directory, verbose=verbose)
    return make_module(load_library(path, name, digest), name, "compiled" if compiled else "cached")


def load_op_library(path: str, name: str | None = None) -> Any:
    """The module of padax ops of an extension library already built (e.g. by `setup`).

    Args:
        path: the shared library.
        name: the module's name (default: the file's name up to its first dot).

    Returns:
        The module, as `load` returns it.
    """
    path = os.path.abspath(path)
    name = name or os.path.basename(path).split(".")[0]
    st = os.stat(path)
    digest = hashlib.sha256(f"{path}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:16]
    return make_module(load_library(path, name, digest), name, "cached")


# ---- setup(): an installable package ------------------------------------------------------------------------

def CppExtension(sources: Sequence[str], *args: Any, **kwargs: Any) -> Any:
    """A setuptools Extension for C++ custom operators, compiled with padax's headers (for `setup`).

    Args:
        sources: the C++ files.
        args, kwargs: passed on to setuptools.Extension (include_dirs, extra_compile_args, ...).

    Returns:
        The Extension (its name is set by `setup`).
    """
    import setuptools  # optional dependency: only building a package needs setuptools

    kwargs["include_dirs"] = list(kwargs.get("include_dirs", [])) + include_paths()
    kwargs["extra_compile_args"] = ["-std=c++17", "-O2"] + list(kwargs.get("extra_compile_args", []))
    kwargs.setdefault("language", "c++")
    return setuptools.Extension("padax_ext_placeholder", list(sources), *args, **kwargs)


def CUDAExtension(sources: Sequence[str], *args: Any, **kwargs: Any) -> Any:
    """A setuptools Extension for C++/CUDA custom operators (.cu files compiled with nvcc).

    Args:
        sources: the C++ and .cu files.
        args, kwargs: passed on to setuptools.Extension.

    Returns:
        The Extension; `BuildExtension` compiles its .cu sources with nvcc.
    """
    ext = CppExtension(sources, *args, **kwargs)
    ext.define_macros = list(getattr(ext, "define_macros", None) or []) + [("PADAX_WITH_CUDA", None)]
    ext.libraries = list(getattr(ext, "libraries", None) or []) + ["cudart"]
    return ext


def _loader_source(module: str, lib_file: str) -> str:
    return (f'"""padax C++ extension {module!r} (built by padax.utils.cpp_extension.setup)."""\n'
            "import os as _os\n"
            "from padax.utils.cpp_extension import load_op_library as _load\n"
            f"_m = _load(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {lib_file!r}), {module!r})\n"
            "globals().update({_n: getattr(_m, _n) for _n in _m.__all__})\n"
            "__all__ = list(_m.__all__)\n")


def _build_ext_class():
    from setuptools.command.build_ext import build_ext  # optional dependency (see CppExtension)

    class BuildExtension(build_ext):
        """setuptools' build_ext that compiles .cu sources with nvcc and writes the package's loader module."""

        def build_extensions(self) -> None:
            cc = self.compiler
            if any(s.endswith(".cu") for e in self.extensions for s in e.sources):
                cc.src_extensions.append(".cu")
                orig = cc._compile

                def compile_one(obj, src, ext, cc_args, extra_postargs, pp_opts):
                    if src.endswith(".cu"):
                        saved = cc.compiler_so
                        cc.set_executable("compiler_so", compiler(cuda=True))
                        try:
                            args = [a for a in extra_postargs if a != "-fPIC"] + ["-Xcompiler", "-fPIC"]
                            return orig(obj, src, ext, cc_args, args, pp_opts)
                        finally:
                            cc.compiler_so = saved
                    return orig(obj, src, ext, cc_args, extra_postargs, pp_opts)
                cc._compile = compile_one
            super().build_extensions()

        def run(self) -> None:
            super().run()
            for ext in self.extensions:
                module = ext.name.split(".")[-1].removesuffix("_pd_ops")
                lib = self.get_ext_fullpath(ext.name)
                loader = os.path.join(os.path.dirname(lib), module + ".py")
                with open(loader + ".tmp", "w") as f:
                    f.write(_loader_source(module, os.path.basename(lib)))
                os.replace(loader + ".tmp", loader)

        def get_outputs(self):
            outs = super().get_outputs()
            for ext in self.extensions:
                module = ext.name.split(".")[-1].removesuffix("_pd_ops")
                outs.append(os.path.join(os.path.dirname(self.get_ext_fullpath(ext.name)), module + ".py"))
            return outs

    return BuildExtension


def __getattr__(name: str) -> Any:
    if name == "BuildExtension":  # built on first use: setuptools is only needed to build a package
        return _build_ext_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def setup(**attr: Any) -> None:
    """setuptools.setup for a package of C++ custom operators: `setup(name=..., ext_modules=CppExtension(...))`.

    Builds the library `<name>_pd_ops` and a module `<name>` that loads it, so that after
    `pip install .` (or `python setup.py install`) the ops are `import <name>; <name>.<op>(...)`.

    Args:
        attr: setuptools.setup's arguments; `name` and `ext_modules` (one Extension or a list) are required.
    """
    import setuptools  # optional dependency (see CppExtension)

    name = attr.get("name")
    if not name or not str(name).isidentifier():
        raise ValueError(f"cpp_extension.setup: name must be a Python identifier (the module's name), got {name!r}")
    exts = attr.get("ext_modules")
    if exts is None:
        raise ValueError("cpp_extension.setup: ext_modules (a CppExtension) is required")
    exts = list(exts) if isinstance(exts, (list, tuple)) else [exts]
    if len(exts) != 1:
        raise ValueError("cpp_extension.setup: give one CppExtension (put every source in it)")
    exts[0].name = f"{name}_pd_ops"
    attr["ext_modules"] = exts
    cmd = dict(attr.get("cmdclass", {}))
    cmd.setdefault("build_ext", _build_ext_class())
    attr["cmdclass"] = cmd
    attr.setdefault("py_modules", [])
    setuptools.setup(**attr)


