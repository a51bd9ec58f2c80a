#!/usr/bin/env python3
"""Checks `mlvpipe report --json` of the clips report.sh generates against their ground truth
(mlvsynth's NAME.truth.json and, for the dual-ISO clip, NAME.truth.f32).
usage: report_check.py REPORT.json CLIP_DIR"""
import json
import math
import struct
import sys

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


def truth(d, name):
    with open(f"{d}/{name}.truth.json") as f:
        return json.load(f)


def hist_total(c):
    n = 0
    for field in c["histogram"]["fields"]:
        for ch in field["channels"].values():
            n += ch["crushed"] + ch["clipped"] + sum(ch["counts"])
    return n


def check_dual(c, d):
    t = truth(d, "dual")
    di = t["dual_iso"]
    sensor = di["segments"][0]["sensor"]
    check(c["status"] == "ok", f"dual: status {c['status']}")
    check(c["dual_iso"], "dual: not dual ISO")
    s = c["segments"][0]
    check(s["dual_iso"] and s["phase"] == di["phase"], f"dual: phase {s['phase']}")
    check(abs(s["ratio_ev"] - di["ev_gap"]) < 0.1,
          f"dual: ratio {s['ratio_ev']} EV, simulated {di['ev_gap']}")
    # the combined range gains the ratio less the bright field's extra read noise
    gain = di["ev_gap"] - math.log2(sensor["read_noise_bright"] / sensor["read_noise_dark"])
    dr = s["dynamic_range_ev"]
    check(abs(dr["combined"] - dr["dark"] - gain) < 0.3,
          f"dual: DR gain {dr['combined'] - dr['dark']:.3f} EV, expected {gain:.3f}")
    check(len(c["histogram"]["fields"]) == 2, "dual: not two histogram fields")
    check(hist_total(c) == t["width"] * t["height"] * c["clipping"]["frames"],
          "dual: histogram does not count every sample")
    # the scene stands still: the pre-pass cannot tell the simulated lattice and the hot and
    # cold pixels that are not stuck from the scene's own detail, so it leaves them alone and
    # says so; the stuck ones (about half) are repaired
    d_ = s["defects"]
    check(d_["lattice"] is None and d_["lattice_left_alone"],
          f"dual: focus lattice {d_['lattice']}, left alone {d_['lattice_left_alone']}")
    want = len(di["defects"]["pixels"])
    seen = d_["pixels"] + d_["candidates_left_alone"]
    check(abs(seen - want) <= want // 10 and want // 3 <= d_["pixels"] < want,
          f"dual: {d_['pixels']} defect pixels + {d_['candidates_left_alone']} left alone, "
          f"{want} simulated")
    # clipped: photosites whose true signal reaches the dark field's full well (the clip of
    # the reconstructed frame), over the whole frame; the scene is static
    aw, ah = di["active_width"], di["active_height"]
    with open(f"{d}/dual.truth.f32", "rb") as f:
        e = struct.unpack(f"<{aw * ah}f", f.read(4 * aw * ah))
    clipped = sum(1 for v in e if v >= sensor["full_well_e"]) / (t["width"] * t["height"])
    got = c["clipping"]["clipped_mean"]
    check(abs(got - clipped) < 0.0015, f"dual: clipped {got:.5f}, truth {clipped:.5f}")


def check_gradient(c, d):
    t = truth(d, "grad")
    # black + (white - black) * ((x + f) mod W) div (W - 1): one column in W at white, one at black
    want = 1 / t["width"]
    check(c["status"] == "ok" and not c["dual_iso"], f"grad: {c['status']} dual {c['dual_iso']}")
    cl = c["clipping"]
    for k in ("clipped_mean", "clipped_max", "crushed_mean", "crushed_max"):
        check(abs(cl[k] - want) < 1e-9, f"grad: {k} {cl[k]}, expected {want}")
    check(c["segments"][0]["dynamic_range_ev"]["dark"] == 0, "grad: single ISO with a DR")
    check(hist_total(c) == t["width"] * t["height"] * cl["frames"], "grad: histogram total")


