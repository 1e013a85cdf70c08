package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;

/**
 * What {@link Hdf5File#openForWriting} refuses, each with one typed error, leaving the file's
 * bytes as they were and creating no journal: a file another writer holds (this JVM or another
 * process), a file whose superblock says a writer has it open (a crashed writer's, until
 * {@link Hdf5File#recover}), superblock 2, a file that is not HDF5, a missing
 * file (never created). Dense groups and attributes are refused when a change needs them.
 */
class ReopenRefusalsTest {

    @TempDir
    Path dir;

    private Path quireFile(String name) throws IOException {
        Path file = dir.resolve(name);
        try (Hdf5File out = Hdf5File.create(file)) {
            Dataset d = out.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            d.extend(6);
            d.write(new long[] {0}, new long[] {6}, new long[] {1, 2, 3, 4, 5, 6});
        }
        return file;
    }

    /** Runs {@code refused}, expecting {@code type}, and checks nothing was changed. */
    private <T extends Throwable> T refusedUnchanged(Path file, Class<T> type,
                                                     org.junit.jupiter.api.function.Executable
                                                             refused) throws IOException {
        byte[] before = Files.readAllBytes(file);
        T error = assertThrows(type, refused);
        assertArrayEquals(before, Files.readAllBytes(file), "the file changed");
        assertTrue(Files.notExists(Hdf5File.journalPath(file)), "a journal was created");
        return error;
    }

