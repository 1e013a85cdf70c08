package org.quire.format.sion;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.quire.format.ChecksumMismatchException;
import org.quire.format.CorruptFileException;
import org.quire.format.FormatException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.WrongFormatException;
import org.quire.format.storage.NotARegularFileException;
import org.quire.format.storage.StorageIOException;

/**
 * A failure one rank found, encoded so that every other rank of a collective step throws an
 * exception of the same class with the same fields: a {@link CorruptFileException} found by rank
 * 0 is a {@code CorruptFileException} with the same file, offset, structure, field, expected and
 * found on every rank. Not Java serialization: a type tag and the fields the class exposes.
 *
 * <p>Wire form (big-endian; a string is an int32 byte count, -1 for null, then UTF-8):
 * <pre>
 * +--------------+-------------+-------------------+--------------+-----+
 * | int32 rank   | string tag  | int32 field count | string field | ... |
 * | that found it| (see KINDS) |                   |              |     |
 * +--------------+-------------+-------------------+--------------+-----+
 * </pre>
 *
 * <p>A subclass not in {@link #KINDS} crosses as the nearest class that is (a subclass of
 * {@code CorruptFileException} as a {@code CorruptFileException} with all its fields); any other
 * exception as an {@link IOException} naming its class and message. On the ranks that receive it,
 * the exception's cause ({@link FoundByRank}) says which rank found it and in which step. A report
 * that does not decode (cut short, trailing bytes, an unknown tag, the wrong number of fields for
 * its tag, a field its class rejects: a damaged message or a peer of another version) is a
 * {@link MalformedReportException}.
 */
final class CrossRankFailure {

    private CrossRankFailure() {
    }

    /**
     * How one exception class crosses: its tag, how many fields it sends, the fields and how to
     * build it from them.
     */
    private record Kind<T extends Throwable>(String tag, Class<T> type, int fieldCount,
                                              Function<T, List<String>> fields,
                                              Function<List<String>, Exception> rebuild) {

        List<String> fieldsOf(Throwable failure) {
            return fields.apply(type.cast(failure));
        }
    }

    /** Most specific first: the first kind the failure is an instance of encodes it. */
    private static final List<Kind<?>> KINDS = List.of(
            new Kind<>("sion-not-closed", SionNotClosedException.class, 3,
                    e -> strings(e.file(), e.offset(), e.journal()),
                    f -> new SionNotClosedException(path(f.get(0)), Long.parseLong(f.get(1)), path(f.get(2)))),
            new Kind<>("sion-recovery-refused", SionRecoveryRefusedException.class, 3,
                    e -> strings(e.file(), e.reason(), e.detail()),
                    f -> new SionRecoveryRefusedException(path(f.get(0)),
                            SionRecoveryRefusedException.Reason.valueOf(f.get(1)), f.get(2))),
            new Kind<>("checksum-mismatch", ChecksumMismatchException.class, 6,
                    e -> strings(e.file(), e.offset(), e.structure(), e.stored(), e.computed(), e.object()),
                    f -> new ChecksumMismatchException(path(f.get(0)), Long.parseLong(f.get(1)), f.get(2),
                            Integer.parseInt(f.get(3)), Integer.parseInt(f.get(4)), f.get(5))),
            new Kind<>("corrupt-file", CorruptFileException.class, 7,
                    e -> strings(e.file(), e.offset(), e.structure(), e.field(), e.expected(), e.found(),
                            e.object()),
                    f -> new CorruptFileException(path(f.get(0)), Long.parseLong(f.get(1)), f.get(2), f.get(3),
                            f.get(4), f.get(5), f.get(6))),
            new Kind<>("unsupported-format", UnsupportedFormatException.class, 5,
                    e -> strings(e.file(), e.structure(), e.offset(), e.found(), e.supported()),
                    f -> new UnsupportedFormatException(path(f.get(0)), f.get(1), Long.parseLong(f.get(2)),
                            f.get(3), f.get(4))),
            new Kind<>("wrong-format", WrongFormatException.class, 3,
                    e -> strings(e.file(), e.format(), e.found()),
                    f -> new WrongFormatException(path(f.get(0)), f.get(1), f.get(2))),
            new Kind<>("format", FormatException.class, 2,
                    e -> strings(e.file(), e.detail()),
                    f -> new FormatException(path(f.get(0)), f.get(1))),
            new Kind<>("no-such-file", NoSuchFileException.class, 3,
                    e -> strings(e.getFile(), e.getOtherFile(), e.getReason()),
                    f -> new NoSuchFileException(f.get(0), f.get(1), f.get(2))),
            new Kind<>("access-denied", AccessDeniedException.class, 3,
                    e -> strings(e.getFile(), e.getOtherFile(), e.getReason()),
                    f -> new AccessDeniedException(f.get(0), f.get(1), f.get(2))),
            new Kind<>("file-already-exists", FileAlreadyExistsException.class, 3,
                    e -> strings(e.getFile(), e.getOtherFile(), e.getReason()),
                    f -> new FileAlreadyExistsException(f.get(0), f.get(1), f.get(2))),
            new Kind<>("not-a-regular-file", NotARegularFileException.class, 2,
                    e -> strings(e.getFile(), e.what()),
                    f -> new NotARegularFileException(f.get(0), f.get(1))),
            new Kind<>("file-system", FileSystemException.class, 3,
                    e -> strings(e.getFile(), e.getOtherFile(), e.getReason()),
                    f -> new FileSystemException(f.get(0), f.get(1), f.get(2))),
            new Kind<>("storage-io", StorageIOException.class, 4,
                    e -> strings(e.file(), e.operation(), e.offset(), e.reason()),
                    f -> new StorageIOException(path(f.get(0)), f.get(1), Long.parseLong(f.get(2)), f.get(3))),
            new Kind<>("illegal-argument", IllegalArgumentException.class, 1,
                    e -> strings(e.getMessage()),
                    f -> new IllegalArgumentException(f.get(0))),
            new Kind<>("illegal-state", IllegalStateException.class, 1,
                    e -> strings(e.getMessage()),
                    f -> new IllegalStateException(f.get(0))),
            new Kind<>("other", Throwable.class, 1,
                    e -> strings(e.getClass().getName() + ": " + e.getMessage()),
                    f -> new IOException(f.get(0))));

