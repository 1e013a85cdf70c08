package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.quire.format.CorruptFileException;
import org.quire.format.storage.FileStorage;
import org.quire.format.storage.OpenMode;
import org.quire.format.storage.Storage;

/**
 * The writer record {@code <file>.qwriter} a Quire writer keeps beside an HDF5 file it has
 * open: who it is, in which mode since when, and a heartbeat it renews every second; it is
 * removed at close. A reader, a refused opener or {@code quire h5 ls} reads it to say who holds
 * the file and whether that writer is alive, without talking to it. Layout (docs/swmr.md,
 * "Open rules and locks"), UTF-8 text, one {@code key value} per line, in this order:
 *
 * <pre>
 * quire-writer 1            format and version
 * pid 4242                  the writer's process id
 * host node17               its host name
 * mode swmr                 "write" (plain writer) or "swmr" (SWMR writer)
 * since 1764093662123       when it opened the file, ms since the epoch
 * beat 17                   heartbeat counter: 0 at open, +1 every second
 * beat-time 1764093679123   wall time of that beat, ms since the epoch
 * </pre>
 *
 * Each version is written to {@code <file>.qwriter.tmp} and renamed over the record, so a
 * reader sees one whole version or the previous one, never a torn record. Each version is
 * written through the storage seam's real files ({@link FileStorage}), never a test's simulated
 * storage: a writer of simulated files keeps no record (its beats would make the recorded writes
 * depend on time).
 */
