/**
 * {@code quire run}: the job's coordinator (niodev rendezvous or Hazelcast member), the worker
 * JVMs with their environment contract, output relaying, fail-fast and signal handling.
 */
package org.quire.launcher.run;
