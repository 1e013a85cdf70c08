package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.DatasetSpec;
import org.quire.format.hdf5.Hdf5File;

/**
 * {@link SwmrFollow#follow}: an interrupted run ends at once, saying so, with the interrupt kept
 * for its caller (it does not spin on sleeps that return at once until its timeout); on a
 * damaged file its retry count agrees with its error.
 */
class SwmrFollowTest {

    /** Long enough that a follower spinning to it reports the timeout, not the interrupt. */
    private static final double TIMEOUT_SECONDS = 5;

    @TempDir
    Path dir;

    @Test
    void anInterruptWhileWaitingForTheFileEndsTheRun() {
        Path missing = dir.resolve("not-yet.h5");
        assertInterruptedRun(new SwmrFollow.Arguments(missing, "records", 0, TIMEOUT_SECONDS),
                missing);
    }

    @Test
    void anInterruptWhileWaitingForRecordsEndsTheRun() throws IOException {
        Path file = dir.resolve("empty.h5");
        try (Hdf5File out = Hdf5File.create(file)) {
            out.root().createDataset("records", DatasetSpec.builder(SwmrRecord.TYPE, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(SwmrAppend.CHUNK_RECORDS).build());
        }
        assertInterruptedRun(new SwmrFollow.Arguments(file, "records", 10, TIMEOUT_SECONDS), file);
    }

    @Test
    void theRetriesOfAReadThatFailedAreCounted() throws Exception {
        Path file = dir.resolve("damaged.h5");
        SwmrAppend.append(SwmrAppend.Arguments.parse(new String[] {file.toString(), "records",
                "5000", "1000"}), () -> { });
        byte[] bytes = Files.readAllBytes(file);
        int indexBlock = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("EAIB");
        assertTrue(indexBlock > 0, "an extensible array index block");
        bytes[indexBlock + 12] ^= 1; // one bit of the block: its checksum fails at every read
        Files.write(file, bytes);

        SwmrFollow.Tally tally = SwmrFollow.follow(SwmrFollow.Arguments.parse(new String[] {
                file.toString(), "records", "--expect", "5000", "--timeout", "10"}));
        assertNotNull(tally.error);
        Matcher reads = Pattern.compile("\\((\\d+) reads in ").matcher(tally.error);
        assertTrue(reads.find(), tally.error);
        assertEquals(Long.parseLong(reads.group(1)) - 1, tally.readRetries, tally.error);
    }

    private static void assertInterruptedRun(SwmrFollow.Arguments arguments, Path file) {
        SwmrFollow.Tally tally;
        boolean stillInterrupted;
        Thread.currentThread().interrupt();
        try {
            tally = SwmrFollow.follow(arguments);
        } finally {
            stillInterrupted = Thread.interrupted(); // cleared for the next test
        }
        assertEquals(file + ": interrupted while following", tally.error);
        assertTrue(stillInterrupted, "the interrupt is kept for the caller");
        assertTrue(tally.seconds < TIMEOUT_SECONDS, "ended at the interrupt: " + tally.seconds + " s");
    }
}