def check_audio(c, d):
    t = truth(d, "snd")
    a = c["audio"]
    check(a is not None and a["channels"] == 2 and a["sample_rate"] == 48000 and a["measured"],
          f"snd: audio {a and {k: a[k] for k in ('channels', 'sample_rate', 'measured')}}")
    if not a:
        return
    # sines: RMS amplitude / sqrt(2) and peak amplitude, of full scale 32768
    amp = t["audio"]["amplitude"]
    rms = 20 * math.log10(amp / math.sqrt(2) / 32768)
    peak = 20 * math.log10(amp / 32768)
    for p in a["points"]:
        for ch in (0, 1):
            check(abs(p["rms_dbfs"][ch] - rms) < 0.05, f"snd: RMS {p['rms_dbfs'][ch]} at {p['time_s']}")
            check(abs(p["peak_dbfs"][ch] - peak) < 0.1, f"snd: peak {p['peak_dbfs'][ch]}")
    dur = t["audio"]["sample_frames"] / t["audio"]["rate"]
    check(a["points"][0]["time_s"] < 0.1 * dur and a["points"][-1]["time_s"] > 0.9 * dur,
          "snd: points do not span the sound")


def check_damaged(c, d):
    t = truth(d, "cut")
    check(c["status"] == "damaged", f"cut: status {c['status']}")
    gaps = [{"first": f, "count": 1} for f in t["dropped"]]
    check(c["gaps"] == gaps, f"cut: gaps {c['gaps']}, dropped {t['dropped']}")
    check(any(x["kind"] == "truncated" for x in c["damage"]), f"cut: damage {c['damage']}")
    # the cut took the last frame: its damage stands before the frame after the last intact one
    cut = [x for x in c["damage"] if x["kind"] == "truncated"]
    check(cut and cut[0]["before_frame"] == max(t["intact_frames"]) + 1,
          f"cut: damage placed before frame {cut and cut[0]['before_frame']}, "
          f"expected {max(t['intact_frames']) + 1}")
    check(c["clipping"]["frames"] > 0, "cut: no frame measured")


def check_flicker(static, flicker):
    """The band means of the static clip move no more than its noise predicts; those of the
    clip whose light jitters by 0.02 EV (1.4 %) from frame to frame move far more."""
    for b in static["bands"]:
        check(b["frames"] == 0 or b["flicker_pct"] <= 1.5 * b["predicted_pct"],
              f"static: band {b['ev_below_clip']} flickers {b['flicker_pct']:.3f} % against "
              f"{b['predicted_pct']:.3f} % predicted")
    bands = [b for b in flicker["bands"] if b["frames"]]
    check(len(bands) >= 4, f"flick: {len(bands)} bands")
    for b in bands:
        check(b["flicker_pct"] > 3 * b["predicted_pct"] and 0.7 < b["flicker_pct"] < 2.5,
              f"flick: band {b['ev_below_clip']} flickers {b['flicker_pct']:.3f} % against "
              f"{b['predicted_pct']:.3f} % predicted")


def main():
    with open(sys.argv[1]) as f:
        r = json.load(f)
    d = sys.argv[2]
    check(r["format"] == "mlvpipe-report" and r["format_version"] == 1, "format")
    names = [c["name"] for c in r["clips"]]
    check(names == ["dual.MLV", "grad.MLV", "snd.MLV", "gone.MLV", "cut.MLV", "flick.MLV"],
          f"clips {names}")
    if not fails:
        c = r["clips"]
        check_dual(c[0], d)
        check_gradient(c[1], d)
        check_audio(c[2], d)
        check(c[3]["status"] == "error" and "gone.MLV" in c[3]["error"], f"gone: {c[3]['error']}")
        check_damaged(c[4], d)
        check_flicker(c[0], c[5])
        keys = [sorted(x.keys()) for x in c]
        check(all(k == keys[0] for k in keys), "clips do not share one schema")
    for f in fails:
        print("FAIL:", f)
    sys.exit(1 if fails else 0)


main()
