package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.SuperblockV3;
import org.quire.format.storage.FullDisk;
import org.quire.format.storage.TrackingOpener;

/**
 * What an {@link Hdf5File} allows in each state (closed, read-only, writing, SWMR writing, SWMR
 * reading), and which superblock consistency flags (byte 11 of a version 3 superblock: b0 open
 * for writing, b2 open for SWMR writing) a reader and an SWMR reader accept, on files Quire
 * wrote in this JVM (the flags of a closed file set by hand, as a writer that died leaves them).
 */
class Hdf5FileStateMutationGapsTest {

    private static final int FLAGS = 11;

    @TempDir
    Path dir;

    private Path closedFile(String name) throws IOException {
        Path path = dir.resolve(name);
        try (Hdf5File file = Hdf5File.create(path)) {
            file.root().createGroup("g");
        }
        return path;
    }

    /** The file with {@code flags} in its superblock, the checksum recomputed. */
    private static void setFlags(Path path, int flags) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        bytes[FLAGS] = (byte) flags;
        int checksum = JenkinsLookup3.checksum(bytes, 0, SuperblockV3.SIZE - 4);
        for (int i = 0; i < 4; i++) {
            bytes[SuperblockV3.SIZE - 4 + i] = (byte) (checksum >>> (8 * i));
        }
        Files.write(path, bytes);
    }

    @Test
    void aClosedFileRefusesFlushSwmrWritingAndRefresh() throws IOException {
        Path path = dir.resolve("closed.h5");
        Hdf5File file = Hdf5File.create(path);
        file.close();
        for (org.junit.jupiter.api.function.Executable use
                : new org.junit.jupiter.api.function.Executable[] {file::flush,
                        file::startSwmrWrite, file::refresh}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, use);
            assertEquals(path + " is closed", e.getMessage());
        }
    }

    @Test
    void onlyAWritableFileStartsSwmrWritingAndOnlyOnce() throws IOException {
        Path path = closedFile("states.h5");
        try (Hdf5File reader = Hdf5File.open(path)) {
            assertFalse(reader.isWritable());
            assertFalse(reader.isSwmrReader());
            assertEquals(0, reader.metadataReadRetries());
            assertEquals(Map.of(), reader.metadataReadRetriesByStructure());
            assertEquals(path + " was not opened with Hdf5File.openSwmr",
                    assertThrows(IllegalStateException.class, reader::refresh).getMessage());
            assertEquals(path + " is open read-only: SWMR writing needs Hdf5File.create or "
                    + "openForWriting", assertThrows(IllegalStateException.class,
                    reader::startSwmrWrite).getMessage());
        }
        try (Hdf5File writer = Hdf5File.openForWriting(path)) {
            assertTrue(writer.isWritable());
            assertFalse(writer.isSwmrWriting());
            assertEquals(0x01, Files.readAllBytes(path)[FLAGS]);
            writer.startSwmrWrite();
            assertTrue(writer.isSwmrWriting());
            // Published before readers may follow: open for writing and for SWMR writing.
            assertEquals(0x05, Files.readAllBytes(path)[FLAGS]);
            assertEquals(path + " is already open for SWMR writing", assertThrows(
                    IllegalStateException.class, writer::startSwmrWrite).getMessage());
            assertEquals(WriterStatus.State.ALIVE, Hdf5File.writerStatus(path).state());
        }
        assertEquals(0, Files.readAllBytes(path)[FLAGS]);
        assertEquals(WriterStatus.State.NO_WRITER, Hdf5File.writerStatus(path).state());
    }

    /** A dead SWMR writer's flags (0x05, or b2 alone): followed by an SWMR reader, refused by a reader. */
    @Test
    void anSwmrReaderFollowsAFileFlaggedForSwmrWritingAndAReaderDoesNot() throws IOException {
        for (int flags : new int[] {0x05, 0x04}) {
            Path path = closedFile("swmr-" + flags + ".h5");
            setFlags(path, flags);
            assertThrows(FileOpenForWritingException.class, () -> Hdf5File.open(path).close());
            try (Hdf5File follower = Hdf5File.openSwmr(path)) {
                assertTrue(follower.isSwmrReader());
                assertEquals(0, follower.metadataReadRetries());
                assertEquals(Map.of(), follower.metadataReadRetriesByStructure());
                follower.refresh();
                assertTrue(follower.root().contains("g"));
            }
        }
    }

    /** Open for writing by a writer that was not an SWMR writer (0x01): no reader follows it. */
    @Test
    void aFileFlaggedForPlainWritingIsRefusedToBothReaders() throws IOException {
        Path path = closedFile("plain-writer.h5");
        setFlags(path, 0x01);
        assertThrows(FileOpenForWritingException.class, () -> Hdf5File.open(path).close());
        FileOpenForWritingException e = assertThrows(FileOpenForWritingException.class,
                () -> Hdf5File.openSwmr(path).close());
        assertTrue(e.getMessage().contains(", not by an SWMR writer, so an SWMR reader cannot "
                + "follow it"), e.getMessage());
    }

    /**
     * An SWMR reader does not check the end of file address (libhdf5's SWMR writer leaves it
     * stale); a plain reader refuses a file shorter than it.
     */
    @Test
    void onlyAPlainReaderChecksTheEndOfFileAddress() throws IOException {
        Path path = closedFile("short.h5");
        byte[] bytes = Files.readAllBytes(path);
        Files.write(path, Arrays.copyOf(bytes, bytes.length - 1));
        assertThrows(org.quire.format.CorruptFileException.class,
                () -> Hdf5File.open(path).close());
        try (Hdf5File follower = Hdf5File.openSwmr(path)) {
            assertTrue(follower.isSwmrReader());
        }
    }

    @Test
    void aCreateThatFailsOnAFullDiskClosesEveryFileItOpened() throws IOException {
        Path path = dir.resolve("full.h5");
        TrackingOpener tracking = new TrackingOpener();
        FullDisk disk = new FullDisk(tracking);
        disk.fillAfter(0);
        IOException e = assertThrows(IOException.class, () -> Hdf5File.create(path, disk));
        assertTrue(e.getMessage().startsWith("No space left on device"), e.getMessage());
        assertEquals(List.of(), tracking.stillOpen(), "the file and its journal closed");
    }

    @Test
    void aCloseThatFailsOnAFullDiskReleasesTheFileForRecover() throws IOException {
        Path path = dir.resolve("failed-close.h5");
        TrackingOpener tracking = new TrackingOpener();
        FullDisk disk = new FullDisk(tracking);
        Hdf5File file = Hdf5File.create(path, disk);
        file.root().createGroup("kept");
        file.flush();
        file.root().createGroup("maybe");
        disk.fillAfter(0);
        assertThrows(IOException.class, file::flush);
        assertThrows(IOException.class, file::close); // the disk is still full
        disk.free();
        assertEquals(List.of(), tracking.stillOpen(), "the file and its journal closed");
        Hdf5File.recover(path);
        try (Hdf5File read = Hdf5File.open(path)) {
            assertTrue(read.root().contains("kept"));
        }
    }
}
