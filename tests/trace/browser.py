"""Headless chromium for the HTML report's tests: screenshots (decoded here,
PNG being zlib and a filter per row) and the DOM after the page's script ran."""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

SKIP = 77   # CTest's SKIP_RETURN_CODE for these tests


def chromium_or_skip(test):
    path = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        print("SKIP (%s): chromium is not installed, the browser test cannot run "
              "(scripts/setup.sh installs it)" % test)
        sys.exit(SKIP)
    return path


def _run(chromium, tmp, url, *opts, width=1500, height=900):
    profile = tempfile.mkdtemp(dir=tmp)
    cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update",
           "--disable-sync", "--user-data-dir=" + profile,
           "--window-size=%d,%d" % (width, height), *opts, url]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, timeout=600)
    elapsed = time.monotonic() - start
    shutil.rmtree(profile, ignore_errors=True)
    return p, elapsed


def dom(chromium, tmp, url, **size):
    """The page's DOM once its scripts ran (text), and chromium's wall time (s)."""
    p, elapsed = _run(chromium, tmp, url, "--dump-dom", **size)
    if p.returncode != 0:
        raise AssertionError("chromium --dump-dom %s failed:\n%s" % (url, p.stderr.decode()[-2000:]))
    return p.stdout.decode("utf-8", "replace"), elapsed


def screenshot(chromium, tmp, url, png, **size):
    p, _ = _run(chromium, tmp, url, "--screenshot=" + png, **size)
    if p.returncode != 0 or not os.path.exists(png):
        raise AssertionError("chromium --screenshot failed:\n" + p.stderr.decode()[-2000:])
    return png_pixels(png)


def png_pixels(path):
    """(width, height, bytes per pixel, rows of bytes) of an 8-bit RGB(A) PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big")
            depth, ctype = body[8], body[9]
            assert depth == 8 and ctype in (2, 6), "PNG depth %d color type %d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def count_colors(shot, colors, y0=0, y1=None):
    """Pixels of each named (r, g, b) in rows [y0, y1) of a screenshot."""
    w, h, bpp, rows = shot
    counts = {k: 0 for k in colors}
    want = {v: k for k, v in colors.items()}
    for row in rows[y0:y1 if y1 is not None else h]:
        for x in range(0, w * bpp, bpp):
            k = want.get(tuple(row[x:x + 3]))
            if k:
                counts[k] += 1
    return counts
