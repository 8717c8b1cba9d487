"""Running one job through both tools, each in a directory of its own
(the job's files, its write_iolog as sbs.iolog, its JSON report as
out.json, its stdout, stderr and exit status), with a time limit: a run
that hangs is killed and counts as a difference."""

import os
import shutil
import signal
import subprocess
import time

from . import compare, figures


def tool_args(job):
    args = job.args() + ['--output-format=json', '--output=out.json']
    # clones would share one log
    if int(job.opts.get('numjobs', '1') or 1) == 1 and \
            'write_iolog' not in job.opts:
        args.append('--write_iolog=sbs.iolog')
    return args


def kill_tree(pid):
    """SIGKILL pid and its descendants: fio's job processes start
    sessions of their own, out of reach of a process group's kill."""
    children = {}
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                with open('/proc/%s/stat' % name) as f:
                    ppid = int(f.read().rsplit(')', 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(name))
    todo, tree = [pid], []
    while todo:
        p = todo.pop()
        tree.append(p)
        todo += children.get(p, [])
    for p in tree:
        try:
            os.kill(p, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run_tool(binary, job, d, timeout):
    os.makedirs(d)
    start = time.monotonic()
    with open(os.path.join(d, 'stdout'), 'w') as out, \
            open(os.path.join(d, 'stderr'), 'w') as err:
        p = subprocess.Popen([binary] + tool_args(job), cwd=d, stdout=out,
                             stderr=err, stdin=subprocess.DEVNULL)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = None
            kill_tree(p.pid)
            p.wait()
    with open(os.path.join(d, 'rc'), 'w') as f:
        f.write('%s\n' % ('timeout' if rc is None else rc))
    with open(os.path.join(d, 'time'), 'w') as f:
        f.write('%.3f\n' % (time.monotonic() - start))


class Result:
    def __init__(self, job, verdict, fio_fig, iol_fig, d):
        self.job, self.verdict, self.dir = job, verdict, d
        self.fio, self.iolite = fio_fig, iol_fig
        self.alt = None


def run_job(job, work, fio, iolite, timeout, keep, alt=None):
    d = os.path.join(work, '%s-%d' % (job.seed, job.index))
    if os.path.exists(d):
        shutil.rmtree(d)
    run_tool(fio, job, os.path.join(d, 'fio'), timeout)
    run_tool(iolite, job, os.path.join(d, 'iolite'), timeout)
    a = figures.collect(os.path.join(d, 'fio'))
    b = figures.collect(os.path.join(d, 'iolite'))
    v = compare.compare(job, a, b)
    # a rated job's runtime is the one figure a loaded machine moves (a
    # run starved for 50 ms: 72 ms against 16 in iolite beside itself):
    # such a difference alone counts when a second run of both repeats it
    if v.diffs and all(c == 'runtime' for c, _, _, _ in v.diffs):
        run_tool(fio, job, os.path.join(d, 'fio.2'), timeout)
        run_tool(iolite, job, os.path.join(d, 'iolite.2'), timeout)
        a2 = figures.collect(os.path.join(d, 'fio.2'))
        b2 = figures.collect(os.path.join(d, 'iolite.2'))
        v2 = compare.compare(job, a2, b2)
        if not v2.diffs:
            v, a, b = v2, a2, b2
    res = Result(job, v, a, b, d)
    # a second fio (a newer release) on a difference: does it side with
    # iolite? A hint for the reader, never a verdict
    if not v and alt:
        run_tool(alt, job, os.path.join(d, 'fio-alt'), timeout)
        res.alt = compare.compare(job, figures.collect(
            os.path.join(d, 'fio-alt')), b)
    if v and not keep:
        shutil.rmtree(d)
    return res
