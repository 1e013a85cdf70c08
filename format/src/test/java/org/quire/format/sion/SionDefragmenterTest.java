package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.FullDisk;

class SionDefragmenterTest {

    @TempDir
    Path directory;

    @Test
    void defragmentingTheMixedVectorWithBlockSizeOneEqualsSiondefragsOutput() throws IOException {
        Path input = SionTestVectors.directory().resolve("serial_4tasks_mixed.sion");
        Path real = SionTestVectors.directory().resolve("defrag_of_serial_4tasks_mixed_q1.sion");
        Path ours = directory.resolve("defrag.sion");
        SionDefragmenter.defragment(input, ours, 1, false);

        SionTestVectors.assertSameBytesExceptPrefix(real, ours);
    }

    @Test
    void defragmentingASetAndAKeyValueFileKeepsEveryStreamRecordAndFlag() throws IOException {
        for (String name : new String[] {"par_5tasks_nfiles2.sion", "serial_keyval_inline.sion",
                "serial_userdata_bigendian_flag.sion"}) {
            Path input = SionTestVectors.directory().resolve(name);
            Path output = directory.resolve("defrag-" + name);
            SionDefragmenter.defragment(input, output, 512, false);
            try (SionFile before = SionFile.open(input); SionFile after = SionFile.open(output)) {
                assertEquals(1, after.physicalFiles().size(), name + ": one physical file");
                assertEquals(before.keyValueMode(), after.keyValueMode());
                assertEquals(before.userDataOrder(), after.userDataOrder());
                assertEquals(ByteOrder.nativeOrder(), after.metadataOrder());
                for (SionTask task : before.tasks()) {
                    SionTask copy = after.task(task.index());
                    assertEquals(task.globalRank(), copy.globalRank());
                    assertEquals(1, copy.chunkCount());
                    assertEquals(ChunkGeometry.alignUp(task.totalBytes(), 512), copy.chunkCapacity());
                    if (before.keyValueMode() == KeyValueMode.INLINE) {
                        // Headers are rewritten in the host's byte order: compare records, not raw bytes.
                        var records = before.keyValueRecords(task.index());
                        var copied = after.keyValueRecords(task.index());
                        assertEquals(records, copied);
                        for (KeyValueRecord record : records) {
                            assertArrayEquals(before.readRecord(task.index(), record),
                                    after.readRecord(task.index(), record));
                        }
                    } else {
                        assertArrayEquals(before.readFully(task.index()), after.readFully(task.index()), name);
                    }
                }
            }
        }
    }

    /** A disk that fills up midway leaves neither a partial output nor a changed old one behind. */
    @Test
    void aFailedDefragLeavesNoPartialOutputAndTheOldOutputAsItWas() throws IOException {
        Path input = SionTestVectors.directory().resolve("serial_4tasks_mixed.sion");
        Path output = directory.resolve("defrag.sion");
        byte[] old = "an older output".getBytes(StandardCharsets.US_ASCII);
        Files.write(output, old);
        FullDisk disk = new FullDisk(FileStorage.OPENER);
        disk.fillAfter(8192);
        IOException full = assertThrows(IOException.class,
                () -> SionDefragmenter.defragment(input, output, 1, false, disk));
        assertTrue(full.getMessage().contains("No space left on device") && full.getMessage()
                .contains(SionFileNames.partial(output).toString()), "the write aside failed: " + full.getMessage());
        assertArrayEquals(old, Files.readAllBytes(output));
        assertFalse(Files.exists(SionFileNames.partial(output)), "the partial output is removed");

        disk.free();
        Files.write(SionFileNames.partial(output), old); // left by a defrag killed midway
        SionDefragmenter.defragment(input, output, 1, false, disk);
        assertFalse(Files.exists(SionFileNames.partial(output)));
        try (SionFile defragmented = SionFile.open(output)) {
            assertEquals(output.toString(), defragmented.physicalFiles().get(0).meta1().fixedPart().prefix(),
                    "the stored name is the output's, not the partial file's");
        }
    }
}
