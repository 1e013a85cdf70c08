package org.quire.format.hdf5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.AttributeInfoMessage;
import org.quire.format.hdf5.layout.AttributeMessage;
import org.quire.format.hdf5.layout.BTreeV2AttributeRecord;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;

/**
 * What groups and datasets share: a path in the file, an object header, attributes. Quire
 * writes attributes as messages in the object header; it also reads attributes libhdf5 stores
 * densely (more than 8, or one too large for a header message: attribute messages in a fractal
 * heap, found by name through a B-tree of name hashes).
 */
public abstract sealed class Hdf5Object permits Group, Dataset {

    final Hdf5File file;
    private final String path;
    private final long address;
    /** The header being written, or null for an object of a file opened read-only. */
    final WritableObjectHeader header;
    /** Attributes in the object header, in the order stored; empty when they are dense. */
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();
    /** The dense attributes of an object read from a file, or null. */
    private DenseMessageStorage<BTreeV2AttributeRecord, Attribute> denseAttributes;

    /** How libhdf5 stores attributes densely: type 8 and 9 B-tree records, attribute messages. */
    static final DenseMessageStorage.Kind<BTreeV2AttributeRecord, Attribute> DENSE_ATTRIBUTES =
            new DenseMessageStorage.Kind<>() {
                @Override
                public String what() {
                    return "attribute";
                }

                @Override
                public BTreeV2RecordFormat<BTreeV2AttributeRecord> nameIndex() {
                    return BTreeV2AttributeRecord.NAME;
                }

                @Override
                public BTreeV2RecordFormat<BTreeV2AttributeRecord> creationOrderIndex() {
                    return BTreeV2AttributeRecord.CREATION_ORDER;
                }

                @Override
                public int heapIdLength() {
                    return BTreeV2AttributeRecord.HEAP_ID_LENGTH;
                }

                @Override
                public byte[] heapId(BTreeV2AttributeRecord record) {
                    return record.heapId();
                }

                @Override
                public long nameHash(BTreeV2AttributeRecord record) {
                    return record.nameHash();
                }

                @Override
                public long creationOrder(BTreeV2AttributeRecord record) {
                    return record.creationOrder();
                }

                @Override
                public Attribute decode(BTreeV2AttributeRecord record, LittleEndianReader in)
                        throws IOException {
                    if ((record.messageFlags() & HeaderMessage.FLAG_SHARED) != 0) {
                        throw new UnsupportedFormatException(in.file(), "dense attribute in the "
                                + "fractal heap at offset " + in.absolutePosition()
                                + " is a shared message, not supported");
                    }
                    return AttributeMessages.decode(in);
                }

                @Override
                public String name(Attribute attribute) {
                    return attribute.name();
                }
            };

    Hdf5Object(Hdf5File file, String path, long address, WritableObjectHeader header) {
        this.file = file;
        this.path = path;
        this.address = address;
        this.header = header;
    }

    /** Reads the attributes among {@code messages} of an existing object. */
    void readAttributes(List<HeaderMessage> messages) throws IOException {
        for (HeaderMessage message : messages) {
            if (message.type() == AttributeMessage.TYPE) {
                Attribute attribute = AttributeMessages.decode(
                        message.reader(file.blocks().path(), "attribute message"));
                attributes.put(attribute.name(), attribute);
            } else if (message.type() == AttributeInfoMessage.TYPE) {
                AttributeInfoMessage info = AttributeInfoMessage.decode(message.reader(
                        file.blocks().path(), "attribute info message"));
                if (info.isDense()) {
                    denseAttributes = DenseMessageStorage.open(file.blocks(), DENSE_ATTRIBUTES,
                            info.fractalHeapAddress(), info.nameIndexAddress(),
                            info.creationOrderIndexAddress());
                }
            }
        }
    }

    /** The absolute path of this object, "/" for the root group. */
    public String path() {
        return path;
    }

    /**
     * The file address of this object's header. It identifies the object: two hard links to one
     * object lead to the same address (a group may even link to one of its ancestors).
     */
    public long address() {
        return address;
    }

    /**
     * Names of the attributes: in the order stored when in the object header; when dense (as
     * h5py lists them), in creation order if the object indexes it, otherwise ordered by the
     * bytes of their UTF-8 names.
     */
    public List<String> attributeNames() throws IOException {
        if (denseAttributes == null) {
            return new ArrayList<>(attributes.keySet());
        }
        List<String> names = new ArrayList<>();
        for (Attribute attribute : attributes()) {
            names.add(attribute.name());
        }
        return names;
    }

    /**
     * The attributes, in {@link #attributeNames()}'s order, from one pass over their storage
     * (no lookup by name).
     */
    public List<Attribute> attributes() throws IOException {
        return denseAttributes == null ? new ArrayList<>(attributes.values())
                : denseAttributes.all();
    }

    /**
     * The attribute {@code name}, looked up by name hash when the attributes are dense.
     *
     * @throws NoSuchElementException there is no attribute {@code name}
     */
    public Attribute attribute(String name) throws IOException {
        Attribute attribute = denseAttributes != null ? denseAttributes.find(name)
                : attributes.get(name);
        if (attribute == null) {
            throw new NoSuchElementException(path + " has no attribute \"" + name + "\"");
        }
        return attribute;
    }

    /**
     * Adds an attribute (stored compactly in the object header).
     *
     * @throws IllegalArgumentException an attribute of that name exists, or it is larger than
     *                                  one header message (64 KiB)
     * @throws UnsupportedOperationException the object (read from a file) stores its
     *                                       attributes densely
     */
    public void setAttribute(Attribute attribute) {
        requireWritable();
        if (denseAttributes != null) {
            throw new UnsupportedOperationException(file.blocks().path() + ": cannot add "
                    + "attribute \"" + attribute.name() + "\" to " + path + ": its attributes "
                    + "are stored densely (fractal heap and version-2 B-trees); Quire adds "
                    + "attributes to objects storing them in the object header only");
        }
        if (attributes.containsKey(attribute.name())) {
            throw new IllegalArgumentException(path + " already has attribute \""
                    + attribute.name() + "\"");
        }
        header.add(HeaderMessage.of(AttributeMessage.TYPE, 0,
                AttributeMessages.encode(attribute)));
        attributes.put(attribute.name(), attribute);
    }

    /** The dense attribute storage of an object read from a file, or null. */
    DenseMessageStorage<BTreeV2AttributeRecord, Attribute> denseAttributes() {
        return denseAttributes;
    }

    void requireWritable() {
        if (header == null) {
            throw new IllegalStateException(file.blocks().path() + " is open read-only");
        }
        file.requireOpen();
    }

    static String childPath(String parent, String name) {
        return parent.endsWith("/") ? parent + name : parent + "/" + name;
    }
}
