package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.quire.format.CorruptFileException;

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
 * reader sees one whole version or the previous one, never a torn record.
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
        Files.writeString(temporary, encode(), StandardCharsets.UTF_8);
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
        String text;
        try {
            text = Files.readString(record, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
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
        if (mode == null || fields.get("host") == null) {
            throw new CorruptFileException(record, 0, "writer record", "mode and host lines",
                    "'mode write' or 'mode swmr' and 'host NAME'", text.replace('\n', '|'));
        }
        return new WriterRecord(number(record, fields, "pid"), fields.get("host"), mode,
                number(record, fields, "since"), number(record, fields, "beat"),
                number(record, fields, "beat-time"));
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

    /** Whether the heartbeat is older than {@link #STALE_AFTER_MILLIS} at {@code nowMillis}. */
    boolean stale(long nowMillis) {
        return nowMillis - beatMillis > STALE_AFTER_MILLIS;
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
