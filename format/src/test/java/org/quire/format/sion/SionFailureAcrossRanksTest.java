package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.Collectives;
import org.quire.format.CorruptFileException;
import org.quire.format.DelegatingCollectives;
import org.quire.format.storage.NotARegularFileException;

/**
 * A failure one rank finds in a collective open is, on every rank, an exception of the same class
 * with the same fields; on the ranks that did not find it its cause names the rank that did.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SionFailureAcrossRanksTest {

    private static final int RANKS = 3;

    @TempDir
    Path directory;

    private Path writeThreeTasks(String fileName) throws Exception {
        Path name = directory.resolve(fileName);
        ThreadGroupCollectives.run(RANKS, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, 64,
                    SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN))) {
                writer.write(ByteBuffer.wrap(SionSerialWriterTest.pattern(collectives.rank(), 0, 50)));
            }
            return null;
        });
        return name;
    }

    private static void overwrite(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static List<IOException> openMappedOnEveryRank(Path name) throws Exception {
        return ThreadGroupCollectives.run(RANKS, collectives ->
                assertThrows(IOException.class, () -> SionParallelReader.openMapped(name, collectives)));
    }

    @Test
    void aCorruptFileFoundByRankZeroIsTheSameCorruptFileExceptionOnEveryRank() throws Exception {
        Path name = writeThreeTasks("corrupt.sion");
        overwrite(name, Meta1Layout.ENDIANNESS_OFFSET, new byte[] {1, 0, 0, 0});
        List<IOException> failures = openMappedOnEveryRank(name);

        CorruptFileException found = assertInstanceOf(CorruptFileException.class, failures.get(0));
        assertEquals(Meta1Layout.ENDIANNESS_OFFSET, found.offset());
        for (int rank = 1; rank < RANKS; rank++) {
            CorruptFileException crossed = assertInstanceOf(CorruptFileException.class, failures.get(rank));
            assertEquals(found.getClass(), crossed.getClass());
            assertEquals(found.file(), crossed.file());
            assertEquals(found.offset(), crossed.offset());
            assertEquals(found.structure(), crossed.structure());
            assertEquals(found.field(), crossed.field());
            assertEquals(found.expected(), crossed.expected());
            assertEquals(found.found(), crossed.found());
            assertEquals(found.getMessage(), crossed.getMessage());
            assertEquals("found by rank 0 while opening the SION file " + name, crossed.getCause().getMessage());
        }
    }

    @Test
    void aFileNeverClosedIsSionNotClosedOnEveryRank() throws Exception {
        Path name = writeThreeTasks("open.sion");
        overwrite(name, Meta1Layout.startOfMeta2Offset(RANKS), new byte[8]);
        for (IOException failure : openMappedOnEveryRank(name)) {
            SionNotClosedException notClosed = assertInstanceOf(SionNotClosedException.class, failure);
            assertEquals(Meta1Layout.startOfMeta2Offset(RANKS), notClosed.offset());
            assertEquals(name, notClosed.file());
        }
    }

    /**
     * The last file of a set vanishes after rank 0 read the metadata and before the rank reading
     * it opens it: that rank fails with NoSuchFileException, and so do the others.
     */
    @Test
    void oneRankFailingToOpenItsFileForReadingFailsEveryRank() throws Exception {
        Path name = directory.resolve("vanishing.sion");
        ThreadGroupCollectives.run(RANKS, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, RANKS, 64,
                    SionWriteOptions.defaults())) {
                writer.write(ByteBuffer.wrap(SionSerialWriterTest.pattern(collectives.rank(), 0, 50)));
            }
            return null;
        });
        Path last = SionFileNames.physicalFile(name, RANKS - 1);
        List<IOException> failures = ThreadGroupCollectives.run(RANKS, collectives -> {
            Collectives deletingAfterHandout = new DelegatingCollectives(collectives) {
                @Override
                public byte[] scatter(byte[][] parts, int root) {
                    byte[] part = super.scatter(parts, root);
                    if (rank() == RANKS - 1) {
                        try {
                            Files.delete(last);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                    return part;
                }
            };
            return assertThrows(IOException.class, () -> SionParallelReader.openMapped(name, deletingAfterHandout));
        });
        for (int rank = 0; rank < RANKS; rank++) {
            NoSuchFileException failure = assertInstanceOf(NoSuchFileException.class, failures.get(rank));
            assertEquals(last.toString(), failure.getFile());
            if (rank != RANKS - 1) {
                assertEquals("found by rank " + (RANKS - 1) + " while opening the SION file " + name,
                        failure.getCause().getMessage());
            }
        }
    }

    /**
     * With one file per rank, the rank creating the last file finds a directory in its place and
     * fails alone; the two others, which succeeded, fail too, with its exception.
     */
    @Test
    void oneRankFailingToCreateItsFileFailsEveryRankWithThatFailure() throws Exception {
        Path name = directory.resolve("set.sion");
        Path last = SionFileNames.physicalFile(name, RANKS - 1);
        Files.createDirectory(last);
        List<IOException> failures = ThreadGroupCollectives.run(RANKS, collectives ->
                assertThrows(IOException.class, () -> SionParallelWriter.open(name, collectives, 100, RANKS, 64,
                        SionWriteOptions.defaults())));

        List<IOException> own = failures.stream().filter(f -> !(f.getCause() instanceof CrossRankFailure.FoundByRank))
                .toList();
        assertEquals(1, own.size(), failures.toString());
        FileSystemException found = assertInstanceOf(FileSystemException.class, own.get(0));
        assertEquals(last.toString(), found.getFile());
        int finder = failures.indexOf(found);
        for (int rank = 0; rank < RANKS; rank++) {
            FileSystemException failure = assertInstanceOf(FileSystemException.class, failures.get(rank));
            assertEquals(found.getClass(), failure.getClass());
            assertEquals(found.getFile(), failure.getFile());
            assertEquals(found.getReason(), failure.getReason());
            if (rank != finder) {
                CrossRankFailure.FoundByRank origin = (CrossRankFailure.FoundByRank) failure.getCause();
                assertEquals(finder, origin.rank());
                assertEquals("found by rank " + finder + " while creating the SION file " + name,
                        origin.getMessage());
            }
        }
        assertNotEquals(0, finder, "the last file's creator is not rank 0 with one file per rank");
    }

    /**
     * Two ranks share one file: rank 0 creates it, rank 1 cannot open it for writing. Rank 0, which
     * succeeded, fails with rank 1's exception, and the name can be written again afterwards.
     */
    @Test
    void aRankFailingToOpenTheFileAnotherRankCreatedFailsEveryRank() throws Exception {
        Path name = directory.resolve("shared.sion");
        List<IOException> failures = ThreadGroupCollectives.run(2, collectives -> {
            SionWriteOptions options = SionWriteOptions.defaults();
            if (collectives.rank() == 1) {
                options = options.withStorage((path, mode) -> {
                    throw new AccessDeniedException(path.toString(), null, "opened " + mode + " by rank 1");
                });
            }
            SionWriteOptions rankOptions = options;
            return assertThrows(IOException.class, () -> SionParallelWriter.open(name, collectives, 100, 1, 64,
                    rankOptions));
        });
        for (int rank = 0; rank < 2; rank++) {
            AccessDeniedException failure = assertInstanceOf(AccessDeniedException.class, failures.get(rank));
            assertEquals(name.toString(), failure.getFile());
            assertEquals("opened READ_WRITE by rank 1", failure.getReason());
        }
        CrossRankFailure.FoundByRank origin = assertInstanceOf(CrossRankFailure.FoundByRank.class,
                failures.get(0).getCause());
        assertEquals(1, origin.rank());
        assertEquals("found by rank 1 while creating the SION file " + name, origin.getMessage());

        ThreadGroupCollectives.run(2, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, 64,
                    SionWriteOptions.defaults().withFsyncOnClose(false))) {
                writer.write(SionSerialWriterTest.pattern(collectives.rank(), 0, 30));
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name)) {
            assertArrayEquals(SionSerialWriterTest.pattern(1, 0, 30), sion.readFully(1));
        }
    }

    /**
     * Rank 0 cannot create the shared file (its directory is missing); the ranks that would open it
     * after rank 0 created it fail with rank 0's failure, not with their own "no such file".
     */
    @Test
    void aFileThatCannotBeCreatedIsTheCreatorsFailureOnEveryRank() throws Exception {
        Path name = directory.resolve("missing/x.sion");
        List<IOException> failures = ThreadGroupCollectives.run(RANKS, collectives ->
                assertThrows(IOException.class, () -> SionParallelWriter.open(name, collectives, 100, 1, 64,
                        SionWriteOptions.defaults())));
        for (int rank = 0; rank < RANKS; rank++) {
            NoSuchFileException failure = assertInstanceOf(NoSuchFileException.class, failures.get(rank));
            assertEquals(name + ": cannot create: its directory " + name.getParent() + " does not exist",
                    failure.getMessage());
            if (rank > 0) {
                assertEquals("found by rank 0 while creating the SION file " + name, failure.getCause().getMessage());
            }
        }
    }

    /** A device is refused as a container by the rank that would create it, and so on every rank. */
    @Test
    void aDeviceIsRefusedAsAContainerOnEveryRank() throws Exception {
        Path full = Path.of("/dev/full");
        List<IOException> failures = ThreadGroupCollectives.run(RANKS, collectives ->
                assertThrows(IOException.class, () -> SionParallelWriter.open(full, collectives, 100, 1, 64,
                        SionWriteOptions.defaults())));
        for (IOException failure : failures) {
            NotARegularFileException refused = assertInstanceOf(NotARegularFileException.class, failure);
            assertEquals("a character device", refused.what());
            assertEquals("/dev/full: not a regular file: a character device", refused.getMessage());
        }
    }

    /** After a collective close, every use fails on the rank alone and a second close communicates nothing. */
    @Test
    void aClosedParallelWriterRefusesWritesAndClosesOnlyOnce() throws Exception {
        Path name = directory.resolve("closed.sion");
        ThreadGroupCollectives.Board board = new ThreadGroupCollectives.Board(2);
        ThreadGroupCollectives.run(board, 2, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 1, 64,
                    SionWriteOptions.defaults().withFsyncOnClose(false));
            writer.write(SionSerialWriterTest.pattern(collectives.rank(), 0, 10));
            writer.close();
            int gathers = board.gathers.get();
            writer.close();
            assertEquals(gathers, board.gathers.get(), "a second close gathers nothing");
            for (Executable use : List.<Executable>of(() -> writer.write(new byte[1]), writer::flush,
                    () -> writer.writeKeyValue(1, ByteBuffer.allocate(1)), () -> writer.ensureFreeSpace(1))) {
                assertEquals("the SION writer is closed", assertThrows(IllegalStateException.class, use).getMessage());
            }
            return null;
        });
        try (SionFile sion = SionFile.open(name)) {
            assertEquals(10, sion.task(1).totalBytes());
            assertFalse(Files.exists(SionFileNames.journal(name)), "close removed the journal");
        }
    }
}
