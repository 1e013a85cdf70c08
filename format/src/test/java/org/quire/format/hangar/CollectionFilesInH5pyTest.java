package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;

/**
 * Quire's collection files read by h5py as Hangar reads them ({@code read_hangar_records.py}):
 * every array at the row its record names, reshaped to the record's shape; and the layout
 * (superblock, collections, chunks, filters, root attributes) is the one h5py gives the same
 * schema in the fixture {@code make_hangar_fixture.py} wrote.
 */
@StartsOutsideProgram
class CollectionFilesInH5pyTest {

    @TempDir
    Path dir;

    @Test
    void h5pyReadsEveryArrayAtTheRowItsRecordNames() throws Exception {
        ArraySchema schema = ArraySchema.of(Datatype.FLOAT32, 20, 2, 3);
        Map<String, String> expected = new LinkedHashMap<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, schema)) {
            for (int k = 0; k < 600; k++) {
                LocatorRecord record = writer.write(HangarArrays.floats(k, 120));
                expected.put(record.format(), HangarArrays.sha256(HangarArrays.floatBytes(k, 120)));
            }
        }
        List<String[]> arrays = readWithH5py(expected.keySet()).stream()
                .filter(line -> line[0].equals("array")).collect(Collectors.toList());
        assertEquals(600, arrays.size());
        for (String[] line : arrays) {
            assertEquals("(20,2,3)", line[2], line[1]);
            assertEquals(expected.get(line[1]), line[3], line[1]);
        }
    }

    @Test
    void zeroDimensionalArraysReadAsScalars() throws Exception {
        ArraySchema scalar = ArraySchema.of(Datatype.INT64);
        List<String> records = new ArrayList<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, scalar)) {
            records.add(writer.write(new long[] {7}).format());
            records.add(writer.write(new long[] {-9}).format());
        }
        List<String[]> lines = readWithH5py(records);
        assertEquals("()", lines.get(1)[2]);
        assertEquals(HangarArrays.sha256(new byte[] {-9, -1, -1, -1, -1, -1, -1, -1}), lines.get(1)[3]);
        assertEquals("'0.3.0'", attribute(lines, "HANGAR_VERSION"));
        assertEquals("[]", attribute(lines, "schema_shape"));
    }

    /**
     * The same schema as the h5py fixture (int16 (4, 3)), the same arrays in one checkout: h5py
     * describes both files alike, line for line, the cursor attributes rewritten at close
     * included (next_location (1, 9), collections_remaining 99).
     */
    @Test
    void theLayoutIsTheOneH5pyGivesTheSameSchema() throws Exception {
        ArraySchema schema = ArraySchema.of(Datatype.INT16, 4, 3);
        List<String> records = new ArrayList<>();
        try (CollectionWriter writer = CollectionWriter.checkout(dir, schema)) {
            for (int k = 0; k < 260; k++) {
                java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(HangarArrays.fixtureBytes(k));
                records.add(writer.write(bytes).format());
            }
        }
        Path fixtureRecords = HangarFixtures.h5pyStore().resolve("records.txt");
        List<String> fixture = Files.readAllLines(fixtureRecords).subList(0, 260);
        List<String[]> quire = readWithH5py(records);
        List<String[]> h5py = read(HangarFixtures.h5pyStore(), fixtureRecords);
        String quireUid = LocatorRecord.parse(records.get(0)).uid();
        for (int k = 0; k < 260; k++) {
            assertEquals(fixture.get(k).replace("Fx7Qa2", quireUid), records.get(k));
            assertEquals(h5py.get(k)[3], quire.get(k)[3], records.get(k));
        }
        assertEquals(describe(h5py, "Fx7Qa2"), describe(quire, quireUid));
    }

    /** The superblock, attribute and collection lines of file {@code uid}. */
    private static List<String> describe(List<String[]> lines, String uid) {
        return lines.stream()
                .filter(line -> !line[0].equals("array") && line[1].equals(uid))
                .map(line -> String.join("\t", List.of(line).subList(2, line.length)))
                .collect(Collectors.toList());
    }

    private static String attribute(List<String[]> lines, String name) {
        return lines.stream().filter(line -> line[0].equals("attribute") && line[2].equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no attribute " + name))[4];
    }

    private List<String[]> readWithH5py(Iterable<String> records) throws Exception {
        Path list = dir.resolve("records.txt");
        Files.write(list, records);
        return read(dir, list);
    }

    private static List<String[]> read(Path dataDir, Path records) {
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                HangarFixtures.readerScript().toString(), dataDir.toString(), records.toString()),
                300);
        assertEquals(0, result.exitCode(), result.output());
        return result.stdout().lines().map(line -> line.split("\t")).collect(Collectors.toList());
    }
}
