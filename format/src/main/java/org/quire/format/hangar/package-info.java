/**
 * Hangar's local HDF5 backend {@code HDF5_00}: the locator records that say where an array of a
 * Hangar repository is stored ({@code 00:UID$DATASET INDEX*D0 D1 …}), parsed in all three
 * dialects Hangar wrote (v0.3, v0.4, v0.5) and written in the v0.3 dialect; and the store
 * itself: {@link org.quire.format.hangar.CollectionWriter} writes arrays of a fixed
 * {@link org.quire.format.hangar.ArraySchema} into collection files laid out as Hangar lays
 * them out ({@code CollectionFileLayout}), and
 * {@link org.quire.format.hangar.RecordResolver} resolves records back to arrays, following a
 * file its writer is still appending to (docs/versions.md).
 */
package org.quire.format.hangar;
