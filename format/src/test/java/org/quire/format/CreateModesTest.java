package org.quire.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.FileHeldByReadersException;
import org.quire.format.hdf5.FileLockedException;
import org.quire.format.hdf5.Hdf5File;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionSerialWriter;
import org.quire.format.sion.SionWriteOptions;
import org.quire.format.storage.CreateMode;
import org.quire.format.storage.FileInUseException;

/**
 * The one create mode both formats offer: refuse an existing file, or replace it, but never one a
 * writer has open, and never by truncating what a reader is reading.
 */
class CreateModesTest {

    @TempDir
    Path directory;

    private static final byte[] OLD = "the old file".getBytes(StandardCharsets.US_ASCII);

    private static SionSerialWriter sionWriter(Path file, CreateMode mode) throws IOException {
        return SionSerialWriter.create(file, new long[] {64}, new long[] {0}, 64,
                SionWriteOptions.defaults().withFsyncOnClose(false).withCreateMode(mode));
    }

    @Test
    void failIfExistsLeavesAnExistingFileOfEitherFormatAlone() throws IOException {
        Path sion = Files.write(directory.resolve("a.sion"), OLD);
        assertEquals(sion + ": cannot create: it exists already", assertThrows(FileAlreadyExistsException.class,
                () -> sionWriter(sion, CreateMode.FAIL_IF_EXISTS)).getMessage());
        assertArrayEquals(OLD, Files.readAllBytes(sion));
        Path h5 = Files.write(directory.resolve("a.h5"), OLD);
        assertThrows(FileAlreadyExistsException.class, () -> Hdf5File.create(h5, CreateMode.FAIL_IF_EXISTS));
        assertThrows(FileAlreadyExistsException.class, () -> Hdf5File.create(h5), "create(path) keeps refusing");
        assertArrayEquals(OLD, Files.readAllBytes(h5));
    }

    @Test
    void replaceGivesANewFileAndAReaderOfTheOldOneKeepsItsBytes() throws IOException {
        Path sion = Files.write(directory.resolve("b.sion"), OLD);
        Path h5 = Files.write(directory.resolve("b.h5"), OLD);
        try (FileChannel sionReader = FileChannel.open(sion); FileChannel h5Reader = FileChannel.open(h5)) {
            try (SionSerialWriter writer = sionWriter(sion, CreateMode.REPLACE)) {
                writer.write(ByteBuffer.wrap(new byte[] {7}));
            }
            Hdf5File.create(h5, CreateMode.REPLACE).close();
            for (FileChannel reader : List.of(sionReader, h5Reader)) {
                ByteBuffer old = ByteBuffer.allocate(OLD.length);
                reader.read(old, 0);
                assertArrayEquals(OLD, old.array(), "the reader's file was not truncated under it");
            }
        }
        try (SionFile replaced = SionFile.open(sion)) {
            assertArrayEquals(new byte[] {7}, replaced.readFully(0));
        }
        try (Hdf5File replaced = Hdf5File.open(h5)) {
            assertEquals(List.of(), replaced.root().memberNames());
        }
    }

    @Test
    void replaceRefusesAFileAWriterHasOpenAndChangesNothing() throws IOException {
        Path sion = directory.resolve("c.sion");
        try (SionSerialWriter writing = sionWriter(sion, CreateMode.FAIL_IF_EXISTS)) {
            byte[] before = Files.readAllBytes(sion);
            FileInUseException inUse = assertThrows(FileInUseException.class,
                    () -> sionWriter(sion, CreateMode.REPLACE));
            assertEquals(sion + ": cannot replace: another open file holds a lock on it (a writer, or a "
                    + "reader of an HDF5 file); nothing was changed", inUse.getMessage());
            assertArrayEquals(before, Files.readAllBytes(sion));
            writing.write(ByteBuffer.wrap(new byte[] {1, 2}));
        }
        try (SionFile written = SionFile.open(sion)) {
            assertArrayEquals(new byte[] {1, 2}, written.readFully(0), "the first writer finished undisturbed");
        }
        Path h5 = directory.resolve("c.h5");
        try (Hdf5File writing = Hdf5File.create(h5)) {
            String message = assertThrows(FileLockedException.class,
                    () -> Hdf5File.create(h5, CreateMode.REPLACE)).getMessage();
            assertTrue(message.contains("locked by another writer (writer, pid "
                    + ProcessHandle.current().pid()), message);
            assertThrows(FileInUseException.class, () -> sionWriter(h5, CreateMode.REPLACE),
                    "the lock is the same for both formats");
        }
        Hdf5File.open(h5).close();
    }

    @Test
    void replacingAnHdf5FileOnlyReadersHoldNamesTheReaders() throws IOException {
        Path h5 = directory.resolve("read.h5");
        Hdf5File.create(h5).close();
        byte[] before = Files.readAllBytes(h5);
        try (Hdf5File reader = Hdf5File.openSwmr(h5)) {
            String message = assertThrows(FileHeldByReadersException.class,
                    () -> Hdf5File.create(h5, CreateMode.REPLACE)).getMessage();
            assertEquals(h5 + ": file is open for reading by SWMR readers (they share its SWMR "
                    + "reader byte's lock); nothing was changed; open it for writing when they "
                    + "have closed it", message);
            assertArrayEquals(before, Files.readAllBytes(h5));
        }
        try (Hdf5File plain = Hdf5File.open(h5)) {
            assertThrows(FileHeldByReadersException.class,
                    () -> Hdf5File.create(h5, CreateMode.REPLACE));
        }
        Hdf5File.create(h5, CreateMode.REPLACE).close();
    }
}
