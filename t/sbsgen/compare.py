"""Two runs of one job compared. What must be equal follows from the job:
a sequential job with fixed block sizes must issue the same I/Os in the
same order; a random one the same set (coverage, overlap, block sizes,
per-file counts, offset range, the share of each eighth of the file);
random block sizes, mixes and timed jobs give counts within a
statistical tolerance. Files, their sizes, the exit status and the job's
error are always compared; the data's properties when the job writes
or lays out data; the runtime when a rate fixes it."""

import math
import re

from . import zones
from .draw import parse_size

RAND_RW = ('randread', 'randwrite', 'randrw', 'randtrim')
MIX_RW = ('rw', 'readwrite', 'randrw')


def opt(job, name, default=''):
    return job.opts.get(name, default)


def traits(job):
    """What in the job makes figures vary between two correct tools."""
    t = set(job.traits)
    rw = opt(job, 'rw', 'read').split(':')[0]
    if rw in RAND_RW or opt(job, 'percentage_random') not in ('', '100'):
        t.add('random')
    if rw in MIX_RW and 0 < read_share(job) < 1:
        t.add('mix')
    if opt(job, 'bsrange') or (opt(job, 'bssplit') and
                               opt(job, 'bssplit').count('/') > 1):
        t.add('randsize')
    # a mix of directions with sizes of their own: the count of I/Os
    # follows the draws of direction as if the size were drawn
    if 'mix' in t and len(set(opt(job, 'bs').split(',')[:2])) > 1:
        t.add('randsize')
    if opt(job, 'time_based') == '1' or opt(job, 'runtime'):
        t.add('timed')
    if opt(job, 'ramp_time'):
        t.add('ramp')
    fst = opt(job, 'file_service_type', 'roundrobin').split(':')[0]
    if fst not in ('roundrobin', 'sequential') and \
            int(opt(job, 'nrfiles', '1') or 1) > 1:
        t.add('randfile')
    # a skewed file service with fewer files open than there are: a file
    # done is closed and the next drawn (the same one again: it starts
    # over), so each file's share and the coverage follow a few draws of
    # whole files, not one per I/O (pareto:0.5 over 4 files, openfiles=2:
    # fio 3.33 and 3.42 write 139, 64, 53 and 0 times, iolite 68, 64, 64,
    # 60; gen r10k 2532)
    nrf = int(opt(job, 'nrfiles', '1') or 1)
    opn = opt(job, 'openfiles')
    if fst in ('zipf', 'pareto', 'normal', 'gauss') and opn.isdigit() and \
            0 < int(opn) < nrf:
        t.add('fileruns')
    if int(opt(job, 'numjobs', '1') or 1) > 1:
        t.add('jobs')
    if opt(job, 'ioengine') == 'null':
        t.add('null')
    # clones writing the same files: the data follows their interleaving
    if 'jobs' in t and opt(job, 'filename'):
        t.add('nodata')
    if opt(job, 'ioengine') in ('libaio', 'io_uring', 'posixaio') and \
            int(opt(job, 'iodepth', '1') or 1) > 1:
        t.add('async')
    if opt(job, 'verify') not in ('', '0', 'none'):
        t.add('verify')
    if opt(job, 'norandommap') == '1' or ba_drops_map(job):
        t.add('nomap')
    if opt(job, 'random_distribution', 'random') != 'random':
        t.add('dist')
    if dedupe_share(job):
        t.add('dedupe')
    # rw=randwrite:N: a drawn offset then a sequential run, which may
    # cross blocks done before: counts and ends follow the N-fold fewer
    # draws
    if 'random' in t and seq_run(job) > 1:
        t.add('seqrun')
    # percentage_random: sequential runs from drawn offsets, the same
    if opt(job, 'percentage_random') not in ('', '0', '100'):
        t.add('seqrun')
    if map_end_drawn(job, t) or perc_zone_end_drawn(job):
        t.add('mapend')
    if dist_end_drawn(job, t):
        t.update(('mapend', 'distend'))
    return t


def dist_end_drawn(job, t):
    """Does a file's end follow the draws of zipf, pareto or normal? They
    draw from the region in ranges of the smallest block, rounded up; a
    region that is not a whole number of them has a last range no block
    fits in, and drawing it ends the file, in fio as in iolite. How soon
    depends on where the seed puts the hot ranks: fio 3.33 reads 0 to 16
    blocks of randread size=64KiB (64000 bytes) zipf:1.5 over 20 seeds
    (3.42 the same), so the count, the coverage and the I/Os per file
    are draws neither tool shares (gen r10k 555, 4519, 5857). The unit is
    the smaller of the read and write blocks, used or not: a direction
    with larger blocks places a range in its own units, and those past
    its last block end the file too (randwrite bs=4096,8KiB,512 over 64
    KiB, pareto:0.2: fio 3.33 writes none, iolite 5; gen r10k 5461)."""
    dist = opt(job, 'random_distribution', 'random').split(':')[0]
    if 'random' not in t or dist not in ('zipf', 'pareto', 'normal'):
        return False
    sizes = dir_min_bs(job)
    rw = opt(job, 'rw', 'read').split(':')[0]
    if sizes and opt(job, 'bs_is_seq_rand') != '1' and \
            any(sizes[d] > min(sizes[:2])
                for d in DIRS.get(rw.replace('rand', ''), ())):
        return True
    unit = min(sizes[:2]) if sizes else zones.min_block(job.opts)
    size = zones.fio_size(opt(job, 'size'))
    off = zones.fio_size(opt(job, 'offset', '0'))
    if not unit or not size or off is None or opt(job, 'filesize') or \
            opt(job, 'zonemode') == 'strided':
        return True
    region = size // job_files(job) - off
    return region > 0 and region % unit != 0


