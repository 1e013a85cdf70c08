package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
}
