package org.quire.runtime;

/** Root of the failures the runtime reports: an engine that failed, a broken launch contract. */
public class QuireRuntimeException extends RuntimeException {

    public QuireRuntimeException(String message) {
        super(message);
    }

    public QuireRuntimeException(String message, Throwable cause) {
        super(message, cause);
    }
}
