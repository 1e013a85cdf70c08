package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.CrashSimulator;
import org.quire.format.storage.Durability;

/**
 * Crash simulation of the HDF5 writer (docs/hdf5.md, "Crashes and recovery"): a dataset of each
 * writable chunk index grows round by round (extend, write new chunks, flush), on a {@link
 * CrashSimulator}; at every crash point the files left are recovered ({@link Hdf5File#recover})
 * and opened, and the dataset must hold exactly its state at the last completed flush or at the
 * flush in progress: the same shape, and the same stored chunks with the same bytes inside it.
 * A killed writer ({@code processCrash}) at every point of every workload, with each durability;
 * a power failure ({@code crash(point, seed)}, torn 512-byte sectors) at every point with three
 * seeds for {@link Durability#EVERY_FLUSH}, whose flushes the journal makes atomic;
 * both again under a metadata cache small enough to write blocks between flushes.
 */
class Hdf5CrashSimulationTest {

    private static final Path FILE = Path.of("crash.h5");
    private static final int SECTORS_CHUNK = 1500;

    @TempDir
    Path dir;

    /** One round: grow to {@code shape}, then write the chunks of {@code start}/{@code count}. */
    private record Round(long[] shape, long[] start, long[] count) {
    }

    /** A dataset and its rounds, written after {@link Hdf5File#startSwmrWrite} if {@code swmr}. */
    private record Workload(String name, DatasetSpec spec, List<Round> rounds, boolean swmr) {
        Workload(String name, DatasetSpec spec, List<Round> rounds) {
            this(name, spec, rounds, false);
        }
    }

    /**
     * What the dataset holds after a flush: its shape and stored chunks (coordinates → bytes),
     * each element outside the shape taken as 0 (an append may already have written it in a
     * chunk the state holds in part).
     */
    private record State(long[] shape, Map<List<Long>, List<Byte>> chunks) {
        static State of(long[] shape, long[] chunkShape, Map<List<Long>, List<Byte>> chunks) {
            Map<List<Long>, List<Byte>> inside = new HashMap<>();
            chunks.forEach((key, bytes) -> {
                List<Byte> masked = new ArrayList<>(bytes);
                for (int i = 0; i < masked.size(); i++) {
                    long rest = i;
                    for (int d = chunkShape.length - 1; d >= 0; d--) {
                        if (key.get(d) * chunkShape[d] + rest % chunkShape[d] >= shape[d]) {
                            masked.set(i, (byte) 0);
                        }
                        rest /= chunkShape[d];
                    }
                }
                inside.put(key, List.copyOf(masked));
            });
            return new State(shape, inside);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof State state && Arrays.equals(shape, state.shape)
                    && chunks.equals(state.chunks);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(shape) * 31 + chunks.hashCode();
        }

        @Override
        public String toString() {
            return "shape " + Arrays.toString(shape) + ", " + chunks.size() + " chunks";
        }
    }

    /**
     * A state, the event count when the flush that made it was called ({@code started}: the
     * writes after it are the flush's) and when it returned.
     */
    private record Flushed<S>(int started, int events, S state) {
    }

    /** The state a reader finds in a recovered file; null when the file holds none yet. */
    @FunctionalInterface
    private interface StateReader<S> {
        S read(CrashSimulator recovered) throws IOException;
    }

    private static DatasetSpec.Builder int8(long... shape) {
        return DatasetSpec.builder(Datatype.INT8, shape);
    }

    /** One-dimensional chunks of one element, growing to each size, the last 3 written. */
    private static List<Round> appends(long... sizes) {
        List<Round> rounds = new ArrayList<>();
        for (long size : sizes) {
            rounds.add(new Round(new long[] {size}, new long[] {size - 3}, new long[] {3}));
        }
        return rounds;
    }

