"""Image files for the tests without OpenCV or Pillow: PGM and PFM written and read, PNG read.

The tests compare linescope with linescope-cli through files; reading them here, not with
linescope.imread (OpenCV inside), keeps the module out of the comparison's reading side.
"""

import struct
import zlib

import numpy as np


def write_pgm(path, img):
    """uint8 or uint16 as binary PGM (16-bit samples big-endian, as the format says)."""
    maxval = 255 if img.dtype == np.uint8 else 65535
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n%d\n" % (img.shape[1], img.shape[0], maxval))
        f.write(np.ascontiguousarray(img, dtype=">u1" if maxval == 255 else ">u2").tobytes())


def write_pfm(path, img):
    """float32 as little-endian grey PFM (scale -1; rows stored bottom to top)."""
    with open(path, "wb") as f:
        f.write(b"Pf\n%d %d\n-1.0\n" % (img.shape[1], img.shape[0]))
        f.write(np.ascontiguousarray(img[::-1], dtype="<f4").tobytes())


def write_image(path, img):
    (write_pfm if img.dtype == np.float32 else write_pgm)(path, img)


def _header_fields(data, count):
    """The first `count` whitespace-separated header fields of a PNM file and where the
    pixels start (one whitespace byte after the last field)."""
    fields, pos = [], 0
    while len(fields) < count:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[pos:end])
        pos = end
    return fields, pos + 1


def read_pgm(path):
    data = open(path, "rb").read()
    (magic, w, h, maxval), start = _header_fields(data, 4)
    assert magic == b"P5", magic
    w, h, maxval = int(w), int(h), int(maxval)
    dtype = ">u1" if maxval < 256 else ">u2"
    return np.frombuffer(data, dtype=dtype, count=w * h, offset=start).reshape(h, w).astype(np.uint8 if maxval < 256 else np.uint16)


def read_pfm(path):
    data = open(path, "rb").read()
    (magic, w, h, scale), start = _header_fields(data, 4)
    assert magic == b"Pf", magic
    w, h = int(w), int(h)
    dtype = "<f4" if float(scale) < 0 else ">f4"
    return np.frombuffer(data, dtype=dtype, count=w * h, offset=start).reshape(h, w)[::-1].astype(np.float32)


def read_png(path):
    """A non-interlaced 8- or 16-bit grey, grey+alpha, RGB or RGBA PNG: (H, W) or (H, W, C)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert interlace == 0 and depth in (8, 16)
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    bpp = channels * depth // 8  # bytes a pixel: the filters' left neighbour
    stride = w * bpp
    raw = zlib.decompress(idat)
    out = np.zeros((h, stride), np.uint8)
    prev = np.zeros(stride, np.int32)
    for y in range(h):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int32)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prev) & 255
        else:  # Sub, Average and Paeth read the pixel to the left: byte by byte
            cur = line.copy()
            for i in range(stride):
                a = cur[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                if kind == 1:
                    pred = a
                elif kind == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (cur[i] + pred) & 255
        out[y] = cur
        prev = cur
    pixels = out.view(np.uint8) if depth == 8 else out.view(">u2").astype(np.uint16)
    pixels = pixels.reshape(h, w, channels)
    return pixels[:, :, 0] if channels == 1 else pixels
