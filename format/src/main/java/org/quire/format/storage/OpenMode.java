package org.quire.format.storage;

/** How a file is opened. No mode truncates an existing file: replacing one is always explicit. */
public enum OpenMode {
    /** Read only; the file must exist. */
    READ,
    /** Read and write; the file must exist. */
    READ_WRITE,
    /** Read and write a new file; fails when the file exists. */
    CREATE_NEW,
    /**
     * Read and write; creates the file when missing, keeps its bytes when present. For the side
     * files Quire owns (journals): never through a symbolic link, which could point a truncating
     * writer at another file.
     */
    CREATE_OR_OPEN
}
