"""iolite's option table as the generator sees it (`iolite --cmdhelp=table`)
and the drawing of one value by its kind: sizes with their units, times,
ranges, per-direction lists, enums, integers and booleans."""

import subprocess

KiB = 1024
MiB = 1024 * KiB


class Option:
    def __init__(self, fields):
        (self.name, alias, self.kind, default, lo, hi, unit_us, values,
         self.category, engines) = fields
        self.aliases = [] if alias == '-' else alias.split(',')
        self.default = None if default == '-' else default
        self.min, self.max, self.unit_us = int(lo), int(hi), int(unit_us)
        self.values = [] if values == '-' else values.split(',')
        self.engines = None if engines == '-' else engines.split(', ')


def load(iolite):
    """{name: Option} for every option iolite implements."""
    out = subprocess.run([iolite, '--cmdhelp=table'], check=True,
                         capture_output=True, text=True).stdout
    rows = [Option(line.split('\t')) for line in out.splitlines()[1:]]
    opts = {o.name: o for o in rows}
    for o in rows:
        for alias in o.aliases:
            opts.setdefault(alias, o)
    return opts


# --- formatting: the same value in the spellings a user writes ----------

SIZE_UNITS = [(MiB, ('m', 'M', 'MiB')), (KiB, ('k', 'K', 'KiB'))]


def fmt_size(rng, n):
    """n bytes as fio's grammar takes it: 4096, 4k, 4K or 4KiB."""
    choices = [str(n)]
    for unit, names in SIZE_UNITS:
        if n >= unit and n % unit == 0:
            choices += ['%d%s' % (n // unit, u) for u in names]
            break
    return rng.choice(choices)


def fmt_time(rng, us, unit_us):
    """us microseconds: '150ms', '150000us', or a bare number in the
    option's default unit when it is exact."""
    choices = []
    if us % 1000 == 0:
        choices.append('%dms' % (us // 1000))
    if us % 1000000 == 0:
        choices.append('%ds' % (us // 1000000))
    choices.append('%dus' % us)
    if unit_us and us % unit_us == 0:
        choices.append(str(us // unit_us))
    return rng.choice(choices)


# --- drawing by kind -------------------------------------------------------

SMALL_SIZES = [512, 1 * KiB, 2 * KiB, 4 * KiB, 8 * KiB, 12 * KiB, 16 * KiB,
               32 * KiB, 64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, 1 * MiB,
               2 * MiB, 4 * MiB]


def pick_size(rng, opt, lo=None, hi=None, sizes=None):
    """A size within the row's range and the bounds given."""
    lo = max(lo or 0, opt.min if opt else 0)
    hi = min(hi or 4 * MiB, opt.max if opt and opt.max else 1 << 62)
    fit = [s for s in (sizes or SMALL_SIZES) if lo <= s <= hi]
    return rng.choice(fit) if fit else lo


def draw(rng, opt, spec=None):
    """A value for opt as text. spec narrows it: a list (pick one), a
    callable (rng -> text), or a dict of bounds (lo, hi, sizes,
    exclude) for the row's own kind."""
    if isinstance(spec, (list, tuple)):
        return str(rng.choice(spec))
    if callable(spec):
        return spec(rng)
    b = spec or {}
    kind = opt.kind
    if kind == 'bool':
        return rng.choice(['0', '1'])
    if kind == 'enum' or (kind == 'cb' and opt.values and not b):
        vals = [v for v in opt.values if v not in b.get('exclude', ())]
        return rng.choice(vals)
    if kind == 'int':
        lo = max(opt.min, b.get('lo', 0))
        hi = opt.max if opt.max else 1 << 31
        hi = min(hi, b.get('hi', 64))
        return str(rng.randint(lo, max(lo, hi)))
    if kind in ('size', 'size_dir'):
        return fmt_size(rng, pick_size(rng, opt, b.get('lo'), b.get('hi'),
                                       b.get('sizes')))
    if kind == 'size_pct':
        if rng.random() < b.get('pct', 0.3):
            return '%d%%' % rng.choice([10, 25, 50, 75, 100])
        return fmt_size(rng, pick_size(rng, opt, b.get('lo'), b.get('hi'),
                                       b.get('sizes')))
    if kind in ('range', 'range_dir'):
        a = pick_size(rng, opt, b.get('lo'), b.get('hi'), b.get('sizes'))
        c = pick_size(rng, opt, a, b.get('hi'), b.get('sizes'))
        return '%s%s%s' % (fmt_size(rng, a), rng.choice('-:'),
                           fmt_size(rng, c))
    if kind == 'time':
        us = rng.choice(b.get('us', [1000, 5000, 10000, 50000, 100000]))
        return fmt_time(rng, us, opt.unit_us)
    raise ValueError('no way to draw %s (%s): give the family a spec'
                     % (opt.name, kind))