record WriterRecord(long pid, String host, Mode mode, long sinceMillis, long beat,
                    long beatMillis) {

    /** What kind of writer holds the file. */
    enum Mode {
        WRITE("write", "writer"), SWMR("swmr", "SWMR writer");

        final String code;
        final String description;

        Mode(String code, String description) {
            this.code = code;
            this.description = description;
        }

        static Mode of(String code) {
            for (Mode mode : values()) {
                if (mode.code.equals(code)) {
                    return mode;
                }
            }
            return null;
        }
    }

    static final String FORMAT = "quire-writer";
    static final int VERSION = 1;
    /** A heartbeat older than this is stale: the writer stopped beating (about 3 missed). */
    static final long STALE_AFTER_MILLIS = 3_000;
    /** A record is a few lines; anything longer is not one. */
    static final int MAX_BYTES = 4096;
    /** What a host name may hold (it is printed in messages). */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]{1,253}");

    /** Where the record of the HDF5 file {@code file} is. */
    static Path pathOf(Path file) {
        return file.resolveSibling(file.getFileName() + ".qwriter");
    }

    /** This host's name, as records name it. */
    static final String THIS_HOST = hostName();

    /** This process's record, at beat 0. */
    static WriterRecord ofThisProcess(Mode mode, long nowMillis) {
        return new WriterRecord(ProcessHandle.current().pid(), THIS_HOST, mode, nowMillis, 0,
                nowMillis);
    }

    WriterRecord nextBeat(long nowMillis) {
        return new WriterRecord(pid, host, mode, sinceMillis, beat + 1, nowMillis);
    }

    WriterRecord inMode(Mode newMode, long nowMillis) {
        return new WriterRecord(pid, host, newMode, sinceMillis, beat + 1, nowMillis);
    }

    String encode() {
        return FORMAT + " " + VERSION + "\n"
                + "pid " + pid + "\n"
                + "host " + host + "\n"
                + "mode " + mode.code + "\n"
                + "since " + sinceMillis + "\n"
                + "beat " + beat + "\n"
                + "beat-time " + beatMillis + "\n";
    }

    /** Replaces the record beside {@code file} with this one, atomically where the OS can. */
    void write(Path file) throws IOException {
        Path record = pathOf(file);
        Path temporary = record.resolveSibling(record.getFileName() + ".tmp");
        // A new file each time (O_EXCL): never written through a link another user planted.
        Files.deleteIfExists(temporary);
        try (Storage storage = FileStorage.open(temporary, OpenMode.CREATE_NEW)) {
            storage.write(StandardCharsets.UTF_8.encode(encode()), 0);
        }
        try {
            Files.move(temporary, record, StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, record, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Removes the record beside {@code file}, if any. */
    static void remove(Path file) throws IOException {
        Files.deleteIfExists(pathOf(file));
    }

    /**
     * The record beside {@code file}, or null when there is none.
     *
     * @throws CorruptFileException the record is not one this version writes
     */
    static WriterRecord read(Path file) throws IOException {
        Path record = pathOf(file);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(record, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return null;
        }
        // Checked before opening: opening a FIFO would wait for a writer forever.
        if (!attributes.isRegularFile() || attributes.size() > MAX_BYTES) {
            throw new CorruptFileException(record, 0, "writer record", "file",
                    "a regular file of at most " + MAX_BYTES + " bytes",
                    attributes.isRegularFile() ? attributes.size() + " bytes"
                            : attributes.isSymbolicLink() ? "a symbolic link" : "not a regular file");
        }
        String text;
        try {
            text = text(record);
        } catch (NoSuchFileException e) {
            return null; // removed since the check: its writer closed the file
        }
        Map<String, String> fields = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                fields.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        if (!String.valueOf(VERSION).equals(fields.get(FORMAT))) {
            throw new CorruptFileException(record, 0, "writer record", "first line",
                    "'" + FORMAT + " " + VERSION + "'", "'" + text.lines().findFirst().orElse("")
                    + "'");
        }
        Mode mode = Mode.of(fields.get("mode"));
        if (mode == null || fields.get("host") == null || !HOST.matcher(fields.get("host")).matches()) {
            throw new CorruptFileException(record, 0, "writer record", "mode and host lines",
                    "'mode write' or 'mode swmr' and 'host NAME' (letters, digits, '.', '-', '_')",
                    "other lines");
        }
        return new WriterRecord(number(record, fields, "pid"), fields.get("host"), mode,
                number(record, fields, "since"), number(record, fields, "beat"),
                number(record, fields, "beat-time"));
    }

    /** The record's bytes as strict UTF-8, at most {@link #MAX_BYTES} of them. */
    private static String text(Path record) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(MAX_BYTES + 1);
        // Not through the storage seam: FileStorage ties what it opens to the path (device and
        // inode before and after the open, for its locks) and refuses a path another file took
        // meanwhile, but this record is renamed over and removed while readers read it, and a
        // reader must take whichever version it opened.
        try (FileChannel channel = FileChannel.open(record, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read until full or at its end
            }
        }
        if (!bytes.hasRemaining()) {
            throw new CorruptFileException(record, MAX_BYTES, "writer record", "end",
                    "at most " + MAX_BYTES + " bytes", "more");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes.flip()).toString();
        } catch (CharacterCodingException e) {
            throw new CorruptFileException(record, 0, "writer record", "text", "UTF-8 text",
                    "other bytes");
        }
    }

    private static long number(Path record, Map<String, String> fields, String key)
            throws CorruptFileException {
        String value = fields.get(key);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new CorruptFileException(record, 0, "writer record", key + " line",
                    "'" + key + " NUMBER'", value == null ? "no such line" : "'" + value + "'");
        }
    }

    /**
     * Whether the heartbeat is older than {@link #STALE_AFTER_MILLIS} at {@code nowMillis}, or
     * that far in the future (a record no live writer of a sane clock wrote: it must not keep
     * a dead writer "alive" forever).
     */
    boolean stale(long nowMillis) {
        return Math.abs(nowMillis - beatMillis) > STALE_AFTER_MILLIS;
    }

    /** "SWMR writer, pid 4242 on node17, open since 2026-11-25T18:01:02Z, last beat 0.4 s ago". */
    String describe(long nowMillis) {
        return mode.description + ", pid " + pid + " on " + host + ", open since "
                + Instant.ofEpochMilli(sinceMillis) + ", last beat "
                + String.format(Locale.ROOT, "%.1f", (nowMillis - beatMillis) / 1000.0)
                + " s ago";
    }

    /** The kernel's host name (no name service lookup), else Java's. */
    private static String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
            if (!name.isEmpty()) {
                return name;
            }
        } catch (IOException e) {
            // not Linux: ask Java
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }
}
