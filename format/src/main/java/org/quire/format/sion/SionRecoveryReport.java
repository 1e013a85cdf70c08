package org.quire.format.sion;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link SionRecovery#recover} restored.
 *
 * @param name  the set, by the name of its file 0
 * @param tasks every task of the set in global order
 */
public record SionRecoveryReport(Path name, List<RecoveredTask> tasks) {

    public SionRecoveryReport {
        tasks = List.copyOf(tasks);
    }

    public long totalBytes() {
        return tasks.stream().mapToLong(RecoveredTask::totalBytes).sum();
    }
}