    static Workload singleChunk() {
        List<Round> rounds = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            rounds.add(new Round(new long[] {4, 4}, new long[] {0, 0}, new long[] {4, 4}));
        }
        return new Workload("single chunk", int8(4, 4).maxShape(4, 4).chunkShape(4, 4).build(),
                rounds);
    }

    static Workload fixedArray() {
        return new Workload("fixed array", int8(0).maxShape(600).chunkShape(1).build(),
                appends(5, 50, 200, 600));
    }

    static Workload pagedFixedArray() {
        return new Workload("paged fixed array", int8(0).maxShape(3000).chunkShape(1).build(),
                appends(5, 1100, 1103, 2100, 3000));
    }

    /** Past the index block into direct data blocks, super blocks and paged data blocks. */
    static Workload extensibleArray() {
        return new Workload("extensible array", int8(0).maxShape(DatasetSpec.UNLIMITED)
                .chunkShape(1).build(), appends(3, 10, 40, 200, 1000, 5000, 40_000, 140_000,
                150_000));
    }

    /** Ten rows of ten chunks per round: leaves split, the root becomes an internal node. */
    static Workload bTree() {
        List<Round> rounds = new ArrayList<>();
        for (int r = 1; r <= 8; r++) {
            rounds.add(new Round(new long[] {10L * r, 10}, new long[] {10L * (r - 1), 0},
                    new long[] {10, 10}));
        }
        return new Workload("v2 B-tree", int8(0, 10).maxShape(DatasetSpec.UNLIMITED,
                DatasetSpec.UNLIMITED).chunkShape(1, 1).build(), rounds);
    }

    /**
     * The skip list index, one chunk appended per flush across two supernodes (64 chunks
     * each), then appends far ahead (empty supernodes between, up to height 8).
     */
    static Workload skipList() {
        List<Round> rounds = new ArrayList<>();
        for (long size = 1; size <= 70; size++) {
            rounds.add(new Round(new long[] {size}, new long[] {size - 1}, new long[] {1}));
        }
        rounds.addAll(appends(200, 1000, 9000));
        return new Workload("skip list", int8(0).maxShape(DatasetSpec.UNLIMITED).chunkShape(1)
                .quireOnlySkipListIndex().build(), rounds);
    }

    /** Chunks of {@value #SECTORS_CHUNK} bytes (three 512-byte sectors), appended. */
    static Workload multiSectorAppends() {
        List<Round> rounds = new ArrayList<>();
        for (int r = 1; r <= 4; r++) {
            rounds.add(new Round(new long[] {SECTORS_CHUNK * r},
                    new long[] {SECTORS_CHUNK * (r - 1)}, new long[] {SECTORS_CHUNK}));
        }
        return new Workload("multi-sector appends", int8(0).maxShape(DatasetSpec.UNLIMITED)
                .chunkShape(SECTORS_CHUNK).build(), rounds);
    }

    /**
     * Fletcher-32 chunks of three sectors, every round rewriting all of them (same stored
     * size): a flushed chunk rewritten in place would be torn by a power failure.
     */
    static Workload filteredRewrites() {
        List<Round> rounds = new ArrayList<>();
        for (int r = 1; r <= 4; r++) {
            rounds.add(new Round(new long[] {SECTORS_CHUNK * r}, new long[] {0},
                    new long[] {SECTORS_CHUNK * r}));
        }
        return new Workload("Fletcher-32 rewrites", int8(0).maxShape(DatasetSpec.UNLIMITED)
                .chunkShape(SECTORS_CHUNK).filter(Filter.fletcher32()).build(), rounds);
    }

    /** Rounds appending 3 elements (rows of {@code columns}, 0 for one dimension). */
    private static List<Round> swmrAppends(int rounds, int columns) {
        List<Round> list = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            list.add(columns == 0
                    ? new Round(new long[] {3L * r}, new long[] {3L * (r - 1)}, new long[] {3})
                    : new Round(new long[] {3L * r, columns}, new long[] {3L * (r - 1), 0},
                            new long[] {3, columns}));
        }
        return list;
    }

    /**
     * SWMR appends (docs/hdf5.md, "SWMR writing"): after {@code startSwmrWrite}, rounds of 3
     * elements into chunks of 4, so most rounds write part of a chunk a flushed state holds in
     * part (in place, only the new elements), past the index block into data blocks.
     */
    static Workload swmrExtensibleArray() {
        return new Workload("SWMR appends, extensible array", int8(0)
                .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build(), swmrAppends(40, 0), true);
    }

    static Workload swmrFixedArray() {
        return new Workload("SWMR appends, fixed array", int8(0).maxShape(120).chunkShape(4)
                .build(), swmrAppends(40, 0), true);
    }

    /**
     * Two unlimited dimensions, chunks of 2 rows by 1 column (180 of them): leaves split and
     * the root grows while readers may follow.
     */
    static Workload swmrBTree() {
        return new Workload("SWMR appends, v2 B-tree", int8(0, 2).maxShape(DatasetSpec.UNLIMITED,
                DatasetSpec.UNLIMITED).chunkShape(2, 1).build(), swmrAppends(60, 2), true);
    }

    /** {@code workload} written after {@code startSwmrWrite}. */
    private static Workload swmr(Workload workload) {
        return new Workload(workload.name() + " (SWMR)", workload.spec(), workload.rounds(), true);
    }

    static List<Workload> workloads() {
        return List.of(singleChunk(), fixedArray(), pagedFixedArray(), extensibleArray(),
                bTree(), skipList(), multiSectorAppends(), filteredRewrites(),
                swmrExtensibleArray(), swmrFixedArray(), swmrBTree());
    }

    /** The byte each element of round {@code r} gets: differs between rounds and elements. */
    private static byte value(int round, long linear) {
        return (byte) (round * 37 + linear * 11 + 1);
    }

    /** What a run wrote: its simulator, the states of its flushes, the point create returned. */
    private record Run<S>(CrashSimulator simulator, List<Flushed<S>> flushes, int created) {
    }

    private static Run<State> write(Workload workload, WriteOptions options) throws IOException {
        return write(workload, options, -1);
    }

    /**
     * Runs {@code workload}; with {@code reopenBefore} at least 0, the writer closes the file
     * before that round and goes on through {@link Hdf5File#openForWriting} (a restarted job).
     */
    private static Run<State> write(Workload workload, WriteOptions options, int reopenBefore)
            throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        List<Flushed<State>> flushes = new ArrayList<>();
        int created;
        Hdf5File file = Hdf5File.create(FILE, simulator, options);
        try {
            created = simulator.eventCount();
            Dataset d = file.root().createDataset("d", workload.spec());
            Map<List<Long>, List<Byte>> chunks = new TreeMap<>(Hdf5CrashSimulationTest::compare);
            long[] shape = workload.spec().shape();
            long[] chunkShape = workload.spec().chunkShape();
            int started = simulator.eventCount();
            file.flush();
            if (workload.swmr()) {
                file.startSwmrWrite();
            }
            flushes.add(new Flushed<>(started, simulator.eventCount(),
                    State.of(shape, chunkShape, chunks)));
            for (int r = 0; r < workload.rounds().size(); r++) {
                if (r == reopenBefore) {
                    file.close();
                    file = Hdf5File.openForWriting(FILE, simulator, options);
                    d = file.root().dataset("d");
                    if (workload.swmr()) {
                        file.startSwmrWrite();
                    }
                }
                Round round = workload.rounds().get(r);
                if (!Arrays.equals(round.shape(), shape)) {
                    d.extend(round.shape());
                    shape = round.shape();
                }
                int elements = (int) (round.count()[0] * (round.count().length > 1
                        ? round.count()[1] : 1));
                byte[] bytes = new byte[elements];
                for (int i = 0; i < elements; i++) {
                    bytes[i] = value(r, i);
                }
                d.write(round.start(), round.count(), bytes);
                recordChunks(chunks, round, chunkShape, bytes);
                int flushing = simulator.eventCount();
                file.flush();
                flushes.add(new Flushed<>(flushing, simulator.eventCount(),
                        State.of(shape, chunkShape, chunks)));
            }
        } finally {
            file.close();
        }
        return new Run<>(simulator, flushes, created);
    }

    /** Puts the elements a round wrote into the chunks holding them (new ones all 0 else). */
    private static void recordChunks(Map<List<Long>, List<Byte>> chunks, Round round,
                                     long[] chunkShape, byte[] bytes) {
        int chunkElements = 1;
        for (long extent : chunkShape) {
            chunkElements *= (int) extent;
        }
        for (int i = 0; i < bytes.length; i++) {
            long rest = i;
            long[] at = new long[chunkShape.length];
            for (int d = chunkShape.length - 1; d >= 0; d--) {
                at[d] = round.start()[d] + rest % round.count()[d];
                rest /= round.count()[d];
            }
            List<Long> key = new ArrayList<>();
            int within = 0;
            for (int d = 0; d < chunkShape.length; d++) {
                key.add(at[d] / chunkShape[d]);
                within = within * (int) chunkShape[d] + (int) (at[d] % chunkShape[d]);
            }
            int size = chunkElements;
            chunks.computeIfAbsent(key, k -> new ArrayList<>(java.util.Collections.nCopies(size,
                    (byte) 0))).set(within, bytes[i]);
        }
    }

    private static int compare(List<Long> a, List<Long> b) {
        for (int i = 0; i < a.size(); i++) {
            int order = Long.compare(a.get(i), b.get(i));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    /** The state of {@code files} once recovered (the flags cleared). */
    private static State readBack(Map<Path, byte[]> files) throws IOException {
        CrashSimulator disk = new CrashSimulator(files);
        Hdf5File.recover(FILE, disk);
        return readRecovered(disk);
    }

    private static State readRecovered(CrashSimulator disk) throws IOException {
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            if (!file.root().contains("d")) {
                return null;
            }
            Dataset d = file.root().dataset("d");
            long[] shape = d.shape();
            long[] chunkShape = d.chunkShape();
            Map<List<Long>, List<Byte>> chunks = new HashMap<>();
            d.forEachStoredChunk((scaled, record) -> {
                for (int i = 0; i < scaled.length; i++) {
                    if (scaled[i] * chunkShape[i] >= shape[i]) {
                        return; // written after the state's flush, outside its dataspace
                    }
                }
                List<Long> key = new ArrayList<>();
                for (long s : scaled) {
                    key.add(s);
                }
                List<Byte> bytes = new ArrayList<>();
                for (byte b : d.readChunk(scaled, record)) {
                    bytes.add(b);
                }
                chunks.put(key, bytes);
            });
            return State.of(shape, chunkShape, chunks);
        }
    }

    /** Checks every crash point of a workload's run from the one where create returned. */
    private static int checkEveryPoint(Workload workload, Run<State> run, long seeds)
            throws IOException {
        return checkEveryPoint(workload.name(), run, seeds,
                Hdf5CrashSimulationTest::readRecovered);
    }

    /**
     * Recovers the files a crash leaves at every point from the one where create returned, a
     * killed writer ({@code seeds} 0) or a power failure with each of {@code seeds} seeds, and
     * requires {@code reader} to find the state of the last completed flush or of the one in
     * progress.
     */
    private static <S> int checkEveryPoint(String name, Run<S> run, long seeds,
                                           StateReader<S> reader) throws IOException {
        int checked = 0;
        int events = run.simulator().eventCount();
        for (int point = run.created(); point <= events; point++) {
            Flushed<S> completed = null;
            Flushed<S> inProgress = null;
            for (Flushed<S> flushed : run.flushes()) {
                if (flushed.events() <= point) {
                    completed = flushed;
                } else {
                    inProgress = flushed;
                    break;
                }
            }
            for (long seed = 0; seed < Math.max(1, seeds); seed++) {
                Map<Path, byte[]> files = seeds == 0 ? run.simulator().processCrash(point)
                        : run.simulator().crash(point, seed);
                String where = name + ", " + (seeds == 0 ? "killed writer"
                        : "power failure seed " + seed) + " at event " + point + " of " + events;
                S found;
                try {
                    CrashSimulator disk = new CrashSimulator(files);
                    Hdf5File.recover(FILE, disk);
                    found = reader.read(disk);
                } catch (IOException | RuntimeException e) {
                    throw new AssertionError(where + ": " + e, e);
                }
                boolean asCompleted = completed == null ? found == null
                        : completed.state().equals(found);
                boolean asInProgress = inProgress != null && inProgress.state().equals(found);
                if (!asCompleted && !asInProgress) {
                    fail(where + ": found " + found + ", expected the last completed flush ("
                            + (completed == null ? "none" : completed.state())
                            + ") or the one in progress ("
                            + (inProgress == null ? "none" : inProgress.state()) + ")");
                }
                checked++;
            }
        }
        return checked;
    }

    @Test
    void aKilledWriterLeavesTheLastCompletedFlushOrTheOneInProgressAtEveryPoint()
            throws IOException {
        for (Workload workload : workloads()) {
            for (Durability durability : Durability.values()) {
                Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(durability));
                int checked = checkEveryPoint(workload, run, 0);
                assertTrue(checked > run.flushes().size(), workload.name() + ": " + checked);
            }
        }
    }

    @Test
    void aPowerFailureLeavesTheLastCompletedFlushOrTheOneInProgressAtEveryPoint()
            throws IOException {
        for (Workload workload : workloads()) {
            Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(
                    Durability.EVERY_FLUSH));
            int checked = checkEveryPoint(workload, run, 3);
            assertTrue(checked > run.flushes().size(), workload.name() + ": " + checked);
        }
    }

    /**
     * A restarted job: the writer closes the file halfway through the rounds and goes on
     * through {@link Hdf5File#openForWriting}; killed at every point (each durability, and
     * under a 4 KiB cache) and a power failure at every point with three seeds ({@code
     * EVERY_FLUSH}), from create on, the reopen included: every dataset holds the last
     * completed flush's state or the one in progress.
     */
    @Test
    void aReopenedWriterCrashingLeavesTheLastCompletedFlushOrTheOneInProgress()
            throws IOException {
        for (Workload workload : workloads()) {
            int half = workload.rounds().size() / 2;
            for (Durability durability : Durability.values()) {
                Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(durability), half);
                int checked = checkEveryPoint(workload, run, 0);
                assertTrue(checked > run.flushes().size(), workload.name() + ": " + checked);
            }
            Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(
                    Durability.EVERY_FLUSH), half);
            checkEveryPoint(workload, run, 3);
            // Under a 4 KiB cache blocks read back after the reopen are evicted and reloaded.
            Run<State> small = write(workload, new WriteOptions(Durability.EVERY_FLUSH,
                    4096), half);
            checkEveryPoint(workload, small, 0);
        }
    }

    /**
     * Under a 4 KiB metadata cache, index blocks new since the last flush are written (and
     * evicted) between flushes, while blocks a flushed state reaches wait for the flush.
     */
    @Test
    void blocksWrittenToMakeRoomNeverSpoilAFlushedState() throws IOException {
        for (Workload workload : workloads()) {
            WriteOptions small = new WriteOptions(Durability.EVERY_FLUSH, 4096);
            Run<State> run = write(workload, small);
            checkEveryPoint(workload, run, 0);
            int checked = checkEveryPoint(workload, run, 2);
            assertTrue(checked > run.flushes().size(), workload.name() + ": " + checked);
        }
    }

    /** The text a reader finds: text attributes of / and /g by path@name, string datasets of /. */
    private record Texts(Map<String, String> attributes, Map<String, List<String>> datasets) {
        @Override
        public String toString() {
            return attributes.size() + " text attributes, string datasets " + datasets.keySet();
        }
    }

    private static final int TEXT_ROUNDS = 6;

    /** Text of every length up to past a collection: some share one, some own one. */
    private static String text(int round, int i) {
        String text = "round " + round + " text " + i + " " + "x".repeat((round * 7 + i * 13) % 40);
        return i % 9 == 8 ? text.repeat(5000 / text.length() + 1) : text;
    }

    /**
     * Rounds of 20 text attributes (on / and /g) and a string dataset of 30 strings, each
     * flushed; the writer closes and reopens the file before round {@code reopenBefore}. The
     * 4 KiB collection filled in one round gains strings in the next at its free space.
     */
    private static Run<Texts> writeTexts(WriteOptions options, int reopenBefore)
            throws IOException {
        CrashSimulator simulator = new CrashSimulator();
        List<Flushed<Texts>> flushes = new ArrayList<>();
        Map<String, String> attributes = new TreeMap<>();
        Map<String, List<String>> datasets = new TreeMap<>();
        Hdf5File file = Hdf5File.create(FILE, simulator, options);
        int created;
        try {
            created = simulator.eventCount();
            flushes.add(new Flushed<>(created, created, new Texts(Map.of(), Map.of())));
            for (int r = 0; r < TEXT_ROUNDS; r++) {
                if (r == reopenBefore) {
                    file.close();
                    file = Hdf5File.openForWriting(FILE, simulator, options);
                }
                Group root = file.root();
                Group g = r == 0 ? root.createGroup("g") : root.group("g");
                for (int i = 0; i < 20; i++) {
                    Group holder = i % 2 == 0 ? root : g;
                    holder.setAttribute(Attribute.of("r" + r + "-" + i, text(r, i)));
                    attributes.put(holder.path() + "@r" + r + "-" + i, text(r, i));
                }
                List<String> strings = new ArrayList<>();
                for (int i = 0; i < 30; i++) {
                    strings.add(text(r, 100 + i));
                }
                root.createStringDataset("s" + r, new long[] {strings.size()}, strings);
                datasets.put("s" + r, strings);
                int flushing = simulator.eventCount();
                file.flush();
                flushes.add(new Flushed<>(flushing, simulator.eventCount(),
                        new Texts(Map.copyOf(attributes), Map.copyOf(datasets))));
            }
        } finally {
            file.close();
        }
        return new Run<>(simulator, flushes, created);
    }

    private static Texts readTexts(CrashSimulator disk) throws IOException {
        try (Hdf5File file = Hdf5File.open(FILE, disk)) {
            Group root = file.root();
            Map<String, String> attributes = new TreeMap<>();
            List<Hdf5Object> holders = root.contains("g") ? List.of(root, root.group("g"))
                    : List.of(root);
            for (Hdf5Object holder : holders) {
                for (String name : holder.attributeNames()) {
                    attributes.put(holder.path() + "@" + name, holder.attribute(name).string());
                }
            }
            Map<String, List<String>> datasets = new TreeMap<>();
            for (String name : root.memberNames()) {
                if (!name.equals("g")) {
                    Dataset d = root.dataset(name);
                    datasets.put(name, d.readStrings(new long[] {0}, d.shape()));
                }
            }
            return new Texts(attributes, datasets);
        }
    }

    /**
     * Text attributes and string datasets whose strings share global heap collections, rounds
     * flushed, the file reopened halfway: killed at every point with each durability, a power
     * failure at every point with three seeds ({@code EVERY_FLUSH}), and both under a 4 KiB
     * metadata cache, which writes (and evicts) new collections between flushes. Every text the
     * last completed flush (or the one in progress) had reads back, and nothing else.
     */
    @Test
    void sharedGlobalHeapCollectionsLeaveTheLastCompletedFlushOrTheOneInProgress()
            throws IOException {
        int reopen = TEXT_ROUNDS / 2;
        for (Durability durability : Durability.values()) {
            Run<Texts> run = writeTexts(WriteOptions.DEFAULT.withDurability(durability), reopen);
            int checked = checkEveryPoint("text, " + durability, run, 0,
                    Hdf5CrashSimulationTest::readTexts);
            assertTrue(checked > run.flushes().size(), durability + ": " + checked);
        }
        Run<Texts> run = writeTexts(WriteOptions.DEFAULT.withDurability(
                Durability.EVERY_FLUSH), reopen);
        checkEveryPoint("text, power failure", run, 3, Hdf5CrashSimulationTest::readTexts);
        Run<Texts> small = writeTexts(new WriteOptions(Durability.EVERY_FLUSH, 4096),
                reopen);
        checkEveryPoint("text, 4 KiB cache", small, 0, Hdf5CrashSimulationTest::readTexts);
        checkEveryPoint("text, 4 KiB cache, power failure", small, 2,
                Hdf5CrashSimulationTest::readTexts);
    }

    /**
     * What an SWMR reader holding the previous flush's blocks sees while a flush rewrites
     * blocks in place (docs/hdf5.md, "SWMR writing"): a reader walks down from the superblock
     * and object header, a flush writes children before parents, so the reader holds old
     * versions of the blocks written last and new versions of those written first. For every
     * flush of each SWMR workload (and of the extensible array's, paged fixed array's and
     * B-tree's workloads written SWMR: super blocks, paged blocks, internal nodes) and every
     * cut of its in-place writes, the file with the writes from the cut on put back to their
     * old bytes must read (after recovery clears the flags) as the previous flush's state or
     * the new one: no checksum failure a retry cannot clear, no mix. A B-tree leaf gaining a record in place fails this (the old parent's record
     * count puts its checksum elsewhere).
     */
    @Test
    void aReaderHoldingTheOldBlocksOfAnSwmrFlushSeesTheOldStateOrTheNew() throws IOException {
        Path journal = Hdf5File.journalPath(FILE);
        for (Workload workload : List.of(swmrExtensibleArray(), swmrFixedArray(), swmrBTree(),
                swmr(extensibleArray()), swmr(pagedFixedArray()), swmr(bTree()))) {
            Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(Durability.NONE));
            List<CrashSimulator.Event> events = run.simulator().events();
            int views = 0;
            for (int f = 1; f < run.flushes().size(); f++) {
                Flushed<State> before = run.flushes().get(f - 1);
                Flushed<State> after = run.flushes().get(f);
                int firstInPlace = after.events();
                List<CrashSimulator.Write> inPlace = new ArrayList<>();
                // The flush's writes; an SWMR flush that does not force writes no journal.
                for (int e = after.events() - 1; e >= after.started(); e--) {
                    CrashSimulator.Event event = events.get(e);
                    if (event.path().equals(journal) && event instanceof CrashSimulator.Write) {
                        break; // the journal's commit: the in-place writes follow it
                    }
                    if (event instanceof CrashSimulator.Write write && write.path().equals(FILE)) {
                        inPlace.add(0, write);
                        firstInPlace = e;
                    }
                }
                byte[] oldBytes = run.simulator().processCrash(firstInPlace).get(FILE);
                byte[] newBytes = run.simulator().processCrash(after.events()).get(FILE);
                for (int cut = 0; cut <= inPlace.size(); cut++) {
                    byte[] view = newBytes.clone();
                    for (CrashSimulator.Write write : inPlace.subList(cut, inPlace.size())) {
                        // Not written yet: the old bytes, zeros past the old end of the file
                        // (a block in new space, which the old state does not reach).
                        int at = (int) write.position();
                        int end = at + write.bytes().length;
                        Arrays.fill(view, at, end, (byte) 0);
                        if (at < oldBytes.length) {
                            System.arraycopy(oldBytes, at, view, at,
                                    Math.min(end, oldBytes.length) - at);
                        }
                    }
                    String where = workload.name() + ", flush " + f + ", in-place writes "
                            + inPlace + " new before " + cut;
                    State found;
                    try {
                        found = readBack(Map.of(FILE, view));
                    } catch (IOException | RuntimeException e) {
                        throw new AssertionError(where + ": " + e, e);
                    }
                    assertTrue(found != null && (found.equals(before.state())
                            || found.equals(after.state())), where + ": found " + found
                            + ", expected " + before.state() + " or " + after.state());
                    views++;
                }
            }
            assertTrue(views > 2 * run.flushes().size(), workload.name() + ": " + views);
        }
    }

    /**
     * h5py (libhdf5) reads recovered crash images as Quire does: eight points of each workload,
     * half after a killed writer, half after a power failure; compared element by element.
     * Not the skip list's: h5py refuses it (SkipListChunkIndexContractTest).
     */
    @Test
    @StartsOutsideProgram
    void h5pyReadsRecoveredCrashImagesAsQuireDoes() throws IOException {
        ExternalTools.requireH5py();
        List<String> arguments = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n",
                        "import sys, h5py, numpy",
                        "for path in sys.argv[1:]:",
                        "    with h5py.File(path, 'r') as f:",
                        "        if 'd' not in f:",
                        "            print(path, 'none')",
                        "            continue",
                        "        d = f['d'][...]",
                        "        cells = [','.join(str(int(c)) for c in i) + '=' + str(int(d[i]))",
                        "                 for i in zip(*numpy.nonzero(d))]",
                        "        print(path, ','.join(str(n) for n in d.shape), ' '.join(cells))")));
        List<String> expected = new ArrayList<>();
        for (Workload workload : workloads()) {
            if (workload.spec().quireOnlySkipListIndex()) {
                continue;
            }
            Run<State> run = write(workload, WriteOptions.DEFAULT.withDurability(
                    Durability.EVERY_FLUSH));
            int events = run.simulator().eventCount();
            for (int i = 0; i < 8; i++) {
                int point = run.created() + (events - run.created()) * i / 7;
                CrashSimulator disk = new CrashSimulator(i % 2 == 0
                        ? run.simulator().processCrash(point) : run.simulator().crash(point, i));
                Hdf5File.recover(FILE, disk);
                State state = readRecovered(disk);
                Path image = dir.resolve(workload.name().replace(' ', '-') + "-" + point + ".h5");
                Files.write(image, disk.files().get(FILE));
                arguments.add(image.toString());
                expected.add(image + " " + describe(state, workload.spec().chunkShape()));
            }
        }
        ExternalTools.Result result = ExternalTools.run(arguments, 300);
        org.junit.jupiter.api.Assertions.assertEquals(0, result.exitCode(), result.output());
        org.junit.jupiter.api.Assertions.assertEquals(expected, result.stdout().lines().toList());
    }

    /** The state as the h5py script prints it: shape, then each non-zero element in order. */
    private static String describe(State state, long[] chunkShape) {
        if (state == null) {
            return "none";
        }
        TreeMap<List<Long>, Byte> cells = new TreeMap<>(Hdf5CrashSimulationTest::compare);
        state.chunks().forEach((chunk, bytes) -> {
            for (int i = 0; i < bytes.size(); i++) {
                List<Long> at = new ArrayList<>();
                long rest = i;
                for (int d = chunkShape.length - 1; d >= 0; d--) {
                    at.add(0, chunk.get(d) * chunkShape[d] + rest % chunkShape[d]);
                    rest /= chunkShape[d];
                }
                if (bytes.get(i) != 0) {
                    cells.put(at, bytes.get(i));
                }
            }
        });
        StringBuilder line = new StringBuilder();
        for (int d = 0; d < state.shape().length; d++) {
            line.append(d == 0 ? "" : ",").append(state.shape()[d]);
        }
        line.append(' ');
        List<String> parts = new ArrayList<>();
        cells.forEach((at, value) -> {
            StringBuilder cell = new StringBuilder();
            for (int d = 0; d < at.size(); d++) {
                cell.append(d == 0 ? "" : ",").append(at.get(d));
            }
            parts.add(cell.append('=').append(value).toString());
        });
        return line.append(String.join(" ", parts)).toString();
    }
}
