#!/usr/bin/env python
"""Build padax's documentation site: `python scripts/build_docs.py [--out DIR] [--keep-source]`.

The site (mkdocs-material, `mkdocs.yml` at the repository root) is assembled from

- the executed notebooks in `notebooks/` (rendered by mkdocs-jupyter, not re-run);
- the guides in `docs/` (`api.md`'s coverage tables, `nn_state.md`, `numpy.md`);
- an API reference generated here by introspecting the public modules: one page per
  module with every public name, its signature, the one-line summary of its docstring,
  the Paddle and JAX names it corresponds to (where padax's name exists in that
  library's matching namespace), then each name's full docstring.

The build is strict: any warning from mkdocs or a plugin (a broken link or anchor, a page
missing from the navigation) fails it. The Paddle/JAX columns are filled when paddle
and jax are importable (the `test` extra); without them they are left out, and the page
says so. Output: `build/docs/site` (open `index.html`). Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import importlib
import inspect
import logging
import os
import shutil
import sys
import time
import types
import warnings
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build" / "docs"


@dataclass(frozen=True)
class ModuleDoc:
    """A public padax module, its page title, and the Paddle / JAX namespaces it mirrors
    (several are searched in order: the first that has the name is its counterpart)."""
    name: str
    title: str
    paddle: str | tuple[str, ...] | None = None
    jax: str | tuple[str, ...] | None = None

    def targets(self, which: str) -> tuple[str, ...]:
        t = getattr(self, which)
        return (t,) if isinstance(t, str) else tuple(t or ())


MODULES = [
    ModuleDoc("padax", "padax: tensors, Paddle's functions and the transforms", "paddle", ("jax", "jax.numpy")),
    ModuleDoc("padax.numpy", "padax.numpy: the Array API and NumPy names", None, "jax.numpy"),
    ModuleDoc("padax.numpy.linalg", "padax.numpy.linalg", None, "jax.numpy.linalg"),
    ModuleDoc("padax.numpy.fft", "padax.numpy.fft", None, "jax.numpy.fft"),
    ModuleDoc("padax.lax", "padax.lax: primitives and control flow", None, "jax.lax"),
    ModuleDoc("padax.random", "padax.random: explicit keys", "paddle", "jax.random"),
    ModuleDoc("padax.linalg", "padax.linalg", "paddle.linalg", "jax.numpy.linalg"),
    ModuleDoc("padax.fft", "padax.fft", "paddle.fft", "jax.numpy.fft"),
    ModuleDoc("padax.signal", "padax.signal", "paddle.signal", "jax.scipy.signal"),
    ModuleDoc("padax.nn", "padax.nn: layers", "paddle.nn", None),
    ModuleDoc("padax.nn.functional", "padax.nn.functional", "paddle.nn.functional", ("jax.nn", "jax.numpy")),
    ModuleDoc("padax.incubate.nn.functional", "padax.incubate.nn.functional: fused language-model ops",
              "paddle.incubate.nn.functional", None),
    ModuleDoc("padax.nn.initializer", "padax.nn.initializer", "paddle.nn.initializer", "jax.nn.initializers"),
    ModuleDoc("padax.nn.utils", "padax.nn.utils", "paddle.nn.utils", None),
    ModuleDoc("padax.optimizer", "padax.optimizer", "paddle.optimizer", None),
    ModuleDoc("padax.optimizer.lr", "padax.optimizer.lr: schedules", "paddle.optimizer.lr", None),
    ModuleDoc("padax.amp", "padax.amp: mixed precision", "paddle.amp", None),
    ModuleDoc("padax.hapi", "padax.hapi: Model, summary, flops, checkpoints", "paddle.hapi", None),
    ModuleDoc("padax.callbacks", "padax.callbacks", "paddle.callbacks", None),
    ModuleDoc("padax.autograd", "padax.autograd", "paddle.autograd", None),
    ModuleDoc("padax.static", "padax.static", "paddle.static", None),
    ModuleDoc("padax.static.nn", "padax.static.nn", "paddle.static.nn", None),
    ModuleDoc("padax.inference", "padax.jit.to_static / save / load", "paddle.jit", None),
    ModuleDoc("padax.quantization", "padax.quantization: PTQ, QAT, int8 conversion", "paddle.quantization", None),
    ModuleDoc("padax.quantization.observers", "padax.quantization.observers", "paddle.quantization.observers", None),
    ModuleDoc("padax.quantization.quanters", "padax.quantization.quanters", "paddle.quantization.quanters", None),
    ModuleDoc("padax.nn.quant", "padax.nn.quant: weight-only and LLM.int8", "paddle.nn.quant", None),
    ModuleDoc("padax.sharding", "padax.sharding", None, "jax.sharding"),
    ModuleDoc("padax.distributed", "padax.distributed", "paddle.distributed", None),
    ModuleDoc("padax.distributed.fleet", "padax.distributed.fleet: hybrid parallelism", "paddle.distributed.fleet",
              None),
    ModuleDoc("padax.distributed.fleet.meta_parallel", "padax.distributed.fleet.meta_parallel: tensor and pipeline "
              "parallel layers", "paddle.distributed.fleet.meta_parallel", None),
    ModuleDoc("padax.distributed.sharding", "padax.distributed.sharding: ZeRO", "paddle.distributed.sharding", None),
    ModuleDoc("padax.distribution", "padax.distribution", "paddle.distribution", None),
    ModuleDoc("padax.scipy.special", "padax.scipy.special", None, "jax.scipy.special"),
    ModuleDoc("padax.scipy.stats", "padax.scipy.stats", None, "jax.scipy.stats"),
    ModuleDoc("padax.scipy.signal", "padax.scipy.signal", None, "jax.scipy.signal"),
    ModuleDoc("padax.tree_util", "padax.tree_util", None, "jax.tree_util"),
    ModuleDoc("padax.flatten_util", "padax.flatten_util", None, "jax.flatten_util"),
    ModuleDoc("padax.debug", "padax.debug", None, "jax.debug"),
    ModuleDoc("padax.checkify", "padax.checkify", None, "jax.experimental.checkify"),
    ModuleDoc("padax.profiler", "padax.profiler", "paddle.profiler", "jax.profiler"),
    ModuleDoc("padax.taylor", "padax.taylor: Taylor mode", None, None),
    ModuleDoc("padax.ad_checkpoint", "padax.ad_checkpoint", None, "jax.ad_checkpoint"),
    ModuleDoc("padax.experimental", "padax.experimental", None, "jax.experimental"),
    ModuleDoc("padax.extend.core", "padax.extend.core", None, "jax.extend.core"),
    ModuleDoc("padax.device", "padax.device", "paddle.device", None),
    ModuleDoc("padax.data", "padax.data: bundled datasets", None, None),
    ModuleDoc("padax.vision.models", "padax.vision.models: Paddle's model zoo", "paddle.vision.models", None),
    ModuleDoc("padax.utils", "padax.utils: weight layouts", None, None),
    ModuleDoc("padax.ffi", "padax.ffi: native kernels through XLA's FFI", None, "jax.ffi"),
    ModuleDoc("padax.utils.cpp_extension", "padax.utils.cpp_extension: Paddle's C++ custom operators",
              "paddle.utils.cpp_extension", None),
    ModuleDoc("padax.test_util", "padax.test_util", None, "jax.test_util"),
]

# Packages documented when this checkout has them (pages appear as they land; absent ones are skipped).
OPTIONAL_MODULES = [
    ModuleDoc("padax.vision", "padax.vision: models, transforms, datasets", "paddle.vision", None),
    ModuleDoc("padax.amp", "padax.amp: mixed precision", "paddle.amp", None),
    ModuleDoc("padax.hapi", "padax.hapi: Model.fit and callbacks", ("paddle.hapi", "paddle"), None),
    ModuleDoc("padax.distributed.fleet", "padax.distributed.fleet", "paddle.distributed.fleet", None),
    ModuleDoc("padax.metric", "padax.metric", "paddle.metric", None),
    ModuleDoc("padax.io", "padax.io: datasets and DataLoader", "paddle.io", None),
    ModuleDoc("padax.regularizer", "padax.regularizer", "paddle.regularizer", None),
    ModuleDoc("padax.sparse", "padax.sparse: COO / CSR sparse tensors", "paddle.sparse", "jax.experimental.sparse"),
    ModuleDoc("padax.sparse.nn", "padax.sparse.nn", "paddle.sparse.nn", None),
    ModuleDoc("padax.sparse.nn.functional", "padax.sparse.nn.functional", "paddle.sparse.nn.functional", None),
    ModuleDoc("padax.ode", "padax.ode: differential equations", None, None),
    ModuleDoc("padax.scipy.linalg", "padax.scipy.linalg", None, "jax.scipy.linalg"),
    ModuleDoc("padax.scipy.optimize", "padax.scipy.optimize", None, "jax.scipy.optimize"),
    ModuleDoc("padax.scipy.integrate", "padax.scipy.integrate", None, "jax.scipy.integrate"),
    ModuleDoc("padax.scipy.interpolate", "padax.scipy.interpolate", None, "jax.scipy.interpolate"),
    ModuleDoc("padax.geometric", "padax.geometric: message passing, segments, sampling", "paddle.geometric", None),
    ModuleDoc("padax.audio", "padax.audio: audio I/O, features, datasets", "paddle.audio", None),
    ModuleDoc("padax.audio.functional", "padax.audio.functional", "paddle.audio.functional", None),
    ModuleDoc("padax.audio.features", "padax.audio.features", "paddle.audio.features", None),
    ModuleDoc("padax.audio.backends", "padax.audio.backends", "paddle.audio.backends", None),
    ModuleDoc("padax.audio.datasets", "padax.audio.datasets", "paddle.audio.datasets", None),
    ModuleDoc("padax.text", "padax.text: Viterbi decoding and text datasets", "paddle.text", None),
    ModuleDoc("padax.text.datasets", "padax.text.datasets", "paddle.text.datasets", None),
]

# Top-level packages that are padax's machinery, not a user-facing namespace: never given a page
# by discovery (their public names are re-exported from `padax` or a documented module).
INTERNAL_PACKAGES = {"core", "devices", "lowering", "functional", "transforms", "examples", "demo", "config",
                     "callback", "serialization", "implicit", "tensor", "incubate", "scipy", "extend"}


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def module_docs() -> list[ModuleDoc]:
    """The modules given a reference page: MODULES, the OPTIONAL_MODULES this checkout has, and any other
    public top-level package of padax (found by introspection; its Paddle counterpart is `paddle.<name>`), so
    a new battery is documented the day it lands."""
    import pkgutil

    import padax
    specs = list(MODULES)
    known = {m.name for m in specs}
    specs += [m for m in OPTIONAL_MODULES if m.name not in known and _importable(m.name)]
    known = {m.name for m in specs}
    for info in pkgutil.iter_modules(padax.__path__):
        name = f"padax.{info.name}"
        if info.name.startswith("_") or info.name in INTERNAL_PACKAGES or name in known:
            continue
        if _importable(name):
            specs.append(ModuleDoc(name, name, f"paddle.{info.name}", None))
    return specs


# Same name, different meaning: not listed as counterparts.
NOT_COUNTERPARTS = {
    ("padax", "grad"): "paddle",           # paddle.grad differentiates a recorded tape
    ("padax", "jit"): "paddle",            # paddle.jit is a module (to_static, save, load)
}

NOTEBOOK_TITLES = {
    "01": "Quickstart", "02": "Autodiff cookbook", "03": "Training loop", "04": "Per-example gradients",
    "05": "Control flow", "06": "Scientific computing", "07": "Higher-order derivatives",
    "08": "Parallelism", "09": "Coming from Paddle", "10": "Coming from JAX",
    "11": "Export and inference", "12": "Debugging", "14": "Language models",
    "15": "Sparse tensors and graphs", "16": "Audio and text",
}

GUIDES = [("docs/nn_state.md", "State and randomness in nn"), ("docs/dygraph_tape.md", "Paddle dygraph: the tape"),
          ("docs/numpy.md", "padax.numpy"),
          ("docs/numerics.md", "Numerics"), ("docs/native_code.md", "Native code: C++ kernels"),
          ("docs/deployment.md", "Deployment: TranslatedLayer, Predictor, ONNX"),
          ("docs/quantization.md", "Quantization"), ("docs/static_graph.md", "Static graph mode"),
          ("docs/api.md", "API coverage (Paddle, Array API)")]


# ---- introspection ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One public name of a module, as the reference shows it."""
    name: str
    kind: str
    signature: str
    summary: str
    doc: str
    paddle: str | None
    jax: str | None


