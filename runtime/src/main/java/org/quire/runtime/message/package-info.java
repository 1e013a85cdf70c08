/**
 * Collectives built from point-to-point messages, for engines that only deliver messages
 * (Hazelcast queues, in-JVM queues): the {@link org.quire.runtime.message.MessageTransport} an
 * engine implements, matching of messages by source and tag, and the star-pattern collectives of
 * {@link org.quire.runtime.message.MessageCommunicator}.
 */
package org.quire.runtime.message;
