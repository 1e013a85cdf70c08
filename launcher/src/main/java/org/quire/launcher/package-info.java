/**
 * The {@code quire} command line. {@code quire run} spawns N ranked worker JVMs on this
 * machine, serves their rendezvous, prefixes their output with the rank, forwards signals and
 * stops the job as soon as one rank fails. The worker contract is documented in
 * {@code docs/launcher.md}.
 */
package org.quire.launcher;
