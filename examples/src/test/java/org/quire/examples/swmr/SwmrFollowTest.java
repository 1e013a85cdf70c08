package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SwmrFollow#follow} on a damaged file: its retry count agrees with its error. */
class SwmrFollowTest {

    @TempDir
    Path dir;

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
}
