package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many links added to and deleted from an old-style group in the JVM: a copy of legacy.h5's
 * /many (260 members in symbol table nodes of up to 32 entries under a two-level B-tree) takes
 * names before, between and after its own (full nodes split at every place of the new name) and
 * loses runs of its own (nodes emptied and dropped); after reopening it lists exactly the names
 * left, in byte order, and {@link Hdf5Verifier} passes.
 */
class SymbolTableMutationGapsTest {

    @TempDir
    Path dir;

    @Test
    void namesAddedEverywhereAndRunsDeletedLeaveExactlyTheRestInByteOrder() throws IOException {
        Path path = H5pyFixtures.copy(H5pyFixtures.LEGACY, "legacy.h5", dir);
        TreeSet<String> expected = new TreeSet<>(SymbolTable.NAME_ORDER);
        try (Hdf5File file = Hdf5File.openForWriting(path)) {
            Group many = file.root().group("many");
            expected.addAll(many.memberNames());
            List<String> added = new ArrayList<>(List.of("a", "member_", "zz", "member_259z"));
            for (int i = 0; i < 260; i += 7) {
                added.add(String.format("member_%03d+", i));
            }
            for (String name : added) {
                many.createGroup(name);
                expected.add(name);
            }
            for (int i = 40; i < 120; i++) {
                String name = String.format("member_%03d", i);
                many.delete(name);
                expected.remove(name);
            }
            many.delete("a");
            expected.remove("a");
            assertEquals(List.copyOf(expected), many.memberNames());
        }
        try (Hdf5File file = Hdf5File.open(path)) {
            assertEquals(List.copyOf(expected), file.root().group("many").memberNames());
        }
        Hdf5Verifier.verify(path);
    }
}
