package org.quire.format.hdf5;

import java.nio.charset.StandardCharsets;

/** Text of a string element from its bytes, in the character set its type names. */
final class Strings {

    private Strings() {
    }

    /** {@code bytes} decoded as UTF-8 or ASCII (bytes that are not, as U+FFFD). */
    static String decode(Datatype type, byte[] bytes) {
        boolean utf8 = type instanceof Datatype.StringType fixed ? fixed.utf8()
                : ((Datatype.VariableLengthStringType) type).utf8();
        return new String(bytes, utf8 ? StandardCharsets.UTF_8 : StandardCharsets.US_ASCII);
    }
}
