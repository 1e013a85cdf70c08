package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.InteropCorpus.Box;
import org.quire.format.hdf5.InteropCorpus.Case;
import org.quire.format.hdf5.chunk.ChunkIndex;
import org.quire.format.hdf5.chunk.SkipListChunkIndex;
import org.quire.format.hdf5.layout.SkipListGeometry;

/**
 * The chunk index contract for Quire's skip list index (one unlimited dimension, chosen with
 * {@link DatasetSpec.Builder#quireOnlySkipListIndex()}); its libhdf5 part checks that h5py
 * refuses such datasets with an error and still reads the rest of the file, and that h5dump
 * refuses the whole file with an error (it visits every object before dumping any).
 */
class SkipListChunkIndexContractTest extends WritableChunkIndexContract {

    private static final long U = DatasetSpec.UNLIMITED;

    @Override
    ChunkIndexType type() {
        return ChunkIndexType.QUIRE_SKIP_LIST;
    }

    /**
     * Unlimited first, 2 chunks per row of 5,000 rows: single chunks scattered over the first
     * supernodes, then one 150 supernodes further on (the ones between created empty).
     */
    @Override
    Case sparse() {
        return new Case("/sparse", DatasetSpec.builder(Datatype.FLOAT64, 0, 6).maxShape(U, 6)
                .chunkShape(1, 3).fillValue(-1.5).quireOnlySkipListIndex().build(),
                new long[] {5_000, 6},
                List.of(Box.of(new long[] {0, 0}, new long[] {1, 1}),
                        Box.of(new long[] {1, 4}, new long[] {1, 2}),
                        Box.of(new long[] {10, 0}, new long[] {1, 3}),
                        Box.of(new long[] {300, 3}, new long[] {1, 1}),
                        Box.of(new long[] {4_999, 2}, new long[] {1, 1})),
                Box.whole(5_000, 6), type());
    }

    /** Unlimited last, filtered, 20,000 chunks all written: 313 supernodes, 9 levels. */
    @Override
    Case large() {
        return new Case("/large", DatasetSpec.builder(Datatype.INT64, 4, 0).maxShape(4, U)
                .chunkShape(2, 1).filter(Filter.fletcher32()).quireOnlySkipListIndex().build(),
                new long[] {4, 10_000}, List.of(Box.whole(4, 10_000)), Box.whole(4, 10_000),
                type());
    }

    @Override
    void assertLargeStructure(Hdf5File file, ChunkIndex index) {
        SkipListChunkIndex list = (SkipListChunkIndex) index;
        SkipListGeometry geometry = list.geometry();
        assertEquals(20_000, list.chunkCount());
        long supernodes = geometry.supernodes(list.chunkCount());
        assertEquals(313, supernodes);
        assertEquals(9, geometry.height(255), "supernode 255 links on 9 levels");
    }

    /** Only on request, and only with exactly one unlimited dimension. */
    @Test
    void theSkipListIsChosenOnlyOnRequestAndOnlyWithOneUnlimitedDimension() throws IOException {
        DatasetSpec plain = DatasetSpec.builder(Datatype.INT8, 0).maxShape(U).build();
        assertFalse(plain.quireOnlySkipListIndex());
        try (Hdf5File file = Hdf5File.create(dir.resolve("default.h5"))) {
            assertEquals(ChunkIndexType.EXTENSIBLE_ARRAY,
                    file.root().createDataset("d", plain).chunkIndexType());
        }
        for (long[] maxShape : List.of(new long[] {U, U}, new long[] {10, 10})) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DatasetSpec.builder(Datatype.INT8, 0, 0).maxShape(maxShape)
                            .chunkShape(1, 1).quireOnlySkipListIndex().build());
            assertTrue(e.getMessage().contains("exactly one unlimited dimension"),
                    e.getMessage());
        }
    }

    /**
     * h5py raises an error for both skip list datasets ("unknown chunk index type") and reads
     * an extensible array dataset of the same file (written for this check beside {@code
     * path}, with the same cases); h5dump fails on the file, whichever dataset
     * it is asked for, with an error message and an exit status, never a signal.
     */
    @Override
    void assertLibhdf5Reads(Path path, List<Case> cases) throws IOException {
        ExternalTools.requireTool("h5dump");
        Case readable = new Case("/plain", DatasetSpec.builder(Datatype.INT32, 0).maxShape(U)
                .chunkShape(4).build(), new long[] {10}, List.of(Box.whole(10)), Box.whole(10),
                ChunkIndexType.EXTENSIBLE_ARRAY);
        Path mixed = dir.resolve("mixed.h5");
        List<Case> all = new ArrayList<>(cases);
        all.add(readable);
        InteropCorpus.write(mixed, List.of(), all, List.of());
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                ExternalTools.resource("check_quire_only_refused.py", dir).toString(),
                mixed.toString(), "--refused"));
        cases.forEach(c -> command.add(c.path()));
        command.addAll(List.of("--readable", readable.path()));
        ExternalTools.Result h5py = ExternalTools.run(command, 120);
        assertEquals(0, h5py.exitCode(), h5py.output());
        assertTrue(h5py.stdout().contains("refused 2, read 1"), h5py.output());

        // h5dump visits every object before dumping any, so it refuses the whole file.
        for (String dataset : List.of(cases.get(0).path(), readable.path())) {
            ExternalTools.Result dumped = ExternalTools.run(List.of("h5dump", "-d", dataset,
                    mixed.toString()), 120);
            assertTrue(dumped.exitCode() > 0 && dumped.exitCode() < 128, dumped.output());
            assertTrue(dumped.stderr().contains("h5dump error"), dumped.output());
        }
    }
}
