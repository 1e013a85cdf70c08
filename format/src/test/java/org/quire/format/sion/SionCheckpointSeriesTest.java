package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.SionCheckpointSeries.Checkpoint;
import org.quire.format.sion.SionCheckpointSeries.Choice;
import org.quire.format.sion.SionCheckpointSeries.Skipped;

/**
 * Contract of {@link SionCheckpointSeries#latestComplete}: the newest closed checkpoint; one whose
 * job died recovered from its journal when it can be; unclosed, damaged and half-written ones
 * skipped for the previous one, each with its reason. Crashed checkpoints are snapshots of a
 * parallel writer's files taken while it is open (in-JVM ranks), as a kill would leave them.
 */
class SionCheckpointSeriesTest {

    private static final int RANKS = 3;
    private static final int FS_BLOCK_SIZE = 64;
    /** Bytes every rank writes into a complete checkpoint. */
    private static final int STATE_BYTES = 700;
    /** A complete checkpoint: every task holds its whole state. */
    private static final SionCheckpointSeries.Validator WHOLE_STATE = (file, step) -> {
        for (SionTask task : file.tasks()) {
            if (task.totalBytes() != STATE_BYTES) {
                return Optional.of("task " + task.index() + " holds " + task.totalBytes() + " of " + STATE_BYTES
                        + " bytes");
            }
        }
        return Optional.empty();
    };

    @TempDir
    Path directory;

    private Path series() {
        return directory.resolve("series");
    }

    private SionCheckpointSeries heat() {
        return new SionCheckpointSeries(series(), "heat");
    }

    private static byte[] state(long step, int rank) {
        byte[] state = new byte[STATE_BYTES];
        for (int i = 0; i < state.length; i++) {
            state[i] = (byte) (step * 31 + rank * 7 + i);
        }
        return state;
    }