def public_names(module: types.ModuleType) -> list[str]:
    """`__all__`, or the names that do not start with `_`, less submodules and imported helpers."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in vars(module) if not n.startswith("_")]
    keep = []
    for n in names:
        obj = getattr(module, n, None)
        if isinstance(obj, types.ModuleType) or n == "annotations":
            continue
        owner = getattr(obj, "__module__", None) or ""
        if callable(obj) and owner.split(".")[0] in ("typing", "collections", "abc", "dataclasses", "enum",
                                                     "functools"):
            continue   # typing.Callable and the like, imported for annotations
        keep.append(n)
    return sorted(set(keep), key=lambda s: (s.lower(), s))


def kind_of(obj: object) -> str:
    if inspect.isclass(obj):
        return "class"
    if callable(obj):
        return "function"
    return "constant"


def signature_of(name: str, obj: object) -> str:
    if not callable(obj):
        text = repr(obj)
        return text if len(text) <= 80 else text[:77] + "..."
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return f"{name}(...)"
    params = [p.replace(annotation=_Annotation(p.annotation)) if isinstance(p.annotation, str) else p
              for p in sig.parameters.values()]
    ret = sig.return_annotation
    sig = sig.replace(parameters=params, return_annotation=_Annotation(ret) if isinstance(ret, str) else ret)
    return f"{name}{sig}"


class _Annotation(str):
    """A string annotation (`from __future__ import annotations`) shown as written, without quotes."""

    def __repr__(self) -> str:
        return str(self)


def docstring_of(obj: object) -> str:
    """The object's own docstring (not one inherited from a base class; none for constants)."""
    if not callable(obj):
        return ""  # a constant's docstring is its type's
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) else ""


