#!/usr/bin/env python3
# pngcheck.py FILE [RRGGBB...]: is a screenshot (PNG, 8-bit RGB or RGBA,
# as Chromium writes them) more than a blank page? Decodes it with zlib
# alone (no imaging library), prints its size, how many distinct colours
# and the share of pixels that are not white, and fails when there are
# fewer than 8 colours, under 1% of non-white pixels, or fewer than 50
# pixels of each colour asked for.
import struct
import sys
import zlib


def pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6):
        sys.exit('%s: depth %d colour type %d not handled' % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    # "up" rows (most of a screenshot) add the row above byte by byte:
    # done on whole rows as integers, the carries kept out of the next
    # byte by adding the low 7 bits and putting the top bit back by xor
    low7 = int.from_bytes(b'\x7f' * stride, 'big')
    top1 = int.from_bytes(b'\x80' * stride, 'big')
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 0 or (f == 2 and not any(line)):
            if f == 2:
                line = bytearray(prev)
            rows.append(bytes(line))
            prev = line
            continue
        if f == 2:
            x = int.from_bytes(line, 'big')
            u = int.from_bytes(prev, 'big')
            line = bytearray((((x & low7) + (u & low7)) ^ ((x ^ u) & top1))
                             .to_bytes(stride, 'big'))
            rows.append(bytes(line))
            prev = line
            continue
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def main():
    w, h, bpp, rows = pixels(sys.argv[1])
    counts = {}
    # a page repeats its rows (margins, backgrounds): each distinct row
    # is counted once and weighted
    same = {}
    for line in rows:
        same[line] = same.get(line, 0) + 1
    for line, times in same.items():
        for i in range(0, len(line), bpp):
            px = line[i:i + 3]
            counts[px] = counts.get(px, 0) + times
    white = counts.get(b'\xff\xff\xff', 0)
    share = 1.0 - white / float(w * h)
    print('%dx%d colours=%d nonwhite=%.3f' % (w, h, len(counts), share))
    bad = len(counts) < 8 or share < 0.01
    for want in sys.argv[2:]:
        n = counts.get(bytes.fromhex(want), 0)
        print('#%s: %d pixels' % (want, n))
        bad = bad or n < 50
    sys.exit(1 if bad else 0)


main()
