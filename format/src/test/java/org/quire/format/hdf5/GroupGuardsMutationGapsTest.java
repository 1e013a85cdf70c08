package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a group refuses to create, and why: in a file open read-only, while the file is SWMR
 * writing (libhdf5 allows no new objects then), and under a name that is no link name; and its
 * members as listed.
 */
class GroupGuardsMutationGapsTest {

    @TempDir
    Path dir;

    private static List<Executable> creations(Group group) {
        return List.of(() -> group.createGroup("g2"),
                () -> group.createDataset("d2", DatasetSpec.builder(Datatype.INT64, 2).build()),
                () -> group.createDataset("c2", Datatype.INT64, new long[] {1}, new byte[8]),
                () -> group.createStringDataset("s2", new long[] {1}, List.of("x")));
    }

    @Test
    void aReadOnlyFileCreatesNothing() throws IOException {
        Path path = dir.resolve("read-only.h5");
        Hdf5File.create(path).close();
        try (Hdf5File file = Hdf5File.open(path)) {
            for (Executable create : creations(file.root())) {
                IllegalStateException e = assertThrows(IllegalStateException.class, create);
                assertEquals(path + " is open read-only", e.getMessage());
            }
            assertEquals(List.of(), file.root().members());
        }
    }

    @Test
    void anSwmrWritingFileCreatesNothing() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("swmr.h5"))) {
            file.startSwmrWrite();
            for (Executable create : creations(file.root())) {
                assertThrows(SwmrWriteRefusedException.class, create);
            }
            assertEquals(List.of(), file.root().members());
        }
    }

    @Test
    void namesThatAreNoLinkNamesAreRefusedAndMembersAreListed() throws IOException {
        try (Hdf5File file = Hdf5File.create(dir.resolve("names.h5"))) {
            Group root = file.root();
            for (String name : new String[] {"", "a/b", "."}) {
                for (Executable create : List.<Executable>of(() -> root.createGroup(name),
                        () -> root.createDataset(name,
                                DatasetSpec.builder(Datatype.INT64, 2).build()),
                        () -> root.createStringDataset(name, new long[] {1}, List.of("x")))) {
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            create);
                    assertEquals("not a link name: \"" + name + "\"", e.getMessage());
                }
            }
            root.createGroup("g");
            root.createStringDataset("s", new long[] {2}, List.of("x", "yz"));
            List<Group.Member> members = root.members();
            assertEquals(List.of("g", "s"), members.stream().map(Group.Member::name).toList());
            assertInstanceOf(Group.class, members.get(0).open());
            Dataset s = assertInstanceOf(Dataset.class, members.get(1).open());
            assertEquals(List.of("x", "yz"), s.readStrings(new long[] {0}, new long[] {2}));
            assertEquals(null, members.get(0).softLinkTarget());
        }
    }
}
