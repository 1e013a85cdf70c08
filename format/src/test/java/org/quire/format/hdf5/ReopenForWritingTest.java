package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.chunk.Shapes;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * {@link Hdf5File#openForWriting}: files Quire wrote and files h5py wrote in the latest format
 * (generated here with h5py) are reopened, their datasets of every chunk index extended and
 * written (new chunks and rewritten ones, new index blocks, pages and B-tree nodes), groups,
 * datasets and attributes added; Quire, h5py (every value, by SHA-256 of the elements) and
 * h5dump read the result.
 */
class ReopenForWritingTest {

    @TempDir
    Path dir;

    /** A selection and the seed its values carry. */
    record Box(long[] start, long[] count) {
    }

    /**
     * A dataset: its spec, the shape and write before the reopen (phase 1), and after it
     * (phase 2). Element values are {@code seed * 10^9 + coordinates} ({@link #value}).
     */
    record Case(String name, DatasetSpec spec, ChunkIndexType index, long[] shapeBefore,
                Box before, long[] shapeAfter, Box after) {
    }

    private static final long UNLIMITED = DatasetSpec.UNLIMITED;

    private static Box box(long[] start, long[] count) {
        return new Box(start, count);
    }

    private static long[] s(long... values) {
        return values;
    }

    private static DatasetSpec.Builder int64(long... shape) {
        return DatasetSpec.builder(Datatype.INT64, shape);
    }

    static List<Case> cases() {
        return List.of(
                new Case("single", int64(4, 4).maxShape(4, 4).chunkShape(4, 4).build(),
                        ChunkIndexType.SINGLE_CHUNK, s(4, 4), box(s(0, 0), s(2, 4)), s(4, 4),
                        box(s(1, 0), s(3, 4))),
                new Case("single_deflated", int64(6).maxShape(6).chunkShape(6)
                        .filter(Filter.deflate(6)).build(), ChunkIndexType.SINGLE_CHUNK, s(6),
                        box(s(0), s(6)), s(6), box(s(2), s(3))),
                new Case("fixed", int64(10, 12).chunkShape(3, 5).build(),
                        ChunkIndexType.FIXED_ARRAY, s(10, 12), box(s(0, 0), s(4, 7)), s(10, 12),
                        box(s(3, 5), s(7, 7))),
                new Case("paged", int64(5000).chunkShape(2).build(), ChunkIndexType.FIXED_ARRAY,
                        s(5000), box(s(0), s(100)), s(5000), box(s(90), s(3000))),
                new Case("series", int64(0).maxShape(UNLIMITED).chunkShape(1).build(),
                        ChunkIndexType.EXTENSIBLE_ARRAY, s(10), box(s(0), s(10)), s(150_000),
                        box(s(5), s(149_995))),
                new Case("deflated", int64(0).maxShape(UNLIMITED).chunkShape(8)
                        .filter(Filter.deflate(6)).build(), ChunkIndexType.EXTENSIBLE_ARRAY,
                        s(20), box(s(0), s(20)), s(100), box(s(10), s(90))),
                new Case("grid", int64(0, 0).maxShape(UNLIMITED, UNLIMITED).chunkShape(2, 2)
                        .build(), ChunkIndexType.VERSION_2_BTREE, s(4, 4), box(s(0, 0), s(4, 4)),
                        s(60, 60), box(s(2, 0), s(58, 60))));
    }

    static Case named(String name) {
        return cases().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    /** Datasets h5py creates without writing (their index is not allocated yet). */
    static List<Case> unallocatedCases() {
        return List.of(
                new Case("single_empty", int64(4, 4).maxShape(4, 4).chunkShape(4, 4).build(),
                        ChunkIndexType.SINGLE_CHUNK, s(4, 4), null, s(4, 4),
                        box(s(1, 1), s(2, 2))),
                new Case("fixed_empty", int64(10).chunkShape(4).build(),
                        ChunkIndexType.FIXED_ARRAY, s(10), null, s(10), box(s(0), s(10))),
                new Case("series_empty", int64(0).maxShape(UNLIMITED).chunkShape(4).build(),
                        ChunkIndexType.EXTENSIBLE_ARRAY, s(0), null, s(9), box(s(0), s(9))),
                new Case("grid_empty", int64(0, 0).maxShape(UNLIMITED, UNLIMITED)
                        .chunkShape(2, 2).build(), ChunkIndexType.VERSION_2_BTREE, s(0, 0), null,
                        s(3, 3), box(s(0, 0), s(3, 3))));
    }

    /** The value of the element at {@code at} written with {@code seed}. */
    static long value(int seed, long[] at) {
        return seed * 1_000_000_000L + (at.length == 1 ? at[0] : at[0] * 100_000 + at[1]);
    }

    static long[] values(int seed, Box box) {
        long[] values = new long[(int) Shapes.elementCount(box.count())];
        long[] at = new long[box.start().length];
        for (int i = 0; i < values.length; i++) {
            long rest = i;
            for (int d = at.length - 1; d >= 0; d--) {
                at[d] = box.start()[d] + rest % box.count()[d];
                rest /= box.count()[d];
            }
            values[i] = value(seed, at);
        }
        return values;
    }

    /** What the dataset holds after both phases: fill (0), then seed 1's, then seed 2's. */
    static long[] expected(Case c) {
        long[] shape = c.shapeAfter();
        long[] all = new long[(int) Shapes.elementCount(shape)];
        for (int seed = 1; seed <= 2; seed++) {
            Box box = seed == 1 ? c.before() : c.after();
            if (box == null) {
                continue;
            }
            long[] values = values(seed, box);
            long[] at = new long[shape.length];
            for (int i = 0; i < values.length; i++) {
                long rest = i;
                for (int d = at.length - 1; d >= 0; d--) {
                    at[d] = box.start()[d] + rest % box.count()[d];
                    rest /= box.count()[d];
                }
                long linear = at.length == 1 ? at[0] : at[0] * shape[1] + at[1];
                all[(int) linear] = values[i];
            }
        }
        return all;
    }

    /** Phase 1 by Quire: create, grow to the shape before, write seed 1, close. */
    static void writeWithQuire(Path file, List<Case> cases) throws IOException {
        try (Hdf5File out = Hdf5File.create(file)) {
            for (Case c : cases) {
                Dataset d = out.root().createDataset(c.name(), c.spec());
                d.extend(c.shapeBefore());
                if (c.before() != null) {
                    d.write(c.before().start(), c.before().count(), values(1, c.before()));
                }
            }
        }
    }

    /** Phase 1 by h5py with libver='latest': the same datasets, seed 1's values. */
    static void writeWithH5py(Path file, List<Case> cases) {
        ExternalTools.requireH5py();
        List<String> script = new ArrayList<>(List.of("import sys, h5py, numpy",
                "f = h5py.File(sys.argv[1], 'w', libver='latest')"));
        for (Case c : cases) {
            DatasetSpec spec = c.spec();
            StringBuilder max = new StringBuilder();
            for (long m : spec.maxShape()) {
                max.append(m == UNLIMITED ? "None" : Long.toString(m)).append(',');
            }
            script.add("d = f.create_dataset('" + c.name() + "', shape=" + tuple(c.shapeBefore())
                    + ", maxshape=(" + max + "), chunks=" + tuple(spec.chunkShape())
                    + ", dtype='<i8'" + (spec.filters().isEmpty() ? "" : ", compression='gzip'")
                    + ")");
            if (c.before() != null) {
                Box b = c.before();
                String values = b.start().length == 1
                        ? "numpy.arange(" + b.start()[0] + ", " + (b.start()[0] + b.count()[0])
                        + ", dtype='<i8')"
                        : "(numpy.arange(" + b.start()[0] + ", " + (b.start()[0] + b.count()[0])
                        + ", dtype='<i8')[:, None] * 100000 + numpy.arange(" + b.start()[1] + ", "
                        + (b.start()[1] + b.count()[1]) + ", dtype='<i8')[None, :])";
                StringBuilder slice = new StringBuilder();
                for (int d = 0; d < b.start().length; d++) {
                    slice.append(d == 0 ? "" : ", ").append(b.start()[d]).append(':')
                            .append(b.start()[d] + b.count()[d]);
                }
                script.add("d[" + slice + "] = " + values + " + 1000000000");
            }
        }
        script.add("f.close()");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", script), file.toString()), 120);
        assertEquals(0, result.exitCode(), result.output());
    }

    private static String tuple(long[] values) {
        StringBuilder out = new StringBuilder("(");
        for (long v : values) {
            out.append(v).append(',');
        }
        return out.append(')').toString();
    }

    /**
     * Phase 2: reopen, check each dataset's index, grow to the shape after, write seed 2; add a
     * group with a dataset, attributes on the root and on the first dataset; close.
     */
    static void reopenAndWrite(Path file, List<Case> cases) throws IOException {
        try (Hdf5File out = Hdf5File.openForWriting(file)) {
            assertTrue(out.isWritable());
            for (Case c : cases) {
                Dataset d = out.root().dataset(c.name());
                assertEquals(c.index(), d.chunkIndexType(), c.name());
                d.extend(c.shapeAfter());
                d.write(c.after().start(), c.after().count(), values(2, c.after()));
            }
            Dataset added = out.root().createGroup("added").createDataset("values",
                    int64(5).build());
            added.write(s(0), s(5), new long[] {5, 4, 3, 2, 1});
            out.root().setAttribute(Attribute.of("reopened", "yes"));
            out.root().dataset(cases.get(0).name()).setAttribute(Attribute.of("units", "K"));
        }
    }

    /** Quire, h5py and h5dump read every value of phase 1 and 2 and what phase 2 added. */
    private void checkReaders(Path file, List<Case> cases) throws IOException {
        try (Hdf5File in = Hdf5File.open(file)) {
            for (Case c : cases) {
                Dataset d = in.root().dataset(c.name());
                assertArrayEquals(c.shapeAfter(), d.shape(), c.name());
                assertArrayEquals(expected(c), d.readLongs(new long[c.shapeAfter().length],
                        c.shapeAfter()), c.name());
            }
            assertArrayEquals(new long[] {5, 4, 3, 2, 1},
                    in.root().group("added").dataset("values").readLongs(s(0), s(5)));
            assertEquals("yes", in.root().attribute("reopened").string());
            assertEquals("K", in.root().dataset(cases.get(0).name()).attribute("units").string());
        }
        ExternalTools.requireH5py();
        List<String> command = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(), "-c",
                String.join("\n",
                        "import sys, hashlib, h5py, numpy",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    for name in sys.argv[2:]:",
                        "        d = f[name][...].astype('<i8')",
                        "        print(name, d.shape, hashlib.sha256(d.tobytes()).hexdigest())",
                        "    print(list(f['added/values'][...]), f.attrs['reopened'],",
                        "          f[sys.argv[2]].attrs['units'])"), file.toString()));
        command.addAll(names(cases));
        ExternalTools.Result result = ExternalTools.run(command, 120);
        assertEquals(0, result.exitCode(), result.output());
        List<String> expected = new ArrayList<>();
        for (Case c : cases) {
            expected.add(c.name() + " " + pythonTuple(c.shapeAfter()) + " "
                    + sha256(expected(c)));
        }
        String attributeLine = result.stdout().lines().reduce((a, b) -> b).orElse("");
        assertEquals(expected, result.stdout().lines().limit(cases.size()).toList());
        assertTrue(attributeLine.matches("\\[5, 4, 3, 2, 1\\] (b')?yes'? (b')?K'?"),
                attributeLine);
        ExternalTools.requireTool("h5dump");
        ExternalTools.Result dump = ExternalTools.run(List.of("h5dump", file.toString()), 120);
        assertEquals(0, dump.exitCode(), dump.output());
    }

    private static List<String> names(List<Case> cases) {
        return cases.stream().map(Case::name).toList();
    }

    private static String pythonTuple(long[] shape) {
        StringBuilder out = new StringBuilder("(");
        for (int d = 0; d < shape.length; d++) {
            out.append(d == 0 ? "" : ", ").append(shape[d]);
        }
        return out.append(shape.length == 1 ? ",)" : ")").toString();
    }

    static String sha256(long[] values) {
        ByteBuffer bytes = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            bytes.putLong(v);
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(bytes.array()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Quire's verifier checks every structure, and the writes after the reopen reached what
     * they were meant to: fixed array and extensible array pages, B-tree internal nodes.
     */
    private static void checkStructures(Path file) throws IOException {
        Map<String, Long> blocks = Hdf5Verifier.verify(file).metadataBlocks();
        assertTrue(blocks.get("fixed array data block page") >= 2, blocks.toString());
        assertTrue(blocks.get("extensible array data block page") >= 2, blocks.toString());
        assertTrue(blocks.get("extensible array super block") >= 2, blocks.toString());
        assertTrue(blocks.get("version 2 B-tree internal node") >= 1, blocks.toString());
        assertTrue(blocks.get("version 2 B-tree leaf node") >= 2, blocks.toString());
    }

    @Test
    @StartsOutsideProgram
    void aFileQuireWroteIsExtendedAndWrittenInEveryIndexType() throws IOException {
        Path file = dir.resolve("quire.h5");
        writeWithQuire(file, cases());
        reopenAndWrite(file, cases());
        checkReaders(file, cases());
        checkStructures(file);
    }

    @Test
    @StartsOutsideProgram
    void aFileH5pyWroteInTheLatestFormatIsExtendedAndWrittenInEveryIndexType()
            throws IOException {
        Path file = dir.resolve("h5py.h5");
        writeWithH5py(file, cases());
        reopenAndWrite(file, cases());
        checkReaders(file, cases());
        checkStructures(file);
    }

    /** libhdf5 allocates a chunk index at the first write: Quire's first write does. */
    @Test
    @StartsOutsideProgram
    void datasetsH5pyCreatedWithoutDataGetTheirIndexAtTheFirstWrite() throws IOException {
        Path file = dir.resolve("unallocated.h5");
        writeWithH5py(file, unallocatedCases());
        try (Hdf5File in = Hdf5File.open(file)) {
            for (Case c : unallocatedCases()) {
                Dataset d = in.root().dataset(c.name());
                assertEquals(c.index(), d.chunkIndexType(), c.name());
                assertArrayEquals(new long[(int) Shapes.elementCount(c.shapeBefore())],
                        d.readLongs(new long[c.shapeBefore().length], c.shapeBefore()));
            }
        }
        reopenAndWrite(file, unallocatedCases());
        checkReaders(file, unallocatedCases());
    }

    @Test
    void aFileReopenedAndClosedWithoutChangesKeepsItsContents() throws IOException {
        Path file = dir.resolve("same.h5");
        writeWithQuire(file, cases());
        try (Hdf5File reopened = Hdf5File.openForWriting(file)) {
            assertTrue(Files.exists(Hdf5File.journalPath(file)));
        }
        assertTrue(Files.notExists(Hdf5File.journalPath(file)));
        try (Hdf5File in = Hdf5File.open(file)) {
            for (Case c : cases()) {
                long[] shape = c.shapeBefore();
                long[] expected = new long[(int) Shapes.elementCount(shape)];
                Case before = new Case(c.name(), c.spec(), c.index(), shape, c.before(), shape,
                        null);
                System.arraycopy(expected(before), 0, expected, 0, expected.length);
                assertArrayEquals(expected, in.root().dataset(c.name()).readLongs(
                        new long[shape.length], shape), c.name());
            }
        }
    }

    /** One job of a time series: opens (or creates) the file, appends {@code steps} rows. */
    private static void runJob(Path file, int steps) throws IOException {
        boolean restarted = Files.exists(file);
        try (Hdf5File out = restarted ? Hdf5File.openForWriting(file) : Hdf5File.create(file)) {
            Dataset series = restarted ? out.root().dataset("temperature")
                    : out.root().createDataset("temperature", DatasetSpec.builder(
                            Datatype.FLOAT64, 0, 3).maxShape(UNLIMITED, 3).chunkShape(64, 3)
                            .build());
            for (int i = 0; i < steps; i++) {
                long step = series.shape()[0];
                series.extend(step + 1, 3);
                series.write(new long[] {step, 0}, new long[] {1, 3},
                        new double[] {step, step + 0.25, step + 0.5});
                if (step % 100 == 99) {
                    out.flush();
                }
            }
        }
    }

    /**
     * A restarted job continues its time series in the same file: 1,000 steps, then 500 after
     * a reopen, then 7 after another; Quire and h5py read all 1,507 rows in order.
     */
    @Test
    @StartsOutsideProgram
    void aRestartedJobContinuesItsTimeSeries() throws IOException {
        Path file = dir.resolve("series.h5");
        runJob(file, 1000);
        runJob(file, 500);
        runJob(file, 7);
        double[] expected = new double[1507 * 3];
        for (int step = 0; step < 1507; step++) {
            expected[3 * step] = step;
            expected[3 * step + 1] = step + 0.25;
            expected[3 * step + 2] = step + 0.5;
        }
        try (Hdf5File in = Hdf5File.open(file)) {
            Dataset series = in.root().dataset("temperature");
            assertArrayEquals(new long[] {1507, 3}, series.shape());
            assertArrayEquals(expected, series.readDoubles(new long[] {0, 0},
                    new long[] {1507, 3}));
        }
        ExternalTools.requireH5py();
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py, numpy",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    t = f['temperature'][...]",
                        "    steps = numpy.arange(t.shape[0], dtype='<f8')",
                        "    expected = numpy.stack([steps, steps + 0.25, steps + 0.5], axis=1)",
                        "    print(t.shape, numpy.array_equal(t, expected))"), file.toString()),
                60);
        assertEquals(0, result.exitCode(), result.output());
        assertEquals("(1507, 3) True", result.stdout().strip());
    }

    /**
     * Headers libhdf5 wrote grow continuation blocks: 30 attributes of 100 bytes on an h5py
     * dataset and 6 groups in its root; h5py reads them all, in order.
     */
    @Test
    @StartsOutsideProgram
    void headersH5pyWroteGrowContinuationBlocks() throws IOException {
        Path file = dir.resolve("grown.h5");
        writeWithH5py(file, List.of(named("single"), named("fixed")));
        try (Hdf5File out = Hdf5File.openForWriting(file)) {
            Dataset d = out.root().dataset("fixed");
            for (int i = 0; i < 30; i++) {
                d.setAttribute(Attribute.of("a" + i, "x".repeat(100 - String.valueOf(i).length())
                        + i));
            }
            for (int i = 0; i < 6; i++) {
                out.root().createGroup("g" + i).setAttribute(Attribute.of("index", (long) i));
            }
        }
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py",
                        "with h5py.File(sys.argv[1], 'r') as f:",
                        "    a = f['fixed'].attrs",
                        "    print(len(a), all(a['a%d' % i].endswith(str(i)) and len(a['a%d' % i])"
                                + " == 100 for i in range(30)))",
                        "    print(list(f), [int(f['g%d' % i].attrs['index']) for i in range(6)])",
                        "    print(f['fixed'][3, 5], f['single'][1, 0])"), file.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        assertEquals(List.of("30 True",
                "['fixed', 'g0', 'g1', 'g2', 'g3', 'g4', 'g5', 'single'] [0, 1, 2, 3, 4, 5]",
                "1000300005 1000100000"), result.stdout().lines().toList());
        try (Hdf5File in = Hdf5File.open(file)) {
            assertEquals(30, in.root().dataset("fixed").attributeNames().size());
            assertEquals(List.of("single", "fixed", "g0", "g1", "g2", "g3", "g4", "g5"),
                    in.root().memberNames());
        }
    }

    /** Every dataset's shape and elements, as {@code "shape=values"} per name. */
    private static Map<String, String> contents(Hdf5File file, List<String> names)
            throws IOException {
        Map<String, String> contents = new TreeMap<>();
        for (String name : names) {
            Dataset d = file.root().dataset(name);
            long[] shape = d.shape();
            contents.put(name, Arrays.toString(shape) + "="
                    + Arrays.toString(d.readLongs(new long[shape.length], shape)));
        }
        return contents;
    }

    /** A state a flush published, and the simulator's event count when that flush returned. */
    private record Flushed(int events, Map<String, String> contents) {
    }

    /**
     * A writer continuing a file h5py wrote, crashed at every point: rounds of new chunks in an
     * extensible array, a B-tree and a fixed array, each round flushed with {@code
     * EVERY_FLUSH}; killed at every point and a power failure at every point with three seeds,
     * from the reopen on. After {@link Hdf5File#recover} every dataset holds the state of the
     * last completed flush or of the one in progress.
     */
    @Test
    @StartsOutsideProgram
    void continuingAnH5pyFileLeavesTheLastCompletedFlushOrTheOneInProgressAtEveryCrash()
            throws IOException {
        List<Case> start = List.of(named("fixed"), named("series"), named("grid"));
        List<String> names = names(start);
        Path source = dir.resolve("start.h5");
        writeWithH5py(source, start);
        Path file = Path.of("continued.h5");
        CrashSimulator simulator = new CrashSimulator(Map.of(file, Files.readAllBytes(source)));
        List<Flushed> flushes = new ArrayList<>();
        try (Hdf5File in = Hdf5File.open(file, simulator)) {
            flushes.add(new Flushed(0, contents(in, names)));
        }
        int reopened = simulator.eventCount();
        WriteOptions options = WriteOptions.DEFAULT.withDurability(
                Durability.EVERY_FLUSH);
        try (Hdf5File out = Hdf5File.openForWriting(file, simulator, options)) {
            for (int round = 1; round <= 4; round++) {
                Dataset series = out.root().dataset("series");
                long length = series.shape()[0];
                series.extend(length + 40L * round);
                Box appended = box(s(length), s(40L * round));
                series.write(appended.start(), appended.count(), values(round + 1, appended));
                Dataset grid = out.root().dataset("grid");
                long rows = grid.shape()[0];
                grid.extend(rows + 4, rows + 4);
                Box band = box(s(rows, 0), s(4, rows + 4));
                grid.write(band.start(), band.count(), values(round + 1, band));
                // A chunk h5py left unwritten each round (rewriting a flushed chunk in place
                // changes that flush's state: the guarantee is for new chunks).
                Box chunk = round <= 3 ? box(s(6, 5 * (round - 1)), s(3, round == 3 ? 2 : 5))
                        : box(s(9, 0), s(1, 5));
                out.root().dataset("fixed").write(chunk.start(), chunk.count(),
                        values(round + 1, chunk));
                out.flush();
                flushes.add(new Flushed(simulator.eventCount(), contents(out, names)));
            }
        }
        int events = simulator.eventCount();
        int checked = 0;
        for (int point = reopened; point <= events; point++) {
            Flushed completed = flushes.get(0);
            Flushed inProgress = null;
            for (Flushed flushed : flushes) {
                if (flushed.events() <= point) {
                    completed = flushed;
                } else {
                    inProgress = flushed;
                    break;
                }
            }
            for (int seed = -1; seed < 3; seed++) {
                Map<Path, byte[]> files = seed < 0 ? simulator.processCrash(point)
                        : simulator.crash(point, seed);
                CrashSimulator disk = new CrashSimulator(files);
                String where = (seed < 0 ? "killed writer" : "power failure seed " + seed)
                        + " at event " + point + " of " + events;
                Map<String, String> found;
                try {
                    Hdf5File.recover(file, disk);
                    try (Hdf5File in = Hdf5File.open(file, disk)) {
                        found = contents(in, names);
                    }
                } catch (IOException | RuntimeException e) {
                    throw new AssertionError(where + ": " + e, e);
                }
                assertTrue(found.equals(completed.contents()) || inProgress != null
                        && found.equals(inProgress.contents()), where + ": found a state of "
                        + "no flush: " + found.keySet());
                checked++;
            }
        }
        assertTrue(checked > 4 * flushes.size(), "checked " + checked);
    }
}
