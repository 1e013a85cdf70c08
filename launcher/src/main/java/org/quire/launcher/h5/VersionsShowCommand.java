package org.quire.launcher.h5;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

import org.quire.format.hdf5.Attribute;
import org.quire.format.hdf5.Dataset;
import org.quire.format.versioned.StoredChunks;
import org.quire.format.versioned.VersionInfo;
import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code quire versions show FILE VERSION}: the version's parent and timestamp, its attributes,
 * then each group with its attributes and each dataset with its shape, type, chunk shape, stored
 * chunks and attributes.
 */
@Command(name = "show",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Shows one version of FILE: its parent and timestamp, the attributes set on it, its"
                + " groups with their attributes, its datasets with shape, type, chunk shape, stored chunks"
                + " and attributes.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {VersionsCommand.OK, VersionsCommand.FAILED, VersionsCommand.USAGE})
public final class VersionsShowCommand implements Callable<Integer> {

    @Mixin
    private VersionedInput input;

    @Parameters(index = "1", paramLabel = "VERSION", description = "name, latest, ~N, @TIME or =NAME")
    private String selector;

    @Override
    public Integer call() {
        return input.runOnVersionedFile(false, (file, out) -> {
            VersionInfo version = VersionedInput.resolve(file, selector);
            String name = version.name();
            out.println("version " + ValueFormat.name(name) + (name.equals(file.currentVersion()) ? " (current)" : ""));
            out.println("  parent:    " + (version.isFirst() ? "-" : ValueFormat.name(version.parent())));
            out.println("  timestamp: " + version.timestamp());
            attributes(file.attributes(name, ""), out);
            for (String group : file.groupNames(name)) {
                out.println("/" + ValueFormat.name(group) + ": group");
                attributes(file.attributes(name, group), out);
            }
            for (String path : file.datasetNames(name)) {
                dataset(file, name, path, out);
            }
            return CommandRun.OK;
        });
    }

    private static void dataset(VersionedFile file, String version, String path, PrintWriter out)
            throws IOException {
        Dataset dataset = file.dataset(version, path);
        StoredChunks stored = file.storedChunks(version, path);
        out.println("/" + ValueFormat.name(path) + ": " + TypeDescription.of(dataset.type()) + " "
                + ListCommand.sizes(dataset.shape()) + ", chunks "
                + ListCommand.sizes(stored.chunkShape()) + ", " + stored.slots().size()
                + " stored (" + stored.bytes() + " bytes)");
        attributes(file.attributes(version, path), out);
    }

    private static void attributes(Map<String, Attribute> attributes, PrintWriter out) {
        for (Attribute attribute : attributes.values()) {
            out.println("    @" + ValueFormat.name(attribute.name()) + ": "
                    + TypeDescription.of(attribute.type()) + " = " + ListCommand.attributeValue(attribute));
        }
    }
}
