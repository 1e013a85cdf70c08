"""What a versioned file in libhdf5's default format looks like on disk, as libhdf5's own tools
read it (DefaultFormatVersionsTest): the superblock's bytes, and h5debug's view of the
versions group's symbol table and of each raw_data's chunk index.

usage: /usr/bin/python3 old_format_layout.py FILE DATASET...

  SB|superblock version|flags|stored end of file|file size
  STAB|versions group B-tree level|children of its root|heap data address - heap header address
  STAB|none                                 (the versions group is no old-style group)
  CHUNKS|DATASET|index type|B-tree level   (DATASET's raw_data)
"""
import os
import struct
import subprocess
import sys

import h5py


def h5debug(path, *args):
    out = subprocess.run(["h5debug", path] + [str(a) for a in args], check=True,
                         capture_output=True, text=True).stdout
    fields = {}
    for line in out.splitlines():
        if ":" in line:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    return fields, out


def header_address(f, name):
    return h5py.h5o.get_info(f[name].id).addr


def main(path, datasets):
    with open(path, "rb") as raw:
        head = raw.read(48)
    version = head[8]
    flags = struct.unpack_from("<I", head, 20)[0] if version < 2 else head[11]
    eof = struct.unpack_from("<Q", head, 40)[0] if version < 2 else None
    print("SB|%d|%d|%s|%d" % (version, flags, eof, os.path.getsize(path)))
    with h5py.File(path, "r") as f:
        versions = header_address(f, "_version_data/versions")
        layouts = {name: header_address(f, "_version_data/%s/raw_data" % name) for name in datasets}
        chunk_dims = {name: f["_version_data/%s/raw_data" % name].chunks for name in datasets}
    fields, out = h5debug(path, versions)
    if "`stab'" not in out:
        print("STAB|none")
    else:
        btree = int(fields["B-tree address"])
        heap = int(fields["Name heap address"])
        tree, _ = h5debug(path, btree, heap)
        heap_fields, _ = h5debug(path, heap)
        nodes = tree["Number of children (max)"].split()[0]
        print("STAB|%s|%s|%d" % (tree["Level"], nodes, int(heap_fields["Address of heap data"]) - heap))
    for name in datasets:
        fields, _ = h5debug(path, layouts[name])
        index = fields.get("Index Type", "none")
        level = "-"
        if index == "v1 B-tree":
            dims = chunk_dims[name]
            tree, _ = h5debug(path, int(fields["Index address"]), len(dims) + 1, *dims, 8)
            level = tree["Level"]
        print("CHUNKS|%s|%s|%s" % (name, index, level))


main(sys.argv[1], sys.argv[2:])