def perc_zone_end_drawn(job):
    """percentage_random in strided zones smaller than a block: the
    first random I/O has no offset in its zone and ends the file, so the
    count is the run of sequential coins before it, a draw neither tool
    shares (randrw:4 bs=64K zonesize=32K percentage_random=25 over six
    seeds: 4 or 0 I/Os in fio 3.33 and in iolite, not on the same
    seeds; gen s43 1276)."""
    if opt(job, 'percentage_random') in ('', '0', '100') or \
            opt(job, 'zonemode') != 'strided':
        return False
    zone = zones.fio_size(opt(job, 'zonesize'))
    sizes = dir_min_bs(job)
    return zone is None or not sizes or None in sizes or \
        zone < max(sizes[:2])


def job_files(job):
    """How many files the job's size is split over: a filename= list's
    names (f1:f2:f3: three, whatever nrfiles says), else nrfiles (gen
    s43 1180: 128K over three names is 43690 bytes a file)."""
    names = [n for n in opt(job, 'filename').split(':') if n]
    if len(names) > 1:
        return len(names)
    return int(opt(job, 'nrfiles', '1') or 1)


DIRS = {'read': (0,), 'write': (1,), 'trim': (2,), 'rw': (0, 1),
        'readwrite': (0, 1), 'trimwrite': (1, 2)}


def dir_min_bs(job):
    """The smallest block size of each direction (read, write, trim) as
    fio reads bs, bsrange and bssplit: writes take the read's when not
    given, trims the write's; an empty field is the default, 4096. None
    where a size is not a plain one."""
    name = next((n for n in ('bssplit', 'bsrange') if opt(job, n)), 'bs')
    fields = (opt(job, name) or '4096').split(',')[:3]
    fields += [fields[-1]] * (3 - len(fields))
    out = []
    for f in fields:
        parts = [p.split('/')[0] for p in re.split('[:-]', f)] \
            if name != 'bs' else [f]
        sizes = [zones.fio_size(p) if p else 4096 for p in parts if
                 p or name == 'bs']
        if not sizes or None in sizes:
            return None
        out.append(min(sizes))
    return out


def ba_drops_map(job):
    """Does blockalign turn fio's random map off? Where some direction's
    differs from its smallest block size, used or not ("fio: Any use of
    blockalign= turns off randommap"); blockalign=512 with
    bsrange=512:1KiB keeps it (gen r10k 7804). Unsure: yes."""
    ba = opt(job, 'blockalign') or opt(job, 'ba')
    if not ba:
        return False
    mins = dir_min_bs(job)
    fields = ba.split(',')[:3]
    fields += [fields[-1]] * (3 - len(fields))
    if not mins:
        return True
    for f, lo in zip(fields, mins):
        if f and zones.fio_size(f) != lo:
            return True
    return False


