/**
 * A world of ranks as threads of one JVM: for unit tests and for simulating rank counts far
 * beyond the machine in benchmarks; never a production engine.
 */
package org.quire.runtime.local;
