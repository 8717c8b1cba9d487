"""The families of options that combine, each a function that adds some of
its options to a job. Values come from the option table (table.draw by the
row's kind, its range and units) within small bounds: files of at most
4 MiB, runtimes of at most 200 ms, rates that end a job in well under a
second. A family that needs a value the table cannot describe (rw's
modifiers, a distribution's parameters, a bssplit list) draws it here.

To add a family: a function f(rng, job) that calls job.draw(NAME, spec)
or job.set(NAME, text) for the options it covers, then its name in
FAMILIES. job.draw checks the name is a row of the table, so a family
cannot drift from iolite's options unnoticed."""

from .table import KiB, MiB, fmt_size

SEQ_RW = ['read', 'write', 'rw', 'readwrite']
RAND_RW = ['randread', 'randwrite', 'randrw']
WRITES = {'write', 'randwrite', 'rw', 'readwrite', 'randrw'}


def some(rng, names, lo=1, hi=None):
    """A random subset of names, at least lo of them."""
    hi = min(hi or len(names), len(names))
    return rng.sample(names, rng.randint(lo, hi))


def base(rng, job):
    """Every job: a name, an rw mode, a block size, a size."""
    job.set('name', 'g')
    job.draw('rw', SEQ_RW + RAND_RW)
    if rng.random() < 0.6:
        job.draw('bs', {'sizes': [512, 1 * KiB, 4 * KiB, 8 * KiB,
                                  16 * KiB, 64 * KiB], 'lo': 512})
    job.draw('size', {'sizes': [16 * KiB, 64 * KiB, 128 * KiB, 256 * KiB,
                                1 * MiB], 'pct': 0})


def f_size(rng, job):
    for name in some(rng, ['filesize', 'offset', 'io_size', 'nrfiles',
                           'number_ios', 'size'], 1, 3):
        if name == 'filesize':
            job.draw(name, {'sizes': [16 * KiB, 32 * KiB, 64 * KiB,
                                      256 * KiB, 1 * MiB], 'lo': 4 * KiB})
        elif name == 'offset':
            job.draw(name, {'sizes': [4 * KiB, 16 * KiB, 64 * KiB],
                            'pct': 0.4})
        elif name == 'io_size':
            job.draw(name, {'sizes': [16 * KiB, 64 * KiB, 128 * KiB,
                                      512 * KiB, 2 * MiB], 'pct': 0.3})
        elif name == 'nrfiles':
            job.draw(name, {'lo': 1, 'hi': 4})
        elif name == 'number_ios':
            job.draw(name, {'lo': 1, 'hi': 64})
        else:
            job.draw(name, {'sizes': [64 * KiB, 256 * KiB, 4 * MiB],
                            'pct': 0.3})


def rw_modifier(rng, job):
    mode = rng.choice(SEQ_RW + RAND_RW)
    if mode in RAND_RW:
        return '%s:%d' % (mode, rng.choice([2, 4, 8]))
    return '%s:%s' % (mode, fmt_size(rng, rng.choice([4 * KiB, 8 * KiB,
                                                      16 * KiB])))


def f_rw(rng, job):
    for name in some(rng, ['rw', 'rwmixread', 'rwmixwrite', 'rw_sequencer',
                           'percentage_random'], 1, 3):
        if name == 'rw':
            job.set('rw', rw_modifier(rng, job))
        elif name in ('rwmixread', 'rwmixwrite'):
            job.draw(name, [0, 10, 25, 50, 75, 90, 100])
        elif name == 'rw_sequencer':
            job.draw(name, ['sequential', 'identical'])
        else:
            job.draw(name, [0, 25, 50, 100])


def bssplit(rng):
    sizes = rng.sample([512, 4 * KiB, 8 * KiB, 16 * KiB, 64 * KiB],
                       rng.randint(2, 3))
    left, parts = 100, []
    for i, s in enumerate(sizes[:-1]):
        # room for 1% for each size after this one
        p = rng.randint(1, left - (len(sizes) - 1 - i))
        parts.append('%s/%d' % (fmt_size(rng, s), p))
        left -= p
    parts.append('%s/%d' % (fmt_size(rng, sizes[-1]), left))
    one = ':'.join(parts)
    return one if rng.random() < 0.7 else '%s,%s' % (one, one)


def f_bs(rng, job):
    name = rng.choice(['bs', 'bsrange', 'bssplit'])
    if name == 'bs':
        job.set('bs', ','.join(fmt_size(rng, rng.choice(
            [512, 4 * KiB, 8 * KiB, 16 * KiB])) for _ in
            range(rng.randint(1, 3))))
    elif name == 'bsrange':
        job.draw('bsrange', {'sizes': [512, 1 * KiB, 4 * KiB, 8 * KiB,
                                       16 * KiB, 64 * KiB]})
    else:
        job.set('bssplit', bssplit(rng))
    for extra in some(rng, ['blockalign', 'bs_unaligned', 'bs_is_seq_rand'],
                      0, 1):
        if extra == 'blockalign':
            job.draw(extra, {'sizes': [512, 4 * KiB, 8 * KiB]})
        else:
            job.draw(extra)


