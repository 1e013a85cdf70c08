package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quire.format.StartsOutsideProgram;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.JenkinsLookup3;
import org.quire.format.hdf5.layout.SuperblockV0;

/**
 * {@link Hdf5File#recover} of files whose superblock lies after a user block, and whose
 * superblock points to an extension: it changes only the consistency flags and the end of file
 * address, and keeps counting the address as the file stores it.
 */
class RecoverAfterUserBlockTest {

    private static final int FLAGS = 11;
    private static final int FLAGS_V0 = 20;
    private static final int END_OF_FILE_V0 = 40;
    private static final int END_OF_FILE = 28;
    private static final int CHECKSUM = 44;

    @TempDir
    Path dir;

    /**
     * libhdf5's SWMR writer (h5py) SIGKILLed after a flush leaves flags 0x05 in a file with a
     * 512-byte user block: recover writes exactly what libhdf5's {@code h5clear -s} writes, and
     * libhdf5 appends to the file after it.
     */
    @Test
    @StartsOutsideProgram
    void aKilledSwmrWritersFileAfterAUserBlockIsClearedAsH5clearClearsIt() throws Exception {
        ExternalTools.requireTool("h5clear");
        Path file = dir.resolve("killed.h5");
        byte[] left = killedSwmrWriter(file, "userblock_size=512");
        assertEquals(0x05, left[512 + FLAGS], "flags an SWMR writer leaves");
        Path byH5clear = dir.resolve("h5clear.h5");
        Files.write(byH5clear, left);
        ExternalTools.Result cleared = ExternalTools.run(List.of("h5clear", "-s",
                byH5clear.toString()), 60);
        assertEquals(0, cleared.exitCode(), cleared.output());

        assertEquals(new Recovery(0x05, left.length, left.length, 0), Hdf5File.recover(file));

        assertArrayEquals(Files.readAllBytes(byH5clear), Files.readAllBytes(file));
        readsBackAndTakesLibhdf5sAppend(file);
    }

    /**
     * The same with a superblock extension (a persistent free-space manager) after a 1024-byte
     * user block: recover keeps the extension as the writer left it (h5clear rewrites its
     * free-space message when libhdf5 closes the file) and changes the flags and the checksum
     * only.
     */
    @Test
    @StartsOutsideProgram
    void aKilledSwmrWritersSuperblockExtensionIsKept() throws Exception {
        Path file = dir.resolve("killed.h5");
        byte[] left = killedSwmrWriter(file,
                "userblock_size=1024, fs_strategy='fsm', fs_persist=True");
        int superblock = 1024;
        assertEquals(0x05, left[superblock + FLAGS], "flags an SWMR writer leaves");

        assertEquals(new Recovery(0x05, left.length, left.length, 0), Hdf5File.recover(file));

        byte[] expected = left.clone();
        ByteBuffer fields = ByteBuffer.wrap(expected, superblock, CHECKSUM + 4).slice()
                .order(ByteOrder.LITTLE_ENDIAN);
        fields.put(FLAGS, (byte) 0);
        fields.putInt(CHECKSUM, JenkinsLookup3.checksum(expected, superblock, CHECKSUM));
        assertArrayEquals(expected, Files.readAllBytes(file));
        readsBackAndTakesLibhdf5sAppend(file);
    }

    /** The bytes an h5py SWMR writer with file options {@code options} leaves when killed. */
    private static byte[] killedSwmrWriter(Path file, String options) throws IOException {
        ExternalTools.requireH5py();
        ExternalTools.Result killed = ExternalTools.run(List.of(ExternalTools.PYTHON.toString(),
                "-c", String.join("\n", "import os, signal, sys, h5py, numpy",
                        "f = h5py.File(sys.argv[1], 'w', libver='latest', " + options + ")",
                        "d = f.create_dataset('x', shape=(0,), maxshape=(None,), chunks=(4,),"
                                + " dtype='i4')",
                        "f.swmr_mode = True",
                        "d.resize((8,)); d[:] = numpy.arange(8); f.flush()",
                        "os.kill(os.getpid(), signal.SIGKILL)"), file.toString()), 60);
        assertEquals(128 + 9, killed.exitCode(), "killed by SIGKILL: " + killed.output());
        return Files.readAllBytes(file);
    }

