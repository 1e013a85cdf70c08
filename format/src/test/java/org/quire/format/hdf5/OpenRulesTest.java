package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.ForwardingStorage;
import org.quire.format.storage.StorageOpener;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open rules (docs/swmr.md, "Open rules and locks") with real processes: a child JVM
 * ({@link OpenRuleHolder}) holds the file in each mode while this JVM tries every other, and
 * each refusal's message names the holder; then the same within one JVM, where the lock
 * registry stands in for the operating system; and the writer record's heartbeat telling a
 * live writer from a dead one.
 */
class OpenRulesTest {

    @TempDir
    Path dir;
    private Path file;
    private Process holder;
    /** Every child JVM started, released after each test. */
    private final List<Process> children = new ArrayList<>();

    @BeforeEach
    void closedFile() throws IOException {
        file = dir.resolve("rules.h5");
        try (Hdf5File writer = Hdf5File.create(file)) {
            writer.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
        }
    }

    @AfterEach
    void releaseChildren() throws Exception {
        for (Process child : children) {
            if (child.isAlive()) {
                child.getOutputStream().close();
                if (!child.waitFor(30, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
            }
        }
    }

    private static String classPath(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    /** Starts a child JVM holding the file in {@code mode}; returns its first line. */
    private String hold(String mode) throws Exception {
        holder = child(mode);
        return firstLine(holder, mode);
    }

    /** A child JVM ({@link OpenRuleHolder}) opening the file in {@code mode}. */
    private Process child(String mode) throws Exception {
        String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ExternalTools.startsOutsideProgram("a second JVM (OpenRuleHolder)");
        Process child = new ProcessBuilder(javaCommand, "-cp", classPath(Hdf5File.class)
                + java.io.File.pathSeparator + classPath(OpenRuleHolder.class),
                OpenRuleHolder.class.getName(), mode, file.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        children.add(child);
        return child;
    }

    private static String firstLine(Process child, String mode) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8));
        String line = out.readLine();
        assertNotNull(line, "holder of mode " + mode + " said nothing");
        return line;
    }

    private void release() throws Exception {
        holder.getOutputStream().close();
        assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, holder.exitValue());
    }

    private static <T extends Throwable> String refused(Class<T> type, Executable open) {
        return assertThrows(type, open).getMessage();
    }

    private void assertNamesHolder(String message, String mode) {
        assertTrue(message.contains("locked by another writer (" + mode + ", pid "
                + holder.pid() + " on "), message);
        assertTrue(message.contains("nothing was changed"), message);
        assertFalse(message.contains("\n"), "one line: " + message);
    }

