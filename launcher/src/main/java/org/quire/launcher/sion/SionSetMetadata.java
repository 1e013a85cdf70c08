package org.quire.launcher.sion;

import org.quire.format.sion.ChunkGeometry;
import org.quire.format.sion.Meta1FixedPart;
import org.quire.format.sion.PhysicalFileMetadata;
import org.quire.format.sion.SionFile;
import org.quire.format.sion.SionTask;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The validated metadata a dump shows: the physical files of a set and the tasks they hold. A
 * file other than file 0 of a set is read alone (as siondump does), with its own tasks only.
 *
 * @param name        the file named on the command line
 * @param files       the physical files, by file number (one file when read alone)
 * @param tasks       the tasks: of the whole set in global order, or of the file read alone
 * @param memberAlone true when {@code name} is file 1.. of a set and was read without the others
 */
record SionSetMetadata(Path name, List<PhysicalFileMetadata> files, List<SionTask> tasks, boolean memberAlone) {

    SionSetMetadata {
        files = List.copyOf(files);
        tasks = List.copyOf(tasks);
    }

    static SionSetMetadata read(Path name) throws IOException {
        PhysicalFileMetadata first = SionFile.readPhysicalFile(name);
        Meta1FixedPart fixed = first.meta1().fixedPart();
        if (fixed.fileCount() > 1 && fixed.fileNumber() != 0) {
            return new SionSetMetadata(name, List.of(first), tasksOfMember(first, fixed.fileNumber()), true);
        }
        try (SionFile sion = SionFile.open(name)) {
            return new SionSetMetadata(name, sion.physicalFiles(), sion.tasks(), false);
        }
    }

    /** Number of {@code files().get(index)} in its set: its stored filenumber when read alone, else the index. */
    int fileNumber(int index) {
        return memberAlone ? files.get(index).meta1().fixedPart().fileNumber() : index;
    }

    /** Physical files of the whole set, as file 0 (or the file read alone) declares. */
    int fileCountOfSet() {
        return files.get(0).meta1().fixedPart().fileCount();
    }

    private static List<SionTask> tasksOfMember(PhysicalFileMetadata file, int fileNumber) {
        ChunkGeometry geometry = file.geometry();
        List<SionTask> tasks = new ArrayList<>();
        for (int localRank = 0; localRank < file.taskCount(); localRank++) {
            tasks.add(new SionTask(localRank, file.meta1().globalRank(localRank), fileNumber, localRank,
                    geometry.chunkCapacity(localRank), geometry.taskStart(localRank), geometry.globalSkip(),
                    file.meta2().usedBytesPerChunk(localRank)));
        }
        return tasks;
    }
}
