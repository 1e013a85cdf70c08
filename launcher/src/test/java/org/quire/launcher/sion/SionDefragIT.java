package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.MiniJson;
import org.quire.format.sion.SionTestVectors;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.sion.ExpectedSionSet.ExpectedTask;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** quire sion defrag: siondefrag's output for the same input, and files that verify and keep every stream. */
class SionDefragIT {

    @TempDir
    Path directory;

    @Test
    void defragWithBlockSizeOneEqualsSiondefragsOutputAndVerifies() throws Exception {
        Path input = SionTestVectors.directory().resolve("serial_4tasks_mixed.sion");
        Path output = directory.resolve("defrag.sion");
        SionDumpIT.assertSucceededQuietly(SionTool.run("defrag", "--block-size", "1", "--no-fsync", input.toString(),
                output.toString()));
        SionTestVectors.assertSameBytesExceptPrefix(
                SionTestVectors.directory().resolve("defrag_of_serial_4tasks_mixed_q1.sion"), output);
        SionDumpIT.assertSucceededQuietly(SionTool.run("verify", "--data", output.toString()));
    }

    @Test
    void defragOfEveryFileKeepsEveryStreamInOneChunkPerTaskAlignedAsTheInput() throws Exception {
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            Path output = directory.resolve("defrag-" + set.fileName());
            SionDumpIT.assertSucceededQuietly(SionTool.run("defrag", set.name().toString(), output.toString()));
            SionDumpIT.assertSucceededQuietly(SionTool.run("verify", "--data", output.toString()));

            QuireCommand.Result dump = SionTool.run("dump", "--json", output.toString());
            SionDumpIT.assertSucceededQuietly(dump);
            Map<?, ?> parsed = (Map<?, ?>) MiniJson.parse(dump.stdout());
            Map<?, ?> file = (Map<?, ?>) ((List<?>) parsed.get("files")).get(0);
            assertEquals(set.files().get(0).get("fsblksize"), file.get("fsblksize"), "block size of the input by default");
            assertEquals(set.files().get(0).get("keyvalmode"), file.get("keyvalmode"));
            assertEquals(1L, file.get("maxchunks"), set.fileName());

            Path prefix = directory.resolve("split-" + set.fileName() + "-");
            SionDumpIT.assertSucceededQuietly(SionTool.run("split", "--task-index", output.toString(), prefix.toString()));
            // Key-value record headers are rewritten in this host's byte order (the vectors' is little-endian).
            if (!set.fileName().contains("keyval") || ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
                for (ExpectedTask task : set.tasks()) {
                    assertEquals(task.streamSha256(),
                            SionCatSplitIT.sha256(Path.of(prefix + String.format("%05d", task.index()))),
                            set.fileName() + " task " + task.index());
                }
            }
        }
    }

    @Test
    void defragOntoItsInputIsRefused() throws Exception {
        Path copy = directory.resolve("in.sion");
        Files.copy(SionTestVectors.directory().resolve("serial_4tasks_mixed.sion"), copy);
        QuireCommand.Result result = SionTool.run("defrag", copy.toString(), copy.toString());
        assertEquals(2, result.exitCode(), result.toString());
        assertEquals(List.of("quire sion defrag: OUT " + copy + " is IN; write to another file",
                "see quire sion defrag --help"), result.stderr().lines().toList());
    }
}
