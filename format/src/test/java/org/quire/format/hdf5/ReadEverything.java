package org.quire.format.hdf5;

import java.io.IOException;
import java.nio.file.Path;

import org.quire.format.hdf5.layout.LinkMessage;

/**
 * What the damaged-file tests do to a file: open it and read every group, every attribute and
 * every dataset whole (variable-length strings from the global heap), following hard links
 * (the objects of soft links are read through their hard links).
 */
final class ReadEverything {

    private ReadEverything() {
    }

    static void read(Path file) throws IOException {
        try (Hdf5File hdf5 = Hdf5File.open(file)) {
            hdf5.root().attributes();
            readGroup(hdf5.root());
        }
    }

    private static void readGroup(Group group) throws IOException {
        for (LinkMessage link : group.links()) {
            if (link.type() != LinkMessage.HARD) {
                continue;
            }
            Hdf5Object member = group.member(link);
            member.attributes();
            if (member instanceof Group child) {
                readGroup(child);
            } else if (member instanceof Dataset dataset) {
                long[] start = new long[dataset.shape().length];
                if (dataset.type() instanceof Datatype.VariableLengthStringType) {
                    dataset.readStringBytes(start, dataset.shape());
                } else {
                    dataset.read(start, dataset.shape());
                }
            }
        }
    }
}
