package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.Callable;

import org.quire.format.versioned.ChunkChange;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code quire versions diff FILE A B [DATASET]}: per dataset, the chunks whose content differs
 * between versions A and B, by their origin and digests ({@link VersionedFile#diff}); datasets
 * only one of them has are named as added or removed.
 */
@Command(name = "diff",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Lists, per dataset (or for DATASET alone), the chunks whose content differs between"
                + " versions A and B of FILE: the chunk's first element and its SHA-256 in A and in B"
                + " (12 hex digits; 'fill' where the version stores no chunk there). Datasets only one"
                + " version has are listed as added or removed.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {VersionsCommand.OK, VersionsCommand.FAILED, VersionsCommand.USAGE})
public final class VersionsDiffCommand implements Callable<Integer> {

    /** Hex digits of a digest shown: enough to tell chunks apart by eye. */
    private static final int DIGEST_DIGITS = 12;

    @Mixin
    private VersionedInput input;

    @Parameters(index = "1", paramLabel = "A", description = "the older version: name, latest, ~N, @TIME or =NAME")
    private String from;

    @Parameters(index = "2", paramLabel = "B", description = "the newer version: name, latest, ~N, @TIME or =NAME")
    private String to;

    @Parameters(index = "3", arity = "0..1", paramLabel = "DATASET", description = "a dataset path, like grid or fields/t")
    private String dataset;

    @Override
    public Integer call() {
        return input.runOnVersionedFile(false, (file, out) -> {
            String a = VersionedInput.resolve(file, from).name();
            String b = VersionedInput.resolve(file, to).name();
            List<String> inA = file.datasetNames(a);
            List<String> inB = file.datasetNames(b);
            Set<String> datasets = new LinkedHashSet<>(inA);
            datasets.addAll(inB);
            if (dataset != null) {
                String wanted = dataset.startsWith("/") ? dataset.substring(1) : dataset;
                if (!datasets.contains(wanted)) {
                    throw new NoSuchElementException(input.file() + ": neither " + ValueFormat.name(a)
                            + " nor " + ValueFormat.name(b) + " has a dataset " + ValueFormat.name(wanted));
                }
                datasets = Set.of(wanted);
            }
            out.println("diff " + ValueFormat.name(a) + " " + ValueFormat.name(b));
            for (String name : datasets) {
                if (!inA.contains(name)) {
                    out.println("/" + ValueFormat.name(name) + ": added in " + ValueFormat.name(b));
                } else if (!inB.contains(name)) {
                    out.println("/" + ValueFormat.name(name) + ": removed in " + ValueFormat.name(b));
                } else {
                    changes(file, name, a, b, out);
                }
            }
            return CommandRun.OK;
        });
    }

    private static void changes(VersionedFile file, String dataset, String a, String b, PrintWriter out)
            throws IOException {
        List<ChunkChange> changes = file.diff(dataset, a, b);
        long[] shapeA = file.dataset(a, dataset).shape();
        long[] shapeB = file.dataset(b, dataset).shape();
        String shapes = Arrays.equals(shapeA, shapeB) ? ""
                : ", shape " + ListCommand.sizes(shapeA) + " -> " + ListCommand.sizes(shapeB);
        out.println("/" + ValueFormat.name(dataset) + ": " + changes.size() + " chunks changed" + shapes);
        for (ChunkChange change : changes) {
            out.println("  " + ListCommand.sizes(change.origin()) + " " + digest(change.before())
                    + " -> " + digest(change.after()));
        }
    }

    private static String digest(byte[] digest) {
        return digest == null ? "fill" : ChunkChange.hex(digest).substring(0, DIGEST_DIGITS);
    }
}
