#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the two guest bench outputs into CSV and markdown tables.

tabulate.py OUTDIR BASELINE_VMLINUX MUX_VMLINUX
reads OUTDIR/{baseline,mux}.txt (records printed by harness/guest/bench.sh)
and writes percall.csv/.md, update.csv/.md, memory.md and (from the
ftrace-mux run) detour.csv/.md, reglat.csv/.md and, from its console's
KUnit lines, sets.csv/.md in OUTDIR.
"""
import re
import subprocess
import sys


def load(path):
    percall, update, boot, detour, reglat = {}, {}, {}, {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'percall' and len(w) == 5:
                percall[(w[3], int(w[1]), int(w[2]))] = int(w[4])
            elif w[0] == 'update' and len(w) == 4:
                update[(w[1], int(w[2]))] = int(w[3])
            elif w[0] == 'boot' and len(w) == 3:
                boot[w[1]] = int(w[2])
            elif w[0] == 'detour' and len(w) == 4:
                detour[(w[1], int(w[2]))] = int(w[3])
            elif w[0] == 'reglat' and len(w) == 8:
                reglat[int(w[1])] = [int(x) for x in w[2:]]
    return percall, update, boot, detour, reglat


def ratio(a, b):
    return a / b if b else float('nan')


def percall_tables(outdir, base, mux):
    keys = sorted(set(base) & set(mux),
                  key=lambda k: (k[0] != 'none', k[0], k[1], k[2]))
    with open(f'{outdir}/percall.csv', 'w') as f:
        f.write('flags,relevant,irrelevant,baseline_ns,mux_ns,speedup\n')
        for k in keys:
            f.write(f'{k[0]},{k[1]},{k[2]},{base[k]},{mux[k]},'
                    f'{ratio(base[k], mux[k]):.2f}\n')
    irr = sorted({k[2] for k in keys})
    rows = sorted({(k[0], k[1]) for k in keys},
                  key=lambda r: (r[0] != 'none', r[0], r[1]))
    lines = ['ns/call (= instructions per call under -icount), '
             'baseline -> ftrace-mux (speed-up)', '',
             '| ops flags | relevant ops | ' +
             ' | '.join(f'irrelevant {i}' for i in irr) + ' |',
             '|---|---|' + '---|' * len(irr)]
    for fl, r in rows:
        cells = []
        for i in irr:
            k = (fl, r, i)
            if k in base and k in mux:
                cells.append(f'{base[k]} -> {mux[k]} '
                             f'({ratio(base[k], mux[k]):.1f}x)')
            else:
                cells.append('')
        name = '-' if fl == 'none' else fl
        lines.append(f'| {name} | {r} | ' + ' | '.join(cells) + ' |')
    with open(f'{outdir}/percall.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')
    # For the plot: relevant, then baseline and mux for each irrelevant.
    with open(f'{outdir}/percall.dat', 'w') as f:
        f.write('# relevant ' + ' '.join(f'base{i}' for i in irr) + ' ' +
                ' '.join(f'mux{i}' for i in irr) + '\n')
        for r in sorted({k[1] for k in keys if k[0] == 'none'}):
            vals = [base.get(('none', r, i), 'nan') for i in irr] + \
                   [mux.get(('none', r, i), 'nan') for i in irr]
            f.write(f'{r} ' + ' '.join(str(v) for v in vals) + '\n')


def update_tables(outdir, base, mux):
    keys = [k for k in base if k in mux]
    if not keys:
        return
    with open(f'{outdir}/update.csv', 'w') as f:
        f.write('what,other_tracers,baseline_ns,mux_ns,mux_over_baseline\n')
        for k in keys:
            f.write(f'{k[0]},{k[1]},{base[k]},{mux[k]},'
                    f'{ratio(mux[k], base[k]):.3f}\n')
    lines = ['guest ns under -icount (instructions, plus idle time spent '
             'waiting for grace periods)', '',
             '| change | other tracers | baseline | ftrace-mux | ftrace-mux / baseline |',
             '|---|---|---|---|---|']
    for k in keys:
        lines.append(f'| {k[0]} | {k[1]} | {base[k]} | {mux[k]} | '
                     f'{ratio(mux[k], base[k]):.3f} |')
    with open(f'{outdir}/update.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def size(vmlinux):
    out = subprocess.run(['size', vmlinux], capture_output=True, text=True,
                         check=True).stdout.splitlines()[1].split()
    return int(out[0]), int(out[1]), int(out[2])


def mux_symbols(vmlinux):
    out = subprocess.run(['nm', '-S', vmlinux], capture_output=True,
                         text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        w = line.split()
        if len(w) == 4 and w[3] in ('ftrace_mux_caller',
                                    'ftrace_mux_regs_caller',
                                    'ftrace_mux_calls'):
            syms[w[3]] = int(w[1], 16)
    return syms


def memory_table(outdir, bvm, mvm, bboot, mboot):
    b, m = size(bvm), size(mvm)
    lines = ['| | baseline | ftrace-mux | added |', '|---|---|---|---|']
    for i, name in enumerate(('text', 'data', 'bss')):
        lines.append(f'| vmlinux {name} (bytes) | {b[i]} | {m[i]} | {m[i] - b[i]} |')
    for key, label in (('records', 'dyn_ftrace records at boot'),
                       ('record_pages', 'pages holding them')):
        if key in bboot and key in mboot:
            lines.append(f'| {label} | {bboot[key]} | {mboot[key]} | '
                         f'{mboot[key] - bboot[key]} |')
    if 'records' in bboot and 'records' in mboot:
        lines.append(f'| bytes per record (pages x 4096 / records) | '
                     f'{bboot["record_pages"] * 4096 / bboot["records"]:.1f} | '
                     f'{mboot["record_pages"] * 4096 / mboot["records"]:.1f} | |')
    if 'memfree_kb' in bboot and 'memfree_kb' in mboot:
        lines.append(f'| MemFree after the run (kB) | {bboot["memfree_kb"]} | '
                     f'{mboot["memfree_kb"]} | |')
    syms = mux_symbols(mvm)
    for name in ('ftrace_mux_caller', 'ftrace_mux_regs_caller',
                 'ftrace_mux_calls'):
        if name in syms:
            lines.append(f'| {name} (bytes) | | {syms[name]} | |')
    for k in (2, 64):
        if f'tramps_{k}' in mboot:
            lines.append(f'| {k} tracers on one function: trampolines, bytes | | '
                         f'{mboot[f"tramps_{k}"]}, {mboot[f"tramp_bytes_{k}"]} | |')
    if 'tramps_7inst' in mboot and mboot['tramps_7inst']:
        n, b = mboot['tramps_7inst'], mboot['tramp_bytes_7inst']
        lines.append(f'| 7 instances over 127 functions: trampolines, bytes, '
                     f'bytes per trampoline | | {n}, {b}, {b / n:.0f} | |')
    with open(f'{outdir}/memory.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def detour_table(outdir, d):
    """ns (instructions) per call of one function, by path and tracers."""
    if not d:
        return
    with open(f'{outdir}/detour.csv', 'w') as f:
        f.write('path,tracers,ns_per_call\n')
        for (path, k), ns in sorted(d.items()):
            f.write(f'{path},{k},{ns}\n')
    get = lambda p, k: d.get((p, k), '')
    lines = ['Per call, one function, empty tracer callbacks '
             '(guest ns = instructions, QEMU -icount shift=0):', '',
             '| tracers | fentry site (mux) | detour | plain kprobe |',
             '|---:|---:|---:|---:|',
             f"| none | {get('untraced_fentry', 0)} | {get('untraced', 0)} "
             f"(no detour) | |",
             f"| 0 (detour installed) | | {get('detour', 0)} | |",
             f"| 1 | {get('fentry', 1)} | {get('detour', 1)} | "
             f"{get('kprobe', 1)} |"]
    for k in (2, 8):
        lines.append(f"| {k} | {get('fentry', k)} | {get('detour', k)} | |")
    if ('bpf_fentry', 0) in d:
        lines += ['', 'A BPF fentry program on the fentry site, beside K tracers; '
                  '"expected" is the K tracers alone plus the BPF program '
                  'alone, each over the untraced call:', '',
                  '| tracers | tracers alone | BPF alone | tracers + BPF '
                  '| expected | ratio |',
                  '|---:|---:|---:|---:|---:|---:|']
        base = d.get(('untraced_fentry', 0))
        bpf = d[('bpf_fentry', 0)]
        for k in (2, 8):
            both, alone = d.get(('bpf_fentry', k)), d.get(('fentry', k))
            if base is None or both is None or alone is None:
                continue
            want = alone + bpf - base
            lines.append(f'| {k} | {alone} | {bpf} | {both} | {want} | '
                         f'{(both - base) / (want - base):.2f} |')
    if ('site', 1) in d:
        lines += site_lines(d)
    with open(f'{outdir}/detour.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def site_lines(d):
    """A site of an inlined copy against the fentry call of the same set."""
    get = lambda p, k: d.get((p, k))
    base_site, base_fentry = get('untraced_inline', 0), get('untraced_fentry', 0)
    lines = ['', 'A site of an inlined copy (ftrace_mux_inline_caller1() runs '
             'one copy of ftrace_mux_inline_target()) against the fentry call '
             'of the same set; "over" is over the call without tracing:', '',
             '| tracers | fentry site | over | inlined site | over | ratio |',
             '|---:|---:|---:|---:|---:|---:|',
             f"| none | {base_fentry} | | {base_site} (no site) | | |",
             f"| 0 (site installed) | | | {get('site', 0)} | "
             f"{get('site', 0) - base_site} | |"]
    for k in (1, 2, 8):
        f, s = get('fentry', k), get('site', k)
        if f is None or s is None:
            continue
        lines.append(f'| {k} | {f} | {f - base_fentry} | {s} | {s - base_site} '
                     f'| {ratio(s - base_site, f - base_fentry):.2f} |')
    rows = [('function tracer, fentry call', 'function_fentry', base_fentry),
            ('function tracer, inlined site', 'function_site', base_site),
            ('kprobe event, inlined site', 'kprobe_event', base_site)]
    lines += ['', 'One tracer that writes the ring buffer, per call:', '',
              '| path | per call | over the untraced call |', '|---|---:|---:|']
    for name, path, base in rows:
        v = get(path, 1)
        if v is not None:
            lines.append(f'| {name} | {v} | {v - base} |')
    return lines


def reglat_table(outdir, r):
    """Registration latency of one tracer beside K others (ftrace-mux)."""
    if not r:
        return
    with open(f'{outdir}/reglat.csv', 'w') as f:
        f.write('others,reg_p50,reg_p99,reg_max,unreg_p50,unreg_p99,unreg_max\n')
        for k, v in sorted(r.items()):
            f.write(','.join(str(x) for x in [k] + v) + '\n')
    ms = lambda ns: f'{ns / 1e6:.2f}'
    lines = ['Registering and unregistering one tracer 1,000 times with K '
             'others on the same function, guest ms (QEMU -icount shift=0, '
             'ftrace-mux only):', '',
             '| others | register p50 | p99 | max | unregister p50 | p99 | max |',
             '|---:|---:|---:|---:|---:|---:|---:|']
    for k, v in sorted(r.items()):
        lines.append(f'| {k} | ' + ' | '.join(ms(x) for x in v) + ' |')
    with open(f'{outdir}/reglat.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def sets_table(outdir):
    """Sets at scale, from the KUnit case update_scales in mux.console."""
    made, reg = [], None
    try:
        with open(f'{outdir}/mux.console', errors='replace') as f:
            for line in f:
                m = re.search(r'update_scales: (\d+) live sets, (\d+) trampolines, '
                              r'(\d+) bytes, made in (\d+) ms', line)
                if m:
                    made.append([int(x) for x in m.groups()])
                m = re.search(r'update_scales: register with (\d+) live sets: '
                              r'(\d+) ns, with (\d+): (\d+) ns', line)
                if m:
                    reg = [int(x) for x in m.groups()]
    except FileNotFoundError:
        return
    if len(made) != 2 or not reg:
        return
    with open(f'{outdir}/sets.csv', 'w') as f:
        f.write('live_sets,trampolines,bytes,made_ms,register_ns\n')
        for row, ns in zip(made, (reg[1], reg[3])):
            f.write(','.join(str(x) for x in row + [ns]) + '\n')
    lines = ['Sets at scale (the boot-time KUnit case update_scales, guest '
             'time under QEMU -icount shift=0, ftrace-mux only): 14 tracers '
             'over 10,000 functions in few sets or one set per function, '
             'then one more tracer registered on another function (the '
             'fastest of five), an update that looks at every record:', '',
             '| live sets | trampolines | trampoline bytes | made in ms '
             '| registering one more, ms |',
             '|---:|---:|---:|---:|---:|']
    for row, ns in zip(made, (reg[1], reg[3])):
        lines.append(f'| {row[0]:,} | {row[1]:,} | {row[2]:,} | {row[3]:,} '
                     f'| {ns / 1e6:.2f} |')
    with open(f'{outdir}/sets.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


def main():
    outdir, bvm, mvm = sys.argv[1:4]
    bp, bu, bb, _, _ = load(f'{outdir}/baseline.txt')
    mp, mu, mb, md, mr = load(f'{outdir}/mux.txt')
    if not bp or not mp:
        sys.exit('tabulate: no per-call results')
    percall_tables(outdir, bp, mp)
    update_tables(outdir, bu, mu)
    memory_table(outdir, bvm, mvm, bb, mb)
    detour_table(outdir, md)
    reglat_table(outdir, mr)
    sets_table(outdir)


if __name__ == '__main__':
    main()
