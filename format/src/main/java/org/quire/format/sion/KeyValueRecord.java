package org.quire.format.sion;

/**
 * One record of a task stream in key-value inline mode (see {@link KeyValueRecordLayout}).
 *
 * @param key          the record's key
 * @param length       bytes of data
 * @param dataPosition stream position of the first data byte (right behind the 16-byte header)
 */
public record KeyValueRecord(long key, long length, long dataPosition) {
}
