package org.quire.launcher.h5;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.quire.format.versioned.VersionedFile;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code quire versions delete FILE VERSION...}: {@link VersionedFile#deleteVersions}: every
 * VERSION is resolved first, then all are deleted at once.
 */
@Command(name = "delete",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Deletes versions of FILE and compacts raw_data to the chunks the remaining versions"
                + " map; a remaining version whose parent was deleted gets its nearest remaining ancestor,"
                + " and so does a deleted current version. Every VERSION is resolved before anything is"
                + " deleted, and a deletion Quire cannot do is refused before anything changes. Crash-safe:"
                + " a killed deletion leaves the old or the new versions once 'quire h5 clear FILE' has"
                + " cleared the file.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {VersionsCommand.OK, VersionsCommand.FAILED, VersionsCommand.USAGE})
public final class VersionsDeleteCommand implements Callable<Integer> {

    @Mixin
    private VersionedInput input;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "VERSION", description = "name, latest, ~N, @TIME or =NAME")
    private List<String> selectors;

    @Override
    public Integer call() {
        return input.runOnVersionedFile(true, (file, out) -> {
            List<String> names = new ArrayList<>();
            for (String selector : selectors) {
                names.add(VersionedInput.resolve(file, selector).name());
            }
            file.deleteVersions(names.toArray(String[]::new));
            out.println("deleted " + String.join(", ", names.stream().map(ValueFormat::name).toList())
                    + "; current version " + ValueFormat.name(file.currentVersion()));
            return CommandRun.OK;
        });
    }
}