    /** The cause of a failure rethrown on a rank that did not find it. */
    static final class FoundByRank extends IOException {
        private final int rank;

        FoundByRank(int rank, String step) {
            super("found by rank " + rank + " while " + step);
            this.rank = rank;
        }

        /** The rank that found the failure. */
        int rank() {
            return rank;
        }
    }

    /** {@code failure}, found by {@code rank}, in wire form. */
    static byte[] encode(int rank, Throwable failure) {
        Kind<?> kind = KINDS.stream().filter(k -> k.type().isInstance(failure)).findFirst().orElseThrow();
        List<String> fields = kind.fieldsOf(failure);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(rank);
            writeString(out, kind.tag());
            out.writeInt(fields.size());
            for (String field : fields) {
                writeString(out, field);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory", e);
        }
        return bytes.toByteArray();
    }

    /**
     * A failure report that does not decode: the message names the step, the rank that sent it
     * and the tag when they could be read, and what is wrong with it.
     */
    static final class MalformedReportException extends IOException {
        MalformedReportException(String step, Integer rank, String tag, String problem) {
            super("malformed failure report while " + step + " (from rank "
                    + (rank == null ? "unreadable" : rank) + ", tag "
                    + (tag == null ? "unreadable" : tag) + "): " + problem);
        }
    }

    /** What is wrong with a report, said by the decoder before the sender and tag are attached. */
    private static final class Malformed extends Exception {
        Malformed(String problem) {
            super(problem, null, false, false);
        }
    }

    /**
     * Throws the failure {@code encoded} describes: the same class with the same fields, its cause
     * naming the rank that found it during {@code step} ("opening the SION file x").
     *
     * @throws MalformedReportException when {@code encoded} is not a report this version decodes
     */
    static void rethrow(byte[] encoded, String step) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(encoded);
        Integer rank = null;
        String tag = null;
        Exception failure;
        try {
            rank = readInt(in, "sending rank");
            tag = readString(in, "tag");
            if (tag == null) {
                throw new Malformed("the tag is null");
            }
            String known = tag;
            Kind<?> kind = KINDS.stream().filter(k -> k.tag().equals(known)).findFirst()
                    .orElseThrow(() -> new Malformed("unknown tag; known: "
                            + KINDS.stream().map(Kind::tag).toList()));
            int count = readInt(in, "field count");
            if (count != kind.fieldCount()) {
                throw new Malformed(count + " fields, the tag has " + kind.fieldCount());
            }
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                fields.add(readString(in, "field " + i));
            }
            if (in.hasRemaining()) {
                throw new Malformed(in.remaining() + " bytes after the last field");
            }
            try {
                failure = kind.rebuild().apply(fields);
            } catch (RuntimeException e) {
                throw new Malformed("fields " + fields + " rejected: " + e);
            }
        } catch (Malformed e) {
            throw new MalformedReportException(step, rank, tag, e.getMessage());
        }
        failure.initCause(new FoundByRank(rank, step));
        if (failure instanceof IOException io) {
            throw io;
        }
        throw (RuntimeException) failure;
    }

    private static List<String> strings(Object... values) {
        return Arrays.stream(values).map(v -> v == null ? null : v.toString()).toList();
    }

    private static Path path(String value) {
        return value == null ? null : Path.of(value);
    }

    private static void writeString(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static int readInt(ByteBuffer in, String what) throws Malformed {
        if (in.remaining() < Integer.BYTES) {
            throw new Malformed("cut short at byte " + in.position() + " of " + in.limit() + ": no room for the "
                    + what);
        }
        return in.getInt();
    }

    private static String readString(ByteBuffer in, String what) throws Malformed {
        int length = readInt(in, "length of the " + what);
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.remaining()) {
            throw new Malformed("the " + what + " has length " + length + " at byte " + (in.position() - Integer.BYTES)
                    + ", " + in.remaining() + " bytes remain");
        }
        ByteBuffer bytes = in.slice(in.position(), length);
        in.position(in.position() + length);
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("the " + what + " is not UTF-8");
        }
    }
}
