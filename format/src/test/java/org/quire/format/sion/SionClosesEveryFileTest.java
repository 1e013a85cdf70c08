package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.CorruptFileException;
import org.quire.format.storage.StorageOpener;
import org.quire.format.storage.TrackingOpener;

/** Every file a SION operation opens is closed again, whether the operation succeeds or fails. */
class SionClosesEveryFileTest {

    private static final int RANKS = 3;

    @TempDir
    Path directory;

    /** A set of two files written by three ranks with the journal on, all flushed; left unclosed (a crash) if asked. */
    private Path writeSet(String fileName, boolean leaveOpen) throws Exception {
        Path name = directory.resolve(fileName);
        ThreadGroupCollectives.run(RANKS, collectives -> {
            SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 2, 64,
                    SionWriteOptions.defaults().withMetadataOrder(ByteOrder.LITTLE_ENDIAN).withFsyncOnClose(false));
            writer.write(SionSerialWriterTest.pattern(collectives.rank(), 0, 40));
            writer.flush();
            if (!leaveOpen) {
                writer.close();
            }
            return null;
        });
        return name;
    }

    @Test
    void readersCloseTheirFilesAfterSuccessAndAfterACorruptMember() throws Exception {
        Path name = writeSet("read.sion", false);
        TrackingOpener opener = new TrackingOpener();
        SionFile.open(name, opener).close();
        assertEquals(List.of(), opener.stillOpen());

        ThreadGroupCollectives.run(RANKS, collectives -> {
            SionParallelReader.openMapped(name, collectives, opener).close();
            return null;
        });
        assertEquals(List.of(), opener.stillOpen());

        Path member = SionFileNames.physicalFile(name, 1);
        byte[] bytes = Files.readAllBytes(member);
        bytes[Meta1Layout.ENDIANNESS_OFFSET + 1] ^= 1; // bytes 1 and 2 of the word differ: corrupt
        Files.write(member, bytes);
        assertThrows(CorruptFileException.class, () -> SionFile.open(name, opener));
        assertEquals(List.of(), opener.stillOpen(), "file 0, read before the corrupt member, is closed too");
    }

    @Test
    void aParallelReaderWhoseRankCannotOpenItsFileClosesWhatTheOthersOpened() throws Exception {
        Path name = writeSet("denied.sion", false);
        TrackingOpener tracking = new TrackingOpener();
        Path member = SionFileNames.physicalFile(name, 1);
        List<IOException> failures = ThreadGroupCollectives.run(RANKS, collectives -> {
            StorageOpener opener = collectives.rank() == RANKS - 1
                    ? (path, mode) -> {
                        if (path.equals(member)) {
                            throw new AccessDeniedException(path.toString());
                        }
                        return tracking.open(path, mode);
                    }
                    : tracking;
            return assertThrows(IOException.class, () -> SionParallelReader.openMapped(name, collectives, opener));
        });
        for (IOException failure : failures) {
            assertInstanceOf(AccessDeniedException.class, failure);
        }
        assertEquals(List.of(), tracking.stillOpen());
    }

    @Test
    void writersCloseFilesAndJournalsAtCloseAndWhenARankFailsToOpen() throws Exception {
        Path name = directory.resolve("write.sion");
        TrackingOpener tracking = new TrackingOpener();
        ThreadGroupCollectives.run(RANKS, collectives -> {
            try (SionParallelWriter writer = SionParallelWriter.open(name, collectives, 100, 2, 64,
                    SionWriteOptions.defaults().withStorage(tracking).withFsyncOnClose(false))) {
                writer.write(ByteBuffer.allocate(10));
            }
            return null;
        });
        assertEquals(List.of(), tracking.stillOpen());

        Path member = SionFileNames.physicalFile(name, 1);
        ThreadGroupCollectives.run(RANKS, collectives -> {
            StorageOpener opener = collectives.rank() == RANKS - 1
                    ? (path, mode) -> {
                        if (path.equals(member)) {
                            throw new AccessDeniedException(path.toString());
                        }
                        return tracking.open(path, mode);
                    }
                    : tracking;
            assertThrows(AccessDeniedException.class, () -> SionParallelWriter.open(name, collectives, 100, 2, 64,
                    SionWriteOptions.defaults().withStorage(opener)));
            return null;
        });
        assertEquals(List.of(), tracking.stillOpen(), "the files and journals the other ranks opened are closed");

        // File 1 cannot be created: the creator of file 0 closes the file and journal it had created.
        ThreadGroupCollectives.run(RANKS, collectives -> {
            StorageOpener opener = (path, mode) -> {
                if (path.equals(member)) {
                    throw new AccessDeniedException(path.toString());
                }
                return tracking.open(path, mode);
            };
            assertThrows(AccessDeniedException.class, () -> SionParallelWriter.open(name, collectives, 100, 2, 64,
                    SionWriteOptions.defaults().withStorage(opener)));
            return null;
        });
        assertEquals(List.of(), tracking.stillOpen(), "file 0 and its journal are closed");
    }

    @Test
    void recoveryClosesEveryFileAndJournal() throws Exception {
        Path name = writeSet("crashed.sion", true);
        TrackingOpener opener = new TrackingOpener();
        SionRecoveryReport report = SionRecovery.recover(name, SionRecoveryMode.EVERY_RECORD, opener);
        assertEquals(3 * 40, report.totalBytes());
        assertEquals(List.of(), opener.stillOpen());
        assertThrows(SionRecoveryRefusedException.class,
                () -> SionRecovery.recover(name, SionRecoveryMode.EVERY_RECORD, opener), "already closed");
        assertEquals(List.of(), opener.stillOpen());
    }
}
