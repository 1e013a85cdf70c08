package org.quire.launcher.sion;

import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionNotClosedException;
import org.quire.format.sion.SionRecovery;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code quire sion dump FILE [--json]}: the metadata of every physical file of a set and its task table. */
@Command(name = "dump",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        sortOptions = false,
        header = "Show the metadata of every file of a SION set and its task table.",
        description = "Shows META1 of every physical file of the set (version, block size, task and file counts,"
                + " byte orders, key-value mode, prefix, maxchunks, start_of_varheader, the mapping) and a table of"
                + " all tasks: global rank, file, local rank, chunk capacity, chunks used, bytes in each chunk, total"
                + " and chunk offsets. File 1.. of a set is shown alone with its own tasks. A file its writer never"
                + " closed (no META2) shows META1 as written at open and the state of its recovery journal, and says"
                + " whether 'quire sion recover' can close it (not with --json, which refuses it).",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:shown (also a file not closed by its writer)",
            "1:the file was rejected (corrupt; not closed, with --json) or could not be read",
            "2:bad arguments"})
public final class SionDumpCommand implements Callable<Integer> {

    @Option(names = "--json", description = "one JSON document with the same content")
    private boolean json;

    @Mixin
    private SionInput input;

    @Override
    public Integer call() {
        return input.run(() -> {
            SionSetMetadata set;
            try {
                set = SionSetMetadata.read(input.file());
            } catch (SionNotClosedException notClosed) {
                if (json) {
                    throw notClosed;
                }
                Path unclosed = notClosed.file();
                DumpText.printUnclosed(notClosed, Files.size(unclosed), SionFile.readMeta1OfUnclosedFile(unclosed),
                        SionRecovery.journalHeader(unclosed), System.out);
                System.out.flush();
                return 0;
            }
            if (json) {
                System.out.print(DumpJson.of(set));
            } else {
                DumpText.print(set, System.out);
            }
            System.out.flush();
            return 0;
        });
    }
}
