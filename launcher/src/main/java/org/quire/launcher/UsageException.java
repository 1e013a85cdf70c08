package org.quire.launcher;

/**
 * An argument that does not fit the file it is about: a slice outside the shape, a path with no
 * object. {@link CommandRun} prints the message on one line and exits with status 2.
 */
public final class UsageException extends Exception {

    public UsageException(String message) {
        super(message);
    }
}
