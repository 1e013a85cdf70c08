package org.quire.launcher.h5;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Callable;

import org.quire.format.hdf5.Hdf5Verifier;
import org.quire.format.hdf5.Unsupported;
import org.quire.format.hdf5.VerificationReport;
import org.quire.launcher.CommandRun;
import org.quire.launcher.QuireVersion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code quire h5 verify FILE}: {@link Hdf5Verifier} from the command line. */
@Command(name = "verify",
        mixinStandardHelpOptions = true,
        versionProvider = QuireVersion.class,
        description = "Checks every structure of FILE: the superblock, every object header and continuation"
                + " block, every message and attribute, dense link and attribute storage (every fractal heap block"
                + " and index node), every chunk index block and page ever written, every stored chunk"
                + " (inside the file, inflated, Fletcher-32 checked) and the size and place of contiguous"
                + " and compact data; in libhdf5's default (old) format, whose blocks have no checksum,"
                + " every version-1 B-tree node, symbol table node and local heap once. Prints what was"
                + " checked, or the first problem with its offset, structure, field, expected and found value."
                + " Objects and attributes of a kind Quire does not read (e.g. references) are listed, each"
                + " with its path and the reason, and everything else is checked.",
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {
            "0:the file is valid (parts Quire does not read are listed as unsupported, unchecked)",
            "1:the file is damaged, open by a writer that is not an SWMR writer, or uses a feature Quire cannot read (a file an SWMR writer has open is verified as of its last commit, with a line on standard error saying so)",
            "2:bad arguments (no such file, not a regular file)"})
public final class VerifyCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private Hdf5Input input;

    @Override
    public Integer call() {
        return input.run(() -> {
            Path file = input.file();
            print(FollowedFiles.read(spec, file,
                    swmr -> swmr ? Hdf5Verifier.verifySwmr(file) : Hdf5Verifier.verify(file)));
            return CommandRun.OK;
        });
    }

    private void print(VerificationReport report) {
        PrintWriter out = StandardOutput.open();
        out.println(input.file() + ": valid");
        out.println("  objects:         " + report.groups() + " groups, " + report.datasets()
                + " datasets, " + (report.committedDatatypes() > 0
                        ? report.committedDatatypes() + " committed datatypes, " : "")
                + report.attributes() + " attributes"
                + (report.linksNotFollowed() > 0
                        ? ", " + report.linksNotFollowed() + " soft or external links not followed"
                        : ""));
        StringJoiner blocks = new StringJoiner(", ");
        for (Map.Entry<String, Long> kind : report.metadataBlocks().entrySet()) {
            blocks.add(kind.getKey() + " " + kind.getValue());
        }
        out.println("  metadata blocks: " + report.metadataBlockCount() + " checksums verified"
                + (report.metadataBlockCount() > 0 ? " (" + blocks + ")" : ""));
        if (report.checkedBlockCount() > 0) {
            StringJoiner checked = new StringJoiner(", ");
            for (Map.Entry<String, Long> kind : report.checkedBlocks().entrySet()) {
                checked.add(kind.getKey() + " " + kind.getValue());
            }
            out.println("  no checksum:     " + report.checkedBlockCount() + " blocks without"
                    + " checksum checked (" + checked + ")");
        }
        out.println("  chunks:          " + report.chunks() + " stored chunks, "
                + report.chunkBytes() + " bytes, read through their filters");
        if (report.denseMessages() > 0) {
            out.println("  dense storage:   " + report.denseMessages() + " links and attributes"
                    + " in fractal heaps, every heap block and index node read");
        }
        if (report.contiguousBytes() > 0) {
            out.println("  contiguous data: " + report.contiguousBytes() + " bytes of contiguous"
                    + " and compact datasets, sizes and places checked");
        }
        if (!report.unsupported().isEmpty()) {
            out.println("  unsupported:     " + report.unsupported().size() + " objects or"
                    + " attributes Quire does not read, not checked:");
            for (Unsupported part : report.unsupported()) {
                out.println("    " + ValueFormat.name(part.name()) + ": "
                        + ValueFormat.name(part.reason()));
            }
        }
        out.flush();
    }
}
