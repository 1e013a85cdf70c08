/**
 * The SIONlib 1.7.6 container (file format 5), in pure Java: one shared file (or a set of
 * files) holding one logical byte stream per task, stored in fixed-capacity chunks.
 *
 * <p>This package owns the on-disk layout ({@link org.quire.format.sion.Meta1Layout},
 * {@link org.quire.format.sion.Meta2Layout}, {@link org.quire.format.sion.MappingLayout},
 * {@link org.quire.format.sion.KeyValueRecordLayout}, {@link org.quire.format.sion.EndiannessWord},
 * {@link org.quire.format.sion.ChunkGeometry}), the validation of everything read
 * ({@link org.quire.format.sion.SionMetadataValidator}), serial access
 * ({@link org.quire.format.sion.SionFile}, {@link org.quire.format.sion.SionSerialWriter}) and
 * parallel access over {@link org.quire.format.Collectives}
 * ({@link org.quire.format.sion.SionParallelWriter}, {@link org.quire.format.sion.SionParallelReader}),
 * rewriting a file with one chunk per task ({@link org.quire.format.sion.SionDefragmenter}), and
 * crash recovery: the parallel writer keeps a journal of chunk fill levels beside each physical
 * file (Quire's own format, {@link org.quire.format.sion.SionJournalLayout}), from which
 * {@link org.quire.format.sion.SionRecovery} closes a file whose writer died.
 *
 * <p>Files written here are byte-compatible with what SIONlib 1.7.6 writes for the same inputs;
 * the reference is {@code reference/sionlib-format.md} (section numbers in class comments point
 * into it) and the user documentation is {@code docs/sionlib.md}.
 */
package org.quire.format.sion;
