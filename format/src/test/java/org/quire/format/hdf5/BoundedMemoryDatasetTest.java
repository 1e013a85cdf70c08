package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.cache.MetadataCache;
import org.quire.format.storage.Durability;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.StorageOpener;

/**
 * A long append through the public API runs in constant memory: one-byte chunks appended to an
 * extensible array index, so every element is a chunk and an index entry, under a 256 KiB
 * metadata cache. The cache never accounts more than its bound, and the file reads back (in
 * memory for ten million chunks, whose single-byte writes would otherwise be as many system
 * calls; on disk and through h5py for a smaller run).
 */
class BoundedMemoryDatasetTest {

    private static final long BOUND = 256 << 10;

    @TempDir
    Path dir;

    /** The byte element {@code i} holds. */
    private static byte valueOf(long i) {
        return (byte) (i * 31 + (i >>> 13));
    }

    /** Appends {@code chunks} one-byte chunks in batches, flushing every {@code flushEvery}. */
    private static void append(Path path, StorageOpener opener, long chunks, long flushEvery)
            throws IOException {
        WriteOptions options = new WriteOptions(Durability.NONE, BOUND);
        try (Hdf5File file = Hdf5File.create(path, opener, options)) {
            Dataset d = file.root().createDataset("appended", DatasetSpec.builder(Datatype.UINT8, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(1).build());
            int batch = 50_000;
            byte[] values = new byte[batch];
            for (long start = 0; start < chunks; start += batch) {
                int n = (int) Math.min(batch, chunks - start);
                for (int i = 0; i < n; i++) {
                    values[i] = valueOf(start + i);
                }
                d.extend(start + n);
                d.write(new long[] {start}, new long[] {n},
                        n == batch ? values : java.util.Arrays.copyOf(values, n));
                if ((start + n) % flushEvery == 0) {
                    file.flush();
                }
            }
            MetadataCache cache = file.cache();
            assertTrue(cache.peakAccountedBytes() <= BOUND, "cache reached "
                    + cache.peakAccountedBytes() + " bytes, bound " + BOUND);
            assertTrue(cache.peakEntryCount() <= BOUND / MetadataCache.BOOKKEEPING_BYTES_PER_ENTRY,
                    "cache held " + cache.peakEntryCount() + " entries");
        }
    }

    @Test
    void tenMillionOneByteChunksAppendInConstantMemoryAndReadBack() throws IOException {
        Path path = dir.resolve("ten-million.h5");
        MemoryFiles memory = new MemoryFiles();
        long chunks = 10_000_000;
        append(path, memory, chunks, 1_000_000);
        try (Hdf5File file = Hdf5File.open(path, memory)) {
            Dataset d = file.root().dataset("appended");
            assertEquals(List.of(chunks), java.util.Arrays.stream(d.shape()).boxed().toList());
            int slice = 1_000_000;
            for (long start = 0; start < chunks; start += slice) {
                byte[] read = d.readBytes(new long[] {start}, new long[] {slice});
                for (int i = 0; i < slice; i++) {
                    if (read[i] != valueOf(start + i)) {
                        assertEquals(valueOf(start + i), read[i], "element " + (start + i));
                    }
                }
            }
            assertTrue(file.cache().peakAccountedBytes() <= WriteOptions.DEFAULT_METADATA_CACHE_BYTES);
        }
    }

    @Test
    @StartsOutsideProgram
    void h5pyReadsAFileAppendedUnderTheBound() throws IOException {
        ExternalTools.requireH5py();
        Path path = dir.resolve("appended.h5");
        long chunks = 300_000;
        append(path, FileStorage.OPENER, chunks, 100_000);
        Path script = dir.resolve("check.py");
        Files.writeString(script, String.join("\n",
                "import sys, h5py, numpy",
                "with h5py.File(sys.argv[1], 'r') as f:",
                "    d = f['appended']",
                "    i = numpy.arange(" + chunks + ", dtype=numpy.uint64)",
                "    expected = ((i * 31 + (i >> 13)) & 0xff).astype(numpy.uint8)",
                "    assert d.shape == (" + chunks + ",), d.shape",
                "    assert d.chunks == (1,), d.chunks",
                "    assert (d[...] == expected).all()",
                "    print('ok', d.shape[0])", ""));
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), path.toString()), 300);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.stdout().contains("ok " + chunks), result.output());
    }
}
