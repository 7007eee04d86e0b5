"""The committed notebooks are in the form JupyterLab saves: opening one changes nothing.

JupyterLab writes a notebook through nbformat (sorted keys, one-space indent, a final
newline), with the kernelspec and language_info its kernel reports and an id on every
cell. A notebook committed in another form (an older kernelspec name, a short
language_info, keys out of order) is rewritten the first time a reader opens and saves
it, and ``git status`` shows a change nobody made. The reports are built from copies
(papermill executes into ``build/``), so the committed notebooks carry no outputs.

Their code cells are short: calls and a page's sentences, the logic in the package where ruff,
mypy and the tests see it.
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


MAX_CELL_LINES = 15
"""A code cell holds calls and a page's sentences; logic of more lines belongs in the package.
The parameters cell is not counted: one plain literal a line (``test_notebooks`` checks that),
no logic, and papermill needs it whole."""


def long_cells(path: Path) -> list[str]:
    """The code cells of the notebook at `path` longer than :data:`MAX_CELL_LINES` lines (its
    parameters cell aside)."""
    notebook = nbformat.read(path, as_version=4)
    found = []
    for number, cell in enumerate(notebook.cells, start=1):
        if cell.cell_type != "code" or "parameters" in cell.metadata.get("tags", []):
            continue
        lines = len(cell.source.rstrip("\n").splitlines())
        if lines > MAX_CELL_LINES:
            found.append(f"{path.name} cell {number}: {lines} lines")
    return found


def test_notebook_code_cells_are_short():
    found = [cell for path in NOTEBOOKS for cell in long_cells(path)]
    assert found == [], f"move logic into the package (at most {MAX_CELL_LINES} lines a cell)"


def test_a_long_code_cell_is_reported_and_the_parameters_cell_is_not(tmp_path):
    long = "\n".join(f"x{i} = {i}" for i in range(MAX_CELL_LINES + 1))
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(long, metadata={"tags": ["parameters"]}),
        nbformat.v4.new_markdown_cell(long),
        nbformat.v4.new_code_cell(long),
        nbformat.v4.new_code_cell("\n".join(long.splitlines()[1:]) + "\n\n"),
    ])
    path = tmp_path / "page.ipynb"
    nbformat.write(notebook, path)
    assert long_cells(path) == [f"page.ipynb cell 3: {MAX_CELL_LINES + 1} lines"]
