package org.quire.launcher.sion;

import org.quire.format.sion.SionTestVectors;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code sionlib-testvectors.json} says about one real SIONlib file or set: its physical
 * files' META1 fields and its tasks in global order (the mapping of file 0 for a set), each with
 * the SHA-256 of its logical stream.
 *
 * @param name  path of the set's file 0
 * @param files the {@code files_meta} entries, by file number
 * @param tasks the tasks in global order
 */
record ExpectedSionSet(Path name, List<Map<String, Object>> files, List<ExpectedTask> tasks) {

    /** One task as the vectors describe it. */
    record ExpectedTask(int index, long globalRank, int file, int localRank, long capacity, long[] bytesPerChunk,
                        long[] chunkOffsets, String streamSha256) {
        long totalBytes() {
            long total = 0;
            for (long bytes : bytesPerChunk) {
                total += bytes;
            }
            return total;
        }
    }

    /** Every vector of the JSON description, opened by its first file. */
    static List<ExpectedSionSet> all() throws IOException {
        List<ExpectedSionSet> sets = new ArrayList<>();
        for (Map<String, Object> vector : SionTestVectors.vectors()) {
            sets.add(of(vector));
        }
        return sets;
    }

    static ExpectedSionSet named(String firstFile) throws IOException {
        return of(SionTestVectors.vector(firstFile));
    }

    @SuppressWarnings("unchecked")
    private static ExpectedSionSet of(Map<String, Object> vector) {
        List<Map<String, Object>> files = (List<Map<String, Object>>) vector.get("files_meta");
        Path name = SionTestVectors.directory().resolve((String) files.get(0).get("file"));
        List<ExpectedTask> tasks = new ArrayList<>();
        if (files.size() == 1) {
            for (int localRank = 0; localRank < SionTestVectors.asLong(files.get(0).get("ntasks")); localRank++) {
                tasks.add(task(tasks.size(), files.get(0), 0, localRank));
            }
        } else {
            for (Object entry : (List<Object>) files.get(0).get("mapping")) {
                long[] location = SionTestVectors.longs(entry);
                tasks.add(task(tasks.size(), files.get((int) location[0]), (int) location[0], (int) location[1]));
            }
        }
        return new ExpectedSionSet(name, files, tasks);
    }

    /** Task {@code localRank} of one physical file, from its META1 and META2 fields. */
    @SuppressWarnings("unchecked")
    static ExpectedTask task(int index, Map<String, Object> file, int fileNumber, int localRank) {
        long chunks = SionTestVectors.longs(file.get("chunks_per_task"))[localRank];
        long[] bytesPerChunk = new long[(int) chunks];
        long[] chunkOffsets = new long[(int) chunks];
        long[] filled = SionTestVectors.longs(((List<Object>) file.get("bytes_per_chunk")).get(localRank));
        long start = SionTestVectors.longs(file.get("task_start_offsets"))[localRank];
        long globalSkip = SionTestVectors.asLong(file.get("globalskip"));
        for (int chunk = 0; chunk < chunks; chunk++) {
            bytesPerChunk[chunk] = filled[chunk];
            chunkOffsets[chunk] = start + chunk * globalSkip;
        }
        return new ExpectedTask(index, SionTestVectors.longs(file.get("globalranks"))[localRank], fileNumber, localRank,
                SionTestVectors.longs(file.get("chunksizes"))[localRank], bytesPerChunk, chunkOffsets,
                (String) ((List<Object>) file.get("task_stream_sha256")).get(localRank));
    }

    String fileName() {
        return name.getFileName().toString();
    }
}
