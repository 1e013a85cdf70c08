package org.quire.runtime.message;

/**
 * Where a message belongs: the context of the communicator it was sent in (0 for the world, one
 * per sub-communicator), its tag there (user tags {@code >= 0}, collectives negative) and the
 * kind of its payload.
 */
public record Envelope(int context, int tag, PayloadKind kind) {
}
