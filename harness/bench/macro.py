#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The macro benchmark's two steps (harness/bench/macro.sh).

macro.py pick PROFILE     F from the profile run's "hits W FUNC N" lines:
                          each workload's 64 hottest functions, then the
                          hottest over all three, to 256; names only
                          (a compiler clone like foo.constprop.0 is left
                          out: its name is the compiler's, not the code's)
macro.py table OUTDIR     OUTDIR/{mux,baseline}.txt -> macro.csv, macro.md,
                          macro.dat (for macro.gp)
"""
import statistics
import sys

SETUPS = ['none', 'one', '8-disjoint', '8-same', '64-same', '8-same+graph',
          '8-same+graph+bpf']
NOREC = ['one', '8-disjoint', '8-same', '64-same']
LABEL = {
    'none': 'no tracer',
    'one': '1 tracer on F',
    '8-disjoint': '8 tracers, each on 1/8 of F',
    '8-same': '8 tracers, each on F',
    '64-same': '64 tracers on F (8 instances, 56 counters)',
    '8-same+graph': '8 on F + profiler + function_graph',
    '8-same+graph+bpf': '8 on F + profiler + function_graph + BPF fentry',
}


def pick(path, per_workload=64, total=256):
    hits = {}
    for line in open(path):
        w = line.split()
        if len(w) == 4 and w[0] == 'hits' and '.' not in w[2]:
            hits.setdefault(w[1], {})[w[2]] = int(w[3])
    chosen = []
    for wl in sorted(hits):
        for fn in sorted(hits[wl], key=lambda f: -hits[wl][f])[:per_workload]:
            if fn not in chosen:
                chosen.append(fn)
    overall = {}
    for wl in hits:
        for fn, n in hits[wl].items():
            overall[fn] = overall.get(fn, 0) + n
    for fn in sorted(overall, key=lambda f: -overall[f]):
        if len(chosen) >= total:
            break
        if fn not in chosen:
            chosen.append(fn)
    for fn in chosen:
        print(fn)


def load(path, bpf=None):
    """Runs and recorded events of a guest's record; its "bpf" lines
    (each program's calls in a setup's last run of a workload, and the
    profiler's hits of the function) go to bpf[(workload, function)]."""
    runs, calls = {}, {}
    for line in open(path):
        w = line.split()
        if len(w) == 4 and w[0] == 'macro':
            runs.setdefault((w[1], w[2]), []).append(int(w[3]))
        elif len(w) == 4 and w[0] == 'calls':
            calls[(w[1], w[2])] = int(w[3])
        elif len(w) == 6 and w[0] == 'bpf' and bpf is not None:
            bpf[(w[2], w[3])] = (w[4], w[5])
    return runs, calls


def bpf_table(base, mux):
    """Each BPF program's calls in the last run beside the profiler's
    hits of its function: the programs ran on every call."""
    md = ['**BPF programs\' calls in the last run of each workload**, '
          'beside the profiler\'s hits of the same function over a window '
          'inside the programs\' (theirs also holds the asking of the '
          'loaders; "-": the function is not in the profiler\'s filter)', '',
          '| workload | function | upstream: program / profiler '
          '| ftrace-mux: program / profiler |', '|---|---|---:|---:|']
    for key in sorted(set(base) | set(mux)):
        cells = [' / '.join(d.get(key, ('?', '?'))) for d in (base, mux)]
        md.append(f'| {key[0]} | {key[1]} | {cells[0]} | {cells[1]} |')
    return md + ['']


def ms(ns):
    return f'{ns / 1e6:,.1f}'


def table(outdir):
    base_bpf, mux_bpf = {}, {}
    base, base_calls = load(f'{outdir}/baseline.txt', base_bpf)
    mux, mux_calls = load(f'{outdir}/mux.txt', mux_bpf)
    workloads = []
    for _, wl in list(base) + list(mux):
        if wl not in workloads:
            workloads.append(wl)
    setups = SETUPS + [s + '-norec' for s in NOREC]
    med = {}
    csv = ['workload,setup,kernel,runs_ns,median_ns,added_ns']
    for wl in workloads:
        for kern, runs in (('baseline', base), ('mux', mux)):
            for s in setups:
                r = runs.get((s, wl))
                if not r:
                    continue
                med[(kern, s, wl)] = statistics.median(r)
    md = ['Guest time of each workload run under QEMU -icount (1 ns = 1 '
          'instruction), median of the runs with their spread (min-max), '
          'in ms; "added" is the median minus the median with no tracer.',
          '']
    dat = []
    for wl in workloads:
        md += [f'**{wl}**', '',
               '| setup | upstream ms (spread) | added | ftrace-mux ms (spread) '
               '| added | ftrace-mux added / upstream added | events / run |',
               '|---|---|---|---|---|---|---|']
        b0, m0 = med.get(('baseline', 'none', wl)), med.get(('mux', 'none', wl))
        block = []
        for s in setups:
            if ('baseline', s, wl) not in med or ('mux', s, wl) not in med:
                continue
            rb, rm = base[(s, wl)], mux[(s, wl)]
            b, m = med[('baseline', s, wl)], med[('mux', s, wl)]
            # Without a run of no tracer (a run of some setups only),
            # nothing is "added": the columns stay empty.
            if b0 is None or m0 is None:
                ab = am = float('nan')
            else:
                ab, am = b - b0, m - m0
            for kern, r, a in (('baseline', rb, ab), ('mux', rm, am)):
                csv.append(f'{wl},{s},{kern},{" ".join(map(str, r))},'
                           f'{med[(kern, s, wl)]:.0f},{a:.0f}')
            frac = f'{am / ab:.2f}' if s != 'none' and ab > 0 else ''
            added = s != 'none' and ab == ab
            ev = base_calls.get((s, wl))
            evm = mux_calls.get((s, wl))
            evs = '' if ev is None else f'{ev:,}' + ('' if ev == evm else f' / {evm:,}')
            name = LABEL.get(s.replace('-norec', ''), s)
            if s.endswith('-norec'):
                name += ', recording off'
            md.append(f'| {name} | {ms(b)} ({ms(min(rb))}-{ms(max(rb))}) | '
                      f'{ms(ab) if added else ""} | '
                      f'{ms(m)} ({ms(min(rm))}-{ms(max(rm))}) | '
                      f'{ms(am) if added else ""} | {frac} | {evs} |')
            if added and not s.endswith('-norec'):
                block.append(f'"{s}" {ab / 1e6:.3f} {am / 1e6:.3f}')
        md.append('')
        dat.append(f'# {wl}\n' + '\n'.join(block))
    if base_bpf or mux_bpf:
        md += bpf_table(base_bpf, mux_bpf)
    with open(f'{outdir}/macro.csv', 'w') as f:
        f.write('\n'.join(csv) + '\n')
    with open(f'{outdir}/macro.md', 'w') as f:
        f.write('\n'.join(md))
    with open(f'{outdir}/macro.dat', 'w') as f:
        f.write('\n\n\n'.join(dat) + '\n')
    with open(f'{outdir}/macro.workloads', 'w') as f:
        f.write(' '.join(workloads) + '\n')


if __name__ == '__main__':
    if len(sys.argv) == 3 and sys.argv[1] == 'pick':
        pick(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == 'table':
        table(sys.argv[2])
    else:
        sys.exit(__doc__)
