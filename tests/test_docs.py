"""The documentation site: the generated API reference covers every public name, and the site
builds in strict mode (`python scripts/build_docs.py`, about 15 s of CPU: run in CI)."""
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_docs", ROOT / "scripts" / "build_docs.py")
build_docs = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("build_docs", build_docs)  # dataclasses look their module up
_spec.loader.exec_module(build_docs)


def _module_doc(name):
    return next(m for m in build_docs.MODULES if m.name == name)


def test_reference_page_lists_every_public_name_with_signature_and_summary():
    import padax.lax
    spec = _module_doc("padax.lax")
    items = build_docs.entries(spec, {"jax.lax": None})
    names = {e.name for e in items}
    assert {"scan", "cond", "while_loop", "psum", "custom_root"} <= names
    assert names == set(build_docs.public_names(padax.lax))
    page = build_docs.module_page(spec, items, {"jax.lax": None})
    scan = next(e for e in items if e.name == "scan")
    assert scan.signature.startswith("scan(f: Callable, init, xs=None") and scan.summary
    assert f"| [`scan`](#{build_docs.anchor('scan')}) | function | {scan.summary} |" in page
    assert "could not be imported" in page          # no oracle given: the page says the column is partial


def test_counterparts_follow_the_oracles_namespaces():
    jax = pytest.importorskip("jax")
    import jax.numpy  # noqa: F401
    spec = _module_doc("padax")
    oracles = {"jax": jax, "jax.numpy": jax.numpy, "paddle": None}
    assert build_docs.counterpart(spec, "vmap", "jax", oracles) == "jax.vmap"
    assert build_docs.counterpart(spec, "matmul", "jax", oracles) == "jax.numpy.matmul"
    assert build_docs.counterpart(spec, "to_tensor", "jax", oracles) is None
    assert build_docs.counterpart(spec, "matmul", "paddle", oracles) is None   # paddle not importable


def test_own_docstrings_only():
    import padax
    assert build_docs.docstring_of(padax.float32) == ""
    assert build_docs.docstring_of(padax.matmul).startswith("Matrix product")
    assert build_docs.summary_of("a | b\nc.\n\nmore") == "a \\| b c."


def test_pages_cover_packages_as_they_land(monkeypatch):
    specs = build_docs.module_docs()
    names = [m.name for m in specs]
    assert names[:len(build_docs.MODULES)] == [m.name for m in build_docs.MODULES]
    assert len(names) == len(set(names))
    for m in build_docs.OPTIONAL_MODULES:       # present ones get a page, absent ones are skipped
        assert (m.name in names) == build_docs._importable(m.name), m.name
    assert not any(n.split(".")[1] in build_docs.INTERNAL_PACKAGES for n in names if n.count(".") == 1)
    monkeypatch.setattr(build_docs, "OPTIONAL_MODULES", [build_docs.ModuleDoc("padax.no_such_battery", "x")])
    assert "padax.no_such_battery" not in [m.name for m in build_docs.module_docs()]


def test_site_builds_strict(tmp_path):  # mkdocs and its plugins are in the test extra: CI builds the site
    site = build_docs.build(tmp_path, keep_source=True)
    assert (site / "index.html").is_file()
    for spec in build_docs.module_docs():
        assert (site / "api" / f"{spec.name}.html").is_file(), spec.name
    for nb in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"):
        assert (site / "notebooks" / f"{nb.stem}.html").is_file(), nb.name
    assert "Paddle 3 tensor API" in (site / "guides" / "api.html").read_text()
    lax_page = (tmp_path / "src" / "api" / "padax.lax.md").read_text()
    import padax.lax
    for name in build_docs.public_names(padax.lax):
        assert f"## `{name}`" in lax_page, name
