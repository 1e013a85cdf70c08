package org.quire.format.sion;

/**
 * The fields of META1 before the per-task arrays, as stored (see {@link Meta1Layout}).
 *
 * @param endianness        metadata and user-data byte order
 * @param version           SIONlib version that wrote the file, {@code 1000*main + sub}
 * @param versionPatchlevel SIONlib patch level
 * @param fileFormatVersion on-disk format version (5 for SIONlib 1.7.6)
 * @param fsBlockSize       alignment unit of the data area, at least 1
 * @param taskCount         tasks stored in this physical file
 * @param fileCount         physical files in the set
 * @param fileNumber        0-based index in a set (parallel writers); 1 for single files of the serial writer
 * @param flag1             key-value mode in the upper 32 bits
 * @param flag2             unused, 0
 * @param prefix            file name as passed to open, without the NUL padding
 */
public record Meta1FixedPart(EndiannessWord endianness, int version, int versionPatchlevel,
                             int fileFormatVersion, int fsBlockSize, int taskCount, int fileCount,
                             int fileNumber, long flag1, long flag2, String prefix) {
}
