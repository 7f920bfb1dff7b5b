#!/usr/bin/python3
"""Retrains the tiny bilingual model into a temporary folder and compares every output's SHA-256 with
manifest.json (what the shipped files were made from). Exit 0 when all match, 1 when any differs.

    npm run tiny-model:verify      (= nice -n 10 /usr/bin/python3 scripts/tiny-model/verify.py)

The bytes repeat for the same script, corpus packages, torch build and CPU kind (one thread, deterministic
algorithms, fixed seeds); another torch version or CPU may round differently, and the report then says
which files differ.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> int:
    manifest = json.loads((HERE / "manifest.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="tiny-model-verify-") as tmp:
        out = Path(tmp) / "tiny-bilingual"
        ref = Path(tmp) / "reference"
        start = time.time()
        subprocess.run([sys.executable, str(HERE / "train.py"), "--out", str(out), "--reference-out", str(ref), "--no-manifest"], check=True)
        elapsed = time.time() - start
        fresh = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    differ = [name for name, digest in manifest["outputs"].items() if fresh["outputs"].get(name) != digest]
    for name, digest in manifest["outputs"].items():
        print(f"{'same' if name not in differ else 'DIFFERENT'}  {name}  shipped {digest[:16]}…  retrained {fresh['outputs'].get(name, 'missing')[:16]}…")
    print(f"retrained in {elapsed:.0f} s")
    if differ:
        env = {k: (manifest["environment"].get(k), fresh["environment"].get(k)) for k in manifest["environment"]}
        print(f"{len(differ)} of {len(manifest['outputs'])} files differ from manifest.json; environment (shipped, here): {env}")
        return 1
    print(f"all {len(manifest['outputs'])} files match manifest.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