def summary_of(doc: str) -> str:
    """The first sentence or line of a docstring, fit for a table cell."""
    first = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return first.replace("|", "\\|")


def counterpart_modules() -> dict[str, types.ModuleType | None]:
    """The Paddle and JAX namespaces of MODULES that can be imported here (None where not)."""
    found: dict[str, types.ModuleType | None] = {}
    for m in module_docs():
        for target in m.targets("paddle") + m.targets("jax"):
            if target not in found:
                try:
                    found[target] = importlib.import_module(target)
                except Exception:  # noqa: BLE001 - an optional oracle; the column is left empty
                    found[target] = None
    return found


def counterpart(spec: ModuleDoc, name: str, which: str, oracles: dict) -> str | None:
    if NOT_COUNTERPARTS.get((spec.name, name)) == which:
        return None
    for target in spec.targets(which):
        mod = oracles.get(target)
        if mod is not None and hasattr(mod, name):
            return f"{target}.{name}"
    return None


def entries(spec: ModuleDoc, oracles: dict) -> list[Entry]:
    module = importlib.import_module(spec.name)
    out = []
    for n in public_names(module):
        obj = getattr(module, n)
        doc = docstring_of(obj)
        out.append(Entry(n, kind_of(obj), signature_of(n, obj), summary_of(doc), doc,
                         counterpart(spec, n, "paddle", oracles), counterpart(spec, n, "jax", oracles)))
    return out


