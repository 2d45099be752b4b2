"""The code in docs/API.md runs as written (so the documented API can't drift)."""

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "API.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)


def test_the_api_page_has_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_api_example_runs(i, capsys):
    exec(compile(BLOCKS[i], "%s[block %d]" % (DOC.name, i), "exec"), {})
