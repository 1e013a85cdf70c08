package org.quire.format.hdf5;

import java.io.IOException;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.DatatypeDescription;
import org.quire.format.hdf5.layout.DatatypeMessage;
import org.quire.format.hdf5.layout.HeaderMessage;

/**
 * A committed (named) datatype: an object whose header holds a datatype message, linked into a
 * group like a dataset ({@code f['t'] = numpy.dtype('<i2')} in h5py). Datasets and attributes
 * may use it through a shared datatype message; Quire reads both, it does not write them.
 */
public final class CommittedDatatype extends Hdf5Object {

    private final Datatype type;

    private CommittedDatatype(Hdf5File file, String path, long address, Datatype type) {
        super(file, path, address, null);
        this.type = type;
    }

    /** The committed datatype whose header {@code messages} were read at {@code address}. */
    static CommittedDatatype read(Hdf5File file, String path, long address,
                                  List<HeaderMessage> messages) throws IOException {
        CommittedDatatype object = new CommittedDatatype(file, path, address,
                typeIn(file, address, messages));
        object.readAttributes(messages);
        return object;
    }

    /** The datatype of the datatype message among {@code messages}, the header at {@code address}. */
    static Datatype typeIn(Hdf5File file, long address, List<HeaderMessage> messages)
            throws IOException {
        return Datatypes.decode(datatypeMessage(file, address, messages).reader(file.path(),
                "datatype message"));
    }

    /** What the datatype message among {@code messages} says, the header at {@code address}. */
    static DatatypeDescription descriptionIn(Hdf5File file, long address,
                                             List<HeaderMessage> messages) throws IOException {
        return DatatypeMessage.decode(datatypeMessage(file, address, messages).reader(file.path(),
                "datatype message"));
    }

    private static HeaderMessage datatypeMessage(Hdf5File file, long address,
                                                 List<HeaderMessage> messages)
            throws CorruptFileException {
        for (HeaderMessage message : messages) {
            if (message.type() == DatatypeMessage.TYPE
                    && (message.flags() & HeaderMessage.FLAG_SHARED) == 0) {
                return message;
            }
        }
        throw new CorruptFileException(file.path(), address, "object header", "messages",
                "the datatype message of a committed datatype", "none");
    }

    public Datatype type() {
        return type;
    }
}
