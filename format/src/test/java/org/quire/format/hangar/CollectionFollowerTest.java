package org.quire.format.hangar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader process follows a live store: this JVM writes arrays in batches, flushing each and
 * then appending its records to a file; a {@link RecordFollower} JVM resolves every record
 * through its own SWMR readers while the writer is still open and appending, across the switch
 * to a second collection file when the first is full.
 */
class CollectionFollowerTest {

    private static final int BATCH = 1_000;
    /** Past one file's 24,750 arrays, so that the follower meets a new file mid-run. */
    private static final int ARRAYS = 26_000;

    @TempDir
    Path dir;

    @Test
    void aReaderProcessResolvesEveryRecordWhileTheWriterAppends() throws Exception {
        Path records = dir.resolve("records.txt");
        Process follower = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin",
                "java").toString(), "-cp", codeSource(CollectionWriter.class)
                + File.pathSeparator + codeSource(RecordFollower.class),
                RecordFollower.class.getName(), dir.toString(), records.toString(),
                Integer.toString(ARRAYS), "120").redirectErrorStream(true).start();
        AtomicInteger followed = new AtomicInteger();
        List<String> output = new ArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                    follower.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (output) {
                        output.add(line);
                    }
                    if (line.startsWith("resolved ")) {
                        followed.set(Integer.parseInt(line.substring("resolved ".length())));
                    }
                }
            } catch (Exception e) {
                synchronized (output) {
                    output.add("reading the follower's output: " + e);
                }
            }
        });
        reader.start();
        int caughtUpWhileWriting = 0;
        try (CollectionWriter writer = CollectionWriter.checkout(dir, RecordFollower.SCHEMA)) {
            for (int k = 0; k < ARRAYS; ) {
                StringBuilder batch = new StringBuilder();
                for (int end = Math.min(ARRAYS, k + BATCH); k < end; k++) {
                    batch.append(writer.write(HangarArrays.ints(k, 4)).format()).append('\n');
                }
                writer.flush();
                Files.writeString(records, batch, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
                if (k == 5 * BATCH || k == 25 * BATCH) {
                    // The writer is still open: wait until the follower has resolved them all.
                    caughtUpWhileWriting += awaitFollower(followed, k, follower, output);
                }
            }
            assertEquals(2, writer.uids().size());
        }
        assertTrue(follower.waitFor(120, TimeUnit.SECONDS), "the follower did not end");
        reader.join();
        synchronized (output) {
            assertEquals(0, follower.exitValue(), String.join("\n", output));
            assertEquals("done " + ARRAYS, output.get(output.size() - 1));
        }
        assertEquals(2, caughtUpWhileWriting);
    }

    /** Where {@code type} was loaded from: the main or the test classes (they are modules). */
    private static String codeSource(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    /** 1 once the follower has resolved {@code count} arrays; fails after 60 s. */
    private static int awaitFollower(AtomicInteger followed, int count, Process follower,
                                     List<String> output) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (followed.get() < count) {
            if (!follower.isAlive() || System.nanoTime() > deadline) {
                Thread.sleep(100); // the rest of its output
                synchronized (output) {
                    throw new AssertionError("the follower resolved " + followed.get() + " of "
                            + count + ":\n" + String.join("\n", output));
                }
            }
            Thread.sleep(5);
        }
        return 1;
    }
}
