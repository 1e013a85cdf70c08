package org.quire.format.hdf5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** A change SWMR writing refuses: the file it names, and the whole one-line message. */
class SwmrWriteRefusedMutationGapsTest {

    @Test
    void aGroupCreatedWhileSwmrWritingIsRefusedNamingTheFile() throws IOException {
        Path path = Path.of("swmr.h5");
        try (Hdf5File file = Hdf5File.create(path, new MemoryFiles(), WriteOptions.DEFAULT)) {
            file.startSwmrWrite();
            SwmrWriteRefusedException e = assertThrows(SwmrWriteRefusedException.class,
                    () -> file.root().createGroup("late"));
            assertEquals(path, e.file());
            assertEquals("swmr.h5: cannot create group /late while the file is open for SWMR writing "
                    + "(startSwmrWrite was called): readers holding the file would not see it "
                    + "or could read it half-written; create every group, dataset and attribute "
                    + "before startSwmrWrite", e.getMessage());
        }
    }
}
