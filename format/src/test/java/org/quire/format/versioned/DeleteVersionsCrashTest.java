package org.quire.format.versioned;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quire.format.versioned.VersionedFileTest.DAY;
import static org.quire.format.versioned.VersionedFileTest.int64;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.storage.CrashSimulator;

/**
 * A killed {@link VersionedFile#deleteVersions} (docs/versions.md, "Deleting versions"): at
 * every write, truncation and force of the deletion, the files a killed process leaves
 * ({@link CrashSimulator#processCrash}) are recovered and must hold the old versions or the
 * new ones, every dataset of every version reading its values, {@link VersionedFile#verify()}
 * passing; then a commit of each old version's data again (deduplicated onto whatever slots
 * the hash table names) must read back those values.
 */
class DeleteVersionsCrashTest {

    static final Path FILE = Path.of("versions.h5");
    static final List<String> DOOMED = List.of("r1", "r2", "r4");

    /** Versions (name, parent) with each dataset's shape and values; the current version. */
    record Snapshot(String current, Map<String, String> parents,
                    Map<String, Map<String, List<Long>>> values) {
    }

    /**
     * r0 ... r6 in a chain, x of 11 elements (chunks of 4, fill -7), r{i} setting x[i];
     * y (chunks of 2) in r0 to r3 only, z only in r1 (its store goes with r1).
     */
    static CrashSimulator chain() throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        try (VersionedFile vf = VersionedFile.create(FILE, simulator)) {
            vf.commit("r0", "", DAY, v -> {
                v.createDataset("x", DatasetSpec.builder(Datatype.INT64, 11).chunkShape(4)
                        .fillValue(-7L).build(), int64(LongStream.range(0, 11).toArray()));
                v.createDataset("g/y", DatasetSpec.builder(Datatype.INT64, 5).chunkShape(2).build(),
                        int64(50, 51, 52, 53, 54));
            });
            for (int i = 1; i <= 6; i++) {
                int step = i;
                vf.commit("r" + i, "r" + (i - 1), DAY.plusSeconds(i), v -> {
                    v.dataset("x").write(new long[] {step}, new long[] {1}, new long[] {100 + step});
                    if (step == 1) {
                        v.createDataset("z", DatasetSpec.builder(Datatype.INT64, 3).chunkShape(3)
                                .build(), int64(7, 8, 9));
                        v.dataset("g/y").write(new long[] {4}, new long[] {1}, new long[] {60});
                    } else if (step == 2) {
                        v.delete("z");
                    } else if (step == 4) {
                        v.delete("g/y");
                    }
                });
            }
        }
        return simulator;
    }

    static Snapshot snapshot(VersionedFile vf) throws IOException {
        Map<String, String> parents = new LinkedHashMap<>();
        Map<String, Map<String, List<Long>>> values = new LinkedHashMap<>();
        for (VersionInfo version : vf.versions()) {
            parents.put(version.name(), version.parent());
            Map<String, List<Long>> datasets = new LinkedHashMap<>();
            for (String name : vf.datasetNames(version.name())) {
                Dataset dataset = vf.dataset(version.name(), name);
                long[] read = dataset.readLongs(new long[] {0}, dataset.shape());
                datasets.put(name, LongStream.of(read).boxed().toList());
            }
            values.put(version.name(), datasets);
        }
        return new Snapshot(vf.currentVersion(), parents, values);
    }

    static Snapshot snapshot(Map<Path, byte[]> files) throws IOException {
        CrashSimulator disk = new CrashSimulator(files);
        Hdf5File.recover(FILE, disk);
        try (VersionedFile vf = VersionedFile.open(FILE, disk)) {
            return snapshot(vf);
        }
    }

    @Test
    void aKilledDeletionRecoversToTheOldOrTheNewVersionsEachReadingItsValues() throws IOException {
        CrashSimulator simulator = chain();
        Snapshot old = snapshot(simulator.files());
        int begin = simulator.eventCount();
        try (VersionedFile vf = VersionedFile.openForWriting(FILE, simulator)) {
            vf.deleteVersions(DOOMED.toArray(String[]::new));
        }
        int end = simulator.eventCount();
        Snapshot deleted = snapshot(simulator.files());
        assertEquals(List.of("r0", "r3", "r5", "r6"), List.copyOf(deleted.parents().keySet()));
        assertEquals("r0", deleted.parents().get("r3"));

        int olds = 0;
        int news = 0;
        for (int point = begin; point <= end; point++) {
            CrashSimulator disk = new CrashSimulator(simulator.processCrash(point));
            Hdf5File.recover(FILE, disk);
            try (VersionedFile vf = VersionedFile.openForWriting(FILE, disk)) {
                Snapshot found = snapshot(vf);
                if (found.equals(old)) {
                    olds++;
                } else if (found.equals(deleted)) {
                    news++;
                } else {
                    fail("crash at event " + point + " of [" + begin + ", " + end + "]: " + found);
                }
                vf.verify();
                commitEveryOldVersionAgain(vf, old);
                vf.verify();
                for (Map.Entry<String, Map<String, List<Long>>> version : old.values().entrySet()) {
                    Dataset x = vf.dataset("again_" + version.getKey(), "x");
                    assertArrayEquals(version.getValue().get("x").stream().mapToLong(Long::longValue)
                            .toArray(), x.readLongs(new long[] {0}, x.shape()),
                            "crash at event " + point + ": x of " + version.getKey() + " committed again");
                }
            }
        }
        assertTrue(olds > 0 && news > 0, olds + " old, " + news + " new");
    }

    /** Each old version's x committed again as again_{name}: its chunks dedupe onto stored slots. */
    private static void commitEveryOldVersionAgain(VersionedFile vf, Snapshot old) throws IOException {
        for (Map.Entry<String, Map<String, List<Long>>> version : old.values().entrySet()) {
            long[] x = version.getValue().get("x").stream().mapToLong(Long::longValue).toArray();
            vf.commit("again_" + version.getKey(), v -> v.dataset("x")
                    .write(new long[] {0}, new long[] {x.length}, x));
        }
    }
}
