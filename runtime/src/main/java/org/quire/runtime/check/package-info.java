/**
 * The communicator contract as a runnable check: the engine tests run it on every engine, and
 * users run it on a new cluster with {@code quire run -n N org.quire.runtime.check.CommunicatorContract}.
 */
package org.quire.runtime.check;
