package org.quire.launcher.sion;

import org.quire.format.sion.RecoveredTask;
import org.quire.format.sion.SionRecovery;
import org.quire.format.sion.SionRecoveryMode;
import org.quire.format.sion.SionRecoveryRefusedException;
import org.quire.format.sion.SionRecoveryReport;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code quire sion recover NAME}: closes a SION file whose parallel writer died, from its recovery journals. */
@Command(name = "recover",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Close a SION file whose job died before close, from its recovery journal.",
        description = "Closes a SION file (or set) whose Quire parallel writer died before close: rebuilds META2,"
                + " META1's tail and a set's mapping from the recovery journals beside the files (NAME.journal,"
                + " NAME.000001.journal, ...), so that SIONlib and Quire read it again, then deletes the journals."
                + " Prints the bytes recovered per task. See docs/sionlib.md, \"Crash recovery\".",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:the file was recovered, or was already closed (nothing to recover)",
            "1:recovery was refused or failed; nothing is claimed recovered (the message says why)",
            "2:bad arguments"})
public final class SionRecoverCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--flushed-only", description = "trust only journal records that flush() forced: each task"
            + " ends at its last flush. Use after a power failure or an operating system crash, when a chunk-end"
            + " record may have reached the disk before its data")
    private boolean flushedOnly;

    @Parameters(index = "0", paramLabel = "NAME", description = "the SION file, or file 0 of a set")
    private Path name;

    @Override
    public Integer call() {
        return CommandRun.run(spec, name, () -> {
            try {
                print(SionRecovery.recover(name,
                        flushedOnly ? SionRecoveryMode.FLUSHED_ONLY : SionRecoveryMode.EVERY_RECORD));
            } catch (SionRecoveryRefusedException e) {
                if (e.reason() != SionRecoveryRefusedException.Reason.ALREADY_CLOSED) {
                    throw e;
                }
                // What a "recover if needed" restart script wants after a clean run: success, and why.
                spec.commandLine().getOut().println(name + ": already closed, nothing to recover");
                spec.commandLine().getOut().flush();
            }
            return 0;
        });
    }

    private void print(SionRecoveryReport report) {
        PrintWriter out = spec.commandLine().getOut();
        for (RecoveredTask task : report.tasks()) {
            out.printf("task %d (globalrank %d, file %d): %d bytes in %d %s %s%n", task.index(), task.globalRank(),
                    task.fileNumber(), task.totalBytes(), task.chunkCount(), task.chunkCount() == 1 ? "chunk" : "chunks",
                    source(task));
        }
        out.printf("recovered %s: %d bytes of %d tasks; the file is closed and the journals are removed%n",
                report.name(), report.totalBytes(), report.tasks().size());
        out.flush();
    }

    private static String source(RecoveredTask task) {
        if (task.fileWasClosed()) {
            return "(its file was already closed and is kept as it was)";
        }
        String source = "from " + task.journalRecords() + " journal " + (task.journalRecords() == 1 ? "record" : "records");
        if (task.damagedRecordOffset().isPresent()) {
            source += "; a torn record at journal offset " + task.damagedRecordOffset().getAsLong() + " was ignored";
        }
        if (task.bytesCutToRecordBoundary() > 0) {
            source += "; " + task.bytesCutToRecordBoundary() + " bytes of an unfinished key-value record left out";
        }
        return source;
    }
}
