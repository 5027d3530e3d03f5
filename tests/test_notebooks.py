"""The tutorials in notebooks/ run top to bottom in a fresh kernel (as `scripts/run_notebooks.py` does).

Each notebook is one test, so pytest-xdist spreads them over the workers. A notebook whose saved
outputs (.ipynb) are stale or missing gets a warning: regenerate with
`python scripts/run_notebooks.py --write`.
"""
import importlib.util
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
run_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_notebooks)

pytest.importorskip("nbclient")
pytest.importorskip("jupytext")


@pytest.mark.parametrize("source", run_notebooks.sources(), ids=lambda p: p.stem)
def test_notebook_runs(source):
    why = run_notebooks.stale(source)
    if why:
        warnings.warn(f"{source.name}: saved outputs are stale ({why}); run "
                      f"`python scripts/run_notebooks.py --write {source.stem[:2]}`", stacklevel=1)
    nb = run_notebooks.execute(source)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors


def test_notebook_sources_exist():
    assert len(run_notebooks.sources()) >= 1


def test_stale_outputs_are_detected(tmp_path):
    import shutil
    src = run_notebooks.sources(["05"])[0]
    md = tmp_path / src.name
    assert run_notebooks.stale(md) == "no executed notebook saved"
    shutil.copy(src, md)
    shutil.copy(src.with_suffix(".ipynb"), md.with_suffix(".ipynb"))
    assert run_notebooks.stale(md) is None
    md.write_text(md.read_text().replace("# ", "# Edited: ", 1))     # a text change makes the outputs stale
    assert run_notebooks.stale(md) == "its cells differ from the source"
