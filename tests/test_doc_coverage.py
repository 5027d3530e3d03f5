"""scripts/doc_coverage.py: which public names show a docstring example, and which of those run in CI."""
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("doc_coverage", ROOT / "scripts" / "doc_coverage.py")
doc_coverage = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("doc_coverage", doc_coverage)  # dataclasses look their module up
_spec.loader.exec_module(doc_coverage)


def test_doctest_paths_are_the_padax_testpaths():
    paths = doc_coverage.doctest_paths()
    assert paths == [ROOT / "padax"]
    assert all(p.is_relative_to(ROOT / "padax") and p.exists() for p in paths)


def test_collects_the_examples_doctest_runs():
    found = doc_coverage.collected_examples([ROOT / "padax" / "transforms" / "taylor.py"])
    import padax.taylor
    assert f"padax.transforms.taylor.{padax.taylor.derivatives.__qualname__}" in found
    assert all(name.startswith("padax.transforms.taylor") for name in found)


def test_report_counts_per_module_and_distinct_objects():
    row = doc_coverage.NameCoverage
    rows = [row("padax", "f", "padax/a.py", "padax.a.f", True, True, True),
            row("padax.numpy", "f", "padax/a.py", "padax.a.f", True, True, True),
            row("padax.numpy", "g", "padax/b.py", "padax.b.g", True, False, False),
            row("padax.numpy", "h", None, None, False, False, False)]
    text = doc_coverage.report(rows).splitlines()
    assert text[1].split() == ["padax", "1", "1", "1", "1"]
    assert text[2].split() == ["padax.numpy", "3", "2", "1", "1"]
    assert text[-3].split()[-4:] == ["4", "3", "2", "2"]
    assert text[-2].split()[-4:] == ["3", "2", "1", "1"]
    assert text[-1].startswith("without an example: 2 distinct objects, of which 0 are numpy's or jaxlib's own")
