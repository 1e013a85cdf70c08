package org.quire.format.versioned;

import java.time.Instant;

/**
 * A committed version: its name, its parent's ({@code "__first_version__"} for a version
 * staged empty) and when it was committed (UTC, to the microsecond).
 */
public record VersionInfo(String name, String parent, Instant timestamp) {

    /** Whether the version was staged empty, with no parent version. */
    public boolean isFirst() {
        return parent.equals(VersionDataLayout.FIRST_VERSION);
    }
}
