package org.quire.format.hdf5;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.quire.format.hdf5.layout.DataLayoutMessage;
import org.quire.format.hdf5.layout.DataspaceMessage;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.ObjectHeaderV2;

/**
 * An SWMR reader's view of one dataset's last commit: the dataspace and data layout message
 * bodies it accepted, the layout its chunk index was opened from, and the {@link CommitPoint}
 * that tells cheaply that nothing was committed since. {@link #read} looks again; the dataset
 * {@link #accept}s a change only once it has opened the new index, so a failed attempt leaves
 * the view as it was and the retry sees the change again.
 */
final class CommittedHeader {

    /**
     * A commit that differs from the view's: the new {@code shape}, the {@code layout} the
     * chunk index is to be opened from (null: not chunked), the two message bodies and the
     * commit point to watch from then on.
     */
    record Change(long[] shape, DataLayoutMessage layout, byte[] dataspace, byte[] layoutBody,
                  CommitPoint point) {
    }

    private byte[] dataspace;
    private byte[] layout;
    private DataLayoutMessage layoutMessage;
    private CommitPoint commitPoint;

    /** The view of a dataset opened with header {@code messages} and {@code layout}. */
    CommittedHeader(List<HeaderMessage> messages, DataLayoutMessage layout) {
        this.dataspace = body(messages, DataspaceMessage.TYPE);
        this.layout = body(messages, DataLayoutMessage.TYPE);
        this.layoutMessage = layout;
    }

    /** The layout the dataset's chunk index is opened from (null: not chunked). */
    DataLayoutMessage layout() {
        return layoutMessage;
    }

    /**
     * Reads the header at {@code address} of {@code file} again: null when the writer
     * committed nothing new for this dataset (one read while the commit point is unchanged).
     * A commit that changed only the dataspace is decoded from that one read.
     */
    Change read(Hdf5File file, long address) throws IOException {
        if (commitPoint != null) {
            if (commitPoint.unchanged(file.blocks())) {
                return null;
            }
            DataspaceMessage extended = commitPoint.extendedSpace(file.path());
            if (extended != null) {
                return new Change(extended.dimensions(), layoutMessage,
                        commitPoint.rereadSpace(), layout, commitPoint.reread());
            }
        }
        ObjectHeaderV2.StoredHeader stored = file.storedHeaderV2(address);
        List<HeaderMessage> messages = stored != null ? ObjectHeaderV2.messages(stored)
                : file.headerMessages(address);
        CommitPoint point = stored != null ? CommitPoint.of(stored) : null;
        byte[] newDataspace = body(messages, DataspaceMessage.TYPE);
        byte[] newLayout = body(messages, DataLayoutMessage.TYPE);
        if (Arrays.equals(newDataspace, dataspace) && Arrays.equals(newLayout, layout)) {
            commitPoint = point; // the block changed elsewhere; the same commit
            return null;
        }
        DatasetHeader described = DatasetHeader.decode(file.blocks().path(), address, messages,
                file.references());
        return new Change(described.space().dimensions(),
                described.layout() instanceof DataLayoutMessage chunked ? chunked : null,
                newDataspace, newLayout, point);
    }

    /** Makes {@code change} the view's commit. */
    void accept(Change change) {
        dataspace = change.dataspace();
        layout = change.layoutBody();
        if (change.layout() != null) {
            layoutMessage = change.layout();
        }
        commitPoint = change.point();
    }

    private static byte[] body(List<HeaderMessage> messages, int type) {
        for (HeaderMessage message : messages) {
            if (message.type() == type) {
                return message.body();
            }
        }
        return null;
    }
}
