#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""graph.py OUTDIR: tabulate harness/guest/bench-graph.sh's records from
OUTDIR/baseline.txt and OUTDIR/mux.txt into OUTDIR/graph.csv and graph.md."""
import sys


def load(path):
    calls, update = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 5 and w[0] == 'graph':
                calls[(w[1], int(w[2]), int(w[3]))] = int(w[4])
            elif len(w) == 4 and w[0] == 'update':
                update[(w[1], int(w[2]))] = int(w[3])
    return calls, update


def main():
    out = sys.argv[1]
    bc, bu = load(f'{out}/baseline.txt')
    mc, mu = load(f'{out}/mux.txt')
    key0 = ('untraced', 0, 0)
    if key0 not in bc or key0 not in mc:
        sys.exit('graph.py: no untraced figure')
    rows = [k for k in mc if k != key0]
    order = {'graph': 0, 'idle': 1, 'after': 2, 'mixed': 3}
    rows.sort(key=lambda k: (order.get(k[0], 3), k[1], k[2]))
    with open(f'{out}/graph.csv', 'w') as f:
        f.write('kind,same,others,upstream_ns,mux_ns\n')
        f.write(f'untraced,0,0,{bc[key0]},{mc[key0]}\n')
        for k in rows:
            f.write(f'{k[0]},{k[1]},{k[2]},{bc.get(k, "")},{mc[k]}\n')
    lines = [
        'Instructions per `getpid()` added by tracing `__do_sys_getpid` '
        '(guest ns under `-icount`, the untraced loop subtracted: '
        f'{bc[key0]} upstream, {mc[key0]} ftrace-mux):',
        '',
        '| on getpid | graph users on other functions | upstream | ftrace-mux | ratio |',
        '|---|---|---|---|---|',
    ]
    for k in rows:
        what = {'graph': f'{k[1]} graph user{"s" if k[1] > 1 else ""}',
                'idle': f'{k[1]} graph user{"s" if k[1] > 1 else ""} '
                        'turning the calls away (PID filter)',
                'after': '1 graph user, after a second came and went',
                'mixed': '2 function tracers, 2 graph users, the profiler'}[k[0]]
        b = bc.get(k)
        m = mc[k] - mc[key0]
        if b is None:
            lines.append(f'| {what} | {k[2]} | | {m} | |')
            continue
        b -= bc[key0]
        lines.append(f'| {what} | {k[2]} | {b} | {m} | {m / b:.2f} |')
    lines += ['', 'Starting and stopping a graph user (an instance\'s function_graph on '
              '`schedule`), guest ns, beside K tracers on one function:', '',
              '| update | K | upstream | ftrace-mux | ratio |', '|---|---|---|---|---|']
    for k in sorted(mu):
        b = bu.get(k)
        lines.append(f'| {k[0]} | {k[1]} | {b if b else ""} | {mu[k]} | '
                     f'{mu[k] / b:.2f} |' if b else f'| {k[0]} | {k[1]} | | {mu[k]} | |')
    with open(f'{out}/graph.md', 'w') as f:
        f.write('\n'.join(lines) + '\n')


main()
