package org.quire.examples.versions;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.opentest4j.TestAbortedException;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Datatype;
import org.quire.format.hdf5.ExternalTools;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.QuireCommand;

/**
 * Kills a real {@link VersionChurnWriter} process with SIGKILL at seeded random moments, round
 * after round on the same file, and checks what each kill leaves (issue 11; docs/versions.md,
 * "Killed processes"). Each round:
 * <ol>
 *   <li>starts the writer, which continues the file after its current version, and kills it by
 *       its pid a random delay after a {@link Moment} its log shows (a seeded choice of three:
 *       its first returned step, the start of a delete, the end of a delete);</li>
 *   <li>recovers the file as after any crash ({@link Hdf5File#recover});</li>
 *   <li>expects exactly the versions the log says: those of the last round's check, plus every
 *       commit and minus every delete the log says returned; a step logged as begun and not
 *       returned (the kill landed inside it) may be there whole or not at all: its version
 *       present or not, all of its deleted versions gone or all there;</li>
 *   <li>checks that the file holds exactly those versions (and no other group, committed or
 *       not, under {@code /_version_data/versions}), each with its parent (the next older
 *       version there), its datasets with {@link VersionPlan}'s shapes and values exactly, the
 *       newest as {@code current_version}, and that {@link VersionedFile#verify()} passes;</li>
 *   <li>every {@code referenceEvery}-th round, versioned-hdf5 1.7.0 and plain h5py read every
 *       version too ({@code versioned_interop.py read}), values checked.</li>
 * </ol>
 * The first failure is an {@link AssertionError} naming the seed and the round.
 */
final class VersionKillRounds {

    /** What a round waits for in the writer's log before it waits its random delay and kills. */
    enum Moment {
        /** any step returned: the kill lands anywhere */
        STEP_DONE("the first step returned", 600),
        /**
         * a delete began: the kill lands inside it, or in the commits after it (the delay's
         * range is the last delete's duration seen, so kills spread over its three flushes on a
         * fast machine as on a loaded one)
         */
        DELETE_BEGUN("a delete began", 0),
        /** a delete returned: deletes complete (else a cold writer's first delete rarely would) */
        DELETE_DONE("a delete returned", 300);

        final String what;
        final long maxDelayMillis;

        Moment(String what, long maxDelayMillis) {
            this.what = what;
            this.maxDelayMillis = maxDelayMillis;
        }

        long maxDelayMillis(long lastDeleteMillis) {
            return this == DELETE_BEGUN ? lastDeleteMillis : maxDelayMillis;
        }

        boolean reached(List<VersionLog.Entry> entries, int before) {
            for (VersionLog.Entry entry : entries.subList(before, entries.size())) {
                boolean delete = entry.kind() == VersionLog.Kind.DELETE;
                if (this == STEP_DONE ? entry.done() : delete && entry.done() == (this == DELETE_DONE)) {
                    return true;
                }
            }
            return false;
        }
    }

    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String FIRST_VERSION = "__first_version__";

    private final Path file;
    private final Path log;
    private final long seed;
    private final Random random;
    private final int referenceEvery;
    /** The file starts as versioned-hdf5 writes it with h5py's defaults (superblock 0). */
    private final boolean defaultFormat;
    private final List<String> javaCommand;
    /** The versions the last check found (numbers). */
    private TreeSet<Long> versions = new TreeSet<>();
    /** How long the last delete the rounds saw begin and end took (ms; a guess before). */
    private long lastDeleteMillis = 150;

    /** What the rounds saw, for the summary line. */
    static final class Totals {
        int kills;
        int insideCommit;
        int insideDelete;
        int commitFoundDone;
        int deleteFoundDone;
        int commits;
        int deletes;
        int referenceChecks;
        long versionsChecked;
        int mostVersions;

        String line(long seed, double seconds) {
            return String.format(Locale.ROOT, "version-kill: %d kills (seed %d), %d inside a "
                            + "commit (%d of them found committed), %d inside a delete (%d found "
                            + "done); %d commits and %d deletes returned; every kill recovered "
                            + "to exactly the logged versions, %d version reads checked by "
                            + "Quire (at most %d versions at once), %d files read by "
                            + "versioned-hdf5 1.7.0 and h5py; %.1f s",
                    kills, seed, insideCommit, commitFoundDone, insideDelete, deleteFoundDone,
                    commits, deletes, versionsChecked, mostVersions, referenceChecks, seconds);
        }
    }

