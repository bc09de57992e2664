"""Give the GoNB kernel spec a PATH that finds the lab's tools.

Reads `jupyter kernelspec list --json` on standard input, and sets the gonb kernel's
env.PATH to "<dirs>:${PATH}" (argv[1] is <dirs>): jupyter_client expands ${PATH} from the
environment of whoever starts Jupyter, so the kernel finds goimports and go whatever that PATH is.
"""
import json
import os
import sys

specs = json.load(sys.stdin)["kernelspecs"]
if "gonb" not in specs:
    sys.exit("kernelspec_path: no gonb kernel installed")
path = os.path.join(specs["gonb"]["resource_dir"], "kernel.json")
with open(path) as f:
    spec = json.load(f)
spec.setdefault("env", {})["PATH"] = sys.argv[1] + ":${PATH}"
tmp = path + ".tmp"
with open(tmp, "w") as f:
    json.dump(spec, f, indent=1)
os.replace(tmp, path)
