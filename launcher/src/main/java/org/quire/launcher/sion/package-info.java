/**
 * {@code quire sion}: command-line tools for SIONlib 1.7.6 containers, over the format layer
 * {@code org.quire.format.sion}. One class per subcommand: {@link org.quire.launcher.sion.SionDumpCommand}
 * (metadata and task table, as text or JSON), {@link org.quire.launcher.sion.SionCatCommand} (one task's
 * stream), {@link org.quire.launcher.sion.SionSplitCommand} (one file per task),
 * {@link org.quire.launcher.sion.SionDefragCommand} (one chunk per task),
 * {@link org.quire.launcher.sion.SionVerifyCommand} (every structure, optionally every byte) and
 * {@link org.quire.launcher.sion.SionRecoverCommand} (closes a crashed job's file from its recovery journal).
 *
 * <p>Shared: {@link org.quire.launcher.CommandRun} (exit statuses 0 / 1 rejected or failed /
 * 2 usage, one-line errors, as for {@code quire h5}), {@link org.quire.launcher.sion.TaskStreamCopy} (bounded-memory stream copy),
 * {@link org.quire.launcher.sion.Progress} (progress on stderr only when it is a terminal) and
 * {@link org.quire.launcher.JsonWriter}. Documented in {@code docs/sionlib.md}, section
 * "Command line".
 */
package org.quire.launcher.sion;