# ---- pages -----------------------------------------------------------------------------------------

def page_file(spec: ModuleDoc) -> str:
    return f"api/{spec.name}.md"


def anchor(name: str) -> str:
    return "name-" + name.lower().replace("_", "-")


def module_page(spec: ModuleDoc, items: list[Entry], oracles: dict) -> str:
    module = importlib.import_module(spec.name)
    intro = (inspect.getdoc(module) or "").strip()
    lines = [f"# {spec.title}", ""]
    if intro:
        lines += ["```text", intro, "```", ""]
    documented = sum(1 for e in items if e.doc or e.kind == "constant")
    lines += [f"{len(items)} public names, {documented} with a docstring."]
    for which in ("paddle", "jax"):
        for target in spec.targets(which):
            if oracles.get(target) is None:
                lines += [f"The {which.capitalize()} column leaves out `{target}`: it could not be imported when "
                          "this page was built."]
    lines += ["", "| name | kind | summary | Paddle | JAX |", "| --- | --- | --- | --- | --- |"]
    for e in items:
        lines.append(f"| [`{e.name}`](#{anchor(e.name)}) | {e.kind} | {e.summary} | "
                     f"{f'`{e.paddle}`' if e.paddle else ''} | {f'`{e.jax}`' if e.jax else ''} |")
    lines.append("")
    for e in items:
        lines += [f"## `{e.name}` {{ #{anchor(e.name)} }}", "", "```python", e.signature, "```", ""]
        also = ([f"Paddle: `{e.paddle}`"] if e.paddle else []) + ([f"JAX: `{e.jax}`"] if e.jax else [])
        if also:
            lines += [" · ".join(also), ""]
        if e.doc:
            lines += ["```text", e.doc, "```", ""]
    return "\n".join(lines)


def api_index(pages: list[tuple[ModuleDoc, list[Entry]]]) -> str:
    lines = ["# API reference", "",
             "Generated from the code by `scripts/build_docs.py`: every public name of each module, its signature, "
             "the first line of its docstring and the Paddle / JAX name it corresponds to. Coverage against "
             "Paddle's tensor API and the Array API standard, name by name: "
             "[API coverage](../guides/api.md).", "",
             "| module | names | documented |", "| --- | --- | --- |"]
    for spec, items in pages:
        documented = sum(1 for e in items if e.doc or e.kind == "constant")
        lines.append(f"| [`{spec.name}`]({spec.name}.md) | {len(items)} | {documented} |")
    return "\n".join(lines) + "\n"


