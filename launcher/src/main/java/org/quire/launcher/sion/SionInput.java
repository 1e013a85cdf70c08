package org.quire.launcher.sion;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.quire.format.sion.KeyValueMode;
import org.quire.format.sion.SionFile;
import org.quire.launcher.InputFile;
import org.quire.launcher.UsageException;
import picocli.CommandLine;
import picocli.CommandLine.Parameters;

/** The SION file or set a {@code quire sion} tool reads, a picocli mixin. */
final class SionInput extends InputFile {

    @Parameters(index = "0", paramLabel = "FILE", description = "the SION file (file 0 of a set)")
    private Path file;

    @Override
    public Path file() {
        return file;
    }

    /**
     * A usage error, {@code problem} followed by "FILE has key-value mode M", unless {@code sion}
     * is a key-value (inline) file.
     */
    void requireKeyValueFile(SionFile sion, String problem) {
        if (sion.keyValueMode() != KeyValueMode.INLINE) {
            throw new CommandLine.ParameterException(spec().commandLine(), problem + file
                    + " has key-value mode " + sion.keyValueMode().name().toLowerCase(Locale.ROOT));
        }
    }

    /** {@link #run} with the set FILE opened ({@link SionFile#open}) and closed after {@code work}. */
    int runOnOpenSet(OnOpenSet work) {
        return run(() -> {
            try (SionFile sion = SionFile.open(file)) {
                return work.run(sion);
            }
        });
    }

    /** A tool's work on the set, opened. */
    @FunctionalInterface
    interface OnOpenSet {
        int run(SionFile sion) throws IOException, UsageException;
    }
}
