#!/usr/bin/python3
"""Sizes of the page-cache folios holding a file, as a histogram (docs/benchmarks.md, "Page-cache reads").

    benchmarks/page-cache-folios.py FILE...      # needs root (/proc/kpageflags and PFNs in pagemap)

Maps each file and touches every page (a page not yet cached would be read in now: fill the cache
first), then looks each page's frame up in /proc/self/pagemap and its flags in /proc/kpageflags: a
large folio is a compound page, a head (flag 15) followed by its tails (flag 16). Prints, per file,
how many bytes sit in folios of each size.
"""
import collections
import ctypes
import mmap
import os
import struct
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
COMPOUND_HEAD, COMPOUND_TAIL = 1 << 15, 1 << 16


def folio_sizes(path):
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_COPY)  # private: reading maps the cached pages
    try:
        pages = (size + PAGE - 1) // PAGE
        for page in range(pages):
            mapped[page * PAGE]
        anchor = ctypes.c_char.from_buffer(mapped)  # only for the mapping's address
        address = ctypes.addressof(anchor)
        del anchor  # an exported buffer cannot be closed
        with open("/proc/self/pagemap", "rb") as pagemap:
            pagemap.seek(address // PAGE * 8)
            entries = struct.unpack(f"<{pages}Q", pagemap.read(pages * 8))
        folios, current = [], 0
        with open("/proc/kpageflags", "rb") as kpageflags:
            for entry in entries:
                pfn = entry & ((1 << 55) - 1)
                if not entry >> 63 or pfn == 0:
                    sys.exit(f"page-cache-folios: {path}: no frame numbers in pagemap (run as root)")
                kpageflags.seek(pfn * 8)
                flags = struct.unpack("<Q", kpageflags.read(8))[0]
                if flags & COMPOUND_TAIL and current:
                    current += 1
                    continue
                if current:
                    folios.append(current)
                current = 1
            folios.append(current)
        return folios
    finally:
        mapped.close()


for path in sys.argv[1:]:
    folios = folio_sizes(path)
    bytes_by_size = collections.Counter()
    for pages in folios:
        bytes_by_size[pages * PAGE] += pages * PAGE
    total = sum(bytes_by_size.values())
    cells = ", ".join(f"{size // 1024} KiB: {100 * b / total:.1f} %" for size, b in sorted(bytes_by_size.items()))
    print(f"{path}: {len(folios)} folios for {total // 1048576} MiB; bytes in folios of {cells}")