    private Path h5pyFile(String name, String libver) {
        ExternalTools.requireH5py();
        Path file = dir.resolve(name);
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py, numpy",
                        "with h5py.File(sys.argv[1], 'w'" + libver + ") as f:",
                        "    f.create_dataset('d', data=numpy.arange(6), chunks=(4,),"
                                + " maxshape=(None,))"), file.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        return file;
    }

    @Test
    void aFileAnotherWriterOfThisProcessHoldsIsRefused() throws IOException {
        Path file = quireFile("held.h5");
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            byte[] before = Files.readAllBytes(file);
            FileLockedException error = assertThrows(FileLockedException.class,
                    () -> Hdf5File.openForWriting(file));
            assertTrue(error.getMessage().contains("locked by another writer"),
                    error.getMessage());
            assertArrayEquals(before, Files.readAllBytes(file));
            writer.root().dataset("d").extend(7);
        }
        try (Hdf5File in = Hdf5File.open(file)) {
            assertArrayEquals(new long[] {7}, in.root().dataset("d").shape());
        }
        Path created = dir.resolve("created.h5");
        try (Hdf5File writer = Hdf5File.create(created)) {
            assertThrows(FileLockedException.class, () -> Hdf5File.openForWriting(created));
        }
    }

    /** recover() of a file whose writer still runs would pull its journal away: refused. */
    @Test
    void recoveringAFileAWriterHasOpenIsRefused() throws IOException {
        Path file = quireFile("live.h5");
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            writer.root().dataset("d").extend(8);
            writer.flush();
            byte[] before = Files.readAllBytes(file);
            byte[] journal = Files.readAllBytes(Hdf5File.journalPath(file));
            assertThrows(FileLockedException.class, () -> Hdf5File.recover(file));
            assertArrayEquals(before, Files.readAllBytes(file));
            assertArrayEquals(journal, Files.readAllBytes(Hdf5File.journalPath(file)));
        }
        try (Hdf5File in = Hdf5File.open(file)) {
            assertArrayEquals(new long[] {8}, in.root().dataset("d").shape());
        }
    }

    @Test
    @StartsOutsideProgram
    void aFileAnotherProcessHoldsLockedIsRefused() throws Exception {
        Path file = quireFile("other-process.h5");
        ExternalTools.requireH5py();
        Process holder = new ProcessBuilder(ExternalTools.PYTHON.toString(), "-c",
                String.join("\n", "import sys, fcntl",
                        "f = open(sys.argv[1], 'r+b')",
                        "fcntl.lockf(f, fcntl.LOCK_EX)",
                        "print('locked', flush=True)",
                        "sys.stdin.read()"), file.toString()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(
                holder.getInputStream(), StandardCharsets.UTF_8))) {
            assertEquals("locked", out.readLine());
            refusedUnchanged(file, FileLockedException.class,
                    () -> Hdf5File.openForWriting(file));
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            assertTrue(writer.isWritable());
        }
    }

    @Test
    void aCrashedWritersFileIsRefusedUntilRecovered() throws IOException {
        Path source = dir.resolve("running.h5");
        Path crashed = dir.resolve("crashed.h5");
        try (Hdf5File writer = Hdf5File.create(source)) {
            Dataset d = writer.root().createDataset("d", DatasetSpec.builder(Datatype.INT64, 0)
                    .maxShape(DatasetSpec.UNLIMITED).chunkShape(4).build());
            d.extend(3);
            d.write(new long[] {0}, new long[] {3}, new long[] {7, 8, 9});
            writer.flush();
            Files.copy(source, crashed); // what a killed writer leaves: the flag set
        }
        FileOpenForWritingException error = refusedUnchanged(crashed,
                FileOpenForWritingException.class, () -> Hdf5File.openForWriting(crashed));
        assertTrue(error.getMessage().contains("Hdf5File.recover"), error.getMessage());
        Hdf5File.recover(crashed);
        try (Hdf5File writer = Hdf5File.openForWriting(crashed)) {
            Dataset d = writer.root().dataset("d");
            d.extend(4);
            d.write(new long[] {3}, new long[] {1}, new long[] {10});
        }
        try (Hdf5File in = Hdf5File.open(crashed)) {
            assertArrayEquals(new long[] {7, 8, 9, 10},
                    in.root().dataset("d").readLongs(new long[] {0}, new long[] {4}));
        }
    }

    /** Superblock 2 has no "open for writing" flag to tell a crashed writer by. */
    @Test
    @StartsOutsideProgram
    void superblockTwoIsRefusedForWritingAndStillRead() throws IOException {
        Path v108 = h5pyFile("v108.h5", ", libver=('v108', 'v108')");
        UnsupportedFormatException error = refusedUnchanged(v108,
                UnsupportedFormatException.class, () -> Hdf5File.openForWriting(v108));
        assertEquals("superblock (writing)", error.structure());
        assertTrue(error.found().startsWith("version 2"), error.found());
        try (Hdf5File in = Hdf5File.open(v108)) {
            assertArrayEquals(new long[] {0, 1, 2, 3, 4, 5},
                    in.root().dataset("d").readLongs(new long[] {0}, new long[] {6}));
        }
    }

    /** A user block before the superblock (h5py's userblock_size): read, not written. */
    @Test
    void aFileWithAUserBlockIsRefusedForWriting() throws IOException {
        Path file = dir.resolve("userblock.h5");
        Files.copy(H5pyFixtures.directory("make_h5py_compat_fixtures.py")
                .resolve("userblock_latest.h5"), file);
        UnsupportedFormatException error = refusedUnchanged(file,
                UnsupportedFormatException.class, () -> Hdf5File.openForWriting(file));
        assertTrue(error.found().contains("user block"), error.getMessage());
        try (Hdf5File in = Hdf5File.open(file)) {
            assertTrue(!in.root().memberNames().isEmpty());
        }
    }

    /** A header whose messages carry creation order fields (h5py's track_order) is read only. */
    @Test
    @StartsOutsideProgram
    void aRootGroupTrackingCreationOrderIsRefusedAndLeavesNoJournal() throws IOException {
        Path file = h5pyFile("ordered.h5", ", libver='latest', track_order=True");
        UnsupportedFormatException error = refusedUnchanged(file,
                UnsupportedFormatException.class, () -> Hdf5File.openForWriting(file));
        assertTrue(error.found().contains("creation order"), error.getMessage());
        try (Hdf5File in = Hdf5File.open(file)) {
            assertEquals(List.of("d"), in.root().memberNames());
        }
    }

    @Test
    void aFileThatIsNotHdf5IsRefused() throws IOException {
        Path text = dir.resolve("notes.h5");
        Files.writeString(text, "not an HDF5 file, but long enough to hold a superblock's bytes");
        refusedUnchanged(text, WrongFormatException.class, () -> Hdf5File.openForWriting(text));
        Path empty = dir.resolve("empty.h5");
        Files.write(empty, new byte[0]);
        refusedUnchanged(empty, WrongFormatException.class, () -> Hdf5File.openForWriting(empty));
    }

    @Test
    void nothingIsCreatedOverOrTruncatedImplicitly() throws IOException {
        Path missing = dir.resolve("missing.h5");
        assertThrows(NoSuchFileException.class, () -> Hdf5File.openForWriting(missing));
        assertTrue(Files.notExists(missing));
        assertTrue(Files.notExists(Hdf5File.journalPath(missing)));
        Path existing = quireFile("existing.h5");
        byte[] before = Files.readAllBytes(existing);
        assertThrows(FileAlreadyExistsException.class, () -> Hdf5File.create(existing));
        assertArrayEquals(before, Files.readAllBytes(existing));
    }

    /**
     * libhdf5 stores more than 8 attributes densely; Quire reads them, and refuses to add one
     * there, naming the object (it adds attributes to object headers only; links to a dense
     * group: DenseGroupAddTest). Reopening and closing changes no byte.
     */
    @Test
    @StartsOutsideProgram
    void addingToDenseAttributesIsRefusedAndClosingChangesNothing() throws IOException {
        ExternalTools.requireH5py();
        Path file = dir.resolve("dense.h5");
        ExternalTools.Result result = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import sys, h5py, numpy",
                        "with h5py.File(sys.argv[1], 'w', libver='latest') as f:",
                        "    for i in range(9):",
                        "        f.create_dataset('d%d' % i, data=numpy.arange(3), chunks=(3,))",
                        "        f['d0'].attrs['a%d' % i] = i"), file.toString()), 60);
        assertEquals(0, result.exitCode(), result.output());
        byte[] before = Files.readAllBytes(file);
        try (Hdf5File writer = Hdf5File.openForWriting(file)) {
            Dataset d0 = writer.root().dataset("d0");
            UnsupportedOperationException attributes = assertThrows(
                    UnsupportedOperationException.class,
                    () -> d0.setAttribute(Attribute.of("b", 1L)));
            assertTrue(attributes.getMessage().contains("/d0")
                    && attributes.getMessage().contains("stored densely"), attributes.getMessage());
            assertArrayEquals(new long[] {0, 1, 2}, d0.readLongs(new long[] {0}, new long[] {3}));
        }
        assertArrayEquals(before, Files.readAllBytes(file));
    }
}
