package org.quire.examples.versions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The side log of the kill test's writer: one line per step, each forced to disk before the
 * writer goes on, so the checker knows what the writer had started and what had returned:
 * <pre>
 * BEGIN COMMIT v000012        before VersionedFile.commit
 * DONE COMMIT v000012         after it returned
 * BEGIN DELETE v000001 v000003  before deleteVersions
 * DONE DELETE v000001 v000003   after it returned
 * </pre>
 * A kill may cut the last line short; {@link #completeLines} ignores it and
 * {@link #dropCutLine} removes it before the next writer appends.
 */
final class VersionLog implements AutoCloseable {

    enum Kind { COMMIT, DELETE }

    /** One line: BEGIN or DONE of a commit (one name) or a delete (its names). */
    record Entry(boolean done, Kind kind, List<String> names) {

        static Entry parse(String line) {
            String[] words = line.split(" ");
            if (words.length < 3 || !words[0].matches("BEGIN|DONE")
                    || !words[1].matches("COMMIT|DELETE")) {
                throw new IllegalArgumentException("not a version log line: \"" + line + "\"");
            }
            return new Entry(words[0].equals("DONE"), Kind.valueOf(words[1]),
                    List.of(words).subList(2, words.length));
        }

        String line() {
            return (done ? "DONE " : "BEGIN ") + kind + " " + String.join(" ", names);
        }
    }

    private final FileChannel channel;

    VersionLog(Path path) throws IOException {
        channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
    }

    /** Appends {@code entry} and forces it to disk. */
    void append(Entry entry) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap((entry.line() + "\n").getBytes(StandardCharsets.US_ASCII));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        channel.force(false);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** The complete lines of the log at {@code path} (none if it does not exist). */
    static List<Entry> completeLines(Path path) throws IOException {
        if (!Files.exists(path)) {
            return List.of();
        }
        String text = Files.readString(path, StandardCharsets.US_ASCII);
        List<Entry> entries = new ArrayList<>();
        for (String line : text.substring(0, text.lastIndexOf('\n') + 1).lines().toList()) {
            entries.add(Entry.parse(line));
        }
        return entries;
    }

    /** Cuts the log after its last complete line (a killed writer may have left half a line). */
    static void dropCutLine(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        byte[] bytes = Files.readAllBytes(path);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        if (end < bytes.length) {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.truncate(end);
                channel.force(false);
            }
        }
    }
}
