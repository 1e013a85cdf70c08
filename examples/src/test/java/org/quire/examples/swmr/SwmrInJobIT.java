package org.quire.examples.swmr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.Dataset;
import org.quire.format.hdf5.Hdf5File;
import org.quire.launcher.QuireCommand;

/**
 * {@link SwmrInJob} as one real job of three JVMs under {@code quire run -n 3}: rank 0 appends while ranks 1 and
 * 2 follow the same file, with no messages until the final gather. Each follower verifies every record, sees the
 * dataset grow while it is written (at least two extents), and ends with all of them; rank 0 prints the passed
 * verdict and the file is closed with every record. A file that exists already fails the job (exit 1, the
 * writer's line and the verdict); bad arguments exit 2 with the usage.
 */
class SwmrInJobIT {

    private static final Duration LIMIT = Duration.ofMinutes(3);
    private static final long RECORDS = 100_000;
    private static final Pattern FOLLOWER = Pattern.compile(
            "^\\[([12])] \\{\"dataset\": \"records\", \"error\": null, .*\"extents_seen\": (\\d+), .*\"fill\": 0, "
                    + "\"ok\": (\\d+), \"out_of_order\": 0, .*\"records\": (\\d+), .*\"shrinks\": 0, \"torn\": 0}$",
            Pattern.MULTILINE);

    @TempDir
    Path dir;

    private static QuireCommand.Result job(String... arguments) throws Exception {
        String jar = QuireCommand.repositoryRoot().resolve("examples/target/quire-examples.jar").toString();
        List<String> command = new ArrayList<>(List.of("run", "-n", "3", "-cp", jar,
                SwmrInJob.class.getName()));
        command.addAll(List.of(arguments));
        return QuireCommand.run(LIMIT, command.toArray(String[]::new));
    }

    @Test
    void rankZeroWritesWhileTheOtherRanksFollowAndVerifyEveryRecord() throws Exception {
        Path file = dir.resolve("in-job.h5");
        QuireCommand.Result result = job(file.toString(), Long.toString(RECORDS), "10");
        System.out.println(result.stdout());
        assertEquals(0, result.exitCode(), result.toString());
        assertTrue(result.stdout().contains("[0] appended " + RECORDS + " records (seq 0.." + (RECORDS - 1) + ") to "
                + file + ":records in " + RECORDS / 10 + " flushes"), result.toString());
        assertTrue(result.stdout().contains("[0] passed: the file holds " + RECORDS + " records; rank 1 saw "
                + RECORDS + " intact; rank 2 saw " + RECORDS + " intact"), result.toString());
        Matcher follower = FOLLOWER.matcher(result.stdout());
        int followers = 0;
        while (follower.find()) {
            followers++;
            assertTrue(Integer.parseInt(follower.group(2)) >= 2, "rank " + follower.group(1)
                    + " saw the dataset grow while it was written: " + follower.group());
            assertEquals(RECORDS, Long.parseLong(follower.group(3)), follower.group());
            assertEquals(RECORDS, Long.parseLong(follower.group(4)), follower.group());
        }
        assertEquals(2, followers, result.toString());
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            Dataset records = hdf5.root().dataset(SwmrInJob.DATASET);
            assertEquals(RECORDS, records.shape()[0]);
            ByteBuffer last = records.read(new long[] {RECORDS - 1}, new long[] {1});
            assertEquals(SwmrRecord.Verdict.OK, SwmrRecord.verify(last, RECORDS - 1));
        }
    }

    /**
     * A writer failing before it creates the file (its directory is missing) says so to the followers, which stop
     * at once: they used to wait their 600 s timeout for the file.
     */
    @Test
    void aWriterThatCannotCreateTheFileEndsTheJobAtOnceWithOneLine() throws Exception {
        Path file = dir.resolve("missing/in-job.h5");
        long started = System.nanoTime();
        QuireCommand.Result result = job(file.toString(), "100", "10");
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.println(result);
        assertEquals(1, result.exitCode(), result.toString());
        assertTrue(seconds < 60, "took " + seconds + " s");
        assertTrue(result.stdout().contains("[0] FAILED: the writer failed; rank 1 saw 0 with errors; rank 2 saw 0"
                + " with errors"), result.toString());
        List<String> errors = result.stderr().lines() // the job's own lines, not the launcher's about stopping it
                .filter(line -> !line.startsWith("quire run: ") && !line.matches("\\[\\d+] quire: .*")).toList();
        assertEquals(1, errors.size(), result.toString());
        assertTrue(errors.get(0).startsWith("[0] SwmrInJob: " + file), errors.get(0));
    }

    @Test
    void anExistingFileFailsTheJobAndBadArgumentsExit2() throws Exception {
        Path file = dir.resolve("old.h5");
        Files.writeString(file, "not written by this job");
        QuireCommand.Result existing = job(file.toString(), "100", "10");
        assertEquals(1, existing.exitCode(), existing.toString());
        assertTrue(existing.stderr().contains("[0] SwmrInJob: " + file + " exists; SwmrInJob writes a new file"),
                existing.toString());
        assertTrue(existing.stdout().contains("[0] FAILED: the writer failed; rank 1 saw 0 with errors; rank 2 saw"
                + " 0 with errors"), existing.toString());
        assertEquals("not written by this job", Files.readString(file));

        QuireCommand.Result usage = job(file.toString(), "100");
        assertEquals(2, usage.exitCode(), usage.toString());
        assertTrue(usage.stderr().contains("SwmrInJob: expected FILE, RECORDS and BATCH, got 2 arguments; usage: "
                + "SwmrInJob FILE RECORDS BATCH"), usage.toString());
    }
}
