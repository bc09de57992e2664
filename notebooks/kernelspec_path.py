"""Give a GoNB kernel spec a PATH that finds the lab's tools.

Usage: kernelspec_path.py KERNEL_JSON DIRS. Sets the spec's env.PATH to "DIRS:${PATH}":
jupyter_client expands ${PATH} from the environment of whoever starts Jupyter, so the kernel finds
goimports and go whatever that PATH is. The file is replaced atomically.
"""
import json
import os
import sys

path, dirs = sys.argv[1], sys.argv[2]
with open(path) as f:
    spec = json.load(f)
spec.setdefault("env", {})["PATH"] = dirs + ":${PATH}"
tmp = path + ".tmp"
with open(tmp, "w") as f:
    json.dump(spec, f, indent=1)
os.replace(tmp, path)
