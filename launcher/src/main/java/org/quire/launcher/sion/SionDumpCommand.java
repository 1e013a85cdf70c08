package org.quire.launcher.sion;

import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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
                + " and chunk offsets. File 1.. of a set is shown alone with its own tasks.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:shown", "1:the file was rejected (corrupt, not closed) or could not be read",
            "2:bad arguments"})
public final class SionDumpCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "one JSON document with the same content")
    private boolean json;

    @Parameters(index = "0", paramLabel = "FILE", description = "the SION file (file 0 of a set)")
    private Path file;

    @Override
    public Integer call() {
        return CommandRun.run(spec, file, () -> {
            SionSetMetadata set = SionSetMetadata.read(file);
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
