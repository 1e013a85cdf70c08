/**
 * The Hazelcast 5 engine (open-source features only): one member per job, ranks as its clients,
 * messages through one queue per rank, collectives from
 * {@link org.quire.runtime.message.MessageCommunicator}.
 */
package org.quire.runtime.hazelcast;
