package org.quire.runtime;

/**
 * The environment or arguments a worker was started with do not describe a world: a rank that
 * is not a number, a rank outside the world, a missing coordinator address. The message names
 * the variable, the value found and what was expected.
 */
public class LaunchContractException extends QuireRuntimeException {

    public LaunchContractException(String message) {
        super(message);
    }
}
