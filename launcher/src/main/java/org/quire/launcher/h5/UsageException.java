package org.quire.launcher.h5;

/**
 * An argument that does not fit the file it is about: a slice outside the shape, a path with no
 * object. The command prints the message on one line and exits with status 2.
 */
final class UsageException extends Exception {

    UsageException(String message) {
        super(message);
    }
}
