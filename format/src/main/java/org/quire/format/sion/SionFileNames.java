package org.quire.format.sion;

import java.nio.file.Path;

/**
 * Names of the physical files of a set (reference section 2.5): {@code name}, {@code name.000001},
 * ...; and of Quire's recovery journal beside each of them (see {@link SionJournalLayout}).
 */
public final class SionFileNames {

    private SionFileNames() {
    }

    /** Physical file {@code fileNumber} of the set opened as {@code name}. */
    public static Path physicalFile(Path name, int fileNumber) {
        if (fileNumber == 0) {
            return name;
        }
        return name.resolveSibling(name.getFileName() + String.format(".%06d", fileNumber));
    }

    /**
     * Where a tool writes {@code output} before renaming it into place, so that a failure leaves
     * no partial output under the real name: {@code name.partial}, beside it (same file system).
     */
    public static Path partial(Path output) {
        return output.resolveSibling(output.getFileName() + ".partial");
    }

    /** The recovery journal of {@code physicalFile}: {@code name.journal}, {@code name.000001.journal}, ... */
    public static Path journal(Path physicalFile) {
        return physicalFile.resolveSibling(physicalFile.getFileName() + ".journal");
    }
}
