package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.FormatException;
import org.quire.format.storage.CrashSimulator;

/**
 * The recovery journal's promises (docs/sionlib.md section 5) checked at every crash point of
 * parallel writes: ranks (threads) write a SION file through one {@link CrashSimulator}, with
 * several {@link SionParallelWriter#flush()}es, and close it. Then, for every prefix of the
 * recorded operations, the files a killed job would leave and those a power failure could leave
 * (a few seeds each) are recovered in both modes and read:
 * <ul>
 *   <li>Recovery succeeds, or fails with a {@link FormatException} (never another exception)
 *       and only when no flush had completed.</li>
 *   <li>Every task's stream is a prefix of what its rank wrote, at least as long as its last
 *       flush that returned, at most what it had started to write. With
 *       {@link SionRecoveryMode#FLUSHED_ONLY} it ends exactly at one of its flushes (or is
 *       complete, if its file was closed by the writer). With {@link SionRecoveryMode#EVERY_RECORD}
 *       after a power failure, where unforced journal records may describe lost data (documented),
 *       only the flushed part must be right.</li>
 *   <li>Once every rank's close returned, every crash leaves a closed file equal to what was
 *       written, and recovery refuses it as already closed.</li>
 * </ul>
 */
class SionCrashSimulationTest {

    private static final Path NAME = Path.of("/simulated/ckpt.sion");
    private static final int FS_BLOCK_SIZE = 512;
    private static final int SEEDS = 3;
    private static final int FAILURES_SHOWN = 8;
    /** Every how many crash points the recovery itself is crashed at each of its operations. */
    private static final int RECOVERY_CRASH_STRIDE = 10;

    enum Step { OPEN, WRITE, FLUSH, CLOSE }

    /**
     * One call of a rank: the simulator's event count before and after it, and the rank's stream
     * length after it.
     */
    record Mark(Step step, int eventsBefore, int eventsAfter, long streamLength) {
    }

    /** What one rank wrote, and when. */
    record RankLog(byte[] stream, List<Mark> marks) {

        /** Stream length of the last flush that returned before crash point {@code point}. */
        long flushed(int point) {
            return marks.stream().filter(m -> m.step() == Step.FLUSH && m.eventsAfter() <= point)
                    .mapToLong(Mark::streamLength).max().orElse(0);
        }

        /** Stream length after the last write that had begun before crash point {@code point}. */
        long started(int point) {
            return marks.stream().filter(m -> m.step() == Step.WRITE && m.eventsBefore() < point)
                    .mapToLong(Mark::streamLength).max().orElse(0);
        }

        boolean isFlushLength(long length) {
            return length == 0 || marks.stream().anyMatch(m -> m.step() == Step.FLUSH && m.streamLength() == length);
        }

        Mark mark(Step step) {
            return marks.stream().filter(m -> m.step() == step).findFirst().orElseThrow();
        }
    }

    @ParameterizedTest(name = "{0} ranks, {1} file(s), key-value {2}")
    @CsvSource({
            "3, 1, false",
            "3, 1, true",
            "4, 2, false",
            "3, 2, true",
    })
    void everyCrashPointRecoversWhatTheJournalPromises(int ranks, int fileCount, boolean keyValue) throws Exception {
        CrashSimulator simulator = new CrashSimulator();
        List<RankLog> logs = ThreadGroupCollectives.run(ranks,
                collectives -> writeWorkload(collectives, simulator, fileCount, keyValue));
        Checker checker = new Checker(simulator, logs);
        for (int point = 0; point <= simulator.eventCount(); point++) {
            checker.check(point, "process crash", simulator.processCrash(point), SionRecoveryMode.EVERY_RECORD, true);
            checker.check(point, "process crash", simulator.processCrash(point), SionRecoveryMode.FLUSHED_ONLY, true);
            for (long seed = 0; seed < SEEDS; seed++) {
                Map<Path, byte[]> files = simulator.crash(point, seed);
                checker.check(point, "power failure seed " + seed, files, SionRecoveryMode.FLUSHED_ONLY, true);
                checker.check(point, "power failure seed " + seed, files, SionRecoveryMode.EVERY_RECORD, false);
            }
        }
        assertTrue(checker.failures.isEmpty(), checker.failures.size() + " failures in " + simulator.eventCount()
                + " crash points; the first:\n" + String.join("\n", checker.failures.subList(0,
                Math.min(FAILURES_SHOWN, checker.failures.size()))));
    }

