#!/usr/bin/env python3
"""Poseidon input files for tests/bench/poseidon.sh (no Poseidon code here; its XML format only).

  poseidon_traffic.py info FILE.xml
      One line "TOPO W H ROUTER_DEPTH LINK_DEPTH FORMAT" for a Poseidon file of either format
      (TOPO torus:WxH for bitorus, mesh:WxH, custom; FORMAT current or first).
  poseidon_traffic.py convert IN.xml OUT.xml
      Poseidon's first, single-file format (<topology width= height=><graph type=/></topology>
      <channels>...) rewritten in its current format (<platform>, <communication type="custom">),
      same channels and bandwidths: today's Poseidon reads only the current one.
  poseidon_traffic.py gen KIND W H TYPE OUT.xml
      A custom pattern as a Poseidon file (platform TYPE bitorus or mesh, W x H routers; a channel of
      bandwidth B and phits F is B x F flits for totex). Router (x, y) is node x + W*y. KIND:
        groups:0 | groups:1            all-to-all inside every row | column, 1 flit a pair
        perm:transpose:M               (x, y) sends M flits to (y, x) (square only)
        random:SEED:DENSITY:MAX        totex's generator (docs/traffic.md#random, splitmix64)
        all:M                          all2all with M phits (Poseidon's multi-phit all-to-all)
        hotspot:SEED:NODE:K            every node sends K flits to NODE, plus random:SEED:0.05:2
        phits:SEED:DENSITY:MAX:F       random channels of bandwidth 1..MAX, each of F phits
"""
import re
import sys

MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def density_millionths(text):
    whole, _, frac = text.partition(".")
    if len(frac) > 6:
        raise SystemExit(f"density {text}: at most six decimals")
    return int(whole or "0") * 1000000 + int((frac + "000000")[:6] or "0")


def random_matrix(n, seed, density, mx):
    """docs/traffic.md#random: one draw per pair, a second for its flit count when it carries traffic."""
    state = seed & MASK
    thr = density_millionths(density)
    out = {}
    for s in range(n):
        for d in range(n):
            if s == d:
                continue
            state, u = splitmix64(state)
            if u % 1000000 < thr:
                state, v = splitmix64(state)
                out[(s, d)] = 1 + v % mx
    return out


def attr(tag, name, default=None):
    m = re.search(r'\b' + name + r'\s*=\s*"([^"]*)"', tag)
    return m.group(1) if m else default


def first_tag(text, name):
    m = re.search(r'<' + name + r'\b[^>]*>', text)
    return m.group(0) if m else None


def info(path):
    text = open(path, encoding="utf-8").read()
    plat = first_tag(text, "platform")
    if plat is not None:
        topo = first_tag(text, "topology")
        kind = attr(topo, "type") or attr(topo, "topoType")
        fmt = "current"
    else:
        plat = first_tag(text, "topology")
        topo = first_tag(text, "graph")
        kind = attr(topo, "type")
        fmt = "first"
    w, h = int(attr(plat, "width")), int(attr(plat, "height"))
    rd, ld = int(attr(topo, "routerDepth", "1")), int(attr(topo, "linkDepth", "0"))
    spec = {"bitorus": f"torus:{w}x{h}", "mesh": f"mesh:{w}x{h}"}.get(kind, "custom")
    return spec, w, h, rd, ld, fmt, text, kind


def platform_xml(w, h, kind):
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<platform width="{w}" height="{h}">\n'
            f'  <topology type="{kind}"></topology>\n</platform>\n')


def convert(src, dst):
    spec, w, h, rd, ld, fmt, text, kind = info(src)
    if fmt == "current":
        raise SystemExit(f"{src}: already in the current format")
    chans = first_tag(text, "channels")
    ctype = attr(chans, "type", "") if chans else "all2all"
    with open(dst, "w", encoding="utf-8") as f:
        f.write(platform_xml(w, h, kind))
        if ctype == "all2all" and "<channel " not in text:
            f.write('<communication type="all2all"></communication>\n')
            return
        f.write('<communication type="custom">\n')
        for m in re.finditer(r'<channel\b[^>]*>', text):
            t = m.group(0)
            bw = attr(t, "bandwidth", "1")
            f.write(f'  <channel from="{attr(t, "from")}" to="{attr(t, "to")}" bandwidth="{bw}" />\n')
        f.write('</communication>\n')


def gen(kind, w, h, ptype, dst):
    n = w * h
    xy = lambda v: f"({v % w},{v // w})"
    parts = kind.split(":")
    chans = {}  # (s, d) -> (bandwidth, phits)
    head = '<communication type="custom">'
    if parts[0] == "groups":
        dim = int(parts[1])
        for s in range(n):
            for d in range(n):
                if s != d and ((dim == 0 and s // w == d // w) or (dim == 1 and s % w == d % w)):
                    chans[(s, d)] = (1, 1)
    elif parts[0] == "perm" and parts[1] == "transpose":
        assert w == h, "transpose needs a square network"
        m = int(parts[2]) if len(parts) > 2 else 1
        for s in range(n):
            d = (s % w) * w + s // w
            if d != s:
                chans[(s, d)] = (m, 1)
    elif parts[0] == "random":
        for k, v in random_matrix(n, int(parts[1]), parts[2], int(parts[3])).items():
            chans[k] = (v, 1)
    elif parts[0] == "hotspot":
        seed, hot, k = int(parts[1]), int(parts[2]), int(parts[3])
        for (s, d), v in random_matrix(n, seed, "0.05", 2).items():
            chans[(s, d)] = (v, 1)
        for s in range(n):
            if s != hot:
                chans[(s, hot)] = (chans.get((s, hot), (0, 1))[0] + k, 1)
    elif parts[0] == "phits":
        f = int(parts[4])
        for k2, v in random_matrix(n, int(parts[1]), parts[2], int(parts[3])).items():
            chans[k2] = (v, f)
    elif parts[0] == "all":
        head = f'<communication type="all2all" phits="{int(parts[1])}">'
    else:
        raise SystemExit(f"unknown pattern {kind}")
    with open(dst, "w", encoding="utf-8") as out:
        out.write(platform_xml(w, h, ptype))
        out.write(head + "\n")
        for (s, d), (bw, ph) in sorted(chans.items()):
            out.write(f'  <channel from="{xy(s)}" to="{xy(d)}" bandwidth="{bw}" phits="{ph}" />\n')
        out.write("</communication>\n")


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[:1] == ["info"] and len(a) == 2:
        spec, w, h, rd, ld, fmt, _, _ = info(a[1])
        print(spec, w, h, rd, ld, fmt)
    elif a[:1] == ["convert"] and len(a) == 3:
        convert(a[1], a[2])
    elif a[:1] == ["gen"] and len(a) == 6:
        gen(a[1], int(a[2]), int(a[3]), a[4], a[5])
    else:
        raise SystemExit(__doc__)
