"""The committed notebooks are in the form JupyterLab saves: opening one changes nothing.

JupyterLab writes a notebook through nbformat (sorted keys, one-space indent, a final
newline), with the kernelspec and language_info its kernel reports and an id on every
cell. A notebook committed in another form (an older kernelspec name, a short
language_info, keys out of order) is rewritten the first time a reader opens and saves
it, and ``git status`` shows a change nobody made. The reports are built from copies
(papermill executes into ``build/``), so the committed notebooks carry no outputs.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO_KEYS = {
    "codemirror_mode",
    "file_extension",
    "mimetype",
    "name",
    "nbconvert_exporter",
    "pygments_lexer",
    "version",
}


def as_lab_saves(notebook: nbformat.NotebookNode) -> str:
    """The text JupyterLab writes for `notebook` (nbformat's JSON and a final newline)."""
    return nbformat.writes(notebook) + "\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_a_notebook_round_trips_byte_for_byte(path):
    text = path.read_text(encoding="utf-8")
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert as_lab_saves(notebook) == text, f"{path.name} is not in the form JupyterLab saves"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_a_notebook_carries_what_jupyterlab_writes_and_no_output(path):
    notebook = nbformat.read(path, as_version=4)
    assert (notebook.nbformat, notebook.nbformat_minor) == (4, 5)
    assert notebook.metadata.kernelspec == KERNELSPEC
    assert set(notebook.metadata.language_info) == LANGUAGE_INFO_KEYS
    assert all(cell.get("id") for cell in notebook.cells)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.outputs == [] and cell.execution_count is None for cell in code)


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 7