    /**
     * Recovery needs every physical file's META1 and journal header, but a rank's flush forces
     * only its own file and journal: open forces them, so a power failure any time after open
     * returned leaves a recoverable set (before, a flush on file 1 could be lost with the
     * unforced META1 of file 0; found by the test above).
     */
    @Test
    void afterOpenReturnedEveryFileOfASetIsRecoverable() throws Exception {
        CrashSimulator simulator = new CrashSimulator();
        ThreadGroupCollectives.run(4, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(NAME, collectives, FS_BLOCK_SIZE, 2, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withStorage(simulator));
            return writer; // never closed: the job dies here
        });
        for (long seed = 0; seed < 20; seed++) {
            CrashSimulator afterCrash = new CrashSimulator(simulator.crash(simulator.eventCount(), seed));
            SionRecoveryReport report = SionRecovery.recover(NAME, SionRecoveryMode.FLUSHED_ONLY, afterCrash);
            assertEquals(4, report.tasks().size());
            assertEquals(0, report.totalBytes(), "seed " + seed);
        }
    }

    /**
     * Key-value recovery cuts a task at its last complete record, below the fill levels its
     * journal records. A recovery that dies after cutting the file must leave bytes the journal
     * describes in place, or running it again finds records beyond the end of the file (found by
     * the test above): the chunks behind the cut stay in META2 with 0 bytes.
     */
    @Test
    void keyValueRecoveryThatDiesAfterCuttingTheFileCanRunAgain() throws Exception {
        CrashSimulator simulator = new CrashSimulator();
        byte[] first = SionSerialWriterTest.pattern(0, 0, 40);
        ThreadGroupCollectives.run(1, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(NAME, collectives, 128, 1, 64,
                    SionWriteOptions.defaults().withStorage(simulator).withKeyValueMode(KeyValueMode.INLINE));
            writer.writeKeyValue(1, ByteBuffer.wrap(first));
            writer.flush();
            writer.writeKeyValue(2, ByteBuffer.wrap(SionSerialWriterTest.pattern(0, 40, 300))); // chunks 0, 1, 2
            return writer; // never closed: the job dies inside chunk 2
        });
        CrashSimulator recovery = new CrashSimulator(simulator.processCrash(simulator.eventCount()));
        RecoveredTask task = SionRecovery.recover(NAME, SionRecoveryMode.EVERY_RECORD, recovery).tasks().get(0);
        assertArrayEquals(new long[] {16 + 40, 0}, task.bytesPerChunk(), "journalled: chunks 0 and 1 full");
        for (int step = 0; step < recovery.eventCount(); step++) {
            for (long seed = 0; seed < 5; seed++) {
                CrashSimulator again = new CrashSimulator(recovery.crash(step, seed));
                try {
                    SionRecovery.recover(NAME, SionRecoveryMode.EVERY_RECORD, again);
                } catch (SionRecoveryRefusedException e) {
                    assertEquals(SionRecoveryRefusedException.Reason.ALREADY_CLOSED, e.reason());
                }
                try (SionFile sion = SionFile.open(NAME, again)) {
                    assertArrayEquals(first, sion.readKey(0, 1), "step " + step + " seed " + seed);
                    assertEquals(1, sion.keyValueRecords(0).size());
                }
            }
        }
    }

    /**
     * Opening a name again replaces the closed set in place (META1's head over the old one, the
     * old tail behind it until the file is cut). At every crash point of that, with 20 seeds,
     * the set read is the old one, the new one, or a {@link FormatException}: never a mixture.
     */
    @Test
    void aCrashWhileReplacingAClosedSetLeavesTheOldSetTheNewSetOrATypedError() throws Exception {
        CrashSimulator simulator = new CrashSimulator();
        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(NAME, collectives, FS_BLOCK_SIZE, 1,
                    FS_BLOCK_SIZE, SionWriteOptions.defaults().withStorage(simulator))) {
                writer.write(SionSerialWriterTest.pattern(collectives.rank(), 0, 300 + 700 * collectives.rank()));
            }
            return null;
        });
        int replacing = simulator.eventCount();
        ThreadGroupCollectives.run(3, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(NAME, collectives,
                    1024L * (collectives.rank() + 1), 1, FS_BLOCK_SIZE, SionWriteOptions.defaults().withStorage(simulator))) {
                writer.write(SionSerialWriterTest.pattern(collectives.rank() + 5, 0, 100));
            }
            return null;
        });
        List<byte[]> oldSet = List.of(SionSerialWriterTest.pattern(0, 0, 300), SionSerialWriterTest.pattern(1, 0, 1000));
        List<byte[]> newSet = List.of(SionSerialWriterTest.pattern(5, 0, 100), SionSerialWriterTest.pattern(6, 0, 100),
                SionSerialWriterTest.pattern(7, 0, 100));
        int oldSeen = 0;
        int newSeen = 0;
        for (int point = replacing; point <= simulator.eventCount(); point++) {
            for (long seed = 0; seed < 20; seed++) {
                try (SionFile sion = SionFile.open(NAME, new CrashSimulator(simulator.crash(point, seed)))) {
                    List<byte[]> streams = new ArrayList<>();
                    for (int task = 0; task < sion.taskCount(); task++) {
                        streams.add(sion.readFully(task));
                    }
                    oldSeen += sameStreams(streams, oldSet) ? 1 : 0;
                    newSeen += sameStreams(streams, newSet) ? 1 : 0;
                    assertTrue(sameStreams(streams, oldSet) || sameStreams(streams, newSet),
                            "crash point " + point + " seed " + seed + ": neither the old set nor the new one");
                } catch (FormatException e) {
                    // the set is damaged, and says so
                }
            }
        }
        assertTrue(oldSeen > 0 && newSeen > 0, "old set " + oldSeen + " times, new set " + newSeen + " times");
    }

    private static boolean sameStreams(List<byte[]> found, List<byte[]> expected) {
        if (found.size() != expected.size()) {
            return false;
        }
        for (int task = 0; task < found.size(); task++) {
            if (!Arrays.equals(found.get(task), expected.get(task))) {
                return false;
            }
        }
        return true;
    }

    /**
     * One rank's work: about 40 records of 1..1500 bytes (chunks hold 512, so records span
     * chunks and the journal gets more than a disk sector of records), a flush every few records.
     */
    private static RankLog writeWorkload(ThreadGroupCollectives collectives, CrashSimulator simulator, int fileCount,
                                         boolean keyValue) throws Exception {
        int rank = collectives.rank();
        Random random = new Random(rank * 7919L + fileCount);
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        List<Mark> marks = new ArrayList<>();
        SionWriteOptions options = SionWriteOptions.defaults().withStorage(simulator)
                .withKeyValueMode(keyValue ? KeyValueMode.INLINE : KeyValueMode.NONE);
        int before = simulator.eventCount();
        SionParallelWriter writer = SionParallelWriter.open(NAME, collectives, FS_BLOCK_SIZE, fileCount,
                FS_BLOCK_SIZE, options);
        marks.add(new Mark(Step.OPEN, before, simulator.eventCount(), 0));
        for (int record = 0; record < 40; record++) {
            int length = record % 9 == 4 ? 1500 : 1 + random.nextInt(400);
            byte[] data = SionSerialWriterTest.pattern(rank, stream.size(), length);
            before = simulator.eventCount();
            if (keyValue) {
                long key = record % 3;
                writer.writeKeyValue(key, ByteBuffer.wrap(data));
                ByteBuffer header = KeyValueRecordLayout.encodeHeader(key, length, options.metadataOrder());
                stream.write(header.array(), header.arrayOffset() + header.position(), header.remaining());
            } else {
                writer.write(data);
            }
            stream.write(data);
            marks.add(new Mark(Step.WRITE, before, simulator.eventCount(), stream.size()));
            if (record % 5 == rank % 5) {
                before = simulator.eventCount();
                writer.flush();
                marks.add(new Mark(Step.FLUSH, before, simulator.eventCount(), stream.size()));
            }
        }
        before = simulator.eventCount();
        writer.close();
        marks.add(new Mark(Step.CLOSE, before, simulator.eventCount(), stream.size()));
        return new RankLog(stream.toByteArray(), marks);
    }

    /** Recovers crashed files and checks the invariants, collecting failures. */
    private static final class Checker {
        private final List<CrashSimulator.Event> events;
        private final List<RankLog> logs;
        private final int everyCloseReturned;
        final List<String> failures = new ArrayList<>();

        Checker(CrashSimulator workload, List<RankLog> logs) {
            this.events = workload.events();
            this.logs = logs;
            this.everyCloseReturned = logs.stream().mapToInt(log -> log.mark(Step.CLOSE).eventsAfter()).max()
                    .orElseThrow();
        }

        /**
         * Recovers {@code files}, crashed at {@code point}, and checks the result; at every
         * {@value #RECOVERY_CRASH_STRIDE}th point also crashes that recovery at each of its
         * operations (two seeds) and checks that running it again gives a right result too.
         *
         * @param exact every task must be a prefix of its stream (false: only its flushed part,
         *              for {@link SionRecoveryMode#EVERY_RECORD} after a power failure)
         */
        void check(int point, String crash, Map<Path, byte[]> files, SionRecoveryMode mode, boolean exact) {
            String where = "crash point " + point + " (" + crash + ", after "
                    + (point == 0 ? "nothing" : events.get(point - 1)) + "), " + mode + ": ";
            if (point >= everyCloseReturned) {
                checkComplete(where + "after close: ", new CrashSimulator(files));
            }
            CrashSimulator recovery = recoverAndCheck(where, point, files, mode, exact, false);
            if (recovery == null || point % RECOVERY_CRASH_STRIDE != 0) {
                return;
            }
            List<CrashSimulator.Event> recoveryEvents = recovery.events();
            for (int step = 0; step < recoveryEvents.size(); step++) {
                for (long seed = 0; seed < 2; seed++) {
                    recoverAndCheck(where + "recovery crashed before its operation " + step + " ("
                            + recoveryEvents.get(step) + ", seed " + seed + ") and ran again: ", point,
                            recovery.crash(step, seed), mode, exact, true);
                }
            }
        }

        /**
         * Recovers {@code files}; returns the simulator it ran on (its log) if it recovered them,
         * else null. {@code again}: an earlier recovery may have closed them already.
         */
        private CrashSimulator recoverAndCheck(String where, int point, Map<Path, byte[]> files, SionRecoveryMode mode,
                                               boolean exact, boolean again) {
            CrashSimulator afterCrash = new CrashSimulator(files);
            try {
                SionRecovery.recover(NAME, mode, afterCrash);
                checkStreams(where, point, afterCrash, mode, exact);
                return afterCrash;
            } catch (SionRecoveryRefusedException e) {
                if (e.reason() == SionRecoveryRefusedException.Reason.ALREADY_CLOSED && again) {
                    checkStreams(where + "already closed by the first recovery: ", point, afterCrash, mode, exact);
                } else if (e.reason() == SionRecoveryRefusedException.Reason.ALREADY_CLOSED) {
                    checkComplete(where + "already closed: ", afterCrash);
                } else {
                    refusedOrFailed(where, point, e, exact);
                }
            } catch (FormatException e) {
                refusedOrFailed(where, point, e, exact);
            } catch (Exception | AssertionError e) {
                failures.add(where + "untyped " + e);
            }
            return null;
        }

        /**
         * A typed failure is right when nothing was promised yet; after a power failure,
         * {@link SionRecoveryMode#EVERY_RECORD} may also find records that describe lost data.
         */
        private void refusedOrFailed(String where, int point, FormatException e, boolean exact) {
            boolean flushed = logs.stream().anyMatch(log -> log.flushed(point) > 0);
            if (exact && flushed || point >= everyCloseReturned) {
                failures.add(where + "recovery failed although data was flushed: " + e.getMessage());
            }
        }

        private void checkComplete(String where, CrashSimulator files) {
            try (SionFile sion = SionFile.open(NAME, files)) {
                for (int task = 0; task < logs.size(); task++) {
                    if (!Arrays.equals(logs.get(task).stream(), sion.readFully(task))) {
                        failures.add(where + "task " + task + " differs from what was written");
                    }
                }
            } catch (Exception e) {
                failures.add(where + "the closed file does not open: " + e);
            }
        }

        private void checkStreams(String where, int point, CrashSimulator files, SionRecoveryMode mode,
                                  boolean exact) {
            try (SionFile sion = SionFile.open(NAME, files)) {
                for (int task = 0; task < logs.size(); task++) {
                    RankLog log = logs.get(task);
                    byte[] recovered = sion.readFully(task);
                    long flushed = log.flushed(point);
                    long started = log.started(point);
                    String problem = null;
                    if (recovered.length < flushed || recovered.length > started) {
                        problem = recovered.length + " bytes, outside flushed " + flushed + " .. started " + started;
                    } else if (!Arrays.equals(recovered, 0, (int) (exact ? recovered.length : flushed),
                            log.stream(), 0, (int) (exact ? recovered.length : flushed))) {
                        problem = "bytes differ from what was written";
                    } else if (mode == SionRecoveryMode.FLUSHED_ONLY && !log.isFlushLength(recovered.length)
                            && !(recovered.length == log.stream().length && point > log.mark(Step.CLOSE).eventsBefore())) {
                        problem = recovered.length + " bytes, not the length of one of its flushes";
                    }
                    if (sion.keyValueMode() == KeyValueMode.INLINE) {
                        sion.keyValueRecords(task); // every record of the recovered stream is whole
                    }
                    if (problem != null) {
                        failures.add(where + "task " + task + ": " + problem);
                    }
                }
            } catch (Exception e) {
                failures.add(where + "the recovered file does not read: " + e);
            }
        }
    }
}
