"""What one tool did with one job, read from its directory: the exit
status, the JSON report's counts, bytes, syncs and errors, the write_iolog
lines, the files left with their sizes and their data's properties
(unique 4 KiB blocks, unique 512-byte sectors, zlib compressibility), and
the lines of its per-I/O logs."""

import json
import os
import zlib

OWN = {'out.json', 'sbs.iolog', 'stdout', 'stderr', 'rc', 'time'}
DATA_MAX = 16 << 20


def read_json(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    # fio may print notes before the document
    start = text.find('{')
    if start < 0:
        return None
    try:
        return json.loads(text[start:])
    except ValueError:
        return None


def job_figures(doc):
    """Counts summed over the report's jobs, and each job's error."""
    f = {'ios': [0, 0, 0], 'bytes': [0, 0, 0], 'syncs': 0, 'errors': [],
         'total_err': 0, 'runtime': [0, 0, 0], 'jobs': 0}
    for j in doc.get('jobs', []):
        f['jobs'] += 1
        for i, d in enumerate(('read', 'write', 'trim')):
            b = j.get(d, {})
            f['ios'][i] += b.get('total_ios', 0)
            f['bytes'][i] += b.get('io_bytes', 0)
            f['runtime'][i] = max(f['runtime'][i], b.get('runtime', 0))
        f['syncs'] += j.get('sync', {}).get('total_ios', 0)
        f['errors'].append(j.get('error', 0))
        f['total_err'] += j.get('total_err', 0) or 0
    return f


def read_iolog(path):
    """The I/O and sync lines of a write_iolog file: (file, action,
    offset, length); syncs without their offset."""
    lines = []
    try:
        with open(path, errors='replace') as f:
            for line in f:
                t = line.split()
                # version 3 lines start with a time
                if t and t[0].isdigit() and len(t) >= 3:
                    t = t[1:]
                if len(t) >= 4 and t[1] in ('read', 'write', 'trim'):
                    lines.append((os.path.basename(t[0]), t[1], int(t[2]),
                                  int(t[3])))
                elif len(t) >= 2 and t[1] in ('sync', 'datasync'):
                    lines.append((os.path.basename(t[0]), t[1], 0, 0))
    except (OSError, ValueError):
        return None
    return lines


def data_props(path):
    """(unique 4 KiB blocks, unique 512-byte sectors, compressed/size)."""
    try:
        with open(path, 'rb') as f:
            data = f.read(DATA_MAX)
    except OSError:
        return None
    if not data:
        return (0, 0, 1.0)
    blocks = {data[i:i + 4096] for i in range(0, len(data), 4096)}
    sectors = {data[i:i + 512] for i in range(0, len(data), 512)}
    ratio = len(zlib.compress(data, 6)) / len(data)
    return (len(blocks), len(sectors), round(min(ratio, 1.0), 3))


def collect(d):
    """Every figure of the run in directory d."""
    f = {'rc': None, 'json': None, 'iolog': None, 'files': {}, 'data': {},
         'loglines': {}}
    try:
        with open(os.path.join(d, 'rc')) as r:
            f['rc'] = int(r.read().strip())
    except (OSError, ValueError):
        pass
    # fio's job processes report their own deaths ("got signal=11"),
    # an assertion's too, and the run may still exit 0
    f['crashed'] = None
    for line in stderr_head(d, 50).split(' / '):
        if 'got signal=' in line or 'Assertion' in line:
            f['crashed'] = line[:120]
            break
    doc = read_json(os.path.join(d, 'out.json'))
    if doc is not None:
        f['json'] = job_figures(doc)
    if os.path.exists(os.path.join(d, 'sbs.iolog')):
        f['iolog'] = read_iolog(os.path.join(d, 'sbs.iolog'))
    for name in sorted(os.listdir(d)):
        p = os.path.join(d, name)
        if name in OWN or not os.path.isfile(p) or os.path.islink(p):
            continue
        if name.endswith('.log'):
            with open(p, errors='replace') as lf:
                f['loglines'][name] = sum(1 for _ in lf)
            continue
        f['files'][name] = os.path.getsize(p)
        f['data'][name] = data_props(p)
    return f


def stderr_head(d, n=3, name='stderr'):
    try:
        with open(os.path.join(d, name), errors='replace') as f:
            return ' / '.join(line.strip() for line in f.readlines()[:n])
    except OSError:
        return ''
