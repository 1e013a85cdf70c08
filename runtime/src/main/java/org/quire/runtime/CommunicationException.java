package org.quire.runtime;

/** An engine failed to carry out an operation (connection lost, engine error, interrupted wait). */
public class CommunicationException extends QuireRuntimeException {

    public CommunicationException(String message) {
        super(message);
    }

    public CommunicationException(String message, Throwable cause) {
        super(message, cause);
    }
}
