package org.quire.launcher.sion;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quire.format.sion.MiniJson;
import org.quire.format.sion.SionTestVectors;
import org.quire.launcher.QuireCommand;
import org.quire.launcher.RequiredTool;
import org.quire.launcher.sion.ExpectedSionSet.ExpectedTask;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** quire sion dump, text and JSON, on every real SIONlib file, against sionlib-testvectors.json. */
class SionDumpIT {

    /** META1 fields, derived offsets and the trailer, named as in the vectors' files_meta. */
    private static final List<String> HEADER_FIELDS = List.of("file_size", "version", "version_patchlevel",
            "fileformat_version", "fsblksize", "ntasks", "nfiles", "filenumber", "flag1", "flag2", "keyvalmode", "prefix",
            "maxchunks", "start_of_varheader", "meta1_size", "start_of_data", "globalskip", "meta2_end", "mapping_size");

    private static final Pattern MAPPING_ENTRY = Pattern.compile("task (\\d+) -> file (\\d+), local rank (\\d+)");

    @TempDir
    Path directory;

    @Test
    void jsonDumpOfEveryFileIsValidJsonHoldingEveryFieldAndTask() throws Exception {
        Path python = RequiredTool.require("python3", "python3");
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            QuireCommand.Result result = SionTool.run("dump", "--json", set.name().toString());
            assertSucceededQuietly(result);
            Path json = directory.resolve(set.fileName() + ".json");
            Files.writeString(json, result.stdout());
            QuireCommand.Result check = QuireCommand.runProcess(
                    new ProcessBuilder(python.toString(), "-m", "json.tool", json.toString()), SionTool.LIMIT);
            assertEquals(0, check.exitCode(), "python3 -m json.tool rejects the dump of " + set.fileName() + ": " + check);

            Map<?, ?> dump = (Map<?, ?>) MiniJson.parse(result.stdout());
            assertEquals(false, dump.get("member_alone"));
            List<?> files = (List<?>) dump.get("files");
            assertEquals(set.files().size(), files.size(), set.fileName());
            for (int file = 0; file < files.size(); file++) {
                Map<?, ?> dumped = (Map<?, ?>) files.get(file);
                Map<String, Object> expected = set.files().get(file);
                for (String field : HEADER_FIELDS) {
                    assertEquals(expected.get(field), dumped.get(field), set.fileName() + " file " + file + " " + field);
                }
                assertEndianness(expected, (String) dumped.get("endianness_word"));
                Object expectedMapping = expected.getOrDefault("mapping", List.of());
                assertEquals(expectedMapping, dumped.get("mapping"), set.fileName() + " mapping");
            }
            assertTasks(set.tasks(), jsonTasks((List<?>) dump.get("tasks")), set.fileName());
        }
    }

    @Test
    void textDumpOfEveryFileShowsEveryFieldAndTask() throws Exception {
        for (ExpectedSionSet set : ExpectedSionSet.all()) {
            QuireCommand.Result result = SionTool.run("dump", set.name().toString());
            assertSucceededQuietly(result);
            TextDump dump = TextDump.parse(result.stdout());
            assertEquals(set.files().size(), dump.files.size(), set.fileName() + "\n" + result.stdout());
            for (int file = 0; file < dump.files.size(); file++) {
                Map<String, String> dumped = dump.files.get(file);
                Map<String, Object> expected = set.files().get(file);
                for (String field : HEADER_FIELDS) {
                    Object value = expected.get(field);
                    assertEquals(value == null ? "-" : value.toString(), dumped.get(field),
                            set.fileName() + " file " + file + " " + field);
                }
                assertEndianness(expected, dumped.get("endianness_word"));
                assertEquals(expected.getOrDefault("mapping", List.of()), dump.mappings.get(file), set.fileName());
            }
            assertTasks(set.tasks(), dump.tasks, set.fileName());
        }
    }

    @Test
    void aLaterFileOfASetIsDumpedAloneWithItsOwnTasks() throws Exception {
        ExpectedSionSet set = ExpectedSionSet.named("par_5tasks_nfiles2.sion");
        Map<String, Object> member = set.files().get(1);
        Path memberPath = SionTestVectors.directory().resolve((String) member.get("file"));
        QuireCommand.Result result = SionTool.run("dump", "--json", memberPath.toString());
        assertSucceededQuietly(result);
        Map<?, ?> dump = (Map<?, ?>) MiniJson.parse(result.stdout());
        assertEquals(true, dump.get("member_alone"));
        List<ExpectedTask> expected = new ArrayList<>();
        for (int localRank = 0; localRank < 3; localRank++) {
            expected.add(ExpectedSionSet.task(localRank, member, 1, localRank));
        }
        assertTasks(expected, jsonTasks((List<?>) dump.get("tasks")), memberPath.getFileName().toString());

        QuireCommand.Result text = SionTool.run("dump", memberPath.toString());
        assertSucceededQuietly(text);
        assertTrue(text.stdoutLines().get(0).endsWith(": physical file 1 of a SION set of 2 files, read alone: 3 of the"
                + " set's tasks (open file 0 for all)"), text.toString());
        assertTasks(expected, TextDump.parse(text.stdout()).tasks, memberPath.getFileName().toString());
    }

    static void assertSucceededQuietly(QuireCommand.Result result) {
        assertEquals(0, result.exitCode(), result.toString());
        assertEquals("", result.stderr(), "stderr must stay clean when it is not a terminal: " + result);
    }

    private static void assertEndianness(Map<String, Object> expected, String dumped) {
        assertEquals(expected.get("endianness_word_hex"), dumped.replace(" ", ""), "endianness word");
    }

    /** Rows as {task, global_rank, file, local_rank, capacity, chunks, total_bytes, bytes_per_chunk..., offsets...}. */
    private static void assertTasks(List<ExpectedTask> expected, List<Row> dumped, String what) {
        assertEquals(expected.size(), dumped.size(), what + " tasks");
        for (int i = 0; i < expected.size(); i++) {
            ExpectedTask task = expected.get(i);
            Row row = dumped.get(i);
            String label = what + " task " + i;
            assertArrayEquals(new long[] {task.index(), task.globalRank(), task.file(), task.localRank(), task.capacity(),
                task.bytesPerChunk().length, task.totalBytes()}, row.numbers, label);
            assertArrayEquals(task.bytesPerChunk(), row.bytesPerChunk, label + " bytes per chunk");
            assertArrayEquals(task.chunkOffsets(), row.chunkOffsets, label + " chunk offsets");
        }
    }

    private record Row(long[] numbers, long[] bytesPerChunk, long[] chunkOffsets) {
    }

    private static List<Row> jsonTasks(List<?> tasks) {
        List<Row> rows = new ArrayList<>();
        for (Object entry : tasks) {
            Map<?, ?> task = (Map<?, ?>) entry;
            long[] numbers = List.of("task", "global_rank", "file", "local_rank", "capacity", "chunks", "total_bytes")
                    .stream().mapToLong(name -> SionTestVectors.asLong(task.get(name))).toArray();
            rows.add(new Row(numbers, SionTestVectors.longs(task.get("bytes_per_chunk")),
                    SionTestVectors.longs(task.get("chunk_offsets"))));
        }
        return rows;
    }

    /** The text form read back: {@code name value} lines per physical file, the mapping, the task table. */
    private static final class TextDump {
        final List<Map<String, String>> files = new ArrayList<>();
        final List<List<List<Long>>> mappings = new ArrayList<>();
        final List<Row> tasks = new ArrayList<>();

        static TextDump parse(String text) {
            TextDump dump = new TextDump();
            List<String> lines = text.lines().toList();
            int line = 1;
            while (line < lines.size()) {
                String current = lines.get(line++);
                if (current.startsWith("physical file ")) {
                    Map<String, String> fields = new LinkedHashMap<>();
                    List<List<Long>> mapping = new ArrayList<>();
                    for (; line < lines.size() && !lines.get(line).isEmpty(); line++) {
                        String field = lines.get(line);
                        Matcher entry = MAPPING_ENTRY.matcher(field);
                        if (entry.find()) {
                            mapping.add(List.of(Long.parseLong(entry.group(2)), Long.parseLong(entry.group(3))));
                        }
                        if (field.startsWith("  ") && !field.startsWith("   ")) {
                            String[] nameAndValue = field.strip().split("\\s+", 2);
                            fields.put(nameAndValue[0], nameAndValue[1]);
                        }
                    }
                    dump.files.add(fields);
                    dump.mappings.add(mapping);
                } else if (current.equals("tasks")) {
                    assertEquals("task global_rank file local_rank capacity chunks total_bytes bytes_per_chunk"
                            + " chunk_offsets", lines.get(line++).strip().replaceAll("\\s+", " "));
                    for (; line < lines.size(); line++) {
                        String[] cells = lines.get(line).strip().split("\\s+");
                        assertEquals(9, cells.length, lines.get(line));
                        long[] numbers = Arrays.stream(cells, 0, 7).mapToLong(Long::parseLong).toArray();
                        dump.tasks.add(new Row(numbers, list(cells[7]), list(cells[8])));
                    }
                }
            }
            return dump;
        }

        private static long[] list(String commaSeparated) {
            return Arrays.stream(commaSeparated.split(",")).mapToLong(Long::parseLong).toArray();
        }
    }
}
