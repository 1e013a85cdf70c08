package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.JenkinsLookup3;

/**
 * What {@link Hdf5Verifier}'s report counts in the committed h5py files, against what the
 * fixture manifests and the reading API say object by object: groups, datasets and committed
 * datatypes, attributes, chunks and their stored bytes, contiguous and compact bytes, links and
 * attributes read from dense storage. {@link H5pyCompatFilesInQuireTest} checks the report's
 * unsupported parts and links not followed; {@link Hdf5VerifierDenseStorageTest} dense.h5's
 * counts against libhdf5's.
 */
class Hdf5VerifierMutationGapsTest {

    /** Totals of the reading API over every supported object the manifest lists. */
    private static final class Totals {
        long chunks;
        long chunkBytes;
        long contiguousBytes;
        long denseMessages;
    }

    @ParameterizedTest
    @ValueSource(strings = {"compat.h5", "compat_latest.h5"})
    void theCompatFilesAreCountedObjectByObject(String name) throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.COMPAT);
        Path path = fixtures.file(name);
        List<String[]> objects = fixtures.records("O").stream()
                .filter(r -> r[1].equals(name)).toList();
        List<String> unsupported = fixtures.records("U").stream()
                .filter(r -> r[1].equals(name)).map(r -> r[2]).toList();
        long attributes = fixtures.records("A").stream().filter(r -> r[1].equals(name)).count();
        Totals totals = new Totals();
        try (Hdf5File file = Hdf5File.open(path)) {
            for (String[] object : objects) {
                if (unsupported.contains(object[2])) {
                    continue;
                }
                add(totals, resolve(file, object[2]), attributesOf(fixtures, name, object[2]));
            }
        }
        VerificationReport report = Hdf5Verifier.verify(path);
        assertEquals(List.of(count(objects, "group"), count(objects, "dataset")
                        - unsupported.stream().filter(u -> !u.contains("@")
                                && !u.endsWith("/external")).count(),
                        count(objects, "datatype"), attributes, totals.chunks, totals.chunkBytes,
                        totals.contiguousBytes, totals.denseMessages),
                List.of(report.groups(), report.datasets(), report.committedDatatypes(),
                        report.attributes(), report.chunks(), report.chunkBytes(),
                        report.contiguousBytes(), report.denseMessages()),
                "groups, datasets, committed datatypes, attributes, chunks, chunk bytes,"
                        + " contiguous bytes, dense messages");
    }

    /** The attributes of {@code object} the manifest lists, readable or not. */
    private static long attributesOf(H5pyFixtures fixtures, String name, String object) {
        return fixtures.records("A").stream()
                .filter(r -> r[1].equals(name) && r[2].equals(object)).count()
                + fixtures.records("U").stream()
                .filter(r -> r[1].equals(name) && r[2].startsWith(object + "@")
                        && r[2].indexOf('@') == object.length()).count();
    }

    private static Hdf5Object resolve(Hdf5File file, String path) throws IOException {
        Hdf5Object object = file.root();
        for (String name : path.substring(1).split("/")) {
            if (!name.isEmpty()) {
                object = ((Group) object).get(name);
            }
        }
        return object;
    }

    private static long count(List<String[]> objects, String kind) {
        return objects.stream().filter(r -> r[3].equals(kind)).count();
    }

    private static void add(Totals totals, Hdf5Object object, long attributes)
            throws IOException {
        if (object.denseAttributes() != null) {
            totals.denseMessages += attributes;
        }
        if (object instanceof Group group && group.denseLinks() != null) {
            totals.denseMessages += group.memberNames().size();
        }
        if (object instanceof Dataset dataset) {
            if (dataset.layout() == StorageLayout.CHUNKED) {
                dataset.forEachStoredChunk((coordinates, record) -> {
                    totals.chunks++;
                    totals.chunkBytes += record.storedSize();
                });
            } else if (dataset.layout() != StorageLayout.VIRTUAL) {
                totals.contiguousBytes += dataset.contiguousData().size();
            }
        }
    }

    /**
     * h5py's LZF file: chunks and stored bytes as the manifest records them from libhdf5
     * (fields 8 and 9: stored bytes, chunks of each dataset).
     */
    @Test
    void theLzfFilesChunksAndStoredBytesAreLibhdf5s() throws IOException {
        H5pyFixtures fixtures = H5pyFixtures.of(H5pyFixtures.LZF);
        long bytes = 0;
        long chunks = 0;
        for (String[] dataset : fixtures.records("D")) {
            bytes += Long.parseLong(dataset[7]);
            chunks += Long.parseLong(dataset[8]);
        }
        VerificationReport report = Hdf5Verifier.verify(fixtures.file("lzf.h5"));
        assertEquals(List.of(1L, (long) fixtures.records("D").size(), chunks, bytes, 0L),
                List.of(report.groups(), report.datasets(), report.chunks(), report.chunkBytes(),
                        report.contiguousBytes()));
    }

    @TempDir
    Path dir;

    /**
     * A file whose superblock's end-of-file address (superblock offset 28, checksum at 44) is
     * moved to the end of the data block ending last: it verifies; one byte lower, that block
     * ends past it, named. Quire's file of one chunked dataset (superblock at 0) and h5py's
     * file of contiguous datasets after a 1024-byte user block (addresses relative to it, the
     * end-of-file address not). Only data blocks are checked against the address.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1024})
    void dataBlocksMayEndExactlyAtTheEndOfFileAddress(int superblockAt) throws IOException {
        Path path;
        if (superblockAt == 0) {
            path = dir.resolve("chunked.h5");
            try (Hdf5File file = Hdf5File.create(path)) {
                file.root().createDataset("chunked", DatasetSpec.builder(Datatype.INT32, 40)
                        .chunkShape(10).build())
                        .write(new long[] {0}, new long[] {40}, new int[40]);
            }
        } else {
            path = H5pyFixtures.of(H5pyFixtures.COMPAT).file("userblock_latest.h5");
        }
        long[] end = {0};
        String[] last = {null};
        try (Hdf5File file = Hdf5File.open(path)) {
            for (String name : file.root().memberNames()) {
                Dataset dataset = file.root().dataset(name);
                if (dataset.layout() == StorageLayout.CHUNKED) {
                    dataset.forEachStoredChunk((scaled, record) -> {
                        if (record.address() + record.storedSize() > end[0]) {
                            end[0] = record.address() + record.storedSize();
                            last[0] = "chunk " + Arrays.toString(scaled);
                        }
                    });
                } else {
                    ContiguousData data = dataset.contiguousData();
                    if (data.address() + data.size() > end[0]) {
                        end[0] = data.address() + data.size();
                        last[0] = "contiguous data of /" + name;
                    }
                }
            }
        }
        long address = superblockAt + end[0];
        Hdf5Verifier.verify(withEndOfFileAddress(path, superblockAt, address, "exact.h5"));
        CorruptFileException e = assertThrows(CorruptFileException.class, () ->
                Hdf5Verifier.verify(withEndOfFileAddress(path, superblockAt, address - 1,
                        "short.h5")));
        assertEquals(last[0], e.structure());
        assertEquals("address", e.field());
        assertTrue(e.expected().endsWith(" bytes ending before the end of file address "
                + (end[0] - 1)), e.expected());
    }

    private Path withEndOfFileAddress(Path path, int superblockAt, long address, String name)
            throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer superblock = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        superblock.putLong(superblockAt + 28, address);
        superblock.putInt(superblockAt + 44, JenkinsLookup3.checksum(bytes, superblockAt, 44));
        Path copy = dir.resolve(name);
        Files.write(copy, bytes);
        return copy;
    }

    /**
     * 70,000 variable-length strings (more than the 65,536 read at once) whose last element
     * names object 0x7fffffff of its global heap collection: only reading every element
     * finds it, and the failure names the dataset.
     */
    @Test
    void everyVariableLengthStringIsLookedUpToTheLast() throws IOException {
        Path path = dir.resolve("strings.h5");
        int count = 70_000;
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            strings.add("s" + i);
        }
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createStringDataset("s", new long[] {count}, strings);
        }
        long elements;
        try (Hdf5File file = Hdf5File.open(path)) {
            elements = file.root().dataset("s").contiguousData().address();
        }
        assertEquals(count, Hdf5Verifier.verify(path).contiguousBytes() / 16);
        // An element: length (4 bytes), collection address (8), object index (4).
        byte[] bytes = Files.readAllBytes(path);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) elements + 16 * (count - 1) + 12, 0x7fffffff);
        Path damaged = dir.resolve("last-string.h5");
        Files.write(damaged, bytes);
        CorruptFileException e = assertThrows(CorruptFileException.class,
                () -> Hdf5Verifier.verify(damaged));
        assertEquals(List.of("/s", "global heap collection", "object 2147483647",
                "no such object"), List.of(e.object(), e.structure(), e.field(), e.found()));
    }
}
