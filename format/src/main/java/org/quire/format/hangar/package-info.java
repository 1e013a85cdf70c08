/**
 * Hangar's local HDF5 backend {@code HDF5_00}: the locator records that say where an array of a
 * Hangar repository is stored ({@code 00:UID$DATASET INDEX*D0 D1 …}), parsed in all three
 * dialects Hangar wrote (v0.3, v0.4, v0.5) and written in the v0.3 dialect.
 */
package org.quire.format.hangar;
