"""Check that an executed notebook shows every figure it is meant to show.

A code cell that displays figures says how many in its metadata, {"lab": {"images": N}}; every other
code cell shows none. A figure is a PNG output, or a PNG inline in an HTML output (the live figures of
lab/notebook.Live, which a browser redraws in place). An image that went missing (a display lost on a loaded machine, a cell that
printed its text but not its PNG) is reported with the cell's first line, and the exit status is 1.
"""
import json
import sys

failed = False
for path in sys.argv[1:]:
    with open(path) as f:
        nb = json.load(f)
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        want = cell.get("metadata", {}).get("lab", {}).get("images", 0)
        got = 0
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            html = data.get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if "image/png" in data or "data:image/png;base64," in html:
                got += 1
        if got != want:
            source = "".join(cell["source"]).strip().splitlines()
            print(f"{path}: cell {i + 1} ({source[0] if source else 'empty'}): {got} image(s), want {want}", file=sys.stderr)
            failed = True
sys.exit(1 if failed else 0)