def distribution(rng):
    kind = rng.choice(['random', 'zipf', 'pareto', 'normal', 'zoned',
                       'zoned_abs'])
    if kind == 'zipf':
        return 'zipf:%s' % rng.choice(['0.8', '1.1', '1.2', '1.5'])
    if kind == 'pareto':
        return 'pareto:%s' % rng.choice(['0.2', '0.5', '0.9'])
    if kind == 'normal':
        return 'normal:%s' % rng.choice(['5', '10', '20', '50'])
    if kind == 'zoned':
        return rng.choice(['zoned:60/10:30/20:10/70', 'zoned:50/50:50/50',
                           'zoned:90/10:10/90'])
    if kind == 'zoned_abs':
        return rng.choice(['zoned_abs:50/16k:50/48k',
                           'zoned_abs:80/32k:20/32k'])
    return 'random'


def f_random(rng, job):
    job.set('rw', rng.choice(RAND_RW))
    for name in some(rng, ['norandommap', 'randrepeat', 'randseed',
                           'random_generator', 'random_distribution',
                           'allrandrepeat', 'softrandommap'], 1, 3):
        if name == 'randseed':
            job.draw(name, [1, 42, 1234, 987654321])
        elif name == 'random_distribution':
            job.set(name, distribution(rng))
        else:
            job.draw(name)


def f_zones(rng, job):
    job.set('zonemode', 'strided')
    job.draw('zonesize', {'sizes': [16 * KiB, 32 * KiB, 64 * KiB]})
    for name in some(rng, ['zonerange', 'zoneskip'], 0, 2):
        job.draw(name, {'sizes': [16 * KiB, 64 * KiB, 128 * KiB]})


def f_loops(rng, job):
    for name in some(rng, ['loops', 'time_based', 'ramp_time', 'startdelay',
                           'runtime'], 1, 2):
        if name == 'loops':
            job.draw(name, {'lo': 1, 'hi': 3})
        elif name == 'time_based':
            job.set('time_based', '1')
            job.draw('runtime', {'us': [50000, 100000, 200000]})
            job.traits.add('timed')
        elif name == 'startdelay':
            job.set(name, rng.choice(['10ms', '50ms', '20ms-60ms']))
        else:
            job.draw(name, {'us': [10000, 50000, 100000, 200000]})


