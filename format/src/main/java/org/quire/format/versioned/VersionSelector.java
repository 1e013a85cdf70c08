package org.quire.format.versioned;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.NoSuchElementException;

/**
 * How a user names a version, in the catalog and on the command line:
 *
 * <ul>
 *   <li>{@code latest}: the current version;</li>
 *   <li>{@code ~N}: N steps up the parent chain from the current version ({@code ~0} is
 *       {@code latest}, {@code ~1} its parent), as git's {@code HEAD~N};</li>
 *   <li>{@code @TIME}: the latest version committed at or before an ISO-8601 time,
 *       {@code @2030-01-01T12:00:00Z}; without an offset the time is UTC;</li>
 *   <li>{@code =NAME}: the version named exactly NAME, for names another tool committed that
 *       read as one of the above ({@code =latest}, {@code =~1});</li>
 *   <li>anything else: a version name.</li>
 * </ul>
 *
 * <p>{@link #requireVersionName} keeps new names reachable as themselves.
 */
public final class VersionSelector {

    public static final String LATEST = "latest";
    private static final String EXACT = "=";

    private VersionSelector() {
    }

    /**
     * The version {@code selector} names in {@code file}.
     *
     * @throws IllegalArgumentException the selector is malformed ({@code ~x}, a bad time)
     * @throws NoSuchElementException   no version fits: a missing name, no commit yet, every
     *                                  version later than the time, fewer ancestors than N
     */
    public static VersionInfo resolve(VersionedFile file, String selector) throws IOException {
        if (selector.equals(LATEST)) {
            return back(file, 0, selector);
        }
        if (selector.startsWith("~")) {
            return back(file, stepsBack(selector), selector);
        }
        if (selector.startsWith("@")) {
            return file.versionAt(time(selector.substring(1)));
        }
        if (selector.startsWith(EXACT)) {
            return file.version(selector.substring(EXACT.length()));
        }
        return file.version(selector);
    }

    /**
     * Refuses a name for a new version that a selector would not reach as itself: blank, a
     * selector form ({@code latest}, {@code ~...}, {@code @...}, {@code =...}), or what is no
     * version group name (a '/' nests groups, {@code .} and {@code ..} are path steps, and
     * {@code __first_version__} is versioned-hdf5's empty parent, reference note §2).
     *
     * @throws IllegalArgumentException naming the name and the rule it breaks
     */
    public static void requireVersionName(String name) {
        String rule = null;
        if (name.isBlank()) {
            rule = "it is blank";
        } else if (name.equals(LATEST) || name.startsWith("~") || name.startsWith("@")
                || name.startsWith(EXACT)) {
            rule = "it reads as a selector (latest, ~N, @TIME, =NAME)";
        } else if (name.contains("/") || name.equals(".") || name.equals("..")) {
            rule = "a version name has no '/' and is not . or ..";
        } else if (name.equals(VersionDataLayout.FIRST_VERSION)) {
            rule = "it is the empty parent every first version has";
        }
        if (rule != null) {
            throw new IllegalArgumentException("\"" + name + "\" is not a name for a new version: " + rule);
        }
    }

    private static VersionInfo back(VersionedFile file, int steps, String selector) throws IOException {
        try {
            return file.version(steps);
        } catch (IndexOutOfBoundsException e) {
            // The same refusal as a missing name or time: no version fits.
            throw new NoSuchElementException(steps == 0
                    ? file.path() + ": no version " + selector + ": nothing committed yet" : e.getMessage());
        }
    }

    private static int stepsBack(String selector) {
        String digits = selector.substring(1);
        if (!digits.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException("version \"" + selector
                    + "\": expected ~ and a number of steps back, like ~1");
        }
        return Integer.parseInt(digits);
    }

    /** An ISO-8601 instant; a local date-time (no offset) is UTC. */
    static Instant time(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException withOffset) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException local) {
                throw new IllegalArgumentException("version \"@" + text + "\": expected an ISO-8601"
                        + " time after @, like @2030-01-01T12:00:00Z");
            }
        }
    }
}
