/**
 * The {@code quire} command line. {@code quire run} spawns N ranked worker JVMs on this
 * machine, serves their rendezvous, prefixes their output with the rank, forwards signals and
 * stops the job as soon as one rank fails. The worker contract is documented in
 * {@code docs/launcher.md}. {@link org.quire.launcher.CommandRun} gives the file tools
 * ({@code quire sion}, {@code quire h5}, {@code quire watch}) one way to fail: a line on standard error and exit
 * status 1 or 2; {@link org.quire.launcher.QuireCli} turns every usage error into one line
 * {@code quire CMD: what is wrong} and {@code see quire CMD --help} (status 2), and any other
 * exception into one line {@code quire CMD: internal error: ...} and status 1.
 * {@link org.quire.launcher.CompletionCommand} prints picocli's bash completion script;
 * {@link org.quire.launcher.JsonWriter} writes the tools' JSON.
 */
package org.quire.launcher;
