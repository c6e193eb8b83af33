#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""coverage.py OBJDIR GCOVDIR OUTDIR: line and branch coverage of
ftrace-mux's kernel files over every test VM of the coverage kernel.

Each VM of the cov variant leaves GCOVDIR/NAME.tar.gz, the .gcda files its
guest read from /sys/kernel/debug/gcov at the end (harness/guest/init).
Each is read with gcov beside OBJDIR's .gcno files; a line counts as run,
and a branch as taken, if any VM ran or took it.  Prints one row per
source file and writes OUTDIR/coverage.txt (the same table) and
OUTDIR/not-run.txt (every line no VM ran, with its text), where the
testing doc's list of unreached error paths comes from.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

# The groups of the goals in docs/testing.md: the detour files at 80%,
# the rest (core) at 90%.
DETOUR = ('ftrace_mux_detour', 'ftrace_mux_reach')


def runs_of(gcovdir):
    return sorted(glob.glob(os.path.join(gcovdir, '*.tar.gz')))


def gcno_for(objdir, member):
    """OBJDIR's .gcno for a .gcda path as the guest saw it (the build's
    absolute object path): the longest tail that names one."""
    parts = member.lstrip('./').split('/')
    for i in range(len(parts)):
        rel = '/'.join(parts[i:])[:-len('.gcda')] + '.gcno'
        if os.path.exists(os.path.join(objdir, rel)):
            return rel
    return None


def same_build(gcno, gcda):
    """The stamp gcc writes in both headers (magic, version, stamp): a
    run of another build of the kernel does not count."""
    with open(gcno, 'rb') as a, open(gcda, 'rb') as b:
        return a.read(12)[8:] == b.read(12)[8:]


def gcov_json(objdir, rel_gcno, gcda_path):
    """gcov's JSON for one object, run from OBJDIR (where the compiler
    ran, so that its relative source names resolve)."""
    with tempfile.TemporaryDirectory() as t:
        stem = os.path.basename(rel_gcno)[:-len('.gcno')]
        shutil.copy(os.path.join(objdir, rel_gcno), os.path.join(t, stem + '.gcno'))
        shutil.copy(gcda_path, os.path.join(t, stem + '.gcda'))
        out = subprocess.run(['gcov', '--json-format', '--stdout',
                              '--branch-probabilities', '--object-directory', t,
                              os.path.join(t, stem + '.gcda')],
                             cwd=objdir, capture_output=True, text=True, check=True)
    for doc in out.stdout.splitlines():
        if doc.strip():
            yield json.loads(doc)


def ours(path):
    return os.path.basename(path).startswith('ftrace_mux')


def main():
    objdir, gcovdir, outdir = sys.argv[1:4]
    runs = runs_of(gcovdir)
    if not runs:
        sys.exit(f'coverage: no counts in {gcovdir} (run the parts on the cov kernel)')
    lines = {}      # (file, line) -> count
    branches = {}   # (file, line, function, index) -> count
    objects, stale = set(), set()
    for run in runs:
        with tempfile.TemporaryDirectory() as t, tarfile.open(run) as tar:
            tar.extractall(t)
            for gcda in glob.glob(os.path.join(t, '**', '*.gcda'), recursive=True):
                rel = gcno_for(objdir, os.path.relpath(gcda, t))
                if rel is None:
                    continue
                if not same_build(os.path.join(objdir, rel), gcda):
                    stale.add(os.path.basename(run))
                    continue
                objects.add(rel)
                for doc in gcov_json(objdir, rel, gcda):
                    for f in doc['files']:
                        if not ours(f['file']):
                            continue
                        name = os.path.normpath(f['file'])
                        for ln in f['lines']:
                            k = (name, ln['line_number'])
                            lines[k] = lines.get(k, 0) + ln['count']
                            fn = ln.get('function_name', '')
                            for i, b in enumerate(ln['branches']):
                                bk = (name, ln['line_number'], fn, i)
                                branches[bk] = branches.get(bk, 0) + b['count']
    files = sorted({k[0] for k in lines})
    os.makedirs(outdir, exist_ok=True)
    rows = []
    for name in files:
        ls = [c for (f, _), c in lines.items() if f == name]
        bs = [c for (f, *_), c in branches.items() if f == name]
        rows.append((name, sum(1 for c in ls if c), len(ls),
                     sum(1 for c in bs if c), len(bs)))

    def pct(a, b):
        return f'{100.0 * a / b:5.1f}%' if b else '    -'

    def short(name):
        """The path in the kernel tree (gcov gives it from OBJDIR)"""
        at = [i for i in (name.find(t) for t in ('kernel/', 'arch/', 'include/'))
              if i >= 0]
        return name[min(at):] if at else name

    table = [f'{"file":<44} {"lines":>13} {"":>6} {"branches":>13} {"":>6}  goal']
    for group, want in (('core', 90), ('detour', 80)):
        gl = gt = bl = bt = 0
        for name, lh, lt, bh, bt_ in rows:
            det = os.path.basename(name).startswith(DETOUR)
            if det != (group == 'detour'):
                continue
            gl, gt, bl, bt = gl + lh, gt + lt, bl + bh, bt + bt_
            table.append(f'{short(name):<44} {lh:>6}/{lt:<6} {pct(lh, lt)} '
                         f'{bh:>6}/{bt_:<6} {pct(bh, bt_)}')
        ok = 'met' if gt and 100.0 * gl / gt >= want else 'NOT met'
        table.append(f'{"all " + group + " files":<44} {gl:>6}/{gt:<6} {pct(gl, gt)} '
                     f'{bl:>6}/{bt:<6} {pct(bl, bt)}  lines >= {want}%: {ok}')
    table.append(f'({len(runs) - len(stale)} VMs, {len(objects)} objects with counts)')
    if stale:
        table.append(f'(not counted, from another build of the kernel: {" ".join(sorted(stale))})')
    text = '\n'.join(table) + '\n'
    with open(os.path.join(outdir, 'coverage.txt'), 'w') as out:
        out.write(text)
    sys.stdout.write(text)
    with open(os.path.join(outdir, 'not-run.txt'), 'w') as out:
        for name in files:
            src = os.path.join(objdir, name)
            try:
                with open(src) as f:
                    body = f.read().splitlines()
            except OSError:
                body = []
            for (f, n), c in sorted(lines.items()):
                if f == name and not c:
                    txt = body[n - 1].strip() if n <= len(body) else ''
                    out.write(f'{short(name)}:{n}: {txt}\n')


if __name__ == '__main__':
    main()
