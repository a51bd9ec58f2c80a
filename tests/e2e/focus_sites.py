"""The focus-pixel sites of a clip in recorded-frame coordinates: those mlvsynth simulated
(its truth JSON) and those a map repairs (the lattice of a levels sidecar), as sets of (x, y).
Shared by the focus-pixel e2e tests (rawfix_priors.sh, rawfix_priors_table.sh)."""
import json


def lattice_sites(period_x, period_y, box, classes):
    """Every (x, y) in box [x0, y0, x1, y1) with (x mod period_x, y mod period_y) in classes."""
    x0, y0, x1, y1 = box
    return {(x, y) for y in range(y0, y1) for x in range(x0, x1)
            if (x % period_x, y % period_y) in classes}


def truth_sites(path):
    """The simulated focus pixels of NAME.truth.json."""
    f = json.load(open(path))["dual_iso"]["defects"]["focus"]
    return lattice_sites(f["period_x"], f["period_y"], f["box"], {tuple(k) for k in f["classes"]})


def map_sites(path, segment=0):
    """The sites the lattice of a levels sidecar repairs (empty without a lattice)."""
    m = json.load(open(path))["segments"][segment]["rawfix"]
    l = m.get("lattice")
    if not l or not l["period_x"]:
        return set()
    c = l["classes"]
    return lattice_sites(l["period_x"], l["period_y"], (l["x0"], l["y0"], l["x1"], l["y1"]),
                         set(zip(c[0::2], c[1::2])))
