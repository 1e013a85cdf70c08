package org.quire.benchmarks.swmr;

import org.quire.benchmarks.PageCache;
import org.quire.examples.swmr.SwmrRecord;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * SWMR appends of the record contract's 64-byte records, Quire against libhdf5 1.10.8 (its Java binding) in the
 * same JVM and the same run, for {@code benchmarks/swmr-append.sh}:
 *
 * <pre>
 * java -cp ... org.quire.benchmarks.swmr.SwmrAppendBenchmark DIRECTORY ROUNDS RECORDS_1 RECORDS_64 RECORDS_1024 VISIBLE
 * </pre>
 *
 * Each of ROUNDS rounds runs every library with every chunk index it writes ({@link RecordIndex}; libhdf5 has no
 * skip list), the libraries alternating which goes first:
 *
 * <ul>
 *   <li><b>append</b>: at batch 1, 64 and 1,024, a new file in SWMR writing mode gets RECORDS_B records (a
 *       multiple of B), B per append: extend, write, flush. Timed: the append calls alone (encoding the records,
 *       which stamps {@code t_ns}, is not), and the thread's CPU time in the append calls ({@code cpu_seconds}:
 *       its CPU time over the loop less that of the same loop without the appends); bytes written over the same span from {@code /proc/self/io}'s
 *       {@code wchar} (every library) and through Quire's storage seam (file and flush journal), close not
 *       included. The file is synced (untimed) before each run.</li>
 *   <li><b>lookup</b>, on the closed file of batch 1,024: {@value #WARM_LOOKUPS} random single-record reads with
 *       the file open ({@code warm}, after as many untimed ones), and {@value #REOPEN_LOOKUPS} of open, read one
 *       random record, close ({@code reopen}); each timed alone, every record checked.</li>
 *   <li><b>refresh</b>: the CPU time of a reader's refresh in the benchmark's thread, with nothing new and
 *       right after an append of one record, and of reading that record ({@link #refreshCost}).</li>
 *   <li><b>visible</b>: the writer appends VISIBLE records one per millisecond (batch 1) while two {@link
 *       VisibilityReader} processes of the same library poll the file; each reports the p50, p99 and maximum of
 *       its observations' latency (observed minus the newest record's {@code t_ns}).</li>
 * </ul>
 *
 * One line per measurement:
 *
 * <pre>
 * append round=0 library=quire index=ea batch=1 records=20000 seconds=0.123 cpu_seconds=0.110 wchar=1234 seam=1234
 * lookup round=0 library=quire index=ea mode=warm p50_ns=800 p99_ns=2000
 * refresh round=0 library=quire index=ea unchanged_ns=1500 changed_ns=19000 read_newest_ns=7600
 * visible round=0 library=quire index=ea batch=1 reader=0 samples=1600 p50_ns=21000 p99_ns=46000 max_ns=90000 bad=0
 * </pre>
 */
public final class SwmrAppendBenchmark {

    static final int[] BATCHES = {1, 64, 1024};
    private static final long WARM_UP_BATCHES = 2048;
    private static final int WARM_LOOKUPS = 20_000;
    private static final int REOPEN_LOOKUPS = 500;
    private static final int READERS = 2;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final int UNCHANGED_REFRESHES = 20_000;
    private static final int CHANGED_REFRESHES = 2_000;
    private static final long VISIBLE_PERIOD_NANOS = 1_000_000;
    private static final List<SwmrLibrary> LIBRARIES = List.of(SwmrLibrary.named("quire"),
            SwmrLibrary.named("libhdf5"));

    private final Path directory;
    private final long[] records;
    private final long visibleRecords;

    private SwmrAppendBenchmark(Path directory, long[] records, long visibleRecords) {
        for (int i = 0; i < BATCHES.length; i++) {
            if (records[i] <= 0 || records[i] % BATCHES[i] != 0) {
                throw new IllegalArgumentException("records at batch " + BATCHES[i] + " must be a positive multiple"
                        + " of it: " + records[i]);
            }
        }
        this.directory = directory;
        this.records = records;
        this.visibleRecords = visibleRecords;
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 6) {
            throw new IllegalArgumentException(
                    "usage: SwmrAppendBenchmark DIRECTORY ROUNDS RECORDS_1 RECORDS_64 RECORDS_1024 VISIBLE");
        }
        SwmrAppendBenchmark benchmark = new SwmrAppendBenchmark(Path.of(args[0]), new long[] {
                Long.parseLong(args[2]), Long.parseLong(args[3]), Long.parseLong(args[4])}, Long.parseLong(args[5]));
        int rounds = Integer.parseInt(args[1]);
        benchmark.warmUp();
        for (int round = 0; round < rounds; round++) {
            List<SwmrLibrary> order = round % 2 == 0 ? LIBRARIES : List.of(LIBRARIES.get(1), LIBRARIES.get(0));
            for (int b = 0; b < BATCHES.length; b++) {
                for (SwmrLibrary library : order) {
                    for (RecordIndex index : RecordIndex.values()) {
                        if (library.supports(index)) {
                            benchmark.append(round, library, index, BATCHES[b], benchmark.records[b]);
                        }
                    }
                }
            }
            for (SwmrLibrary library : order) {
                for (RecordIndex index : RecordIndex.values()) {
                    if (library.supports(index)) {
                        benchmark.lookups(round, library, index, benchmark.records[BATCHES.length - 1]);
                        benchmark.refreshCost(round, library, index);
                        benchmark.visible(round, library, index);
                    }
                }
            }
        }
    }

    /**
     * Untimed: every library and index appends up to {@value #WARM_UP_BATCHES} batches of each size and is looked
     * up, so that the JIT has compiled their paths.
     */
    private void warmUp() throws IOException {
        for (SwmrLibrary library : LIBRARIES) {
            for (RecordIndex index : RecordIndex.values()) {
                if (library.supports(index)) {
                    for (int b = 0; b < BATCHES.length; b++) {
                        int batch = BATCHES[b];
                        long count = Math.min(records[b], WARM_UP_BATCHES * batch);
                        Path file = appendFile(library, index);
                        encodeCpuNanos(batch, count);
                        try (SwmrLibrary.Writer writer = library.createSwmr(file, index)) {
                            appendTimed(writer, batch, count);
                        }
                        timedLookups(library, index, file, count, WARM_LOOKUPS / 10, new SplittableRandom(1));
                    }
                    Files.delete(appendFile(library, index));
                }
            }
        }
    }

    private Path appendFile(SwmrLibrary library, RecordIndex index) {
        return directory.resolve("append-" + library.name() + "-" + index.label + ".h5");
    }

    private void append(int round, SwmrLibrary library, RecordIndex index, int batch, long count) throws IOException {
        Path file = appendFile(library, index);
        Files.deleteIfExists(file);
        PageCache.flush();
        long encodeCpu = encodeCpuNanos(batch, count);
        Timed timed;
        long wchar;
        long seam;
        try (SwmrLibrary.Writer writer = library.createSwmr(file, index)) {
            long wcharBefore = ProcessIo.writtenChars();
            long seamBefore = writer.storageBytes();
            timed = appendTimed(writer, batch, count);
            wchar = ProcessIo.writtenChars() - wcharBefore;
            seam = seamBefore < 0 ? -1 : writer.storageBytes() - seamBefore;
        }
        System.out.printf("append round=%d library=%s index=%s batch=%d records=%d seconds=%.6f cpu_seconds=%.6f"
                        + " wchar=%d seam=%d%n", round, library.name(), index.label, batch, count, timed.nanos / 1e9,
                Math.max(0, timed.cpuNanos - encodeCpu) / 1e9, wchar, seam);
        if (batch != BATCHES[BATCHES.length - 1]) {
            Files.delete(file);
        }
    }

    /**
     * Wall time of the append calls alone, and CPU time of this thread over the whole loop (the encoding too: one
     * CPU clock reading per append would cost as much as a small append).
     */
    private record Timed(long nanos, long cpuNanos) {
    }

    /** Appends {@code count} records {@code batch} at a time. */
    private static Timed appendTimed(SwmrLibrary.Writer writer, int batch, long count) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(batch * SwmrRecord.SIZE);
        long nanos = 0;
        long cpuStart = CPU.getCurrentThreadCpuTime();
        for (long next = 0; next < count; next += batch) {
            encode(buffer, next, batch);
            long start = System.nanoTime();
            writer.append(buffer, batch);
            nanos += System.nanoTime() - start;
        }
        return new Timed(nanos, CPU.getCurrentThreadCpuTime() - cpuStart);
    }

    private static void encode(ByteBuffer buffer, long first, int batch) {
        buffer.clear();
        for (int i = 0; i < batch; i++) {
            SwmrRecord.encode(first + i, System.nanoTime(), buffer);
        }
    }

    /**
     * CPU time of the loop of {@link #appendTimed} without the appends (encoding and timing the records), which
     * {@code cpu_seconds} leaves out: the libraries' own CPU time, a measure much less disturbed by other load
     * on the machine than wall time.
     */
    private static long encodeCpuNanos(int batch, long count) {
        ByteBuffer buffer = ByteBuffer.allocate(batch * SwmrRecord.SIZE);
        long cpuStart = CPU.getCurrentThreadCpuTime();
        for (long next = 0; next < count; next += batch) {
            encode(buffer, next, batch);
            System.nanoTime(); // the two clock readings around each append
            System.nanoTime();
        }
        return CPU.getCurrentThreadCpuTime() - cpuStart;
    }

    private void lookups(int round, SwmrLibrary library, RecordIndex index, long count) throws IOException {
        Path file = appendFile(library, index);
        SplittableRandom random = new SplittableRandom(round);
        timedLookups(library, index, file, count, WARM_LOOKUPS, random);
        long[] warm = timedLookups(library, index, file, count, WARM_LOOKUPS, random);
        report(round, library, index, "warm", warm);
        ByteBuffer record = ByteBuffer.allocate(SwmrRecord.SIZE);
        long[] reopen = new long[REOPEN_LOOKUPS];
        for (int i = 0; i < reopen.length; i++) {
            long seq = random.nextLong(count);
            long start = System.nanoTime();
            try (SwmrLibrary.Reader reader = library.open(file, index)) {
                reader.read(seq, 1, record);
            }
            reopen[i] = System.nanoTime() - start;
            check(library, file, record, seq);
        }
        report(round, library, index, "reopen", reopen);
        Files.delete(file);
    }

    /** {@code lookups} random single-record reads with {@code file} open, each timed; every record checked. */
    private static long[] timedLookups(SwmrLibrary library, RecordIndex index, Path file, long count, int lookups,
                                       SplittableRandom random) throws IOException {
        long[] nanos = new long[lookups];
        ByteBuffer record = ByteBuffer.allocate(SwmrRecord.SIZE);
        try (SwmrLibrary.Reader reader = library.open(file, index)) {
            if (reader.refresh() != count) {
                throw new IOException(library.name() + " reads " + reader.refresh() + " records in " + file
                        + "; " + count + " were appended");
            }
            for (int i = 0; i < lookups; i++) {
                long seq = random.nextLong(count);
                long start = System.nanoTime();
                reader.read(seq, 1, record);
                nanos[i] = System.nanoTime() - start;
                check(library, file, record, seq);
            }
        }
        return nanos;
    }

    private static void check(SwmrLibrary library, Path file, ByteBuffer record, long seq) throws IOException {
        SwmrRecord.Verdict verdict = SwmrRecord.verify(record.position(0), seq);
        if (verdict != SwmrRecord.Verdict.OK) {
            throw new IOException(library.name() + " read record " + seq + " of " + file + " as " + verdict);
        }
    }

    private static void report(int round, SwmrLibrary library, RecordIndex index, String mode, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("lookup round=%d library=%s index=%s mode=%s p50_ns=%d p99_ns=%d%n", round, library.name(),
                index.label, mode, VisibilityReader.percentile(sorted, 0.50),
                VisibilityReader.percentile(sorted, 0.99));
    }

    /**
     * CPU time of an SWMR reader's {@code refresh} in this thread, beside the writer: with nothing committed
     * ({@value #UNCHANGED_REFRESHES} refreshes of a file holding {@value #CHANGED_REFRESHES} records), and right
     * after the writer appended one record ({@value #CHANGED_REFRESHES} times), then reading that record. The
     * cost of one reading of the thread's CPU clock (about what an interval between two readings holds of them)
     * is measured and taken off each.
     */
    private void refreshCost(int round, SwmrLibrary library, RecordIndex index) throws IOException {
        Path file = directory.resolve("refresh-" + library.name() + "-" + index.label + ".h5");
        ByteBuffer record = ByteBuffer.allocate(SwmrRecord.SIZE);
        long clockStart = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < UNCHANGED_REFRESHES; i++) {
            CPU.getCurrentThreadCpuTime();
        }
        long clock = (CPU.getCurrentThreadCpuTime() - clockStart) / UNCHANGED_REFRESHES;
        long changed = 0;
        long read = 0;
        long unchanged;
        try (SwmrLibrary.Writer writer = library.createSwmr(file, index);
             SwmrLibrary.Reader reader = library.openSwmr(file, index)) {
            for (long seq = 0; seq < CHANGED_REFRESHES; seq++) {
                encode(record, seq, 1);
                writer.append(record, 1);
                long start = CPU.getCurrentThreadCpuTime();
                long extent = reader.refresh();
                long refreshed = CPU.getCurrentThreadCpuTime();
                reader.read(extent - 1, 1, record);
                long done = CPU.getCurrentThreadCpuTime();
                check(library, file, record, seq);
                changed += refreshed - start;
                read += done - refreshed;
            }
            long start = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < UNCHANGED_REFRESHES; i++) {
                reader.refresh();
            }
            unchanged = (CPU.getCurrentThreadCpuTime() - start) / UNCHANGED_REFRESHES;
        }
        System.out.printf("refresh round=%d library=%s index=%s unchanged_ns=%d changed_ns=%d read_newest_ns=%d%n",
                round, library.name(), index.label, unchanged, changed / CHANGED_REFRESHES - clock,
                read / CHANGED_REFRESHES - clock);
        Files.delete(file);
    }

    /**
     * The writer appends {@link #visibleRecords} records, one per millisecond, while {@value #READERS} reader
     * processes follow; each reader's line is reported.
     */
    private void visible(int round, SwmrLibrary library, RecordIndex index) throws IOException, InterruptedException {
        Path file = directory.resolve("visible-" + library.name() + "-" + index.label + ".h5");
        List<Process> readers = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try (SwmrLibrary.Writer writer = library.createSwmr(file, index)) {
            for (int r = 0; r < READERS; r++) {
                Process reader = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), VisibilityReader.class.getName(),
                        library.name(), index.label, file.toString(), Long.toString(visibleRecords))
                        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
                readers.add(reader);
                outputs.add(new BufferedReader(new InputStreamReader(reader.getInputStream(),
                        StandardCharsets.UTF_8)));
            }
            for (BufferedReader output : outputs) {
                String line = output.readLine();
                if (!"ready".equals(line)) {
                    throw new IOException("a " + library.name() + " reader of " + file + " said " + line);
                }
            }
            ByteBuffer buffer = ByteBuffer.allocate(SwmrRecord.SIZE);
            long next = System.nanoTime();
            for (long seq = 0; seq < visibleRecords; seq++) {
                for (long wait = next - System.nanoTime(); wait > 0; wait = next - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                buffer.clear();
                SwmrRecord.encode(seq, System.nanoTime(), buffer);
                writer.append(buffer, 1);
                next += VISIBLE_PERIOD_NANOS;
            }
            for (int r = 0; r < READERS; r++) {
                String line = outputs.get(r).readLine();
                int status = readers.get(r).waitFor();
                if (line == null || !line.startsWith("visible ") || status != 0) {
                    throw new IOException("a " + library.name() + " reader of " + file + " exited " + status
                            + " saying " + line);
                }
                System.out.printf("visible round=%d library=%s index=%s batch=1 reader=%d %s%n", round,
                        library.name(), index.label, r, line.substring("visible ".length()));
            }
        } finally {
            for (Process reader : readers) {
                reader.destroyForcibly();
            }
        }
        Files.delete(file);
    }
}