    /** Quire reads the flushed 0..7; libhdf5 opens the file for writing and appends 8..11. */
    private static void readsBackAndTakesLibhdf5sAppend(Path file) throws IOException {
        try (Hdf5File reopened = Hdf5File.open(file)) {
            assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, reopened.root().dataset("x")
                    .readInts(new long[] {0}, new long[] {8}));
        }
        ExternalTools.Result appended = ExternalTools.run(List.of(
                ExternalTools.PYTHON.toString(), "-c", String.join("\n", "import sys, h5py",
                        "with h5py.File(sys.argv[1], 'r+') as f:",
                        "    f['x'].resize((12,)); f['x'][8:] = [8, 9, 10, 11]",
                        "print(list(h5py.File(sys.argv[1], 'r')['x'][:]))"), file.toString()),
                60);
        assertEquals("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]", appended.stdout().strip(),
                appended.output());
    }

    /**
     * h5py's committed files with a superblock after a user block: written with it (stored
     * base address = the superblock's offset) or put before the finished file (stored base 0,
     * every stored address counted without the block), superblock 0 and 3. Left with flags
     * "open for writing" and an end of file address short of the file (or Quire's writing
     * guard), recover gives back the file h5py wrote, byte for byte.
     */
    @ParameterizedTest
    @CsvSource({"userblock_512.h5, 512, 0, short", "userblock_512.h5, 512, 0, guard",
            "userblock_latest.h5, 1024, 3, short", "prepended_512.h5, 512, 0, short",
            "prepended_512.h5, 512, 0, guard", "prepended_512_latest.h5, 512, 3, short"})
    void aCrashedWritersFlagsAndEndOfFileGoAndNothingElseChanges(String name, int superblock,
            int version, String endOfFile) throws IOException {
        byte[] written = Files.readAllBytes(H5pyFixtures.committed(H5pyFixtures.COMPAT, name));
        byte[] crashed = written.clone();
        ByteBuffer fields = ByteBuffer.wrap(crashed, superblock, written.length - superblock)
                .slice().order(ByteOrder.LITTLE_ENDIAN);
        int endAt = version == 0 ? END_OF_FILE_V0 : END_OF_FILE;
        long storedEnd = fields.getLong(endAt);
        fields.putLong(endAt, endOfFile.equals("guard") ? SuperblockV0.WRITING_GUARD
                : storedEnd - 100);
        if (version == 0) {
            fields.putInt(FLAGS_V0, SuperblockV0.FLAG_OPEN_FOR_WRITE);
        } else {
            fields.put(FLAGS, (byte) 0x05);
            fields.putInt(CHECKSUM, JenkinsLookup3.checksum(crashed, superblock, CHECKSUM));
        }
        Path file = dir.resolve(name);
        Files.write(file, crashed);

        Recovery recovery = Hdf5File.recover(file);

        assertEquals(version == 0 ? 0x01 : 0x05, recovery.consistencyFlags());
        assertEquals(written.length, recovery.endOfFileAfter());
        assertArrayEquals(written, Files.readAllBytes(file));
    }

    /**
     * Superblock 2 after a user block is refused as at offset 0 (its version is read where the
     * superblock lies, not at the start of the file) before the journal beside it is looked
     * at, nothing written.
     */
    @Test
    void aVersion2SuperblockAfterAUserBlockIsRefusedUnchanged() throws IOException {
        byte[] v108 = Files.readAllBytes(
                H5pyFixtures.committed(H5pyFixtures.LEGACY, "ranks_v108.h5"));
        byte[] prepended = new byte[512 + v108.length];
        System.arraycopy(v108, 0, prepended, 512, v108.length);
        Path file = dir.resolve("v108.h5");
        Files.write(file, prepended);
        byte[] journal = KilledWriters.afterCommittingTheSecondFlush(Path.of("other.h5"))
                .files().get(Hdf5File.journalPath(Path.of("other.h5")));
        Files.write(Hdf5File.journalPath(file), journal);
        UnsupportedFormatException e = assertThrows(UnsupportedFormatException.class,
                () -> Hdf5File.recover(file));
        assertTrue(e.getMessage().contains("superblock (recovering) at offset 512: found "
                + "version 2"), e.getMessage());
        assertArrayEquals(prepended, Files.readAllBytes(file));
        assertArrayEquals(journal, Files.readAllBytes(Hdf5File.journalPath(file)));
    }
}
