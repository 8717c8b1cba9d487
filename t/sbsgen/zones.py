"""Random I/O in strided zones: which figures follow from the draws.

fio 3.33 (and iolite after it) draws a zone's random offsets over a whole
zonerange, and a draw past the region end ends the file: where a zone is
cut by the region end, the count of I/Os depends on the order of the
draws, which fio and iolite make with different generators (fio's first
draw of a job is always near the start of the range). So does a
sequential mix's, where the direction that first runs past the end of a
cut zone ends the file. Where zonesize is
less than a zone's blocks, each visit of a zone starts its random map
over, so coverage over repeated visits is a matter of draws too. The
differences in those figures are renamed 'zdraw.CHECK', which
sbsgen/known.txt documents (doc/compat.md, "Strided zones")."""

import re

RAND_RW = ('randread', 'randwrite', 'randrw', 'randtrim')
# which blocks the draws wrote decides the data's figures too: the
# unique blocks and sectors of the files, and how well they compress
DATA = ('data.blocks', 'data.sectors', 'data.zlib')
# the latency logs hold a line per I/O, so they follow the count (fio
# 3.33's first draw in a 16k region cut from a 32k zone writes at 0, its
# next ends the file: one line; fio 3.42's and iolite's end it at once)
COUNTS = ('total', 'ios.r', 'ios.w', 'ios.t', 'bytes.r', 'bytes.w',
          'bytes.t', 'iolog.n', 'cover', 'twice', 'offset.hi', 'bsset',
          'perfile', 'shape', 'syncs', 'loglines') + DATA
COVER = ('cover', 'twice', 'shape') + DATA


def fio_size(text):
    """fio's reading of a size with kb_base=1024: k, KB 1024; KiB 1000.
    None when it is not a plain size (a percentage, a range)."""
    m = re.match(r'^(\d+)\s*([kKmMgG]?)([iI]?)[bB]?$', text or '')
    if not m:
        return None
    power = {'': 0, 'k': 1, 'm': 2, 'g': 3}[m.group(2).lower()]
    return int(m.group(1)) * (1000 if m.group(3) else 1024) ** power


def min_block(opts):
    """The smallest block size of the job, or None."""
    if opts.get('bssplit'):
        sizes = [fio_size(p.split('/')[0]) for p in
                 re.split('[:,]', opts['bssplit']) if p.split('/')[0]]
    elif opts.get('bsrange'):
        sizes = [fio_size(p) for p in re.split('[-,]', opts['bsrange'])]
    else:
        sizes = [fio_size(p) for p in opts.get('bs', '4k').split(',')
                 if p]
    if not sizes or None in sizes:
        return None
    return min(sizes)


def draw_checks(job):
    """The checks of a random strided-zone job whose figures follow from
    the draws (empty for other jobs)."""
    o = job.opts
    rw = o.get('rw', 'read').split(':')[0]
    mixed = rw in ('rw', 'readwrite') and \
        o.get('rwmixread', '50') not in ('0', '100') and \
        o.get('rwmixwrite', '50') not in ('0', '100')
    if o.get('zonemode') != 'strided' or (rw not in RAND_RW and not mixed):
        return ()
    nr = int(o.get('nrfiles', '1') or 1)
    size = fio_size(o.get('size', ''))
    zsize = fio_size(o.get('zonesize', ''))
    zrange = fio_size(o.get('zonerange', '')) or zsize
    zskip = fio_size(o.get('zoneskip', '0')) or 0
    bs = min_block(o)
    align = fio_size(o.get('blockalign', o.get('ba', ''))) or bs
    if not size or not zsize or not zrange or not bs or \
            o.get('filesize') or o.get('offset') or o.get('io_size'):
        return COUNTS
    return walk(size // nr, nr, size, zsize, zrange, zskip, bs, align,
                o.get('norandommap') == '1' or mixed, mixed)


def walk(region, nr, budget, zsize, zrange, zskip, bs, align, nomap,
         seq=False):
    """fio's zone steps over the job's I/Os (fixed blocks, round robin):
    COUNTS when a file reaches a zone the region end cuts, COVER when a
    zone is left with blocks undone, else nothing follows the draws.
    seq: a sequential mix, whose directions share a zone's I/Os as the
    mix draws them: either may take them all, so a zone is cut where
    they would run past the region end."""
    nblk = max(zrange - max(bs - align, 0), 0) // align
    if seq:
        nblk = min(-(-zsize // bs), -(-zrange // bs))
        align = bs
    if not nblk:
        return ()       # no random offset at all: nothing drawn
    files = [{'z': 0, 'left': nblk, 'done': False} for _ in range(nr)]
    zb = done = 0
    cover = False
    i = -1
    for _ in range(100000):
        if done >= budget or all(f['done'] for f in files):
            break
        i = (i + 1) % nr
        f = files[i]
        if f['done']:
            continue
        if zb >= zsize:
            zb = 0
            cover |= f['left'] > 0
            f['z'] += zrange + zskip
            if f['z'] >= region:
                f['z'] = 0
        if zb % zrange == 0:
            f['left'] = nblk
        if f['z'] + (nblk - 1) * align + bs > region:
            return COUNTS
        if not f['left']:
            f['done'] = True
            continue
        if not nomap:
            f['left'] -= 1
        zb += bs
        done += bs
    else:
        return COUNTS   # too long to follow: say the draws decide
    return COVER if cover else ()


def rename(job, verdict):
    """Differences in the draws' figures become 'zdraw.CHECK'."""
    checks = draw_checks(job)
    verdict.diffs = [('zdraw.' + c if c in checks else c, a, b, note)
                     for c, a, b, note in verdict.diffs]
    return verdict