def index_page(notebooks: list[tuple[str, str]]) -> str:
    lines = ["# padax", "",
             "padax is PaddlePaddle's deep-learning API rebuilt as a JAX-style functional library: pure functions "
             "on immutable arrays are traced into jaxprs, transformed (`jit`, `grad`, `vmap`, `shard_map`, ...), "
             "lowered to StableHLO and compiled by XLA through jaxlib. User-facing names follow Paddle "
             "(`padax.matmul`, `padax.nn.Linear`); transforms follow JAX.", "",
             "## Tutorials", "", "Executed notebooks (the sources are MyST markdown beside them in `notebooks/`):", ""]
    lines += [f"- [{title}]({path})" for path, title in notebooks]
    lines += ["", "## Guides", ""]
    lines += [f"- [{title}](guides/{Path(src).name})" for src, title in GUIDES]
    lines += ["", "## Reference", "", "- [API reference](api/index.md), generated from the docstrings", ""]
    return "\n".join(lines)


def notebook_list() -> list[tuple[str, str]]:
    out = []
    for nb in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        out.append((f"notebooks/{nb.name}", f"{nb.name[:2]} {NOTEBOOK_TITLES.get(nb.name[:2], nb.stem[3:])}"))
    return out


def assemble(src: Path) -> list:
    """Write the site's sources into `src`; returns the navigation."""
    if src.exists():
        shutil.rmtree(src)
    (src / "api").mkdir(parents=True)
    (src / "notebooks").mkdir()
    (src / "guides").mkdir()
    notebooks = notebook_list()
    for path, _ in notebooks:
        shutil.copy2(ROOT / path, src / path)
    for guide, _ in GUIDES:
        text = (ROOT / guide).read_text()
        (src / "guides" / Path(guide).name).write_text(text)
    oracles = counterpart_modules()
    pages = []
    specs = module_docs()
    for spec in specs:
        items = entries(spec, oracles)
        (src / page_file(spec)).write_text(module_page(spec, items, oracles))
        pages.append((spec, items))
    (src / "api" / "index.md").write_text(api_index(pages))
    (src / "index.md").write_text(index_page(notebooks))
    return [{"Home": "index.md"},
            {"Tutorials": [{title: path} for path, title in notebooks]},
            {"Guides": [{title: f"guides/{Path(g).name}"} for g, title in GUIDES]},
            {"API reference": [{"Overview": "api/index.md"}] + [{spec.name: page_file(spec)} for spec in specs]}]


# nbconvert notes that matplotlib outputs carry no alt text (it supplies a default one): not a defect of a page
IGNORED_WARNINGS = ("Alternative text is missing on",)


class _WarningCollector(logging.Handler):
    """Collects every warning logged during the build (mkdocs, its plugins, nbconvert)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        msg = record.getMessage()
        if not msg.startswith(IGNORED_WARNINGS):
            self.messages.append(f"{record.name}: {msg}")


def build(out: Path = BUILD, keep_source: bool = True, verbose: bool = False) -> Path:
    """Assemble the sources under `out/src` and build the site into `out/site`; any warning fails
    the build (RuntimeError listing them). Returns the site folder."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    src, site = out / "src", out / "site"
    with warnings.catch_warnings():  # deprecation notices from the oracles' namespaces while looking names up
        warnings.simplefilter("ignore")
        nav = assemble(src)
    collector = _WarningCollector()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(collector)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    for name in ("mkdocs", "mkdocs_jupyter", "traitlets"):
        logging.getLogger(name).setLevel(logging.INFO if verbose else logging.WARNING)
    try:
        config = load_config(config_file=str(ROOT / "mkdocs.yml"), docs_dir=str(src), site_dir=str(site),
                             nav=nav, strict=True)
        try:
            mkdocs_build(config)
        except Abort as e:
            raise RuntimeError(f"docs build failed: {e}\n" + "\n".join(collector.messages)) from None
    finally:
        root.removeHandler(collector)
        root.setLevel(old_level)
    if collector.messages:
        raise RuntimeError("docs build warnings (treated as errors):\n" + "\n".join(collector.messages))
    if not keep_source:
        shutil.rmtree(src)
    return site


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=BUILD, help=f"build folder (default {BUILD.relative_to(ROOT)})")
    ap.add_argument("--no-keep-source", action="store_true", help="delete the assembled markdown after building")
    ap.add_argument("-v", "--verbose", action="store_true", help="show mkdocs' progress messages")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))  # document this checkout's padax
    t0 = time.perf_counter()
    try:
        site = build(args.out, keep_source=not args.no_keep_source, verbose=args.verbose)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    print(f"docs built in {time.perf_counter() - t0:.1f}s: {site / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
