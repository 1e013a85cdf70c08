package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.hdf5.layout.ChunkRecord;

/**
 * The write part of the chunk index contract, for the indexes Quire writes, through the dataset
 * API (which chooses the index from the dataset's shape, maximum shape and chunk shape): an
 * empty index finds no chunk; a written chunk is found with its values; an overwritten chunk
 * keeps one record (in place when its stored size is unchanged; a deflated chunk that no longer
 * fits moves, its neighbours' records and values intact); records survive flush and
 * reopening unchanged, and the index visits exactly the written chunks before flush and after;
 * sparse writes leave every other chunk unwritten (the read part runs on {@link #sparse()});
 * large counts (paged blocks, deep trees) survive reopening; and h5py (libhdf5) reads the
 * values written and finds the same index type, or, for an index only Quire reads, refuses
 * the datasets with an error.
 */
abstract class WritableChunkIndexContract extends ChunkIndexContract {

    @TempDir
    Path dir;

    /** A dataset of this index with some chunks written and others not; path "/sparse". */
    abstract InteropCorpus.Case sparse();

    /** A dataset of this index with many chunks (paged blocks, a deep tree); path "/large". */
    abstract InteropCorpus.Case large();

    /** Checks that {@link #large()} reached the structure it is meant to exercise. */
    abstract void assertLargeStructure(Hdf5File file, ChunkIndex index) throws IOException;

    @Override
    final Fixture fixture() throws IOException {
        InteropCorpus.Case sparse = sparse();
        Path file = dir.resolve("sparse.h5");
        InteropCorpus.write(file, List.of(), List.of(sparse), List.of());
        return new Fixture(file, sparse.path(), InteropCorpus.expected(sparse),
                chunksTouched(sparse).size());
    }

