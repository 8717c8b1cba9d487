"""One job drawn from a seed: the base options, then one to three families
(families.py). Job number N of seed S is always the same job, so a
difference is reproduced by its seed and number alone."""

import random
import re
import shlex

from . import families
from .table import KiB, MiB

SYNC_ENGINES = ['psync', 'sync', 'pvsync', 'pvsync2', 'vsync', 'mmap']
QUEUE_ENGINES = ['libaio', 'io_uring', 'posixaio', 'null']

# families drawn after the others: they size themselves on the job
LATE = ('rate',)


class Job:
    def __init__(self, table, engines, seed, index):
        self.table = table
        self.engines = engines
        self.seed, self.index = seed, index
        self.opts = {}
        self.traits = set()
        self.families = []

    def set(self, name, value):
        if name not in self.table:
            raise KeyError('option %r is not in iolite\'s table' % name)
        self.opts[name] = str(value)

    def draw(self, name, spec=None):
        if name not in self.table:
            raise KeyError('option %r is not in iolite\'s table' % name)
        self.opts[name] = self.table_draw(self.table[name], spec)

    def get(self, name, default=None):
        return self.opts.get(name, default)

    def sync_engines(self):
        return [e for e in SYNC_ENGINES if e in self.engines]

    def queue_engines(self):
        return [e for e in QUEUE_ENGINES if e in self.engines]

    def size_guess(self):
        """Bytes the job may move, roughly: the bound for rates."""
        total = 0
        for name in ('io_size', 'size'):
            v = self.opts.get(name, '')
            if v and not v.endswith('%'):
                total = max(total, parse_size(v))
        if not total:
            total = 1 * MiB
        nr = int(self.opts.get('nrfiles', '1') or 1)
        fs = self.opts.get('filesize')
        if fs and '-' not in fs and ':' not in fs and 'size' not in \
                self.opts:
            total = parse_size(fs) * nr
        loops = int(self.opts.get('loops', '1') or 1)
        jobs = int(self.opts.get('numjobs', '1') or 1)
        return total * loops * jobs

    def args(self):
        """The job as command-line words, in the order drawn."""
        return ['--%s=%s' % (k, v) for k, v in self.opts.items()]

    def command(self, tool):
        return ' '.join([tool] + [shlex.quote(a) for a in self.args()])


def parse_size(text):
    m = re.match(r'^(\d+)\s*([kKmMgG]?)(i?[bB])?$', text)
    if not m:
        return 0
    n = int(m.group(1))
    unit = m.group(2).lower()
    return n * {'': 1, 'k': KiB, 'm': MiB, 'g': 1 << 30}[unit]


def make_job(table, engines, seed, index, only=None):
    """Job `index` of `seed`; only: the families to draw from (all when
    empty)."""
    from .table import draw as table_draw
    rng = random.Random('%s:%d' % (seed, index))
    job = Job(table, engines, seed, index)
    job.table_draw = lambda opt, spec: table_draw(rng, opt, spec)
    families.base(rng, job)
    names = sorted(only or families.FAMILIES)
    chosen = rng.sample(names, min(len(names), rng.choice([1, 1, 2, 2, 3])))
    chosen.sort(key=lambda f: (f in LATE, f))
    for f in chosen:
        families.FAMILIES[f](rng, job)
    job.families = chosen
    return job