def map_end_drawn(job, t):
    """Does the end of a random job with fio's random map follow the
    draws? fio 3.33 keeps one map per file in units of the smallest block
    of the three directions, used or not; a direction with larger blocks
    draws and marks in its own units, and a draw on a done block whose
    next free one lies past that direction's last ends the file (randread
    with bs=16k,4k over 128 KiB: 1 to 8 reads, 6.3 on average in fio and
    6.0 in iolite over 150 seeds). With percentage_random, a sequential I/O past
    a region that is not a whole number of blocks ends it too (256KiB of
    4k: 1 to 63 writes, 47 on average in both), and so does the
    sequential run of rw=randwrite:N (rw_sequencer=sequential, the
    default) from a draw that leaves fewer than N blocks before such an
    end (fio 3.33, randwrite:4 bs=512 size=20500: 2 to 41 writes over
    12 seeds; gen r10k 7612). The count of I/Os is then a stopping time
    whose spread is the count itself. fio's lfsr (3.33 and 3.42), map
    or not, runs over the same units, and a direction with larger blocks
    places each output in its own: the first whose block does not fit
    ends the file (randread with bs=8k,4k,16k over 128 KiB: 3 reads in
    fio 3.33 whatever the seed, 0 to 3 in iolite; gen r10k 1035, 1567,
    2284, 3335)."""
    rw = opt(job, 'rw', 'read').split(':')[0]
    lfsr = opt(job, 'random_generator') == 'lfsr'
    if rw not in RAND_RW or 'dist' in t or ('nomap' in t and not lfsr) or \
            opt(job, 'percentage_random') == '0':
        return False
    sizes = dir_min_bs(job)
    used = DIRS.get(rw.replace('rand', ''), ())
    if (not lfsr and
            opt(job, 'percentage_random') not in ('', '0', '100')) or \
            (seq_run(job) > 1 and
             opt(job, 'rw_sequencer', 'sequential') == 'sequential'):
        size = zones.fio_size(opt(job, 'size'))
        nr = int(opt(job, 'nrfiles', '1') or 1)
        if not size or not sizes or opt(job, 'filesize') or \
                opt(job, 'offset') or 'randsize' in t or \
                any(size // nr % sizes[d] for d in used):
            return True
    if opt(job, 'zonemode') == 'strided':
        return False
    if sizes is None or opt(job, 'bs_is_seq_rand') == '1':
        return sizes is None or len(set(sizes)) > 1
    return any(sizes[d] != min(sizes) for d in used)


def seq_run(job):
    mod = opt(job, 'rw').partition(':')[2]
    return int(mod) if mod.isdigit() and int(mod) > 0 else 1


def opt_sizes(job):
    """The block sizes the job's bs, bsrange and bssplit name."""
    out = []
    for name in ('bs', 'bsrange', 'bssplit'):
        for part in re.split(r'[,:/-]', opt(job, name)):
            n = parse_size(part)
            if n >= 512:
                out.append(n)
    return out


def size_ratio(job, la, lb):
    """The largest I/O over the smallest in either log (or, without
    logs, in the options): how many I/Os one draw of a size at a
    region's end can turn into."""
    sizes = [x[3] for x in (la or []) + (lb or []) if x[1] in
             ('read', 'write', 'trim') and x[3] > 0] or opt_sizes(job)
    return max(sizes) // min(sizes) if sizes else 1


def read_share(job):
    """rwmixread as a share: rwmixread and rwmixwrite set each other,
    the one given last wins."""
    p = 0.5
    for k, val in job.opts.items():
        try:
            if k == 'rwmixread':
                p = int(val) / 100
            elif k == 'rwmixwrite':
                p = 1 - int(val) / 100
        except ValueError:
            pass
    return min(max(p, 0.0), 1.0)


def mix_tol(n, job, t=()):
    """Two counts of one direction out of n mixed I/Os: a binomial draw
    of the rwmixread share each, four standard deviations apart. Where
    later passes replay the first's draws, the share is drawn over the
    first pass's I/Os only and repeated."""
    p = read_share(job)
    first = pass_ios(job, t, p)
    if first and first < n:
        return 4 * n * math.sqrt(p * (1 - p) / first) + 2
    return 4 * math.sqrt(max(n, 1) * p * (1 - p)) + 2


def pass_ios(job, t, p):
    """The I/Os of a mix's first pass where fio 3.33 (and iolite after
    it) replays that pass's draws in the later ones: randrepeat (the
    default) without randseed, not timed, with passes after the files
    were used up (io_size past size, loops). A mix's pass ends when one
    direction has used its blocks up: blocks / its share. None where
    the job does not replay."""
    if opt(job, 'randrepeat', '1') == '0' or opt(job, 'randseed') or \
            'timed' in t:
        return None
    size = zones.fio_size(opt(job, 'size'))
    io_size = opt(job, 'io_size')
    more = io_size.endswith('%') and io_size[:-1].isdigit() and \
        int(io_size[:-1]) > 100
    if size and zones.fio_size(io_size):
        more = zones.fio_size(io_size) > size
    if not more and int(opt(job, 'loops', '1') or 1) <= 1:
        return None
    sizes = dir_min_bs(job)
    if not size or not sizes or not 0 < p < 1:
        return 1
    return max(min(size / sizes[0] / p, size / sizes[1] / (1 - p)), 1)


def dedupe_share(job):
    try:
        return int(opt(job, 'dedupe_percentage', '0') or 0) / 100
    except ValueError:
        return 0


def tol_count(n, cv):
    """How far two counts of about n may be apart when each I/O's size or
    direction is a draw with coefficient of variation cv: four standard
    deviations of a sum, and 2 for rounding."""
    return 4 * math.sqrt(max(n, 1)) * cv + 2


def near(a, b, tol):
    return abs(a - b) <= tol


class Verdict:
    def __init__(self):
        self.diffs = []

    def add(self, check, fio, iolite, note=''):
        self.diffs.append((check, fio, iolite, note))

    def __bool__(self):
        return not self.diffs


def compare_rc(v, a, b):
    if a['crashed'] and not b['crashed']:
        v.add('fio-crash', a['rc'], b['rc'], a['crashed'])
        return False
    if a['rc'] is None and b['rc'] is not None:
        v.add('fio-hang', None, b['rc'], 'fio did not end in time')
        return False
    if (a['rc'] == 0) != (b['rc'] == 0):
        v.add('rc', a['rc'], b['rc'])
        return False
    if a['rc'] is None or b['rc'] is None:
        v.add('rc', a['rc'], b['rc'], 'a run did not finish')
        return False
    return True


def readback_of_distinct(t, job, a, b):
    """Are a verifying write job's reads its distinct blocks written,
    in both runs, where which blocks are written twice is a draw? A
    block written more than once is read back once (fio 3.33 keeps the
    newest write where it has no random map: norandommap, a non-uniform
    distribution, sequential files the file service picks again), so the
    reads follow the draws of offset or file, as coverage does, which
    compare_sets compares within the draws' spread. Then the reads are
    not compared between the tools; each run's must equal its own
    distinct blocks (a tool that reads back too much or too little still
    fails)."""
    rw = opt(job, 'rw', 'read').split(':')[0]
    if 'verify' not in t or rw not in ('write', 'randwrite') or \
            opt(job, 'experimental_verify') == '1' or \
            opt(job, 'do_verify') == '0' or \
            not (t & {'nomap', 'dist', 'randfile'} or
                 strided_random(t, job)) or \
            t & {'timed', 'ramp', 'randsize', 'mix'}:
        return False
    if 'jobs' in t and not a['iolog'] and not b['iolog']:
        return clones_read_distinct(job, a, b)
    # fio 3.33's write_iolog of the null engine at iodepth > 1 logs most
    # I/Os twice (doc/sidebyside.md): there the reads logged are counted
    # once each, and the JSON's count must still be the distinct blocks
    # (gen s41 1363: 256 writes, 255 blocks, 509 read lines)
    twice = 'null' in t and int(opt(job, 'iodepth', '1') or 1) > 1
    for f in (a, b):
        lines = f['iolog'] or []
        blocks = {(x[0], x[2], x[3]) for x in lines if x[1] == 'write'}
        reads = len({(x[0], x[2], x[3]) for x in lines
                     if x[1] == 'read'}) if twice else \
            sum(1 for x in lines if x[1] == 'read')
        if not f['json'] or f['json']['ios'][0] != len(blocks) or \
                reads != len(blocks):
            return False
    return True


def strided_random(t, job):
    """Random I/O in strided zones: fio (3.33 and 3.42) keeps no map
    there, a zone visited again may draw a block written before
    (randwrite bs=16k size=1m zonesize=64k zonerange=256k: 256 writes,
    172 blocks), so which blocks are written twice is a draw (gen r10k
    7873: fio 4 writes to 4 blocks, iolite to 3)."""
    return 'random' in t and opt(job, 'zonemode') == 'strided'


def clones_read_distinct(job, a, b):
    """readback_of_distinct for clones (numjobs), which write no iolog
    (run.py): a norandommap randwrite of one block size in one file a
    clone, whose reads are the distinct blocks of its uniform draws
    (gen r10k 6437: 16 writes, fio 9 reads, iolite 12; randrepeat=0
    draws anew in each run of either tool). Each run's reads must lie
    within four standard deviations of the distinct blocks expected of
    its writes, so a tool that reads every write back, or too few,
    still fails."""
    clones = int(opt(job, 'numjobs', '1') or 1)
    bs = opt(job, 'bs', '4096').split(',')
    bs = zones.fio_size(bs[1] if len(bs) > 1 and bs[1] else bs[0])
    size = zones.fio_size(opt(job, 'size'))
    if opt(job, 'rw') != 'randwrite' or opt(job, 'norandommap') != '1' or \
            opt(job, 'bssplit') or opt(job, 'bsrange') or \
            opt(job, 'blockalign') or opt(job, 'ba') or \
            int(opt(job, 'nrfiles', '1') or 1) != 1 or \
            opt(job, 'random_distribution', 'random') != 'random' or \
            not bs or not size or size < bs:
        return False
    m = size // bs
    for f in (a, b):
        if not f['json']:
            return False
        reads, writes = f['json']['ios'][0], f['json']['ios'][1]
        n = writes / clones
        q1, q2 = (1 - 1 / m) ** n, (1 - 2 / m) ** n
        mean = m * (1 - q1)
        var = max(m * q1 + m * (m - 1) * q2 - m * m * q1 * q1, 0)
        if abs(reads - clones * mean) > 4 * math.sqrt(clones * var):
            return False
    return True


def compare_json(v, t, a, b, job):
    ja, jb = a['json'], b['json']
    if ja is None or jb is None:
        if (ja is None) != (jb is None) and a['rc'] == 0:
            v.add('json', ja is not None, jb is not None, 'report missing')
        return
    ea = [e != 0 for e in ja['errors']]
    eb = [e != 0 for e in jb['errors']]
    # errors let through on one direction only (/dev/full's writes):
    # in a mix, how many I/Os of it come, and whether any, is a draw
    drawn = t & {'mix', 'randsize'}
    few = max(ja['total_err'], jb['total_err']) <= 4 * len(ea)
    if any(ea) != any(eb):
        v.add('jerr', ja['errors'], jb['errors'])
    elif ja['errors'] != jb['errors'] and not (drawn and few):
        v.add('jerr', ja['errors'], jb['errors'], 'error numbers differ')
    etol = tol_count(max(ja['total_err'], 1), 1) if drawn else 0
    if not near(ja['total_err'], jb['total_err'], etol) and \
            not (t & {'timed', 'ramp'}):
        v.add('total_err', ja['total_err'], jb['total_err'])
    # where the map's end is drawn the counts may be anything from one
    # I/O to the region's blocks (map_end_drawn)
    if t & {'timed', 'ramp', 'mapend'} or any(ea):
        return
    tot_a, tot_b = sum(ja['ios']), sum(jb['ios'])
    cv = 0.6 if 'randsize' in t else 0
    # a size drawn at a region's end may take the room of many small
    # ones: fio's draw and iolite's need not agree there
    slack = size_ratio(job, a['iolog'], b['iolog']) if 'randsize' in t else 0
    run = seq_run(job) if 'seqrun' in t else 1
    # a mixed job may end when one direction runs off the end
    tcv = cv + (0.3 if 'mix' in t else 0) + (1 if run > 1 else 0)
    ttol = tol_count(tot_a / run, tcv) * run + 3 * slack if tcv else 0
    # reads that follow the draws of which blocks are written twice
    skip = 'r' if 'vdistinct' in t else ''
    if skip:
        tot_a, tot_b = ja['ios'][1] + ja['ios'][2], jb['ios'][1] + jb['ios'][2]
    if not near(tot_a, tot_b, ttol):
        v.add('total', tot_a, tot_b)
    for i, d in enumerate('rwt'):
        if d in skip:
            continue
        n = max(ja['ios'][i], jb['ios'][i])
        c = cv + (1 if run > 1 else 0)
        # (a direction may take all of the total's slack: one 64k draw
        # early in a map of 512s, gen r10k 2462: fio 3.33 80 to 285
        # writes over seeds, iolite 88 to 276)
        tol = tol_count(n / run, c) * run + 3 * slack if c else 0
        if 'mix' in t:
            tol += mix_tol(max(tot_a, tot_b), job, t)
        if not near(ja['ios'][i], jb['ios'][i], tol):
            v.add('ios.' + d, ja['ios'][i], jb['ios'][i])
        per_io = max(ja['bytes'][i] / max(ja['ios'][i], 1),
                     jb['bytes'][i] / max(jb['ios'][i], 1))
        btol = tol * per_io
        if not near(ja['bytes'][i], jb['bytes'][i], btol):
            v.add('bytes.' + d, ja['bytes'][i], jb['bytes'][i])
    stol = tol_count(ja['syncs'], 0.6) if t & {'mix', 'randsize'} else 0
    if not near(ja['syncs'], jb['syncs'], stol):
        v.add('syncs', ja['syncs'], jb['syncs'])


def coverage(lines):
    """Per file: bytes touched once or more, and more than once."""
    by = {}
    for f, act, off, ln in lines:
        if act in ('read', 'write', 'trim'):
            by.setdefault(f, []).append((off, off + ln))
    cover = twice = 0
    for ivs in by.values():
        ev = sorted([(s, 1) for s, e in ivs] + [(e, -1) for s, e in ivs])
        depth, last = 0, None
        for pos, step in ev:
            if last is not None and depth >= 1:
                cover += pos - last
                if depth >= 2:
                    twice += pos - last
            depth += step
            last = pos
    return cover, twice


def set_props(lines, hi=None):
    """A random job's I/O as a set: its size, coverage and overlap, block
    sizes, I/Os per file, offset range and the share of I/Os in each
    eighth of [0, hi)."""
    ios = [x for x in lines if x[1] != 'sync' and x[1] != 'datasync']
    cover, twice = coverage(ios)
    per_file = {}
    for f, act, off, ln in ios:
        per_file[f] = per_file.get(f, 0) + 1
    offs = [x[2] for x in ios]
    top = max((x[2] + x[3] for x in ios), default=0)
    hi = hi or top
    eighths = [0] * 8
    beighths = [0] * 8
    for x in ios:
        eighths[min(7, x[2] * 8 // max(hi, 1))] += 1
        beighths[min(7, x[2] * 8 // max(hi, 1))] += x[3]
    sq = sum(x[3] * x[3] for x in ios)
    return {'n': len(ios), 'cover': cover, 'twice': twice,
            'beighths': beighths,
            'neff': sum(x[3] for x in ios) ** 2 // sq if sq else 0,
            'bsset': sorted({x[3] for x in ios}),
            'perfile': sorted(per_file.values(), reverse=True),
            'lo': min(offs, default=0), 'hi': top, 'eighths': eighths,
            'distinct': len(set(offs)), 'syncs': len(lines) - len(ios)}


def share_tol(n):
    """How far two shares (of n I/Os each) may be apart by chance."""
    return 4 * math.sqrt(0.25 / max(n, 1)) + 0.03


def compare_sets(v, t, la, lb, job):
    sa, sb = set_props(la), set_props(lb)
    hi = max(sa['hi'], sb['hi'])
    sa, sb = set_props(la, hi), set_props(lb, hi)
    n = max(sa['n'], sb['n'], 1)
    m = min(sa['n'], sb['n'])
    avg = max(sa['cover'] + sa['twice'], 1) / max(sa['n'], 1)
    # a timed job's count and coverage follow the machine's speed, as do
    # those of one with a ramp (how far its ramp_time got: s40 1323,
    # posixaio with loops=2, fio covered 66048 bytes, iolite 128000), a
    # job whose map's end is drawn its draws (map_end_drawn)
    if not t & {'timed', 'ramp', 'mapend'}:
        run = seq_run(job) if 'seqrun' in t else 1
        cv = (0.6 if 'randsize' in t else 0) + \
            (0.3 if 'mix' in t else 0) + (1 if run > 1 else 0)
        slack = 3 * size_ratio(job, la, lb) if 'randsize' in t else 0
        ntol = tol_count(n / run, cv) * run + slack if cv else 0
        if 'vdistinct' not in t and not near(sa['n'], sb['n'], ntol):
            v.add('iolog.n', sa['n'], sb['n'])
        # in I/Os: draws that differ (no map, mixes, sizes, files)
        # move coverage and overlap by a few standard deviations
        drawn = t & {'nomap', 'mix', 'randsize', 'randfile', 'dist',
                     'seqrun'}
        tol = (tol_count(n, 1) + slack if drawn else 1) * avg
        if 'fileruns' not in t and not near(sa['cover'], sb['cover'], tol):
            v.add('cover', sa['cover'], sb['cover'])
        if 'fileruns' not in t and not near(sa['twice'], sb['twice'], tol):
            v.add('twice', sa['twice'], sb['twice'])
        # the highest of n random offsets falls short of the region's
        # end by about region/n: a few of that apart
        htol = 0.1 * hi + 65536
        if t & {'random', 'dist', 'mix', 'seqrun'}:
            htol += 4 * hi / max(m, 1)
        if sa['hi'] and not near(sa['hi'], sb['hi'], htol):
            v.add('offset.hi', sa['hi'], sb['hi'])
    # (where the map's end is drawn one tool may end before any I/O)
    if set(sa['bsset']) != set(sb['bsset']) and 'randsize' not in t and \
            not ('mapend' in t and not m):
        v.add('bsset', sa['bsset'], sb['bsset'])
    pa, pb = sa['perfile'], sb['perfile']
    pa, pb = pa + [0] * (len(pb) - len(pa)), pb + [0] * (len(pa) - len(pb))
    # (where a file's end is drawn, so is its share: dist_end_drawn)
    if m and not t & {'distend', 'fileruns'} and \
            any(abs(x / sa['n'] - y / sb['n']) > share_tol(m)
                for x, y in zip(pa, pb)):
        v.add('perfile', sa['perfile'], sb['perfile'],
              'I/Os per file, largest first')
    # the shape only where offsets are many and not hashed (zipf and
    # pareto scatter their popular blocks over the file)
    # (rw=randread:N draws an offset every N I/Os: N times fewer draws)
    # (percentage_random=P: a drawn offset begins each of about m x P%
    # runs, gen r10k 2932, 3844; a sequential mix has no drawn offsets,
    # its eighths follow how far each direction's sizes took it, gen
    # r10k 8231, and percentage_random does not apply to it)
    dist = job.opts.get('random_distribution', 'random').split(':')[0]
    mod = job.opts.get('rw', '').partition(':')[2]
    draws = m // (int(mod) if mod.isdigit() and int(mod) > 0 else 1)
    perc = opt(job, 'percentage_random').split(',')[0]
    if perc.isdigit() and int(perc) < 100:
        draws = draws * int(perc) // 100
    # (a sequential sweep with drawn sizes, not checked: I/Os per eighth
    # follow the size draws, gen r10k 5034)
    rnd = opt(job, 'rw', 'read').split(':')[0] in RAND_RW
    # With drawn sizes an eighth's I/Os follow which sizes land there (a
    # 64k write where 128 of 512 would go: gen r10k 3624, fio 3.33 23 of
    # 604 I/Os in the first eighth, 3.42 and iolite 124 of 990): the
    # bytes' share is compared, over as many draws as the sizes are worth
    sh, what = 'eighths', 'I/Os'
    if 'randsize' in t:
        sh, what = 'beighths', 'bytes'
        draws = min(draws, sa['neff'], sb['neff'])
    ta, tb = max(sum(sa[sh]), 1), max(sum(sb[sh]), 1)
    if rnd and draws >= 64 and \
            min(sa['distinct'], sb['distinct']) >= 32 and \
            dist not in ('zipf', 'pareto'):
        for i in range(8):
            if abs(sa[sh][i] / ta - sb[sh][i] / tb) > share_tol(draws):
                v.add('shape', sa[sh], sb[sh],
                      'share of %s per eighth of the offsets' % what)
                break


def backlog_queued(t, job):
    """verify_backlog on a queued engine at iodepth > 1: a round reads
    back only writes that have completed and lets a write through while
    the oldest is in flight, so where the reads come between the writes,
    and in which order, follows the completions: fio 3.33 and 3.42
    differ from each other from the 30th line on (gen r10k 8540, 8976).
    The writes' order and the blocks read back are still the job's."""
    return 'async' in t and 'verify' in t and \
        opt(job, 'verify_backlog') not in ('', '0')


def split_reads(lines):
    """The lines other than reads in their order, then the reads sorted
    (backlog_queued)."""
    return [x for x in lines if x[1] != 'read'] + \
        sorted(x for x in lines if x[1] == 'read')


def compare_iolog(v, t, a, b, job):
    la, lb = a['iolog'], b['iolog']
    if la is None or lb is None:
        if (la is None) != (lb is None):
            v.add('iolog', la is not None, lb is not None, 'log missing')
        return
    if t & {'random', 'randsize', 'mix', 'randfile', 'ramp'} or \
            ('timed' in t and t & {'rated', 'verify'}):
        compare_sets(v, t, la, lb, job)
        return
    if 'timed' in t:
        m = min(len(la), len(lb))
        la, lb = la[:m], lb[:m]
    if backlog_queued(t, job):
        la, lb = split_reads(la), split_reads(lb)
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            v.add('seq', ' '.join(map(str, x)), ' '.join(map(str, y)),
                  'first difference at I/O line %d' % (i + 1))
            return
    if len(la) != len(lb):
        v.add('seq.n', len(la), len(lb))


def partial_cover(job, t):
    """A random job that number_ios or io_size stops short of (or takes
    past) its region: which blocks its writes reach, and so which repeat
    which how far apart, is a draw (gen r10k 2246: 56 writes of 1k, 12
    and 15 blocks; 5098: 7 writes of one scrambled buffer, zlib's ratio
    0.098 in fio 3.33, 0.067 in 3.42, 0.045 in iolite)."""
    return 'random' in t and bool(opt(job, 'number_ios') or
                                  opt(job, 'io_size'))


def block_tol(t, job, blocks, size):
    """How far two counts of unique 4 KiB blocks of a file of size bytes
    may be apart: which writes dedupe repeats (each a coin of p, a write
    of bs bytes at a time: the layout's too) and which blocks a job's
    draws leave unwritten or written twice are draws of their own."""
    tol = 0.05 * blocks + 2
    p = dedupe_share(job)
    if 0 < p < 1:
        per = max(opt_sizes(job) or [4096]) / 4096
        n = max(size / 4096, blocks) / per
        tol += 4 * math.sqrt(n * p * (1 - p)) * per
    if t & {'nomap', 'dist', 'seqrun', 'randsize', 'mix', 'randfile',
            'ramp', 'mapend'} or partial_cover(job, t):
        # the draws are of whole writes: one of bs=64k is 16 blocks
        # written or not (gen r10k 6352, 9766: 16 writes of 64000 or
        # 65536 bytes, 146 and 81, 194 and 82 blocks)
        per = max(max(opt_sizes(job) or [4096]) / 4096, 1)
        tol += 4 * math.sqrt(max(blocks, 1) * per)
    # random blocks smaller than 4 KiB that leave some of the file
    # unwritten (io_size, number_ios): how many 4 KiB blocks they hit
    # is a draw (13 writes of 512 over 16 blocks: 9 in fio 3.33, 12 in
    # iolite, about 9 +- 1.3; gen r10k 7269)
    elif 'random' in t and (zones.min_block(job.opts) or 4096) < 4096 \
            and blocks < size // 4096:
        tol += 4 * math.sqrt(max(blocks, 1))
    return tol


def header_share(job):
    """The share of each verified block that is the verify header: fio's
    and iolite's headers differ (doc/compat.md), and so do the bytes'
    compressibility by about that much."""
    if opt(job, 'verify') in ('', '0', 'none'):
        return 0
    sizes = [x for x in (opt(job, 'bs', '4096'), opt(job, 'verify_interval'))
             if x and x.isdigit()]
    return 64 / max(min(int(x) for x in sizes), 64) if sizes else 64 / 4096


def ios_differ(a, b):
    ja, jb = a['json'], b['json']
    return not ja or not jb or ja['ios'] != jb['ios']


def keeps_buffers(job):
    """Does each write send its buffer as it is (scramble_buffers=0,
    nothing refilling it)? In a mix it then writes what the buffer's last
    read left there, the layout's bytes or the job's own written before,
    by whether the read came before the write at that place: a chain the
    direction draws decide (gen r10k 3263: readwrite bs=1k over 1MiB, 958
    to 1430 unique sectors in fio 3.33 over 5 seeds, 994 to 1444 in
    iolite)."""
    return opt(job, 'scramble_buffers') == '0' and \
        opt(job, 'refill_buffers') != '1' and not any(
            opt(job, n) for n in ('buffer_compress_percentage',
                                  'dedupe_percentage', 'buffer_pattern'))


def compare_files(v, t, a, b, job):
    if a['files'] != b['files']:
        v.add('files', a['files'], b['files'])
        return
    # which file gets which write is drawn (file_service_type=random,
    # zipf, gauss...): the files' contents are not comparable one by one;
    # nor a timed job's where the machine's speed made the counts differ
    # (suite1 job 2: 3 clones of 10 ms wrote 138 to 245 blocks each)
    if t & {'nodata', 'randfile'} or ('timed' in t and ios_differ(a, b)):
        return
    # where the map's end is drawn, so is how many blocks get written:
    # the counts are not compared there (compare_json), nor the data
    # (randwrite bs=512,4096 size=256K: fio 3.33 29 writes, 3.42 22 to
    # 64 over seeds, iolite 20 to 64; gen r10k 1932)
    if 'mapend' in t and ios_differ(a, b):
        return
    if 'mix' in t and keeps_buffers(job):
        return
    for name, pa in a['data'].items():
        pb = b['data'].get(name)
        if pa is None or pb is None:
            continue
        blocks_a, sect_a, ratio_a = pa
        blocks_b, sect_b, ratio_b = pb
        btol = block_tol(t, job, blocks_a, a['files'].get(name, 0))
        if not near(blocks_a, blocks_b, btol):
            v.add('data.blocks', pa, pb, name)
        elif not near(sect_a, sect_b, 0.05 * sect_a + 8 * btol):
            v.add('data.sectors', pa, pb, name)
        # zlib sees repeats only 32 KiB apart, so its ratio follows
        # which buffer lands next to which: with several I/Os in flight
        # the completions' order (0.17 or 0.81 for one job), in a mix
        # which reads came before (fio's own runs: 0.48 to 0.69 over
        # seeds), with drawn sizes the draws
        # (and where draws leave other blocks unwritten or decide which
        # repeat which: a distribution, dedupe)
        elif not t & {'async', 'mix', 'randsize', 'dist', 'dedupe',
                      'mapend'} and not partial_cover(job, t) and \
                not (t & {'nomap', 'seqrun'} and blocks_a != blocks_b) and \
                not near(ratio_a, ratio_b, 0.05 + header_share(job)):
            v.add('data.zlib', pa, pb, name)


def rate_ms(job, j):
    """The time the rate alone gives the job's I/O (rate_iops, rate: by
    direction, the slowest), in ms; None where it is not plain."""
    worst = 0
    for name, key in (('rate_iops', 'ios'), ('rate', 'bytes')):
        fields = [f for f in opt(job, name).split(',')]
        if not fields[0]:
            continue
        fields += [fields[-1]] * (3 - len(fields))
        for i, f in enumerate(fields[:3]):
            r = zones.fio_size(f) if f else None
            if r:
                worst = max(worst, 1000 * j[key][i] / r)
    return worst or None


def compare_runtime(v, t, a, b, job):
    if 'rated' not in t or t & {'timed', 'think', 'ramp'}:
        return
    ja, jb = a['json'], b['json']
    if not ja or not jb:
        return
    ra, rb = max(ja['runtime']), max(jb['runtime'])
    # a job slower than its rate (an fsync after each write: gen s46 67,
    # 2048 writes at rate_iops=4096, 0.5 s by the rate, 2.8 and 3.8 s by
    # the device, 5.3 to 8.7 s in four runs of either tool) takes the
    # device's time, not the rate's
    need = rate_ms(job, ja)
    if need is not None and min(ra, rb) > 1.5 * need + 30:
        return
    # the rate fixes the time per I/O: where the counts may differ (drawn
    # where a random map of mixed sizes runs out: randrw bs=512,8k over
    # 256k, fio 3.33 25 I/Os in 47 ms, 3.42 30 in 58, iolite 59 in 113),
    # fio's time is taken for iolite's count; counts compare_json judged
    na, nb = sum(ja['ios']), sum(jb['ios'])
    if na and nb and na != nb:
        ra = ra * nb / na
    if not near(ra, rb, 0.25 * max(ra, rb) + 30):
        v.add('runtime', round(ra), rb, 'ms, fixed by the rate' +
              (', fio\'s for iolite\'s count' if na != nb else ''))


def compare_logs(v, t, a, b, job):
    if t & {'timed', 'ramp', 'mapend'}:
        return
    # a size drawn at a region's end may take the room of many small
    # ones, as compare_json's total allows (bssplit=64k/74:512/26 over
    # 256k: fio 3.33 38 I/Os, 3.42 107, iolite 113)
    slack = 3 * size_ratio(job, a['iolog'], b['iolog']) \
        if 'randsize' in t else 0
    for name, n in a['loglines'].items():
        if '_lat.' not in name and '_clat.' not in name and \
                '_slat.' not in name:
            continue
        m = b['loglines'].get(name)
        # one line per I/O: as many as the I/Os, drawn where they are
        tol = tol_count(n, 0.6) + slack \
            if t & {'mix', 'randsize', 'seqrun'} else 0
        if m is None or not near(m, n, tol):
            v.add('loglines', n, m, name)
    for name in b['loglines']:
        if name not in a['loglines']:
            v.add('logfiles', None, name)


def compare(job, a, b):
    """The differences between fio's figures a and iolite's b."""
    t = traits(job)
    v = Verdict()
    if not compare_rc(v, a, b):
        return v
    if a['rc'] != 0 and a['json'] is None and b['json'] is None:
        return v
    if readback_of_distinct(t, job, a, b):
        t.add('vdistinct')
    compare_json(v, t, a, b, job)
    if not any(a['json']['errors'] if a['json'] else [1]):
        compare_iolog(v, t, a, b, job)
    compare_files(v, t, a, b, job)
    compare_runtime(v, t, a, b, job)
    compare_logs(v, t, a, b, job)
    return zones.rename(job, v)