    /**
     * Rounds on {@code dir/churn.h5}: Quire's own file, or with {@code defaultFormat} one
     * versioned-hdf5 created in libhdf5's default format (superblock 0, old-style groups),
     * where each kill must leave Quire's writing guard, which h5py refuses, until recovery
     * (its deletions empty symbol table nodes of the versions group and rewrite views in
     * old-style groups of one dataset: docs/versions.md, "Files in libhdf5's default format").
     */
    VersionKillRounds(Path dir, long seed, int referenceEvery, boolean defaultFormat) {
        this.file = dir.resolve("churn.h5");
        this.defaultFormat = defaultFormat;
        this.log = dir.resolve("churn.log");
        this.seed = seed;
        this.random = new Random(seed);
        this.referenceEvery = referenceEvery;
        // C1 only and one GC thread: each round's writer is a new JVM, killed within seconds.
        this.javaCommand = List.of(ProcessHandle.current().info().command().orElse("java"),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "--add-exports", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"));
    }

    Totals run(int kills, PrintStream out) throws Exception {
        out.println("version-kill: seed " + seed + ", " + kills + " kills on " + file);
        long started = System.nanoTime();
        if (defaultFormat) {
            referenceClient("create-default", "0");
            checkSuperblock0(false, "versioned-hdf5's new file");
        }
        Totals totals = new Totals();
        for (int round = 1; round <= kills; round++) {
            Moment moment = Moment.values()[random.nextInt(Moment.values().length)];
            long delay = (long) (random.nextDouble() * moment.maxDelayMillis(lastDeleteMillis));
            String where = "seed " + seed + ", round " + round + " (kill " + delay + " ms after "
                    + moment.what + ")";
            try {
                round(round == kills || round % referenceEvery == 0, delay, moment, where,
                        totals, out);
            } catch (TestAbortedException missingOracle) {
                throw missingOracle;
            } catch (AssertionError e) {
                throw e.getMessage() != null && e.getMessage().startsWith(where) ? e
                        : new AssertionError(where + ": " + e.getMessage(), e);
            } catch (Exception e) {
                throw new AssertionError(where + ": " + e, e);
            }
        }
        out.println(totals.line(seed, (System.nanoTime() - started) / 1e9));
        return totals;
    }

    /**
     * One round: starts the writer, kills it, recovers the file and checks it against the log;
     * {@code reference}: versioned-hdf5 and h5py read it too.
     */
    private void round(boolean reference, long delay, Moment moment, String where,
                       Totals totals, PrintStream out) throws Exception {
        VersionLog.dropCutLine(log);
        int before = VersionLog.completeLines(log).size();
        long writerStarted = System.nanoTime();
        killWriter(before, moment, delay, where);
        long checksStarted = System.nanoTime();
        List<VersionLog.Entry> entries = VersionLog.completeLines(log);
        List<VersionLog.Entry> steps = entries.subList(before, entries.size());
        VersionLog.Entry inFlight = steps.get(steps.size() - 1).done() ? null
                : steps.get(steps.size() - 1);
        TreeSet<Long> logged = new TreeSet<>(versions);
        for (VersionLog.Entry step : steps) {
            if (step.done()) {
                Set<Long> names = numbers(step.names());
                if (step.kind() == VersionLog.Kind.COMMIT) {
                    logged.addAll(names);
                    totals.commits++;
                } else {
                    logged.removeAll(names);
                    totals.deletes++;
                }
            }
        }
        if (defaultFormat) {
            checkSuperblock0(true, where);
        }
        Hdf5File.recover(file);
        if (defaultFormat) {
            checkSuperblock0(false, where);
        }
        TreeSet<Long> found = checkWithQuire(where, totals);
        String outcome = compareWithLog(found, logged, inFlight, where, totals);
        versions = found;
        if (reference) {
            checkWithReferenceClient(where);
            totals.referenceChecks++;
        }
        totals.kills++;
        totals.mostVersions = Math.max(totals.mostVersions, found.size());
        out.println(where + ": " + steps.size() + " log lines, " + outcome + ", "
                + found.size() + " versions up to " + (found.isEmpty() ? "none"
                : VersionPlan.name(found.last())) + " ok" + (reference
                ? " (also versioned-hdf5 and h5py)" : "") + "; writer "
                + (checksStarted - writerStarted) / 1_000_000 + " ms, checks "
                + (System.nanoTime() - checksStarted) / 1_000_000 + " ms");
    }

    /**
     * Compares the versions found with those the log says: exactly {@code logged}, or, with a
     * step in flight, {@code logged} with that step whole or not at all. Returns what it saw.
     */
    private static String compareWithLog(TreeSet<Long> found, TreeSet<Long> logged,
                                         VersionLog.Entry inFlight, String where,
                                         Totals totals) {
        if (inFlight == null) {
            expect(found.equals(logged), where, "found versions " + found + ", the log says "
                    + logged);
            return "no step in flight";
        }
        Set<Long> names = numbers(inFlight.names());
        TreeSet<Long> whole = new TreeSet<>(logged);
        if (inFlight.kind() == VersionLog.Kind.COMMIT) {
            whole.addAll(names);
            totals.insideCommit++;
        } else {
            expect(logged.containsAll(names), where, "the delete in flight names "
                    + names + ", not all among the logged versions " + logged);
            whole.removeAll(names);
            totals.insideDelete++;
        }
        expect(found.equals(logged) || found.equals(whole), where, "killed inside "
                + inFlight.line() + ": found versions " + found + "; expected all of "
                + "that step or none of it: " + logged + " or " + whole);
        boolean done = found.equals(whole);
        if (inFlight.kind() == VersionLog.Kind.COMMIT) {
            totals.commitFoundDone += done ? 1 : 0;
        } else {
            totals.deleteFoundDone += done ? 1 : 0;
        }
        return "killed inside " + inFlight.kind().name().toLowerCase(Locale.ROOT)
                + " of " + inFlight.names().size() + ", found " + (done ? "done" : "undone");
    }

    /**
     * Starts the writer and kills it by its pid {@code delay} ms after its log shows
     * {@code moment} (counting from line {@code before}); returns once it is dead.
     */
    private void killWriter(int before, Moment moment, long delay, String where)
            throws Exception {
        List<String> command = new ArrayList<>(javaCommand);
        command.addAll(List.of(VersionChurnWriter.class.getName(), file.toString(),
                log.toString(), Long.toString(LIMIT.toSeconds())));
        QuireCommand.Running writer = QuireCommand.startProcess(new ProcessBuilder(command));
        try {
            long deadline = System.nanoTime() + LIMIT.toNanos();
            int read = before;
            long deleteBegan = -1;
            while (true) {
                List<VersionLog.Entry> entries = VersionLog.completeLines(log);
                long now = System.nanoTime();
                for (VersionLog.Entry entry : entries.subList(read, entries.size())) {
                    if (entry.kind() == VersionLog.Kind.DELETE && !entry.done()) {
                        deleteBegan = now;
                    } else if (entry.kind() == VersionLog.Kind.DELETE && deleteBegan >= 0) {
                        lastDeleteMillis = Math.max(1, (now - deleteBegan) / 1_000_000);
                    }
                }
                read = entries.size();
                if (moment.reached(entries, before)) {
                    break;
                }
                if (!writer.process().isAlive() || now > deadline) {
                    writer.process().destroyForcibly();
                    throw new AssertionError(where + ": the writer never reached "
                            + moment.what + ": " + writer.await(LIMIT));
                }
                Thread.sleep(1);
            }
            Thread.sleep(delay);
        } finally {
            // SIGKILL to the writer's pid (also when this thread is interrupted: no writer survives).
            writer.process().toHandle().destroyForcibly();
        }
        QuireCommand.Result killed = writer.await(LIMIT);
        expect(killed.exitCode() == 128 + 9, where, "the writer was not killed by SIGKILL: "
                + killed);
    }

    /**
     * Opens the recovered file with Quire: every version with its parent, datasets, shapes and
     * values, the newest current, no other group under versions, verify() passing. Returns the
     * versions found.
     */
    private TreeSet<Long> checkWithQuire(String where, Totals totals) throws IOException {
        TreeSet<Long> found = new TreeSet<>();
        try (VersionedFile vf = VersionedFile.open(file)) {
            List<VersionInfo> infos = vf.versions();
            for (VersionInfo info : infos) {
                long k = VersionPlan.number(info.name());
                expect(k > 0 && found.add(k), where, "unexpected version " + info.name());
            }
            String newest = found.isEmpty() ? FIRST_VERSION : VersionPlan.name(found.last());
            expect(vf.currentVersion().equals(newest), where, "current_version is "
                    + vf.currentVersion() + ", the newest committed version is " + newest);
            for (VersionInfo info : infos) {
                long k = VersionPlan.number(info.name());
                Long older = found.lower(k);
                String parent = older == null ? FIRST_VERSION : VersionPlan.name(older);
                expect(info.parent().equals(parent), where, info.name() + "'s parent is "
                        + info.parent() + ", expected " + parent);
                checkDatasets(vf, k, where);
                totals.versionsChecked++;
            }
            vf.verify();
        }
        try (Hdf5File plain = Hdf5File.open(file)) {
            Set<String> groups = new HashSet<>(plain.root().group("_version_data")
                    .group("versions").memberNames());
            Set<String> expected = found.stream().map(VersionPlan::name)
                    .collect(Collectors.toCollection(HashSet::new));
            expected.add(FIRST_VERSION);
            expect(groups.equals(expected), where, "/_version_data/versions holds " + groups
                    + ", the committed versions are " + expected);
        }
        return found;
    }

    private static void checkDatasets(VersionedFile vf, long k, String where) throws IOException {
        Set<String> expectedNames = new HashSet<>();
        for (VersionPlan.Series series : VersionPlan.SERIES) {
            if (!VersionPlan.exists(series, k)) {
                continue;
            }
            expectedNames.add(series.path());
            Dataset dataset = vf.dataset(VersionPlan.name(k), series.path());
            long[] shape = VersionPlan.shape(series, k);
            expect(Arrays.equals(dataset.shape(), shape), where, VersionPlan.name(k) + "/"
                    + series.path() + " has shape " + Arrays.toString(dataset.shape())
                    + ", expected " + Arrays.toString(shape));
            double[] values = series.type() == Datatype.FLOAT64
                    ? dataset.readDoubles(new long[shape.length], shape)
                    : Arrays.stream(dataset.readLongs(new long[shape.length], shape))
                            .asDoubleStream().toArray();
            compare(VersionPlan.expectedAll(series, k), values, where, "Quire reads "
                    + VersionPlan.name(k) + "/" + series.path());
        }
        Set<String> names = new HashSet<>(vf.datasetNames(VersionPlan.name(k)));
        expect(names.equals(expectedNames), where, VersionPlan.name(k) + " has datasets "
                + names + ", expected " + expectedNames);
    }

    /**
     * versioned-hdf5 1.7.0 and plain h5py read every version ({@code versioned_interop.py
     * read}): the current version, every version with its parent, every dataset's type, shape
     * and values through both.
     */
    private void checkWithReferenceClient(String where) {
        ExternalTools.Result result = referenceClient("read");
        expect(result.exitCode() == 0, where, "versioned_interop.py read: " + result.output());
        String newest = versions.isEmpty() ? FIRST_VERSION : VersionPlan.name(versions.last());
        Set<Long> listed = new TreeSet<>();
        int datasets = 0;
        int expectedDatasets = 0;
        for (long k : versions) {
            for (VersionPlan.Series series : VersionPlan.SERIES) {
                expectedDatasets += VersionPlan.exists(series, k) ? 2 : 0;
            }
        }
        for (String line : result.stdout().lines().toList()) {
            String[] fields = line.split("\\|", -1);
            switch (fields[0]) {
                case "C" -> expect(fields[1].equals(newest), where, "versioned-hdf5's current "
                        + "version is " + fields[1] + ", expected " + newest);
                case "V" -> {
                    long k = VersionPlan.number(fields[1]);
                    Long older = versions.lower(k);
                    String parent = older == null ? FIRST_VERSION : VersionPlan.name(older);
                    expect(versions.contains(k) && listed.add(k) && fields[2].equals(parent),
                            where, "versioned-hdf5 lists " + line + "; expected the versions "
                                    + versions + " with their parents");
                }
                case "D", "H" -> {
                    checkClientDataset(fields, where, line);
                    datasets++;
                }
                default -> {
                    // R lines: raw_data sizes, not part of what a version holds
                }
            }
        }
        expect(listed.equals(versions) && datasets == expectedDatasets, where,
                "versioned-hdf5 listed versions " + listed + " and " + datasets
                        + " dataset reads, expected " + versions + " and " + expectedDatasets);
    }

    /** Runs {@code versioned_interop.py COMMAND FILE ARGS...} (aborts where it is missing). */
    private ExternalTools.Result referenceClient(String command, String... args) {
        Path script = QuireCommand.repositoryRoot().resolve(
                "format/src/test/resources/hdf5/versioned_interop.py");
        List<String> line = new ArrayList<>(List.of(ExternalTools.PYTHON.toString(),
                script.toString(), command, file.toString()));
        line.addAll(List.of(args));
        ExternalTools.Result result = ExternalTools.run(line, (int) LIMIT.toSeconds());
        if (result.output().contains("REQUIRED ORACLE MISSING")) {
            ExternalTools.missing("shared/tools/versioned-hdf5-1.7.0 (the reference client)");
        }
        return result;
    }

    /**
     * The file's superblock is version 0 (libhdf5's default format); {@code guarded}: its end
     * of file address is Quire's writing guard (2^63-1) and h5py refuses the file, else it is
     * the file's size and the flags are 0 (superblock 0: bytes 8, 20-23, 40-47).
     */
    private void checkSuperblock0(boolean guarded, String where) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel channel = FileChannel.open(file)) {
            channel.read(head, 0);
        }
        long endOfFile = head.getLong(40);
        expect(head.get(8) == 0, where, "superblock version " + head.get(8) + ", expected 0");
        if (guarded) {
            expect(endOfFile == Long.MAX_VALUE, where, "killed writer: end of file address "
                    + endOfFile + ", expected Quire's writing guard 2^63-1");
            ExternalTools.Result refused = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                    "-c", "import h5py, sys\nh5py.File(sys.argv[1], 'r')", file.toString()), 60);
            expect(refused.exitCode() != 0 && refused.output().contains("truncated file"), where,
                    "h5py opened the file a killed writer left: " + refused.output());
        } else {
            expect(endOfFile == Files.size(file) && head.getInt(20) == 0, where, "end of file "
                    + "address " + endOfFile + " for a file of " + Files.size(file)
                    + " bytes, flags " + head.getInt(20) + "; expected equal and 0");
        }
    }

    /** One D (versioned-hdf5) or H (plain h5py) line: version|dataset|dtype|shape|values. */
    private void checkClientDataset(String[] fields, String where, String line) {
        String reader = fields[0].equals("D") ? "versioned-hdf5" : "h5py";
        long k = VersionPlan.number(fields[1]);
        VersionPlan.Series series = VersionPlan.SERIES.stream()
                .filter(s -> s.path().equals(fields[2])).findFirst().orElse(null);
        expect(versions.contains(k) && series != null && VersionPlan.exists(series, k), where,
                reader + " reads a dataset no version has: " + fields[1] + "/" + fields[2]);
        String dtype = series.type() == Datatype.FLOAT64 ? "<f8" : "<i8";
        String shape = Arrays.stream(VersionPlan.shape(series, k)).mapToObj(Long::toString)
                .collect(Collectors.joining(","));
        expect(fields[3].equals(dtype) && fields[4].equals(shape), where, reader + " reads "
                + fields[1] + "/" + fields[2] + " as " + fields[3] + " of shape (" + fields[4]
                + "), expected " + dtype + " (" + shape + ")");
        double[] values = Arrays.stream(fields[5].split(",")).mapToDouble(Double::parseDouble)
                .toArray();
        compare(VersionPlan.expectedAll(series, k), values, where, reader + " reads "
                + fields[1] + "/" + fields[2]);
    }

    private static void compare(double[] expected, double[] found, String where, String what) {
        expect(expected.length == found.length, where, what + ": " + found.length
                + " elements, expected " + expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (Double.compare(expected[i], found[i]) != 0) {
                throw new AssertionError(where + ": " + what + ": element " + i + " is "
                        + found[i] + ", expected " + expected[i]);
            }
        }
    }

    private static Set<Long> numbers(List<String> names) {
        return names.stream().map(VersionPlan::number).collect(Collectors.toSet());
    }

    private static void expect(boolean holds, String where, String what) {
        if (!holds) {
            throw new AssertionError(where + ": " + what);
        }
    }
}
