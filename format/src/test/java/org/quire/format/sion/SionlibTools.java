package org.quire.format.sion;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.quire.format.hdf5.ExternalTools;

/**
 * SIONlib 1.7.6's own command-line tools ({@code siondump}, {@code sionsplit}, {@code siondefrag},
 * {@code sioncat}) as oracles: static binaries in {@code shared/tools/sionlib-1.7.6/bin} beside the
 * repository (found from the working directory upwards), or in the directory named by the
 * environment variable {@code QUIRE_SIONLIB_TOOLS}. Missing tools fail the test under CI and abort it
 * loudly elsewhere ({@link ExternalTools#missing}).
 *
 * <p>The tools exit with status 0 even when SIONlib rejects a file (they print
 * {@code SION_ERROR_RETURN ...} on stderr and go on), so every run here also requires an empty stderr.
 */
final class SionlibTools {

    private static final String LOCATION = "shared/tools/sionlib-1.7.6/bin";
    private static final int TIMEOUT_SECONDS = 120;
    /** {@code siondump -a -l}'s task line: index, bytes, global rank, chunks, capacity, then each chunk's fill. */
    private static final Pattern TASK_LINE = Pattern.compile(
            "^Task\\s+(\\d+): size=\\s*(\\d+) B glblrnk=\\s*(-?\\d+) #blks=\\s*(\\d+) lsz=\\s*(\\d+) B:((?:\\s+-?\\d+)*)\\s*$");

    /** One task as {@code siondump -a -l} lists it. */
    record DumpedTask(int index, long totalBytes, long globalRank, long chunkCapacity, long[] bytesPerChunk) {
    }

    private SionlibTools() {
    }

    /** The directory of the tools; fails or aborts the test when a tool is missing. */
    static Path directory() {
        ExternalTools.startsOutsideProgram("SIONlib's tools");
        String configured = System.getenv("QUIRE_SIONLIB_TOOLS");
        List<Path> candidates = new ArrayList<>();
        if (configured != null) {
            candidates.add(Path.of(configured));
        } else {
            for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
                candidates.add(dir.resolve(LOCATION));
            }
        }
        for (Path candidate : candidates) {
            if (List.of("siondump", "sionsplit", "siondefrag", "sioncat").stream()
                    .allMatch(tool -> Files.isExecutable(candidate.resolve(tool)))) {
                return candidate;
            }
        }
        ExternalTools.missing("SIONlib 1.7.6 tools siondump, sionsplit, siondefrag and sioncat in " + LOCATION
                + " beside the repository (looked in " + candidates + "); or set QUIRE_SIONLIB_TOOLS to their directory");
        throw new IllegalStateException("unreachable: missing() fails or aborts");
    }

    /**
     * {@code siondump -a -l FILE}: every task of the file or set, in task order. siondump prints the chunk
     * table in groups of ten chunks, each group with one line per task; the groups are joined here.
     */
    static List<DumpedTask> dump(Path file) {
        ExternalTools.Result result = ExternalTools.run(command("siondump", "-a", "-l", file.toString()),
                TIMEOUT_SECONDS);
        requireClean("siondump -a -l " + file, result);
        Map<Integer, Matcher> firstLines = new TreeMap<>();
        Map<Integer, LongStream.Builder> columns = new TreeMap<>();
        for (String line : result.stdout().split("\n")) {
            Matcher matcher = TASK_LINE.matcher(line);
            if (matcher.matches()) {
                int task = Integer.parseInt(matcher.group(1));
                firstLines.putIfAbsent(task, matcher);
                LongStream.Builder chunks = columns.computeIfAbsent(task, t -> LongStream.builder());
                Arrays.stream(matcher.group(6).trim().split("\\s+")).mapToLong(Long::parseLong).forEach(chunks::add);
            }
        }
        assertFalse(firstLines.isEmpty(), "siondump -a -l listed no task:\n" + result.output());
        List<DumpedTask> tasks = new ArrayList<>();
        firstLines.forEach((task, line) -> {
            int chunks = Integer.parseInt(line.group(4));
            long[] fills = columns.get(task).build().toArray();
            assertTrue(fills.length >= chunks, "siondump lists fewer chunks than #blks " + chunks + " for task " + task);
            tasks.add(new DumpedTask(task, Long.parseLong(line.group(2)), Long.parseLong(line.group(3)),
                    Long.parseLong(line.group(5)), Arrays.copyOf(fills, chunks)));
        });
        return tasks;
    }

    /** {@code sionsplit FILE PREFIX}: one file per task (and key, for key-value files) named PREFIX + number. */
    static void split(Path file, Path prefix) {
        requireClean("sionsplit " + file, ExternalTools.run(command("sionsplit", file.toString(), prefix.toString()),
                TIMEOUT_SECONDS));
    }

    /** {@code sioncat -t TASK FILE}: the stream of the task with index TASK. */
    static byte[] cat(Path file, int task) throws IOException {
        return catToBytes(file, "-t", Integer.toString(task), file.toString());
    }

    /** {@code sioncat -t TASK -b CHUNK FILE}: one chunk of a task. */
    static byte[] cat(Path file, int task, int chunk) throws IOException {
        return catToBytes(file, "-t", Integer.toString(task), "-b", Integer.toString(chunk), file.toString());
    }

    /** {@code siondefrag [OPTIONS] IN OUT}. */
    static void defrag(Path in, Path out, String... options) {
        List<String> arguments = new ArrayList<>(List.of(options));
        arguments.add(in.toString());
        arguments.add(out.toString());
        requireClean("siondefrag " + arguments, ExternalTools.run(command("siondefrag", arguments.toArray(String[]::new)),
                TIMEOUT_SECONDS));
    }

    private static byte[] catToBytes(Path file, String... arguments) throws IOException {
        Path out = Files.createTempFile("sioncat", ".out");
        try {
            requireClean("sioncat " + String.join(" ", arguments),
                    ExternalTools.run(command("sioncat", arguments), out, TIMEOUT_SECONDS));
            return Files.readAllBytes(out);
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static List<String> command(String tool, String... arguments) {
        List<String> command = new ArrayList<>();
        command.add(directory().resolve(tool).toString());
        command.addAll(List.of(arguments));
        return command;
    }

    private static void requireClean(String what, ExternalTools.Result result) {
        assertEquals(0, result.exitCode(), what + " failed:\n" + result.output());
        assertEquals("", result.stderr(), what + " reported errors (SIONlib's tools exit 0 even then)");
    }
}
