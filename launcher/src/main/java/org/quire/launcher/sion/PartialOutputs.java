package org.quire.launcher.sion;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

import org.quire.format.sion.SionFileNames;

/**
 * The output files of one command, written aside ({@link SionFileNames#partial}: {@code name.partial})
 * and renamed to their names only when all are complete: a command that fails midway (a full disk,
 * a damaged input found late) leaves none of its outputs behind, and files it would replace stay as
 * they were.
 */
final class PartialOutputs {

    private final Set<Path> outputs = new LinkedHashSet<>();

    /** Creates (or truncates) the partial file of {@code output}, and {@code output}'s missing directories. */
    FileChannel create(Path output) throws IOException {
        if (output.getParent() != null) {
            Files.createDirectories(output.getParent());
        }
        FileChannel partial = FileChannel.open(SionFileNames.partial(output), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        outputs.add(output); // only now is the partial file this command's to remove
        return partial;
    }

    /** Appends to the partial file of {@code output}, which {@link #create} made. */
    FileChannel append(Path output) throws IOException {
        return FileChannel.open(SionFileNames.partial(output), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }

    /** Every output complete: each partial file takes its output's name. */
    void publish() throws IOException {
        for (Path output : outputs) {
            Files.move(SionFileNames.partial(output), output, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }
        outputs.clear();
    }

    /** The command failed with {@code failure}: every partial file is removed. */
    void discard(Throwable failure) {
        for (Path output : outputs) {
            try {
                Files.deleteIfExists(SionFileNames.partial(output));
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
        outputs.clear();
    }
}
