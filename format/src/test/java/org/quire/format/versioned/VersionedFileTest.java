package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Filter;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.hdf5.layout.DataspaceSelection;
import org.quire.format.hdf5.layout.VirtualMapping;

/** The checkable behaviours of reference note §2 (numbered as there), in Quire alone. */
class VersionedFileTest {

    static final Instant DAY = Instant.parse("2099-01-01T00:00:00Z");

    @TempDir
    Path dir;

    static byte[] int64(long... values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asLongBuffer().put(values);
        return bytes.array();
    }

    static DatasetSpec x10() {
        return DatasetSpec.builder(Datatype.INT64, 10).chunkShape(4).fillValue(-7L).build();
    }

    /** §1.8's v1: arange(10), chunks (4,), fill -7. */
    Path worked() throws IOException {
        Path path = dir.resolve("v.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> v.createDataset("x", x10(),
                    int64(LongStream.range(0, 10).toArray())));
        }
        return path;
    }

    static long rawRows(Path path, String dataset) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.root().group("_version_data").group(dataset).dataset("raw_data").shape()[0];
        }
    }

    static long hashRows(Path path, String dataset) throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset table = file.root().group("_version_data").group(dataset).dataset("hash_table");
            assertEquals(table.shape()[0], table.attribute("largest_index").longs()[0]);
            return table.shape()[0];
        }
    }

    static List<VirtualMapping> mappings(Path path, String version, String dataset)
            throws IOException {
        try (Hdf5File file = Hdf5File.open(path)) {
            return file.root().group("_version_data").group("versions").group(version)
                    .dataset(dataset).virtualMappings();
        }
    }

    static long[] read(VersionedFile vf, String version, String dataset) throws IOException {
        Dataset d = vf.dataset(version, dataset);
        return d.readLongs(new long[d.shape().length], d.shape());
    }

    @Test
    void behaviour01CommittingUnchangedDataAddsNoRows() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> { });
            vf.commit("v3", "v2", DAY.plusSeconds(2),
                    v -> v.dataset("x").writeAll(int64(LongStream.range(0, 10).toArray())));
        }
        assertEquals(12, rawRows(path, "x"));
        assertEquals(3, hashRows(path, "x"));
        assertEquals(mappings(path, "v1", "x"), mappings(path, "v3", "x"));
    }

    @Test
    void behaviour02ChangingOneElementAddsOneSlotAndOneHashRow() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {100}));
            assertArrayEquals(new long[] {100, 1, 2, 3, 4, 5, 6, 7, 8, 9}, read(vf, "v2", "x"));
        }
        assertEquals(16, rawRows(path, "x"));
        assertEquals(4, hashRows(path, "x"));
        List<VirtualMapping> v1 = mappings(path, "v1", "x");
        List<VirtualMapping> v2 = mappings(path, "v2", "x");
        assertEquals(DataspaceSelection.block(new long[] {12}, new long[] {4}), v2.get(0).source());
        assertEquals(v1.subList(1, 3), v2.subList(1, 3));
    }

    @Test
    void behaviour03IdenticalChunksWithinOneWriteShareASlot() throws IOException {
        Path path = dir.resolve("z.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> v.createDataset("z",
                    DatasetSpec.builder(Datatype.INT64, 10).chunkShape(4).build(), new byte[80]));
        }
        assertEquals(8, rawRows(path, "z"));
        List<VirtualMapping> m = mappings(path, "v1", "z");
        assertEquals(3, m.size());
        assertEquals(m.get(0).source(), m.get(1).source());
    }

    @Test
    void behaviour04EdgeChunkRowsAndPadding() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset table = file.root().group("_version_data").group("x").dataset("hash_table");
            ByteBuffer rows = table.read(new long[] {0}, new long[] {3});
            HashTableLayout.Row edge = HashTableLayout.decode(rows, 2);
            assertEquals(8, edge.start());
            assertEquals(10, edge.stop());
            Dataset raw = file.root().group("_version_data").group("x").dataset("raw_data");
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -7, -7},
                    raw.readLongs(new long[] {0}, new long[] {12}));
        }
    }

    @Test
    void behaviour05DigestsMatchTheReferenceVectors() {
        assertEquals("e36896a9e5798eed502c64146f3679675cf847eee9bfbdba8e44ede6c683754f",
                ChunkDigest.hex(ChunkDigest.of(int64(0, 1, 2, 3), new long[] {4})));
        assertEquals("172b8d48460a5cdcf1af3d2e8bcdefd2c4063c047944b4d045526a640cc5d80d",
                ChunkDigest.hex(ChunkDigest.of(int64(8, 9), new long[] {2})));
        ByteBuffer f = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        f.putFloat(0).putFloat(1).putFloat(5).putFloat(6);
        assertEquals("4e1139697802869446b3a21cb6335eee391fdaf97353d476da9be16677d94f75",
                ChunkDigest.hex(ChunkDigest.of(f.array(), new long[] {2, 2})));
        assertEquals("e2c7f4337831866398dc3e99e6ec988a488e4f6cb017d79530c2f3df1278dd04",
                ChunkDigest.hex(ChunkDigest.ofStrings(List.of("x".getBytes(), "yy".getBytes()),
                        new long[] {2})));
        assertEquals("1f1868f06925b61765ed3f845bb2c9d04e2dc1ae4356b7495dcae6bc18ed7150",
                ChunkDigest.hex(ChunkDigest.of(new byte[0], new long[] {0, 3})));
    }

    @Test
    void behaviour08EarlierVersionsKeepTheirValues() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> {
                v.dataset("x").write(new long[] {2}, new long[] {7}, new long[7]);
                v.dataset("x").resize(12);
            });
            assertArrayEquals(LongStream.range(0, 10).toArray(), read(vf, "v1", "x"));
            assertArrayEquals(new long[] {0, 1, 0, 0, 0, 0, 0, 0, 0, 9, -7, -7}, read(vf, "v2", "x"));
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertArrayEquals(LongStream.range(0, 10).toArray(), read(vf, "v1", "x"));
        }
    }

    @Test
    void behaviour09AnExceptionWhileStagingLeavesNoVersion() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            IOException thrown = assertThrows(IOException.class, () -> vf.commit("v2", "v1", DAY,
                    v -> {
                        v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {5});
                        throw new IOException("the simulation failed");
                    }));
            assertEquals("the simulation failed", thrown.getMessage());
            assertEquals("v1", vf.currentVersion());
            assertEquals(List.of("v1"), vf.versions().stream().map(VersionInfo::name).toList());
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> { });
            assertEquals("v2", vf.currentVersion());
        }
        assertEquals(12, rawRows(path, "x"));
    }

    @Test
    void aFailureDuringCommitLeavesNoVersionGroupAndTheOldCurrentVersion() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            // An attribute larger than a header message fails while the version group is written.
            assertThrows(IllegalArgumentException.class, () -> vf.commit("v2", "v1", DAY, v -> {
                v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {100});
                v.dataset("x").setAttribute(new org.quire.format.hdf5.Attribute("big", Datatype.UINT8,
                        new long[] {70_000}, new byte[70_000]));
            }));
            assertEquals("v1", vf.currentVersion());
            assertEquals(List.of("v1"), vf.versions().stream().map(VersionInfo::name).toList());
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {100}));
            assertArrayEquals(new long[] {100, 1, 2, 3, 4, 5, 6, 7, 8, 9}, read(vf, "v2", "x"));
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.of("__first_version__", "v1", "v2"),
                    file.root().group("_version_data").group("versions").memberNames());
        }
        // The failed commit's chunk was stored and published; the retry found it by digest.
        assertEquals(16, rawRows(path, "x"));
    }

    @Test
    void aFailedReplaceOfCurrentVersionLeavesTheOldOne() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            var versions = file.root().group("_version_data").group("versions");
            // Bytes where a string is: the value is not written over in place.
            assertThrows(IllegalArgumentException.class, () -> VersionAttributes.replace(versions,
                    new org.quire.format.hdf5.Attribute("current_version", Datatype.UINT8,
                            new long[] {70_000}, new byte[70_000])));
            assertEquals("v1", VersionAttributes.string(path, versions, "versions", "current_version"));
        }
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals("v1", vf.currentVersion());
        }
    }

    /** {@link #worked()} with raw_data grown to 20 rows and rows 12 to 19 written, as a crashed commit leaves them. */
    private Path workedWithRowsACrashedCommitLeft() throws IOException {
        Path path = worked();
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Dataset raw = file.root().group("_version_data").group("x").dataset("raw_data");
            raw.setExtent(20);
            raw.write(new long[] {12}, new long[] {8}, new long[] {9, 9, 9, 9, 9, 9, 9, 9});
        }
        return path;
    }

    @Test
    void rowsACrashedCommitLeftPastLargestIndexAreOverwrittenAndCut() throws IOException {
        Path path = workedWithRowsACrashedCommitLeft();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("x").write(new long[] {9}, new long[] {1}, new long[] {-1}));
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5, 6, 7, 8, -1}, read(vf, "v2", "x"));
            assertEquals(4, vf.verify());
        }
        assertEquals(16, rawRows(path, "x"));
        try (Hdf5File file = Hdf5File.open(path)) {
            assertArrayEquals(new long[] {8, -1, -7, -7}, file.root().group("_version_data").group("x")
                    .dataset("raw_data").readLongs(new long[] {12}, new long[] {4}));
        }
    }

    @Test
    void rowsACrashedCommitLeftAreCutByACommitStoringNothingNew() throws IOException {
        Path path = workedWithRowsACrashedCommitLeft();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("x").write(new long[] {0}, new long[] {1}, new long[] {0}));
            assertEquals(3, vf.verify());
        }
        assertEquals(12, rawRows(path, "x"));
    }

    @Test
    void behaviour10FirstVersionIsTheEmptyParentAndIsNotListed() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.open(path)) {
            assertEquals("__first_version__", vf.version("v1").parent());
            assertTrue(vf.version("v1").isFirst());
            assertEquals(List.of("v1"), vf.versions().stream().map(VersionInfo::name).toList());
            assertThrows(IllegalArgumentException.class, () -> vf.version("__first_version__"));
        }
    }

    /** A new version's name must be reachable as itself by a selector. */
    @Test
    void namesASelectorReadsAsSomethingElseAreRefusedAtCommit() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            for (String name : List.of("latest", "~1", "~x", "@x", "=v1", "", " ", "a/b", "/a", ".", "..",
                    "__first_version__")) {
                IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                        () -> vf.commit(name, "v1", DAY.plusSeconds(1), v -> { }), name);
                assertTrue(refused.getMessage().startsWith("\"" + name + "\" is not a name for a new version: "),
                        refused.getMessage());
            }
            vf.commit("latest-but-one", "v1", DAY.plusSeconds(1), v -> { });
            assertEquals(List.of("v1", "latest-but-one"), vf.versions().stream().map(VersionInfo::name).toList());
            assertEquals("latest-but-one", VersionSelector.resolve(vf, "latest").name());
            assertEquals("v1", VersionSelector.resolve(vf, "=v1").name());
        }
    }

    @Test
    void behaviour11StepsBackFollowTheParents() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> { });
            vf.commit("v3", "v2", DAY.plusSeconds(2), v -> { });
            assertEquals("v3", vf.version(0).name());
            assertEquals("v2", vf.version(1).name());
            assertEquals("v1", vf.version(2).name());
            assertThrows(IndexOutOfBoundsException.class, () -> vf.version(3));
        }
    }

    @Test
    void behaviour12TimestampLookupTakesTheLatestAtOrBefore() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(10), v -> { });
            assertEquals("v2", vf.versionAt(DAY.plusSeconds(10)).name());
            assertEquals("v1", vf.versionAt(DAY.plusSeconds(9)).name());
            assertEquals("v2", vf.versionAt(DAY.plusSeconds(3600)).name());
            assertEquals(DAY.plusSeconds(10), vf.version("v2").timestamp());
            assertThrows(NoSuchElementException.class, () -> vf.versionAt(DAY.minusNanos(1000)));
        }
    }

    @Test
    void behaviour14NeverWrittenSparseDatasetHasNoRowsAndReadsFill() throws IOException {
        Path path = dir.resolve("s.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> v.createDataset("s", DatasetSpec.builder(Datatype.INT64, 10)
                    .chunkShape(3).fillValue(5L).build(), null));
            assertArrayEquals(new long[] {5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, read(vf, "v1", "s"));
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("s").write(new long[] {4}, new long[] {1}, new long[] {42}));
            assertArrayEquals(new long[] {5, 5, 5, 5, 42, 5, 5, 5, 5, 5}, read(vf, "v2", "s"));
        }
        assertEquals(3, rawRows(path, "s"));
        assertEquals(1, mappings(path, "v2", "s").size());
        assertEquals(0, mappings(path, "v1", "s").size());
    }

    @Test
    void behaviour15AnotherTypeChunkFillOrFilterForANameFails() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            for (DatasetSpec other : List.of(
                    DatasetSpec.builder(Datatype.INT32, 10).chunkShape(4).fillValue(-7L).build(),
                    DatasetSpec.builder(Datatype.INT64, 10).chunkShape(5).fillValue(-7L).build(),
                    DatasetSpec.builder(Datatype.INT64, 10).chunkShape(4).fillValue(0L).build(),
                    DatasetSpec.builder(Datatype.INT64, 10).chunkShape(4).fillValue(-7L)
                            .filter(Filter.deflate(4)).build())) {
                assertThrows(IllegalArgumentException.class, () -> vf.commit("v2", "", DAY,
                        v -> v.createDataset("x", other, null)));
            }
            assertFalse(vf.versions().stream().anyMatch(v -> v.name().equals("v2")));
            vf.commit("v2", "", DAY, v -> v.createDataset("x", x10(), null));
        }
    }

    @Test
    void diffNamesTheChunksWhoseDigestsChanged() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> {
                v.dataset("x").write(new long[] {5}, new long[] {1}, new long[] {-1});
                v.dataset("x").resize(6);
            });
            List<ChunkChange> changes = vf.diff("x", "v1", "v2");
            assertEquals(2, changes.size());
            assertArrayEquals(new long[] {4}, changes.get(0).origin());
            assertEquals(ChunkDigest.hex(ChunkDigest.of(int64(4, 5, 6, 7), new long[] {4})),
                    ChunkChange.hex(changes.get(0).before()));
            assertEquals(ChunkDigest.hex(ChunkDigest.of(int64(4, -1), new long[] {2})),
                    ChunkChange.hex(changes.get(0).after()));
            assertArrayEquals(new long[] {8}, changes.get(1).origin());
            assertEquals(null, changes.get(1).after());
            assertEquals(List.of(), vf.diff("x", "v1", "v1"));
        }
    }

    @Test
    void diffOfADatasetOneVersionLacksListsItsChunksAddedOrRemoved() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> v.delete("x"));
            List<ChunkChange> removed = vf.diff("x", "v1", "v2");
            assertEquals(List.of(0L, 4L, 8L), removed.stream().map(c -> c.origin()[0]).toList());
            assertTrue(removed.stream().allMatch(c -> c.before() != null && c.after() == null));
            assertEquals(ChunkDigest.hex(ChunkDigest.of(int64(8, 9), new long[] {2})),
                    ChunkChange.hex(removed.get(2).before()));
            List<ChunkChange> added = vf.diff("x", "v2", "v1");
            assertEquals(3, added.size());
            assertTrue(added.stream().allMatch(c -> c.before() == null && c.after() != null));
            NoSuchElementException neither = assertThrows(NoSuchElementException.class,
                    () -> vf.diff("y", "v1", "v2"));
            assertTrue(neither.getMessage().contains("dataset y"), neither.getMessage());
        }
    }

    @Test
    void aStagedReadBoxOverTheArrayLimitIsRefusedBeforeAllocating() throws IOException {
        Path path = worked();
        try (VersionedFile vf = VersionedFile.openForWriting(path)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> vf.commit("big", "v1", DAY, v -> v.createDataset("big",
                            DatasetSpec.builder(Datatype.INT8, StagedDataset.MAX_BYTES + 1)
                                    .chunkShape(1 << 20).build(), null)
                            .read(new long[] {0}, new long[] {StagedDataset.MAX_BYTES + 1})));
            assertTrue(e.getMessage().contains("2147483640 bytes in one box or chunk")
                    && e.getMessage().contains("at most 2^31 - 9 bytes"), e.getMessage());
            assertEquals("v1", vf.currentVersion());
        }
    }

    @Test
    void nestedGroupsAndAttributesAreCopiedForward() throws IOException {
        Path path = dir.resolve("g.h5");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> {
                v.createDataset("grp/t", DatasetSpec.builder(Datatype.FLOAT64, 3, 5)
                        .chunkShape(2, 2).build(), null).setAttribute(
                                org.quire.format.hdf5.Attribute.of("unit", "m"));
                v.setGroupAttribute("grp", org.quire.format.hdf5.Attribute.of("kind", 7L));
            });
            vf.commit("v2", "v1", DAY.plusSeconds(1), v -> {
                assertEquals(7L, v.groupAttributes("grp").get("kind").longs()[0]);
                v.dataset("grp/t").write(new long[] {2, 4}, new long[] {1, 1}, new double[] {-1});
                v.dataset("grp/t").setAttribute(org.quire.format.hdf5.Attribute.of("unit", "km"));
            });
            assertEquals(List.of("grp/t"), vf.datasetNames("v2"));
            assertEquals("m", vf.dataset("v1", "grp/t").attribute("unit").string());
            assertEquals("km", vf.dataset("v2", "grp/t").attribute("unit").string());
            double[] v2 = vf.dataset("v2", "grp/t").readDoubles(new long[] {0, 0}, new long[] {3, 5});
            assertEquals(-1.0, v2[14]);
            assertEquals(0.0, v2[13]);
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(7L, file.root().group("_version_data/versions/v2/grp".split("/")[0])
                    .group("versions").group("v2").group("grp").attribute("kind").longs()[0]);
        }
    }

    /**
     * Dataset names with "%": the mappings name the chunk store with "%" written "%%", which
     * libhdf5 reads as "%" (a lone "%" it refuses to open), so each version dataset reads its
     * own store's values and the file verifies.
     */
    @Test
    void datasetNamesWithPercentSignsMapTheirOwnStores() throws IOException {
        Path path = dir.resolve("percent.h5");
        List<String> names = List.of("a%b", "a%%b", "c%", "%");
        try (VersionedFile vf = VersionedFile.create(path)) {
            vf.commit("v1", "", DAY, v -> {
                for (int i = 0; i < names.size(); i++) {
                    v.createDataset(names.get(i), DatasetSpec.builder(Datatype.INT64, 3)
                            .chunkShape(2).build(), int64(10L * i, 10L * i + 1, 10L * i + 2));
                }
            });
            vf.commit("v2", "v1", DAY.plusSeconds(1),
                    v -> v.dataset("a%b").write(new long[] {2}, new long[] {1}, new long[] {99}));
            vf.deleteVersions("v1");
            assertEquals(8, vf.verify(), "two slots (chunks of 2 of 3 elements) per dataset");
        }
        assertEquals("/_version_data/a%%%%b/raw_data", mappings(path, "v2", "a%%b").get(0)
                .sourceDataset());
        try (VersionedFile vf = VersionedFile.open(path)) {
            for (int i = 0; i < names.size(); i++) {
                long[] expected = {10L * i, 10L * i + 1, i == 0 ? 99 : 10L * i + 2};
                assertArrayEquals(expected, read(vf, "v2", names.get(i)), names.get(i));
            }
        }
    }
}
