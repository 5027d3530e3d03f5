"""Execute padax's notebooks: `python scripts/run_notebooks.py [--write] [--check] [NAMES...]`.

The tutorials live in `notebooks/` as MyST markdown sources (`NN_name.md`, what
people edit and review) paired with executed Jupyter notebooks (`NN_name.ipynb`,
what GitHub and the docs site show, with outputs and plots).

- no flag: run every notebook's source in a fresh kernel and report errors;
- `--write`: also save the executed notebook beside its source (regenerates the outputs);
- `--check`: run nothing; warn about notebooks whose saved outputs are stale or missing
  (their cells, code or text, differ from the source).

Names select notebooks by substring (`01`, `quickstart`). Exit status 1 if any
notebook fails (or, with --check, is stale).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
TIMEOUT_S = 600  # per cell


def sources(names: list[str] | None = None) -> list[Path]:
    """The notebook sources (`notebooks/NN_*.md`), optionally filtered by substrings."""
    found = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.md"))
    if names:
        found = [p for p in found if any(n in p.stem for n in names)]
    return found


def read_source(path: Path):
    """The MyST source as an nbformat notebook (no outputs)."""
    import jupytext
    nb = jupytext.read(path)
    nb.metadata.setdefault("kernelspec", {"name": "python3", "display_name": "Python 3", "language": "python"})
    return nb


def execute(path: Path, cwd: Path | None = None):
    """Run a notebook source top to bottom in a fresh kernel; returns the executed notebook."""
    from nbclient import NotebookClient
    nb = read_source(path)
    env_cwd = str(cwd or NOTEBOOKS)
    # plots render off-screen into the cell outputs as PNGs (Agg would drop them at plt.show())
    # and `import padax` finds this checkout's padax first (not another one installed in the venv)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline", "PYTHONPATH": path}
    client = NotebookClient(nb, timeout=TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": env_cwd}})
    client.execute(env=env)
    return nb


def cells_of(nb) -> list[tuple[str, str]]:
    """(cell type, source) of every cell: what must match between a source and its saved notebook."""
    return [(c.cell_type, c.source.strip()) for c in nb.cells]


def stale(path: Path) -> str | None:
    """Why the saved .ipynb beside a source is stale (None when it is current)."""
    import nbformat
    saved = path.with_suffix(".ipynb")
    if not saved.exists():
        return "no executed notebook saved"
    nb = nbformat.read(saved, as_version=4)
    if cells_of(nb) != cells_of(read_source(path)):
        return "its cells differ from the source"
    if any(c.cell_type == "code" and c.source.strip() and c.get("execution_count") is None for c in nb.cells):
        return "some code cells have no outputs"
    return None


def write(nb, path: Path) -> None:
    """Save an executed notebook beside its source, atomically."""
    import nbformat
    target = path.with_suffix(".ipynb")
    tmp = target.with_name(f".{target.name}.tmp")
    nbformat.write(nb, tmp)
    os.replace(tmp, target)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="substrings selecting notebooks (default: all)")
    ap.add_argument("--write", action="store_true", help="save the executed notebooks (.ipynb)")
    ap.add_argument("--check", action="store_true", help="only report stale or missing outputs")
    args = ap.parse_args(argv)
    paths = sources(args.names)
    if not paths:
        print("no notebooks matched", file=sys.stderr)
        return 1
    failed = []
    for p in paths:
        if args.check:
            why = stale(p)
            print(f"{p.name}: {'stale: ' + why if why else 'current'}")
            if why:
                failed.append(p.name)
            continue
        t0 = time.perf_counter()
        try:
            nb = execute(p)
        except Exception as e:  # noqa: BLE001 - report every notebook's failure, then exit 1
            print(f"{p.name}: FAILED after {time.perf_counter() - t0:.1f}s\n{e}", file=sys.stderr)
            failed.append(p.name)
            continue
        if args.write:
            write(nb, p)
        print(f"{p.name}: ok in {time.perf_counter() - t0:.1f}s{' (written)' if args.write else ''}")
    if failed:
        print(f"{len(failed)} notebook(s) {'stale' if args.check else 'failed'}: {', '.join(failed)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