def job_ios(job):
    """A rough count of the job's I/Os: the bound for its rates."""
    return max(1, job.size_guess() // 4096)


def f_rate(rng, job):
    ios = job_ios(job)
    # fast enough to end in under ~0.3 s
    iops = rng.choice([1, 2, 4]) * max(200, ios * 4)
    name = rng.choice(['rate_iops', 'rate', 'thinktime'])
    if name == 'rate_iops':
        job.set(name, str(iops))
    elif name == 'rate':
        job.set(name, fmt_size(rng, (iops * 4096 // MiB + 1) * MiB))
    else:
        job.draw('thinktime', {'us': [100, 500, 1000]})
        job.draw('thinktime_blocks', {'lo': 1, 'hi': 8})
        if rng.random() < 0.3:
            job.draw('thinktime_spin', {'us': [50, 100]})
    if name != 'thinktime' and rng.random() < 0.5:
        job.draw('rate_process', ['linear', 'poisson'])
    job.traits.add('rated' if name != 'thinktime' else 'think')


def f_fsync(rng, job):
    job.set('rw', rng.choice(sorted(WRITES)))
    for name in some(rng, ['fsync', 'fdatasync', 'end_fsync',
                           'fsync_on_close', 'sync', 'direct'], 1, 2):
        if name in ('fsync', 'fdatasync'):
            job.draw(name, {'lo': 1, 'hi': 8})
        elif name == 'sync':
            job.draw(name, ['0', '1', 'none', 'sync', 'dsync'])
        else:
            job.draw(name)


def f_buffers(rng, job):
    if rng.random() < 0.7:
        job.set('rw', rng.choice(['write', 'randwrite']))
    for name in some(rng, ['zero_buffers', 'refill_buffers',
                           'scramble_buffers', 'buffer_pattern',
                           'buffer_compress_percentage',
                           'buffer_compress_chunk', 'dedupe_percentage',
                           'dedupe_mode'], 1, 3):
        if name == 'buffer_pattern':
            job.set(name, rng.choice(['0xdeadbeef', '"abc"', '0x55',
                                      '0x0102030405', "'xyz'"]))
        elif name in ('buffer_compress_percentage', 'dedupe_percentage'):
            job.draw(name, [0, 10, 25, 50, 75, 100])
        elif name == 'buffer_compress_chunk':
            job.draw(name, {'sizes': [512, 4 * KiB]})
        elif name == 'dedupe_mode':
            job.draw('dedupe_percentage', [25, 50, 75])
            job.draw(name)
            if rng.random() < 0.5:
                job.draw('dedupe_working_set_percentage', [10, 50, 100])
        else:
            job.draw(name)
    job.traits.add('data')


def f_filesvc(rng, job):
    job.draw('nrfiles', {'lo': 2, 'hi': 4})
    job.set('file_service_type', rng.choice(
        ['roundrobin', 'sequential', 'random', 'roundrobin:2',
         'sequential:3', 'random:2', 'zipf:1.2', 'pareto:0.5',
         'normal:20', 'gauss:10']))
    if rng.random() < 0.4:
        job.draw('openfiles', {'lo': 1, 'hi': 3})


def f_create(rng, job):
    for name in some(rng, ['create_on_open', 'allow_file_create',
                           'overwrite', 'fallocate', 'create_fsync',
                           'create_only', 'file_append', 'unlink',
                           'unlink_each_loop', 'pre_read', 'invalidate',
                           'filename'], 1, 3):
        if name == 'fallocate':
            job.draw(name, ['none', 'posix', 'keep', 'native', '0', '1'])
        elif name == 'filename':
            job.set(name, rng.choice(['data', 'a:b', 'f1:f2:f3']))
        else:
            job.draw(name)


def f_errors(rng, job):
    target = rng.choice(['/dev/full', '/dev/null', '/dev/zero', 'short'])
    if target == 'short':
        # reads past the end of a file that is shorter than the job
        job.set('rw', 'read')
        job.set('filename', 'short')
        job.set('filesize', '16k')
        job.set('size', '64k')
    else:
        job.set('filename', target)
        job.set('rw', rng.choice(['write', 'read', 'randwrite', 'rw']))
    for name in some(rng, ['continue_on_error', 'ignore_error'], 0, 2):
        if name == 'continue_on_error':
            job.draw(name)
        else:
            job.set(name, rng.choice(['ENOSPC', ',ENOSPC', 'EIO,ENOSPC',
                                      '28', ',28:5']))


def f_verify(rng, job):
    job.set('rw', rng.choice(['write', 'randwrite']))
    job.draw('verify', ['crc32c', 'md5', 'crc64', 'meta', 'pattern',
                        'sha1', 'xxhash', 'crc16'])
    if job.get('verify') == 'pattern':
        job.set('verify_pattern', rng.choice(['0xaa55', '0x12345678']))
    for name in some(rng, ['do_verify', 'verify_interval', 'verify_backlog',
                           'verify_fatal', 'verify_offset',
                           'experimental_verify'], 0, 2):
        if name == 'verify_interval':
            job.draw(name, {'sizes': [512, 1 * KiB, 2 * KiB]})
        elif name == 'verify_backlog':
            job.draw(name, {'lo': 1, 'hi': 16})
        elif name == 'verify_offset':
            job.draw(name, {'sizes': [0, 512]})
        else:
            job.draw(name)
    job.set('verify_state_save', '0')


def f_logs(rng, job):
    for name in some(rng, ['write_lat_log', 'write_bw_log',
                           'write_iops_log'], 1, 2):
        job.set(name, 'g')
    if rng.random() < 0.4:
        job.draw('log_offset')
    job.traits.add('logs')


def f_queue(rng, job):
    job.draw('ioengine', job.queue_engines())
    job.draw('iodepth', {'lo': 1, 'hi': 16})
    for name in some(rng, ['iodepth_batch_submit',
                           'iodepth_batch_complete_min',
                           'iodepth_batch_complete_max', 'iodepth_low',
                           'direct'], 0, 2):
        if name == 'direct':
            job.draw(name)
        else:
            job.draw(name, {'lo': 0, 'hi': 8})


def f_engines(rng, job):
    job.draw('ioengine', job.sync_engines())
    if job.get('ioengine') in ('pvsync2',) and rng.random() < 0.3:
        job.draw('hipri')


def f_jobs(rng, job):
    job.draw('numjobs', {'lo': 2, 'hi': 3})
    for name in some(rng, ['group_reporting', 'offset_increment'], 0, 2):
        if name == 'offset_increment':
            job.draw(name, {'sizes': [16 * KiB, 64 * KiB], 'pct': 0.3})
        else:
            job.draw(name)


FAMILIES = {
    'size': f_size, 'rw': f_rw, 'bs': f_bs, 'random': f_random,
    'zones': f_zones, 'loops': f_loops, 'rate': f_rate, 'fsync': f_fsync,
    'buffers': f_buffers, 'filesvc': f_filesvc, 'create': f_create,
    'errors': f_errors, 'verify': f_verify, 'logs': f_logs,
    'queue': f_queue, 'engines': f_engines, 'jobs': f_jobs,
}
