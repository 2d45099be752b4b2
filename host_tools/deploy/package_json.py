"""package.json for `mpremote mip install --target / github:OWNER/REPO`, from the import closure.

mip copies files as they are, so it lists the sources, not .mpy files.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from host_tools.deploy import ROOT
from host_tools.deploy.closure import import_closure
from host_tools.deploy.rp2 import DRIVER


def package_json(root: Path = ROOT) -> dict:
    entries = import_closure(root)
    version = "0.0.0"
    pp = root / "pyproject.toml"
    if pp.is_file():
        import tomllib  # noqa: PLC0415

        version = tomllib.loads(pp.read_text())["project"].get("version", version)
    urls = []
    for e in entries:
        if e.drawn:
            continue  # made by make deploy; mip copies the repository's files as they are
        dev = e.device if not e.compiled else e.device[: -len(".mpy")] + ".py"
        urls.append([dev, str(e.source.relative_to(root)).replace(os.sep, "/")])
    return {"urls": urls, "deps": [[DRIVER, "latest"]], "version": version}


def package_json_text(root: Path = ROOT) -> str:
    """package.json with one [board path, repository path] pair per line."""
    pj = package_json(root)
    urls = ",\n".join("    " + json.dumps(u) for u in pj["urls"])
    return (
        "{\n"
        f'  "urls": [\n{urls}\n  ],\n'
        f'  "deps": {json.dumps(pj["deps"])},\n'
        f'  "version": {json.dumps(pj["version"])}\n'
        "}\n"
    )
