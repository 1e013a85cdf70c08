package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.quire.format.versioned.VersionedFileTest.DAY;
import static org.quire.format.versioned.VersionedFileTest.int64;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Group;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/**
 * A damaged versioned tree is one typed line naming the file and the object (never a stack
 * trace or a wrong answer); behaviour 16: data versions other than 4 are refused on open.
 */
class DamagedVersionDataTest {

    @TempDir
    Path dir;

    Path worked() throws IOException {
        Path path = dir.resolve("v.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> v.createDataset("x", VersionedFileTest.x10(),
                    int64(LongStream.range(0, 10).toArray())));
        }
        return path;
    }

    static Group versionsGroup(Hdf5File file) throws IOException {
        return file.root().group("_version_data").group("versions");
    }

    @Test
    void aMissingHashTableIsNamed() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group("_version_data").group("x").delete("hash_table");
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            DamagedVersionDataException e = assertThrows(DamagedVersionDataException.class,
                    () -> vf.dataset("v1", "x"));
            assertEquals(path + ": damaged versioned data at /_version_data/x/hash_table: expected "
                    + "a dataset (the store every versioned dataset has), found nothing", e.getMessage());
        }
    }

    @Test
    void anAttributeOfTheWrongTypeIsNamed() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group versions = versionsGroup(file);
            versions.deleteAttribute("current_version");
            versions.setAttribute(Attribute.of("current_version", 1L));
        }
        DamagedVersionDataException e = assertThrows(DamagedVersionDataException.class,
                () -> VersionedFile.open(path));
        assertEquals("/_version_data/versions@current_version", e.object());
        assertEquals(path + ": damaged versioned data at /_version_data/versions@current_version: "
                + "expected a variable-length string (h5py's str), found "
                + Datatype.INT64 + " of 1 elements", e.getMessage());
    }

    @Test
    void aMappingOutsideRawDataIsNamed() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group bad = versionsGroup(file).createGroup("bad");
            bad.setAttribute(Attribute.of("prev_version", "v1"));
            bad.setAttribute(VersionAttributes.scalarBool("committed", true));
            bad.setAttribute(Attribute.of("timestamp", "2099-01-02 00:00:00.000000+0000"));
            bad.createVirtualDataset("x", Datatype.INT64, new long[] {10}, int64(-7), List.of(
                    VirtualMapping.sameFile("/_version_data/x/raw_data",
                            DataspaceSelection.block(new long[] {100}, new long[] {4}),
                            DataspaceSelection.block(new long[] {0}, new long[] {4}))))
                    .setAttribute(Attribute.of("chunks", 4L));
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            DamagedVersionDataException e = assertThrows(DamagedVersionDataException.class,
                    () -> vf.dataset("bad", "x"));
            assertEquals(path + ": damaged versioned data at /_version_data/versions/bad/x mapping 0: "
                    + "expected a slot among raw_data's 12 committed rows, as large as the chunk "
                    + "start [0] count [4], found source block start [100] count [4]", e.getMessage());
            assertThrows(DamagedVersionDataException.class, vf::verify);
        }
    }

    @Test
    void aChunkWhoseDigestIsNotItsHashTableRowsIsNamed() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals(3, vf.verify());
        }
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            file.root().group("_version_data").group("x").dataset("raw_data")
                    .write(new long[] {5}, new long[] {1}, new long[] {55});
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            DamagedVersionDataException e = assertThrows(DamagedVersionDataException.class, vf::verify);
            assertEquals(path + ": damaged versioned data at /_version_data/x/raw_data rows [4, 8): "
                    + "expected the chunk of digest "
                    + ChunkDigest.hex(ChunkDigest.of(int64(4, 5, 6, 7), new long[] {4}))
                    + " (/_version_data/x/hash_table), found digest "
                    + ChunkDigest.hex(ChunkDigest.of(int64(4, 55, 6, 7), new long[] {4})), e.getMessage());
        }
    }

    @Test
    void anUncommittedVersionIsNotListedAndRefused() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group half = versionsGroup(file).createGroup("half");
            half.setAttribute(Attribute.of("prev_version", "v1"));
            half.setAttribute(VersionAttributes.scalarBool("committed", false));
            half.setAttribute(Attribute.of("timestamp", "2099-01-02 00:00:00.000000+0000"));
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals(List.of("v1"), vf.versions().stream().map(VersionInfo::name).toList());
            assertEquals(path + ": version \"half\" was never committed",
                    assertThrows(IllegalStateException.class, () -> vf.version("half")).getMessage());
        }
    }

    @Test
    void behaviour16DataVersionsOtherThan4AreRefused() throws IOException {
        for (long version : new long[] {5, 3, 2}) {
            Path path = dir.resolve("d" + version + ".h5");
            VersionedFile.create(path).close();
            try (Hdf5File file = Hdf5File.openForWriting(path)) {
                Group versions = versionsGroup(file);
                versions.deleteAttribute("data_version");
                versions.setAttribute(Attribute.scalar("data_version", Datatype.INT64, version));
            }
            UnsupportedDataVersionException e = assertThrows(UnsupportedDataVersionException.class,
                    () -> VersionedFile.openForWriting(path));
            assertEquals(version, e.found());
        }
        Path none = dir.resolve("none.h5");
        VersionedFile.create(none).close();
        try (Hdf5File file = Hdf5File.openForWriting(none)) {
            versionsGroup(file).deleteAttribute("data_version");
        }
        assertEquals(1, assertThrows(UnsupportedDataVersionException.class,
                () -> VersionedFile.open(none)).found());
    }
}
