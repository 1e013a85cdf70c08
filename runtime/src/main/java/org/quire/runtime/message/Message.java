package org.quire.runtime.message;

/** One point-to-point message as a transport carries it. */
public record Message(int source, int tag, byte[] payload) {
}
