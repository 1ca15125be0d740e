#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fault campaign (issue 15): inject faults of each class into the schedule a hardware engine loads,
run it with `totex sim --unverified` (the verifier is bypassed, so only the engine's independent
scoreboard stands between the fault and a PASS) and count how many are caught.

  campaign.py TOTEX [--per-class K] [--engines ref,systemc,rtl] [--seed S] [--table FILE] [--strict]

Classes (each fault is one random instance; the schedule is a verified optimal one):
  config-bit   MIN min:16:4:omega, table form: one bit of one switch state in one step flipped
  table-entry  torus:3x3 all-port step schedule (pairwise, 6 steps): one entry's output link or message field changed
  drop         one link crossing removed (the message is lost at that hop)
  duplicate    one link crossing repeated in the next step (the message is sent again)
  delay        one link crossing moved 1-3 steps later
  stuck-link   one directed link stuck idle from a random step on (every later crossing lost)
  step-counter the step counter skips one step (that step's entries never execute) or repeats
               one (its entries execute twice); the run length follows the counter
A mutant that `totex verify` accepts is a different valid schedule, not a fault: it is not counted,
another is drawn (the table reports how many). A fault is caught when the run fails (exit status 1 and passed=false) or when the loader rejects
the file with `file:line: ...` (exit 2, counted apart as "at load"); exit 0 is a miss, any other
status (crash) fails the campaign. For every caught fault the
diagnostics (the scoreboard's errors and the verifier's for the faulty file) are checked for a
step (or cycle), a node and a link (from->to, or a switch) named in them.
Exit status 0 only if every injected fault was caught.
"""
import argparse, json, os, random, re, shutil, subprocess, sys, tempfile

DIRECT_TOPO, MIN_TOPO = "torus:3x3", "min:16:4:omega"

def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr

def torus_neighbors(k, v):
    x, y = v % k, v // k
    return sorted({((x + 1) % k) + y * k, ((x - 1) % k) + y * k, x + ((y + 1) % k) * k, x + ((y - 1) % k) * k} - {v})

def parse_steps(text):
    """-> (header lines, {step: [hop lines]})"""
    head, steps, cur = [], {}, None
    for line in text.splitlines():
        m = re.match(r"step (\d+)$", line)
        if m:
            cur = int(m.group(1)); steps[cur] = []
        elif cur is None:
            head.append(line)
        elif line.strip() and not line.startswith("#"):
            steps[cur].append(line.split())
    return head, steps

def render(head, steps, nsteps):
    out = [re.sub(r"^steps \d+$", "steps %d" % nsteps, h) for h in head]
    for s in range(nsteps):
        out.append("step %d" % s)
        out += [" ".join(h) for h in steps.get(s, [])]
    return "\n".join(out) + "\n"

def mutate_direct(cls, head, steps, rng, k=3):
    steps = {s: [list(h) for h in hs] for s, hs in steps.items()}
    n = len(steps)
    hops = [(s, i) for s in steps for i in range(len(steps[s]))]
    s, i = rng.choice(hops)
    hop = steps[s][i]
    if cls == "table-entry":
        field = rng.choice(["to", "src", "dst"])
        if field == "to":
            a, b = int(hop[0]), int(hop[1])
            hop[1] = str(rng.choice([w for w in torus_neighbors(k, a) if w != b]))
            what = "step %d entry %s->%s: output link changed to %s->%s" % (s, a, b, a, hop[1])
        else:
            j = 2 if field == "src" else 3
            old = int(hop[j]); new = old
            while new == old or new >= k * k: new = old ^ (1 << rng.randrange(4))
            hop[j] = str(new)
            what = "step %d entry %s->%s: %s %d -> %d" % (s, hop[0], hop[1], field, old, new)
    elif cls == "drop":
        del steps[s][i]; what = "step %d: crossing %s dropped" % (s, " ".join(hop))
    elif cls == "duplicate":
        t = min(s + 1, n - 1) if s + 1 < n else s - 1
        steps[t].append(list(hop)); what = "step %d: crossing %s repeated in step %d" % (s, " ".join(hop), t)
    elif cls == "delay":
        d = rng.randint(1, 3)
        t = s + d
        del steps[s][i]
        if t >= n:
            for x in range(n, t + 1): steps[x] = []
            n = t + 1
        steps[t].append(hop); what = "step %d: crossing %s delayed to step %d" % (s, " ".join(hop), t)
    elif cls == "stuck-link":
        a, b = hop[0], hop[1]
        lost = 0
        for t in range(s, n):
            before = len(steps[t]); steps[t] = [h for h in steps[t] if (h[0], h[1]) != (a, b)]; lost += before - len(steps[t])
        what = "link %s->%s stuck idle from step %d (%d crossings lost)" % (a, b, s, lost)
    elif cls == "step-counter":
        if rng.random() < 0.5:   # skip step s: its entries never run, later steps move up
            new = {t if t < s else t - 1: steps[t] for t in steps if t != s}; n -= 1
            what = "step counter skips step %d" % s
        else:                    # repeat step s: its entries run twice
            new = {t if t <= s else t + 1: steps[t] for t in steps}; new[s + 1] = [list(h) for h in steps[s]]; n += 1
            what = "step counter repeats step %d" % s
        steps = new
    else:
        raise ValueError(cls)
    return steps, n, what

def mutate_min(text, rng):
    lines = text.splitlines()
    idx = [j for j, l in enumerate(lines) if l.startswith("config ")]
    j = rng.choice(idx)
    parts = lines[j].split()
    stage = rng.randrange(2, len(parts)); stage_s = parts[stage]
    if "=" in stage_s: stage = 2; stage_s = parts[2]
    sw = rng.randrange(len(stage_s)); bit = rng.randrange(2)      # d = 4: 2-bit states
    new = int(stage_s[sw], 36) ^ (1 << bit)
    parts[stage] = stage_s[:sw] + "0123456789abcdefghijklmnopqrstuvwxyz"[new] + stage_s[sw + 1:]
    lines[j] = " ".join(parts)
    return "\n".join(lines) + "\n", "step %s stage %d switch %d: state bit %d flipped (%s -> %d)" % (
        parts[1], stage - 2, sw, bit, stage_s[sw], new)

NAMES = {"step": re.compile(r"\b(step|cycle) \d+"), "node": re.compile(r"\bnode \d+"),
         "link": re.compile(r"\d+ ?-> ?\d+|\blink\b|\bswitch\b|\bport\b")}

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("totex")
    ap.add_argument("--per-class", type=int, default=20)
    ap.add_argument("--engines", default="ref,systemc,rtl")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--table")
    ap.add_argument("--strict", action="store_true", help="an engine that cannot run the fault-free schedule fails the campaign")
    ap.add_argument("--classes", default="config-bit,table-entry,drop,duplicate,delay,stuck-link,step-counter")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="totex-fault-")
    dfile, mfile = os.path.join(work, "good.sched"), os.path.join(work, "good.cfg")
    for topo, f, extra in ((DIRECT_TOPO, dfile, ["--model", "all-port", "--algo", "pairwise"]), (MIN_TOPO, mfile, ["--form", "table"])):
        rc, out, err = run([a.totex, "schedule", "--topo", topo, *extra, "-o", f])
        if rc != 0: sys.exit("cannot make the fault-free schedule for %s: %s" % (topo, err.strip()))
    engines = a.engines.split(",")
    # The fault-free runs must pass, or the campaign would count a broken engine as catches; an engine
    # that cannot run the fault-free schedule is left out of that network's classes, loudly.
    usable, skipped = {}, []
    for f in (dfile, mfile):
        for e in engines:
            rc, out, err = run([a.totex, "sim", "--schedule", f, "--engine", e, "--json"])
            usable[(f, e)] = rc == 0 and json.loads(out)["passed"]
            if not usable[(f, e)]:
                skipped.append("%s on %s: fault-free run failed: %s" % (e, MIN_TOPO if f == mfile else DIRECT_TOPO, err.strip()[-300:]))
                print("SKIPPED " + skipped[-1], flush=True)
    dhead, dsteps = parse_steps(open(dfile).read())
    mtext = open(mfile).read()
    rows, bad, example = [], 0, {}
    for cls in a.classes.split(","):
        for e in engines:
            if not usable[(mfile if cls == "config-bit" else dfile, e)]: continue
            stats = dict(injected=0, valid=0, caught=0, at_load=0, step=0, node=0, link=0, missed=[])
            for n in range(a.per_class):
                f = os.path.join(work, "%s-%s-%d" % (cls, e, n))
                # A mutant the verifier accepts is a different valid schedule, not a fault (e.g. a final
                # crossing delayed into a free slot): counted apart and drawn again.
                while True:
                    if cls == "config-bit":
                        text, what = mutate_min(mtext, rng); g = f + ".cfg"
                    else:
                        st, ns, what = mutate_direct(cls, dhead, dsteps, rng); text = render(dhead, st, ns); g = f + ".sched"
                    open(g, "w").write(text)
                    if run([a.totex, "verify", g])[0] != 0: break
                    stats["valid"] += 1
                f = g
                stats["injected"] += 1
                rc, out, err = run([a.totex, "sim", "--schedule", f, "--engine", e, "--unverified", "--json"])
                if rc == 1:
                    res = json.loads(out)
                    if res["passed"]: bad += 1; stats["missed"].append(what + " (exit 1 but passed)"); continue
                    stats["caught"] += 1
                    vrc, vout, _ = run([a.totex, "verify", f, "--json"])
                    verrs = json.loads(vout).get("errors", []) if vrc in (0, 1) else []
                    diag = " | ".join(res["errors"] + verrs)
                    for key, rx in NAMES.items():
                        if rx.search(diag): stats[key] += 1
                    example.setdefault((cls, e), (what, res["errors"][:1], verrs[:1]))
                elif rc == 2 and re.search(r"\.(sched|cfg):\d+: |step \d+(, node \d+, link \d+->\d+)?: ", err):
                    # Rejected with its place named before the run: by the file loader (file:line, e.g. a
                    # message addressed to itself) or by the controller compiling the schedule into the
                    # hardware's tables (a crossing from a node the message is not at, or a second
                    # crossing of one message in one step: `step S, node V, link V->W: ...`).
                    stats["caught"] += 1; stats["at_load"] += 1
                    for key, rx in NAMES.items():
                        if rx.search(err): stats[key] += 1
                elif rc == 0:
                    stats["missed"].append(what)
                else:
                    bad += 1; stats["missed"].append("%s: exit %d: %s" % (what, rc, err.strip()[:200]))
            rows.append((cls, e, stats))
            print("%-13s %-8s injected %3d caught %3d  naming step %3d node %3d link %3d" % (
                cls, e, stats["injected"], stats["caught"], stats["step"], stats["node"], stats["link"]), flush=True)
            for m in stats["missed"]: print("  MISSED: " + m)
    table = ["| fault class | engine | injected | caught | of which before the run | caught % | message names step | node | link | valid schedules drawn (not faults) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for cls, e, s in rows:
        table.append("| %s | %s | %d | %d | %d | %.0f %% | %d | %d | %d | %d |" % (cls, e, s["injected"], s["caught"], s["at_load"],
                     100.0 * s["caught"] / max(1, s["injected"]), s["step"], s["node"], s["link"], s["valid"]))
    print("\n".join(table))
    print("\nexamples (fault: first scoreboard error / first verifier error):")
    for (cls, e), (what, se, ve) in sorted(example.items()):
        if e == engines[-1]: print("  %s: %s: %s / %s" % (cls, what, se[0] if se else "-", ve[0] if ve else "-"))
    if a.table:
        with open(a.table, "w") as t: t.write("\n".join(table) + "\n")
    total = sum(s["injected"] for _, _, s in rows); caught = sum(s["caught"] for _, _, s in rows)
    print("total: %d/%d caught" % (caught, total))
    for k in skipped: print("not run: " + k)
    ok = caught == total and bad == 0 and not (a.strict and skipped)
    if ok: shutil.rmtree(work, ignore_errors=True)  # keep the faulty files only when something was missed
    else: print("faulty files kept in " + work)
    sys.exit(0 if ok else 1)

if __name__ == "__main__":
    main()
