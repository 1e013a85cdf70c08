package org.quire.launcher.h5;

import java.util.concurrent.Callable;

import org.quire.format.hdf5.Dataset;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code quire h5 dump FILE DATASET [--slice SPEC]}: the values of a dataset, or of the
 * hyperslab SPEC selects ({@link Slice}), printed by {@link HyperslabPrinter}.
 */
@Command(name = "dump",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Prints the values of DATASET, or of a hyperslab of it, one line per row of the last"
                + " dimension, each line starting with the index of its first element: [i, j]: v, v, v."
                + " Integers and floats are exact (floats as the shortest text that reads back as the same"
                + " number), strings are quoted, compounds are {name=value, ...}. Large selections are read"
                + " and printed a block at a time.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:printed (a file an SWMR writer has open is read as of its last commit, with a line on standard error saying so)",
            "1:the file cannot be read (damaged, open by a writer that is not an SWMR writer, unsupported feature)",
            "2:bad arguments (no such file or dataset, a slice that is not one or lies outside the shape)"})
public final class DumpCommand implements Callable<Integer> {

    /** Bytes of elements read (and held) at a time. */
    static final long READ_BUDGET_BYTES = 1 << 20;

    @Spec
    private CommandSpec spec;

    @Mixin
    private Hdf5Input input;

    @Parameters(index = "1", paramLabel = "DATASET", description = "path of a dataset, e.g. /fields/t")
    private String datasetPath;

    @Option(names = "--slice", paramLabel = "SPEC",
            description = "start:stop per dimension, comma-separated, e.g. 0:10,5:7; ':' is the whole"
                    + " dimension, a single index i selects i:i+1, negative indices count from the end,"
                    + " dimensions left out are whole")
    private String slice;

    @Override
    public Integer call() {
        return input.runOnOpenFile((hdf5, out) -> {
            Dataset dataset = ObjectPaths.findDataset(hdf5, datasetPath);
            Slice selection = slice == null ? Slice.whole(dataset.shape())
                    : Slice.parse(slice, dataset.shape());
            new HyperslabPrinter(dataset, READ_BUDGET_BYTES).print(selection, out);
            return CommandRun.OK;
        });
    }
}
