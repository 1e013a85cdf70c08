package org.quire.launcher.run;

/** {@code quire run} cannot start the job (missing engine, coordinator failure, spawn failure). */
final class LaunchException extends RuntimeException {

    LaunchException(String message) {
        super(message);
    }

    LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
