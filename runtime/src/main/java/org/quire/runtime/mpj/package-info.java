/**
 * The MPJ Express 0.44 engine: the communicator over MPJ's own collectives, joining a world under
 * {@code mpjrun}, {@code quire run} and {@code srun}, and the niodev rendezvous server and per-rank
 * relay that let N JVMs form a world without MPJ's daemons, with every registration
 * authenticated by the job secret.
 */
package org.quire.runtime.mpj;