    @Test
    @StartsOutsideProgram
    void aPlainWriterKeepsEveryoneOut() throws Exception {
        assertEquals("held", hold("write"));
        assertNamesHolder(refused(FileLockedException.class,
                () -> Hdf5File.openForWriting(file)), "writer");
        assertNamesHolder(refused(FileLockedException.class, () -> Hdf5File.open(file)),
                "writer");
        String swmr = refused(FileLockedException.class, () -> Hdf5File.openSwmr(file));
        assertNamesHolder(swmr, "writer");
        assertTrue(swmr.contains("has not switched to SWMR writing"), swmr);
        assertNamesHolder(refused(FileLockedException.class, () -> Hdf5File.recover(file)),
                "writer");
        release();
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            assertTrue(writer.isWritable());
        }
    }

    /**
     * A Quire SWMR writer (after {@code startSwmrWrite}) in one process, SWMR readers in
     * another and in this one at once; a second writer and a plain reader are refused naming
     * the SWMR writer, and so is {@code recover}.
     */
    @Test
    @StartsOutsideProgram
    void anSwmrWriterAdmitsSwmrReadersOnly() throws Exception {
        assertEquals("held", hold("swmr-write"));
        assertNamesHolder(refused(FileLockedException.class,
                () -> Hdf5File.openForWriting(file)), "SWMR writer");
        String plain = refused(FileLockedException.class, () -> Hdf5File.open(file));
        assertNamesHolder(plain, "SWMR writer");
        assertTrue(plain.contains("follow an SWMR writer with Hdf5File.openSwmr"), plain);
        String plainCommand = assertThrows(FileLockedException.class, () -> Hdf5File.open(file))
                .commandLineMessage();
        assertTrue(plainCommand.contains("SWMR writer, pid " + holder.pid())
                && plainCommand.endsWith("read it when that writer has closed it (an SWMR "
                + "writer's file is read as of its last commit)"), plainCommand);
        assertNamesHolder(refused(FileLockedException.class, () -> Hdf5File.recover(file)),
                "SWMR writer");
        Process otherReader = child("swmr-read");
        assertEquals("held", firstLine(otherReader, "swmr-read"));
        try (Hdf5File swmr = Hdf5File.openSwmr(file)) {
            assertEquals(0, swmr.root().dataset("d").shape()[0]);
        }
        assertEquals(WriterRecord.Mode.SWMR, WriterRecord.read(file).mode());
        String alive = Hdf5File.writerStatus(file).summary();
        long writerPid = holder.pid();
        assertTrue(alive.startsWith("writer alive (SWMR writer, pid " + writerPid), alive);
        assertTrue(hold("write").startsWith("refused FileLockedException: " + file
                + ": file is open for writing, locked by another writer (SWMR writer, pid "
                + writerPid + " on "),
                "a second writer process must be refused naming the SWMR writer");
        otherReader.getOutputStream().close();
        assertTrue(otherReader.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, otherReader.exitValue());
    }

    @Test
    @StartsOutsideProgram
    void readersKeepWritersOutButNotOtherReaders() throws Exception {
        for (String mode : new String[] {"read", "swmr-read"}) {
            assertEquals("held", hold(mode));
            String message = refused(FileHeldByReadersException.class,
                    () -> Hdf5File.openForWriting(file));
            assertTrue(message.contains(mode.equals("read") ? "plain readers" : "SWMR readers")
                    && message.contains("nothing was changed"), message);
            refused(FileHeldByReadersException.class, () -> Hdf5File.recover(file));
            try (Hdf5File plain = Hdf5File.open(file);
                 Hdf5File swmr = Hdf5File.openSwmr(file)) {
                assertEquals(0, plain.root().dataset("d").shape()[0]);
                assertEquals(0, swmr.root().dataset("d").shape()[0]);
            }
            release();
        }
    }

    /**
     * A writer holding the lock before its record exists (the winner of a race to create the
     * file, between its lock and its first beat): the loser's refusal says the record is not
     * there yet, not that the holder is no Quire writer. A writer through another opener than
     * {@link FileStorage#OPENER} keeps no record: that moment, held.
     */
    @Test
    void aWriterWithoutItsRecordYetIsNotCalledANonQuireWriter() throws Exception {
        StorageOpener noRecord = (path, mode) -> new ForwardingStorage(
                FileStorage.open(path, mode)) { };
        try (Hdf5File winner = Hdf5File.openForWriting(file, noRecord, WriteOptions.DEFAULT)) {
            String loser = refused(FileLockedException.class,
                    () -> Hdf5File.openForWriting(file));
            assertTrue(loser.contains("locked by another writer (no writer record "
                    + WriterRecord.pathOf(file).getFileName() + " beside it yet: a Quire writer "
                    + "that has not written it, or not a Quire writer)"), loser);
            assertTrue(winner.isWritable());
        }
    }

    @Test
    @StartsOutsideProgram
    void withinOneProcessTheRegistryKeepsTheSameRules() throws Exception {
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            String message = refused(FileLockedException.class, () -> Hdf5File.open(file));
            assertTrue(message.contains("pid " + ProcessHandle.current().pid()), message);
            // That refusal opened and closed the file in this JVM: the lock must still hold.
            assertTrue(hold("read").startsWith("refused FileLockedException"),
                    "a child's reader must still be refused");
            writer.flush();
        }
        Hdf5File first = Hdf5File.open(file);
        try (Hdf5File second = Hdf5File.openSwmr(file)) {
            first.close(); // closes its descriptor: the second reader's locks must stay
            refused(FileHeldByReadersException.class, () -> Hdf5File.openForWriting(file));
            assertTrue(hold("write").startsWith("refused FileHeldByReadersException"),
                    "a child's writer must still be refused");
        }
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            assertTrue(writer.isWritable());
        }
    }

    /**
     * A status probe ({@code writerStatus}, as an in-situ reader or {@code quire watch} calls
     * it) shares the writer byte's lock for a moment: a writer opening meanwhile waits it out
     * instead of taking the prober for a plain reader. Probes without pause in a child JVM and
     * in a thread of this one while the file is opened for writing 200 times; none may fail.
     */
    @Test
    @StartsOutsideProgram
    void statusProbesNeverMakeAnOpenForWritingFail() throws Exception {
        assertEquals("probing", hold("probe"));
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> probeFailure = new AtomicReference<>();
        Thread prober = new Thread(() -> {
            try {
                while (!done.get()) {
                    Hdf5File.writerStatus(file);
                }
            } catch (Throwable e) {
                probeFailure.set(e);
            }
        });
        prober.start();
        try {
            for (int open = 0; open < 200; open++) {
                try (Hdf5File writer = Hdf5File.openForWriting(file)) {
                    assertTrue(writer.isWritable());
                }
            }
        } finally {
            done.set(true);
            prober.join();
        }
        assertEquals(null, probeFailure.get());
        release();
    }

    /**
     * {@code quire watch} opens a file no writer holds for a moment at each look, as an SWMR
     * reader: a writer meeting such a look waits it out instead of failing.
     */
    @Test
    @StartsOutsideProgram
    void briefSwmrLooksNeverMakeAnOpenForWritingFail() throws Exception {
        assertEquals("glancing", hold("glance"));
        for (int open = 0; open < 200; open++) {
            try (Hdf5File writer = Hdf5File.openForWriting(file)) {
                assertTrue(writer.isWritable());
            }
        }
        release();
    }

    /**
     * libhdf5 locks with flock, Quire with fcntl byte ranges: neither sees the other's locks;
     * libhdf5 still refuses a file a Quire writer holds, through the superblock's flags.
     */
    @Test
    @StartsOutsideProgram
    void h5pyIsKeptOutOfAQuireWritersFileByItsFlags() throws Exception {
        ExternalTools.requireH5py();
        assertEquals("held", hold("write"));
        ExternalTools.Result h5py = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py",
                        "try:",
                        "    h5py.File(sys.argv[1], 'r')",
                        "    print('opened')",
                        "except OSError as e:",
                        "    print('refused', e)"), file.toString()), 60);
        assertTrue(h5py.stdout().startsWith("refused") && h5py.stdout().contains(
                "already open for write"), h5py.output());
        release();
    }

    @Test
    @StartsOutsideProgram
    void theWriterRecordTellsAliveFromDead() throws Exception {
        assertEquals(WriterStatus.State.NO_WRITER, Hdf5File.writerStatus(file).state());
        assertEquals("held", hold("write"));
        WriterStatus alive = Hdf5File.writerStatus(file);
        assertEquals(WriterStatus.State.ALIVE, alive.state(), alive.summary());
        assertTrue(alive.summary().startsWith("writer alive (writer, pid " + holder.pid()),
                alive.summary());
        Thread.sleep(2_300);
        WriterRecord record = WriterRecord.read(file);
        assertTrue(record.beat() >= 1, "beats every second: " + record);
        assertEquals(holder.pid(), record.pid());

        holder.destroyForcibly();
        assertTrue(holder.waitFor(30, TimeUnit.SECONDS));
        WriterStatus dead = Hdf5File.writerStatus(file);
        assertEquals(WriterStatus.State.DEAD, dead.state(), dead.summary());
        assertTrue(dead.summary().startsWith("writer dead (writer, pid " + holder.pid())
                && dead.summary().endsWith("its last commit is final"), dead.summary());

        // A new writer, and an SWMR reader (the dead writer was a plain one, flags 0x01),
        // are refused naming the dead writer's state and what to do: a Java call for a Java
        // caller, the command for a command line user.
        FileOpenForWritingException newWriter = assertThrows(FileOpenForWritingException.class,
                () -> Hdf5File.openForWriting(file));
        assertTrue(newWriter.situation().contains("flags 0x01); writer dead (writer, pid "
                + holder.pid()), newWriter.situation());
        assertTrue(newWriter.getMessage().contains("Hdf5File.recover(path)"), newWriter.getMessage());
        assertTrue(newWriter.commandLineMessage().endsWith("quire h5 clear " + file
                + " makes the file consistent, then open it again"), newWriter.commandLineMessage());
        assertFalse(newWriter.commandLineMessage().contains("Hdf5File"),
                newWriter.commandLineMessage());
        FileOpenForWritingException swmr = assertThrows(FileOpenForWritingException.class,
                () -> Hdf5File.openSwmr(file));
        assertTrue(swmr.situation().contains("flags 0x01), not by an SWMR writer"),
                swmr.situation());
        assertTrue(swmr.commandLineMessage().contains("quire h5 clear " + file),
                swmr.commandLineMessage());

        Hdf5File.recover(file);
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            assertEquals(ProcessHandle.current().pid(), WriterRecord.read(file).pid());
        }
        assertEquals(WriterStatus.State.NO_WRITER, Hdf5File.writerStatus(file).state());
        assertFalse(Files.exists(WriterRecord.pathOf(file)), "removed at close");
    }
}
