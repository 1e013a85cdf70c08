package org.quire.launcher.sion;

import org.quire.format.sion.EndiannessWord;
import org.quire.format.sion.Meta1;
import org.quire.format.sion.Meta1FixedPart;
import org.quire.format.sion.PhysicalFileMetadata;
import org.quire.format.sion.SionTask;
import org.quire.format.sion.TaskLocation;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The fields {@code quire sion dump} shows, named once for the text and the JSON form. Names of
 * stored fields are SIONlib's (META1, reference section 2.1); derived values say what they are.
 */
final class DumpFields {

    /**
     * One named value: a {@link Long}, a {@link String}, a {@code long[]}, a list of
     * {@link TaskLocation} (the mapping), or null (not stored in this file).
     */
    record Field(String name, Object value) {
    }

    private DumpFields() {
    }

    /** META1, the chunk layout derived from it, and the trailer of one physical file. */
    static List<Field> header(PhysicalFileMetadata file) {
        List<Field> fields = meta1(file.path(), file.fileSize(), file.meta1(), file.keyValueMode().code());
        fields.add(fields.size() - 2, new Field("keyvalmode_name",
                file.keyValueMode().name().toLowerCase(Locale.ROOT)));
        fields.add(new Field("meta1_size", file.meta1().size()));
        fields.add(new Field("start_of_data", file.geometry().startOfData()));
        fields.add(new Field("globalskip", file.geometry().globalSkip()));
        fields.add(new Field("meta2_end", file.endOfMeta2()));
        Long mappingSize = file.mappingSize().isPresent() ? Long.valueOf(file.mappingSize().getAsInt()) : null;
        fields.add(new Field("mapping_size", mappingSize));
        fields.add(new Field("mapping", file.mapping()));
        return fields;
    }

    /**
     * META1's stored fields as they are, which is all a file its writer never closed has to show;
     * the last two are maxchunks and start_of_varheader.
     *
     * @param keyValueMode the key-value mode's code: as validated, or as stored in flag1
     */
    static List<Field> meta1(Path path, long fileSize, Meta1 meta1, long keyValueMode) {
        Meta1FixedPart fixed = meta1.fixedPart();
        EndiannessWord endianness = fixed.endianness();
        List<Field> fields = new ArrayList<>();
        fields.add(new Field("file", path.toString()));
        fields.add(new Field("file_size", fileSize));
        fields.add(new Field("endianness_word", EndiannessWord.hex(endianness.toBytes())));
        fields.add(new Field("metadata_byte_order", orderName(endianness.metadataOrder())));
        fields.add(new Field("user_data_byte_order", orderName(endianness.userDataOrder())));
        fields.add(new Field("version", (long) fixed.version()));
        fields.add(new Field("version_patchlevel", (long) fixed.versionPatchlevel()));
        fields.add(new Field("fileformat_version", (long) fixed.fileFormatVersion()));
        fields.add(new Field("fsblksize", (long) fixed.fsBlockSize()));
        fields.add(new Field("ntasks", (long) fixed.taskCount()));
        fields.add(new Field("nfiles", (long) fixed.fileCount()));
        fields.add(new Field("filenumber", (long) fixed.fileNumber()));
        fields.add(new Field("flag1", fixed.flag1()));
        fields.add(new Field("keyvalmode", keyValueMode));
        fields.add(new Field("flag2", fixed.flag2()));
        fields.add(new Field("prefix", fixed.prefix()));
        fields.add(new Field("maxchunks", (long) meta1.maxChunks()));
        fields.add(new Field("start_of_varheader", meta1.startOfMeta2()));
        return fields;
    }

    /** One row of the task table. */
    static List<Field> task(SionTask task) {
        long[] chunkOffsets = new long[task.chunkCount()];
        for (int chunk = 0; chunk < chunkOffsets.length; chunk++) {
            chunkOffsets[chunk] = task.chunkOffset(chunk);
        }
        return List.of(
                new Field("task", (long) task.index()),
                new Field("global_rank", task.globalRank()),
                new Field("file", (long) task.fileNumber()),
                new Field("local_rank", (long) task.localRank()),
                new Field("capacity", task.chunkCapacity()),
                new Field("chunks", (long) task.chunkCount()),
                new Field("total_bytes", task.totalBytes()),
                new Field("bytes_per_chunk", task.bytesPerChunk()),
                new Field("chunk_offsets", chunkOffsets));
    }

    private static String orderName(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? "big" : "little";
    }
}
