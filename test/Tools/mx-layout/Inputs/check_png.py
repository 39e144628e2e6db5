"""Checks a PNG screenshot: the signature, the IHDR size (argv[2] x argv[3]),
a file size between 4 KiB and 32 MiB, and that it shows a picture: after
undoing the PNG filters, more than 5% of the pixels are not the background
colour of the top-left pixel and there are at least 4 distinct colours."""
import struct
import sys
import zlib

path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = open(path, "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
assert 4096 <= len(data) <= 32 << 20, "implausible size %d" % len(data)
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    (length,) = struct.unpack(">I", data[pos:pos + 4])
    kind = data[pos + 4:pos + 8]
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, colour, _, _, interlace = ihdr
assert (width, height) == (want_w, want_h), (width, height)
assert depth == 8 and colour in (2, 6) and interlace == 0, ihdr
bpp = 3 if colour == 2 else 4
raw = zlib.decompress(idat)
stride = width * bpp
prev = bytearray(stride)
colours, background, other = set(), None, 0
for y in range(height):
    ftype = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if ftype == 1:
            line[i] = (line[i] + a) & 255
        elif ftype == 2:
            line[i] = (line[i] + b) & 255
        elif ftype == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif ftype == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            line[i] = (line[i] + pred) & 255
    for x in range(0, stride, bpp):
        pixel = bytes(line[x:x + 3])
        if background is None:
            background = pixel
        if pixel != background:
            other += 1
        if len(colours) < 64:
            colours.add(pixel)
    prev = line
share = other / float(width * height)
assert share > 0.05, "blank picture (%.3f not background)" % share
assert len(colours) >= 4, "only %d colours" % len(colours)
print("png ok: %d x %d" % (width, height))
