package org.quire.runtime.message;

/** One point-to-point message as a transport carries it; {@code source} is a world rank. */
public record Message(int source, Envelope envelope, byte[] payload) {
}