    /** Writes step {@code step} in {@code files} files and closes it. */
    private void writeClosed(long step, int files) throws Exception {
        Files.createDirectories(series());
        Path file = heat().file(step);
        ThreadGroupCollectives.run(RANKS, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, 100, files, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                writer.write(ByteBuffer.wrap(state(step, collectives.rank())));
            }
            return null;
        });
    }

    /**
     * Leaves step {@code step} as a job killed while writing it leaves it: every rank wrote and
     * flushed its first {@code flushedBytes} bytes, the file is not closed.
     */
    private void writeCrashed(long step, int flushedBytes) throws Exception {
        Path live = directory.resolve("live");
        Files.createDirectories(live);
        Files.createDirectories(series());
        Path file = live.resolve(heat().file(step).getFileName());
        ThreadGroupCollectives.run(RANKS, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(file, collectives, 100, 1, FS_BLOCK_SIZE,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                byte[] state = state(step, collectives.rank());
                writer.write(ByteBuffer.wrap(state, 0, flushedBytes));
                writer.flush();
                collectives.barrier();
                if (collectives.rank() == 0) {
                    for (Path crashed : List.of(file, SionFileNames.journal(file))) {
                        Files.copy(crashed, series().resolve(crashed.getFileName()),
                                StandardCopyOption.REPLACE_EXISTING);
                    }
                }
                collectives.barrier();
                writer.write(ByteBuffer.wrap(state, flushedBytes, STATE_BYTES - flushedBytes));
            }
            return null;
        });
    }

    private static void assertHoldsStep(Path file, long step) throws IOException {
        try (SionFile sion = SionFile.open(file)) {
            for (int rank = 0; rank < RANKS; rank++) {
                assertArrayEquals(state(step, rank), sion.readFully(rank), "task " + rank + " of " + file);
            }
        }
    }

    @Test
    void theNewestClosedCheckpointIsTakenAsItIs() throws Exception {
        writeClosed(10, 1);
        writeClosed(20, 2);
        byte[] before = Files.readAllBytes(heat().file(20));
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.of(new Checkpoint(20, heat().file(20), false)), choice.latest());
        assertEquals(List.of(), choice.skipped());
        assertArrayEquals(before, Files.readAllBytes(heat().file(20)), "a closed checkpoint is not written to");
    }

    @Test
    void aCheckpointWhoseJobDiedIsRecoveredFromItsJournal() throws Exception {
        writeClosed(10, 1);
        writeCrashed(20, STATE_BYTES);
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.of(new Checkpoint(20, heat().file(20), true)), choice.latest());
        assertEquals(List.of(), choice.skipped());
        assertHoldsStep(heat().file(20), 20);
        assertFalse(Files.exists(SionFileNames.journal(heat().file(20))), "recovery removed the journal");
    }

    @Test
    void aHalfWrittenCheckpointIsRecoveredButRejectedAndThePreviousOneTaken() throws Exception {
        writeClosed(10, 1);
        writeCrashed(20, 300);
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.of(new Checkpoint(10, heat().file(10), false)), choice.latest());
        assertEquals(List.of(new Skipped(20, heat().file(20),
                "recovered from its journal, but rejected: task 0 holds 300 of 700 bytes")), choice.skipped());
    }

    @Test
    void anUnclosedCheckpointWithoutJournalAndADamagedOneAreSkippedSayingWhy() throws Exception {
        writeClosed(10, 1);
        writeCrashed(20, STATE_BYTES);
        Files.delete(SionFileNames.journal(heat().file(20)));
        writeClosed(30, 1);
        try (FileChannel damage = FileChannel.open(heat().file(30), StandardOpenOption.WRITE)) {
            damage.write(ByteBuffer.wrap(new byte[] {'s', 'i', 'o', 'n', 7, 7, 7, 7}), 0);
        }
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.of(new Checkpoint(10, heat().file(10), false)), choice.latest());
        assertEquals(2, choice.skipped().size());
        assertEquals(30, choice.skipped().get(0).step());
        assertTrue(choice.skipped().get(0).reason().startsWith("unreadable: " + heat().file(30)
                + ": corrupt META1 at offset 4: endianness word"), choice.skipped().get(0).reason());
        assertEquals(new Skipped(20, heat().file(20), "not closed by its writer, and no recovery journal beside it"),
                choice.skipped().get(1));
    }

    @Test
    void aSeriesWithoutACompleteCheckpointOrWithoutFilesGivesNone() throws Exception {
        assertEquals(new Choice(Optional.empty(), List.of()), heat().latestComplete(WHOLE_STATE));
        writeCrashed(5, 100);
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.empty(), choice.latest());
        assertEquals(List.of(5L), choice.skipped().stream().map(Skipped::step).toList());
    }

    @Test
    void onlyNamesOfTheSeriesCount() throws Exception {
        writeClosed(7, 2); // leaves heat-7.sion.000001 beside it
        Files.createDirectories(series());
        for (String other : List.of("heat-9.sion.000001", "heat-9.sion.journal", "heat-x.sion", "heat-.sion",
                "heat-9.sion.partial", "cold-9.sion", "heat-99999999999999999999.sion", "heat-09.sion", "heat-00.sion")) {
            Files.writeString(series().resolve(other), "not a checkpoint");
        }
        assertArrayEquals(new long[] {7}, heat().steps());
        assertEquals(Optional.of(new Checkpoint(7, heat().file(7), false)), heat().latestComplete(WHOLE_STATE)
                .latest());
    }

    @Test
    void stepsFromZeroUpToEighteenDigitsAreNamedAndListed() throws Exception {
        assertEquals(series(), heat().directory());
        assertEquals(series().resolve("heat-0.sion"), heat().file(0));
        Files.createDirectories(series());
        long largest = 999_999_999_999_999_999L;
        for (long step : new long[] {0, largest, largest + 1}) {
            Files.writeString(heat().file(step), "a checkpoint");
        }
        assertArrayEquals(new long[] {0, largest}, heat().steps(), "19 digits are not a step of the series");
    }

    @Test
    void aCheckpointWhoseRecoveryFailsIsSkippedWithTheRecoveryError() throws Exception {
        writeClosed(10, 1);
        writeCrashed(20, STATE_BYTES);
        Path journal = SionFileNames.journal(heat().file(20));
        try (FileChannel damage = FileChannel.open(journal, StandardOpenOption.WRITE)) {
            damage.write(ByteBuffer.wrap(new byte[] {'X'}), 0);
        }
        Choice choice = heat().latestComplete(WHOLE_STATE);
        assertEquals(Optional.of(new Checkpoint(10, heat().file(10), false)), choice.latest());
        String reason = choice.skipped().get(0).reason();
        assertTrue(reason.startsWith("not closed by its writer, and recovery from its journal failed: " + journal
                + ": corrupt journal header at offset 0: magic"), reason);
    }

    @Test
    void everyRankOfAJobGetsTheChoiceRankZeroMade() throws Exception {
        writeClosed(10, 1);
        writeCrashed(20, STATE_BYTES);
        writeCrashed(30, 200);
        List<Choice> choices = ThreadGroupCollectives.run(4, collectives ->
                heat().latestComplete(collectives, WHOLE_STATE));
        Choice expected = new Choice(Optional.of(new Checkpoint(20, heat().file(20), true)), List.of(
                new Skipped(30, heat().file(30), "recovered from its journal, but rejected: task 0 holds 200 of 700"
                        + " bytes")));
        assertEquals(List.of(expected, expected, expected, expected), choices);
        assertHoldsStep(heat().file(20), 20);
    }
}