    @Test
    void anEmptyIndexFindsNoChunkAndReadsTheFillValue() throws IOException {
        InteropCorpus.Case sparse = sparse();
        InteropCorpus.Case empty = new InteropCorpus.Case(sparse.path(), sparse.spec(),
                sparse.finalShape(), List.of(), InteropCorpus.Box.whole(sparse.finalShape()),
                sparse.index());
        Path path = dir.resolve("empty.h5");
        InteropCorpus.write(path, List.of(), List.of(empty), List.of());
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) InteropCorpus.object(file, empty.path());
            assertEquals(Map.of(), storedChunks(dataset));
            assertGetAgrees(dataset, Map.of());
            long[] shape = dataset.shape();
            assertArrayEquals(InteropCorpus.expected(empty),
                    dataset.read(new long[shape.length], shape).array());
        }
    }

    @Test
    void aWrittenChunkIsFoundBeforeFlushAndAfterReopeningWithTheSameRecord() throws IOException {
        InteropCorpus.Case sparse = sparse();
        Path path = dir.resolve("reopen.h5");
        Map<List<Long>, ChunkRecord> beforeFlush;
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset dataset = writeCase(file, sparse);
            beforeFlush = storedChunks(dataset);
            assertEquals(chunksTouched(sparse), beforeFlush.keySet());
            assertGetAgrees(dataset, beforeFlush);
            file.flush();
            assertEquals(beforeFlush, storedChunks(dataset), "after flush");
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) InteropCorpus.object(file, sparse.path());
            assertEquals(beforeFlush, storedChunks(dataset), "after reopening");
            long[] shape = dataset.shape();
            assertArrayEquals(InteropCorpus.expected(sparse),
                    dataset.read(new long[shape.length], shape).array());
        }
    }

    @Test
    void anOverwrittenChunkKeepsOneRecordAndTheNewValues() throws IOException {
        InteropCorpus.Case sparse = sparse();
        InteropCorpus.Box first = sparse.writes().get(0);
        Path path = dir.resolve("overwrite.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset dataset = writeCase(file, sparse);
            Map<List<Long>, ChunkRecord> before = storedChunks(dataset);
            byte[] values = InteropCorpus.values(sparse, first);
            byte[] other = values.clone();
            for (int i = 0; i < other.length; i++) {
                other[i] = (byte) ~other[i];
            }
            dataset.write(first.start(), first.count(), ByteBuffer.wrap(other));
            assertArrayEquals(other, dataset.read(first.start(), first.count()).array());
            dataset.write(first.start(), first.count(), ByteBuffer.wrap(values));
            Map<List<Long>, ChunkRecord> after = storedChunks(dataset);
            assertEquals(before.keySet(), after.keySet());
            if (sparse.spec().filters().isEmpty()) {
                assertEquals(before, after, "unfiltered chunks are rewritten in place");
            }
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) InteropCorpus.object(file, sparse.path());
            long[] shape = dataset.shape();
            assertArrayEquals(InteropCorpus.expected(sparse),
                    dataset.read(new long[shape.length], shape).array());
            assertGetAgrees(dataset, storedChunks(dataset));
        }
    }

    /**
     * The chunk of {@link #sparse()}'s first write, deflated, overwritten with noise that
     * deflates to more bytes than it held: it must move (in place it would overwrite whatever
     * follows it), and every other chunk keeps its record and values.
     */
    @Test
    void aFilteredChunkThatGrowsMovesAndItsNeighboursStayIntact() throws IOException {
        InteropCorpus.Case deflated = deflated(sparse());
        long[] chunkShape = deflated.spec().chunkShape();
        long[] chunk = new long[chunkShape.length];
        long[] start = new long[chunkShape.length];
        long[] count = new long[chunkShape.length];
        for (int d = 0; d < chunk.length; d++) {
            chunk[d] = deflated.writes().get(0).start()[d] / chunkShape[d];
            start[d] = chunk[d] * chunkShape[d];
            count[d] = Math.min(chunkShape[d], deflated.finalShape()[d] - start[d]);
        }
        InteropCorpus.Box whole = InteropCorpus.Box.of(start, count);
        byte[] noise = new byte[(int) (Shapes.elementCount(count) * deflated.spec().type().size())];
        new Random(42).nextBytes(noise);
        Path path = dir.resolve("filtered-overwrite.h5");
        try (Hdf5File file = Hdf5File.create(path)) {
            Dataset dataset = writeCase(file, deflated);
            Map<List<Long>, ChunkRecord> before = storedChunks(dataset);
            dataset.write(start, count, ByteBuffer.wrap(noise));
            Map<List<Long>, ChunkRecord> after = storedChunks(dataset);

            ChunkRecord old = before.get(key(chunk));
            ChunkRecord moved = after.get(key(chunk));
            assertTrue(moved.storedSize() > old.storedSize(), "noise deflates to more: " + old + " then " + moved);
            assertNotEquals(old.address(), moved.address(), "a chunk that grew moved");
            Map<List<Long>, ChunkRecord> neighboursBefore = new HashMap<>(before);
            Map<List<Long>, ChunkRecord> neighboursAfter = new HashMap<>(after);
            neighboursBefore.remove(key(chunk));
            neighboursAfter.remove(key(chunk));
            assertEquals(neighboursBefore, neighboursAfter, "the other chunks' records");
            assertGetAgrees(dataset, after);
        }
        byte[] expected = InteropCorpus.expected(deflated);
        overlay(expected, deflated.check(), whole, noise, deflated.spec().type().size());
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) InteropCorpus.object(file, deflated.path());
            long[] shape = dataset.shape();
            assertArrayEquals(expected, dataset.read(new long[shape.length], shape).array());
        }
    }

    /** {@code c} with its chunks deflated. */
    private static InteropCorpus.Case deflated(InteropCorpus.Case c) {
        DatasetSpec spec = c.spec();
        DatasetSpec.Builder builder = DatasetSpec.builder(spec.type(), spec.shape()).maxShape(spec.maxShape())
                .chunkShape(spec.chunkShape()).filter(Filter.deflate(6));
        if (spec.fillValue() != null) {
            builder.fillValue(spec.fillValue());
        }
        return new InteropCorpus.Case(c.path(), builder.build(), c.finalShape(), c.writes(), c.check(), c.index());
    }

    /** Copies the elements of {@code box}, row-major in {@code values}, into {@code whole}, the elements of {@code check}. */
    private static void overlay(byte[] whole, InteropCorpus.Box check, InteropCorpus.Box box, byte[] values,
                                int size) {
        int rank = box.start().length;
        for (int i = 0; i < values.length / size; i++) {
            long rest = i;
            long linear = 0;
            long[] position = new long[rank];
            for (int d = rank - 1; d >= 0; d--) {
                position[d] = box.start()[d] + rest % box.count()[d] - check.start()[d];
                rest /= box.count()[d];
            }
            for (int d = 0; d < rank; d++) {
                linear = linear * check.count()[d] + position[d];
            }
            System.arraycopy(values, i * size, whole, (int) linear * size, size);
        }
    }

    @Test
    void largeCountsSurviveReopening() throws IOException {
        InteropCorpus.Case large = large();
        Path path = dir.resolve("large.h5");
        InteropCorpus.write(path, List.of(), List.of(large), List.of());
        try (Hdf5File file = Hdf5File.open(path)) {
            Dataset dataset = (Dataset) InteropCorpus.object(file, large.path());
            assertEquals(type(), dataset.chunkIndexType());
            Map<List<Long>, ChunkRecord> stored = storedChunks(dataset);
            assertEquals(chunksTouched(large), stored.keySet());
            assertGetAgrees(dataset, stored);
            long[] shape = dataset.shape();
            assertArrayEquals(InteropCorpus.expected(large),
                    dataset.read(new long[shape.length], shape).array());
            assertLargeStructure(file, dataset.chunkIndex());
        }
    }

    /**
     * What libhdf5 makes of {@link #sparse()} and {@link #large()}, written to one file: h5py
     * reads the values written and finds the index type ({@link #assertLibhdf5Reads}); a
     * Quire-only index overrides {@link #assertLibhdf5Reads} to check the opposite.
     */
    @Test
    @StartsOutsideProgram
    void libhdf5ReadsWhatWasWrittenOrRefusesAQuireOnlyIndex() throws IOException {
        ExternalTools.requireH5py();
        ExternalTools.requireTool("h5debug");
        List<InteropCorpus.Case> cases = List.of(sparse(), large());
        Path path = dir.resolve("h5py.h5");
        InteropCorpus.write(path, List.of(), cases, List.of());
        assertLibhdf5Reads(path, cases);
    }

    /** h5py reads the values of {@code cases} in {@code path} and finds their index type. */
    void assertLibhdf5Reads(Path path, List<InteropCorpus.Case> cases) throws IOException {
        Path manifest = InteropCorpus.writeManifest(dir, "contract", List.of(), cases, List.of());
        Path checker = ExternalTools.resource("check_quire_file.py", dir);
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                checker.toString(), path.toString(), manifest.toString()), 300);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("checked 2 datasets, 0 attributes, 0 groups"),
                result.output());
    }

    /** Creates {@code c}'s dataset in {@code file} and makes its writes, as the corpus does. */
    private static Dataset writeCase(Hdf5File file, InteropCorpus.Case c) throws IOException {
        Dataset dataset = file.root().createDataset(InteropCorpus.leaf(c.path()), c.spec());
        dataset.extend(c.finalShape());
        for (InteropCorpus.Box box : c.writes()) {
            dataset.write(box.start(), box.count(), ByteBuffer.wrap(InteropCorpus.values(c, box)));
        }
        return dataset;
    }

    /** The chunk coordinates {@code c}'s writes touch. */
    static Set<List<Long>> chunksTouched(InteropCorpus.Case c) {
        Set<List<Long>> touched = new HashSet<>();
        long[] chunk = c.spec().chunkShape();
        for (InteropCorpus.Box box : c.writes()) {
            addChunks(touched, box, chunk, new ArrayList<>());
        }
        return touched;
    }

    private static void addChunks(Set<List<Long>> touched, InteropCorpus.Box box, long[] chunk,
                                  List<Long> prefix) {
        int d = prefix.size();
        if (d == chunk.length) {
            touched.add(List.copyOf(prefix));
            return;
        }
        if (box.count()[d] == 0) {
            return;
        }
        long first = box.start()[d] / chunk[d];
        long last = (box.start()[d] + box.count()[d] - 1) / chunk[d];
        for (long c = first; c <= last; c++) {
            prefix.add(c);
            addChunks(touched, box, chunk, prefix);
            prefix.remove(d);
        }
    }
}
