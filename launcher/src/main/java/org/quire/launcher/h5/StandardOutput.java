package org.quire.launcher.h5;

import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Standard output, buffered and in UTF-8 whatever the platform's default charset. */
final class StandardOutput {

    private StandardOutput() {
    }

    /** A writer over {@code System.out}; flush it before returning. */
    static PrintWriter open() {
        return new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out,
                StandardCharsets.UTF_8), 1 << 16));
    }
}
