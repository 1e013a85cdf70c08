package org.quire.runtime.check;

import org.quire.runtime.QuireRuntimeException;

/** A communicator returned something other than what its contract promises. */
public final class ContractViolation extends QuireRuntimeException {

    public ContractViolation(int rank, String operation, String expected, String found) {
        super("rank " + rank + ": " + operation + " returned " + found + ", expected " + expected);
    }
}
