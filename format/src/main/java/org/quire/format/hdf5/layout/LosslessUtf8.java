package org.quire.format.hdf5.layout;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Names stored as bytes (link, attribute and heap names: libhdf5 checks no encoding) as Java
 * strings without loss: valid UTF-8 decodes as itself, and each byte that is not part of valid
 * UTF-8 becomes the lone surrogate U+DC00 + byte (U+DC80 to U+DCFF, which valid UTF-8 never
 * decodes to; Python's "surrogateescape"). {@link #encode} gives the stored bytes back, so two
 * names that differ in an invalid byte stay two names, and comparing or hashing the encoded
 * name compares or hashes what libhdf5 stored.
 */
public final class LosslessUtf8 {

    private static final char ESCAPE_BASE = 0xDC00;
    private static final char FIRST_ESCAPE = 0xDC80;
    private static final char LAST_ESCAPE = 0xDCFF;

    private LosslessUtf8() {
    }

    /** The name {@code length} bytes at {@code offset} of {@code bytes} hold. */
    public static String decode(byte[] bytes, int offset, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (CharacterCodingException e) {
            return decodeEscaping(bytes, offset, length);
        }
    }

    public static String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    private static String decodeEscaping(byte[] bytes, int offset, int length) {
        StringBuilder text = new StringBuilder(length);
        int i = offset;
        int end = offset + length;
        while (i < end) {
            int sequence = validSequenceLength(bytes, i, end);
            if (sequence == 0) {
                text.append((char) (ESCAPE_BASE | (bytes[i] & 0xff)));
                i++;
            } else {
                text.append(new String(bytes, i, sequence, StandardCharsets.UTF_8));
                i += sequence;
            }
        }
        return text.toString();
    }

    /** Bytes of the valid UTF-8 sequence at {@code i}, or 0 if there is none. */
    private static int validSequenceLength(byte[] bytes, int i, int end) {
        int lead = bytes[i] & 0xff;
        int length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2
                : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
        if (length == 0 || i + length > end) {
            return 0;
        }
        if (length == 1) {
            return 1;
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, i, length));
            return length;
        } catch (CharacterCodingException e) {
            return 0;
        }
    }

    /** The stored bytes of {@code name}: UTF-8, each escaped byte as itself. */
    public static byte[] encode(String name) {
        if (!hasEscapes(name)) {
            return name.getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(name.length() + 8);
        int runStart = 0;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (isEscape(c)) {
                bytes.writeBytes(name.substring(runStart, i).getBytes(StandardCharsets.UTF_8));
                bytes.write(c & 0xff);
                runStart = i + 1;
            }
        }
        bytes.writeBytes(name.substring(runStart).getBytes(StandardCharsets.UTF_8));
        return bytes.toByteArray();
    }

    /** Whether {@code c} stands for a stored byte that is not valid UTF-8. */
    public static boolean isEscape(char c) {
        return c >= FIRST_ESCAPE && c <= LAST_ESCAPE;
    }

    private static boolean hasEscapes(String name) {
        for (int i = 0; i < name.length(); i++) {
            if (isEscape(name.charAt(i))) {
                return true;
            }
        }
        return false;
    }
}
