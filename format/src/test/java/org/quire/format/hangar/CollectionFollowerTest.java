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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.hdf5.ExternalTools;

/**
 * Reader processes follow a live store: this JVM writes arrays in batches, flushing each and
 * then appending its records to a file; a {@link RecordFollower} JVM (Quire's resolver) and an
 * h5py process ({@code follow_hangar_records.py}, as Hangar's readers: {@code swmr=True},
 * {@code refresh}) resolve every record while the writer is still open and appending, across
 * the switch to a second collection file when the first is full.
 */
@StartsOutsideProgram
class CollectionFollowerTest {

    private static final int BATCH = 1_000;
    /** Past one file's 24,750 arrays, so that the followers meet a new file mid-run. */
    private static final int ARRAYS = 26_000;
    private static final String TIMEOUT_SECONDS = "180";

    @TempDir
    Path dir;

    private final List<Follower> followers = new ArrayList<>();

    @AfterEach
    void stopFollowers() {
        followers.forEach(follower -> follower.process.destroyForcibly());
    }

    @Test
    void readerProcessesResolveEveryRecordWhileTheWriterAppends() throws Exception {
        ExternalTools.requireH5py();
        Path records = dir.resolve("records.txt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        followers.add(new Follower("Quire", List.of(java, "-cp", codeSource(CollectionWriter.class)
                + File.pathSeparator + codeSource(RecordFollower.class),
                RecordFollower.class.getName(), dir.toString(), records.toString(),
                Integer.toString(ARRAYS), TIMEOUT_SECONDS)));
        followers.add(new Follower("h5py", List.of(ExternalTools.PYTHON.toString(),
                HangarFixtures.followerScript().toString(), dir.toString(), records.toString(),
                Integer.toString(ARRAYS), TIMEOUT_SECONDS)));
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
                    // The writer is still open: wait until each follower has resolved them all.
                    for (Follower follower : followers) {
                        follower.await(k);
                    }
                    caughtUpWhileWriting++;
                }
            }
            assertEquals(2, writer.uids().size());
        }
        for (Follower follower : followers) {
            follower.end();
        }
        assertEquals(2, caughtUpWhileWriting);
    }

    /** Where {@code type} was loaded from: the main or the test classes (they are modules). */
    private static String codeSource(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    /** A follower process, its output collected and its "resolved N" lines counted. */
    private static final class Follower {
        final String name;
        final Process process;
        final AtomicInteger resolved = new AtomicInteger();
        final List<String> output = new ArrayList<>();
        final Thread reader;

        Follower(String name, List<String> command) throws Exception {
            this.name = name;
            ExternalTools.startsOutsideProgram(command.get(0));
            this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
            this.reader = new Thread(this::collect);
            reader.start();
        }

        private void collect() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(
                    process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (output) {
                        output.add(line);
                    }
                    if (line.startsWith("resolved ")) {
                        resolved.set(Integer.parseInt(line.substring("resolved ".length())));
                    }
                }
            } catch (Exception e) {
                synchronized (output) {
                    output.add("reading the output: " + e);
                }
            }
        }

        /** Returns once {@code count} arrays are resolved; fails if it ends first or after 90 s. */
        void await(int count) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (resolved.get() < count) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    Thread.sleep(100); // the rest of its output
                    throw new AssertionError(name + " follower resolved " + resolved.get()
                            + " of " + count + ":\n" + output());
                }
                Thread.sleep(5);
            }
        }

        /** Waits for the end: exit 0 with "done ARRAYS" last. */
        void end() throws InterruptedException {
            assertTrue(process.waitFor(180, TimeUnit.SECONDS), name + " follower did not end");
            reader.join();
            assertEquals(0, process.exitValue(), name + ":\n" + output());
            synchronized (output) {
                assertEquals("done " + ARRAYS, output.get(output.size() - 1), name);
            }
        }

        private String output() {
            synchronized (output) {
                return String.join("\n", output);
            }
        }
    }
}
