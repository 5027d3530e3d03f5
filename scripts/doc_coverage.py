#!/usr/bin/env python
"""Docstring-example coverage of padax's public API: `python scripts/doc_coverage.py [--missing MODULE] [--json F]`.

For every module the documentation site gives a page (`scripts/build_docs.py`'s `module_docs()`), and each of
its public names, it reports whether the name has a docstring, whether that docstring shows an example
(`>>>`), and whether the example runs as a doctest in CI: the file that defines the name is listed in
pyproject.toml's `[tool.pytest.ini_options] testpaths`, which pytest collects with `--doctest-modules`.
Prints one line per module and the totals (over module/name pairs, and over distinct objects).
"""
from __future__ import annotations

import argparse
import doctest
import importlib
import inspect
import json
import sys
import tomllib
import warnings
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))                      # measure this checkout's padax
sys.path.insert(0, str(ROOT / "scripts"))
from build_docs import docstring_of, module_docs, public_names  # noqa: E402


@dataclass(frozen=True)
class NameCoverage:
    """One public name of one module."""
    module: str
    name: str
    defined_in: str | None     # the file that holds its docstring (relative to the repository), None if unknown
    qualname: str | None       # `module.qualname` of the object (one object may be public in several modules)
    has_doc: bool
    has_example: bool
    runs_in_ci: bool


def doctest_paths() -> list[Path]:
    """The padax files pytest searches for doctests (pyproject's testpaths, less the tests/ folder)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    paths = config["tool"]["pytest"]["ini_options"]["testpaths"]
    return [ROOT / p for p in paths if p.startswith("padax")]


def collected_examples(paths: list[Path]) -> set[str]:
    """Qualified names (`module.qualname`) of the docstrings with examples that doctest collects in `paths`."""
    found: set[str] = set()
    finder = doctest.DocTestFinder()
    for path in paths:
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for f in files:
            rel = f.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            module = importlib.import_module(".".join(parts))
            found.update(t.name for t in finder.find(module) if t.examples)
    return found


def _defined_in(obj: object) -> str | None:
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        return None
    if path is None:
        return None
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return None


def _qualname(obj: object) -> str | None:
    module, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    return f"{module}.{qual}" if isinstance(module, str) and isinstance(qual, str) else None


def coverage() -> list[NameCoverage]:
    """Every (module, public name) of the documented modules with its docstring and example status.
    Constants (dtypes, flags) have no docstring of their own and are left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        specs = module_docs()
    run = collected_examples(doctest_paths())
    rows = []
    for spec in specs:
        module = importlib.import_module(spec.name)
        for n in public_names(module):
            obj = getattr(module, n)
            if not callable(obj):
                continue
            doc = docstring_of(obj)
            qual = _qualname(obj)
            rows.append(NameCoverage(spec.name, n, _defined_in(obj), qual, bool(doc), ">>>" in doc, qual in run))
    return rows


def report(rows: list[NameCoverage]) -> str:
    lines = [f"{'module':28} {'names':>6} {'doc':>6} {'example':>8} {'in CI':>6}"]
    modules = list(dict.fromkeys(r.module for r in rows))
    for m in modules:
        sel = [r for r in rows if r.module == m]
        lines.append(f"{m:28} {len(sel):6} {sum(r.has_doc for r in sel):6} "
                     f"{sum(r.has_example for r in sel):8} {sum(r.runs_in_ci for r in sel):6}")
    lines.append(f"{'total (module, name)':28} {len(rows):6} {sum(r.has_doc for r in rows):6} "
                 f"{sum(r.has_example for r in rows):8} {sum(r.runs_in_ci for r in rows):6}")
    distinct = list({r.qualname or f"{r.module}.{r.name}": r for r in rows}.values())
    lines.append(f"{'total (distinct objects)':28} {len(distinct):6} {sum(r.has_doc for r in distinct):6} "
                 f"{sum(r.has_example for r in distinct):8} {sum(r.runs_in_ci for r in distinct):6}")
    foreign = [r for r in distinct if not r.has_example and not (r.qualname or "padax").startswith("padax")]
    lines.append(f"without an example: {sum(not r.has_example for r in distinct)} distinct objects, of which "
                 f"{len(foreign)} are numpy's or jaxlib's own (re-exported as jax does; their docstrings are not padax's)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--missing", metavar="MODULE",
                    help="list MODULE's public names whose docstring has no example ('all': every module's)")
    ap.add_argument("--json", type=Path, help="also write every row to this JSON file")
    args = ap.parse_args(argv)
    rows = coverage()
    print(report(rows))
    if args.missing:
        print(f"\n{args.missing}: no example")
        for r in rows:
            if args.missing in (r.module, "all") and not r.has_example:
                print(f"  {r.module + '.' + r.name if args.missing == 'all' else r.name:28} "
                      f"{r.defined_in or r.qualname or '?'}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
