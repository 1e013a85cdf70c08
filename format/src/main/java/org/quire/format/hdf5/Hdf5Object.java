package org.quire.format.hdf5;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.AttributeInfoMessage;
import org.quire.format.hdf5.layout.AttributeMessage;
import org.quire.format.hdf5.layout.BTreeV2AttributeRecord;
import org.quire.format.hdf5.layout.BTreeV2RecordFormat;
import org.quire.format.hdf5.layout.HeaderMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.StoredReferences;

/**
 * What groups and datasets share: a path in the file, an object header, attributes. Quire
 * writes attributes as messages in the object header; it also reads attributes libhdf5 stores
 * densely (more than 8, or one too large for a header message: attribute messages in a fractal
 * heap, found by name through a B-tree of name hashes).
 */
public abstract sealed class Hdf5Object permits Group, Dataset, CommittedDatatype {

    final Hdf5File file;
    private final String path;
    private final long address;
    /** The header being written, or null for an object of a file opened read-only. */
    final WritableObjectHeader header;
    /** Attributes in the object header, in the order stored; empty when they are dense. */
    private final Map<String, StoredAttribute> attributes = new LinkedHashMap<>();
    /** The dense attributes of an object read from a file, or null. */
    private DenseMessageStorage<BTreeV2AttributeRecord, StoredAttribute> denseAttributes;

    /**
     * An attribute as stored: read; or (its type is one Quire does not read) named with the
     * reason; or (its strings' heap references are damaged) named with the damage, thrown when
     * it is read. One unreadable attribute leaves its object and the other attributes readable.
     */
    record StoredAttribute(String name, Attribute attribute, UnsupportedFormatException refusal,
                           AttributeMessages.DamagedStrings damaged) {
        StoredAttribute(String name, Attribute attribute, UnsupportedFormatException refusal) {
            this(name, attribute, refusal, null);
        }

        /** The attribute named with why Quire does not read it, or null when it does. */
        Unsupported unsupported() {
            return refusal == null ? null : Unsupported.of(name, refusal);
        }

        static StoredAttribute read(LittleEndianReader in, StoredReferences references)
                throws IOException {
            LittleEndianReader copy = in.duplicate();
            try {
                Attribute attribute = AttributeMessages.decode(in, references);
                return new StoredAttribute(attribute.name(), attribute, null);
            } catch (UnsupportedFormatException e) {
                String name = AttributeMessage.name(copy);
                return new StoredAttribute(name, null, e);
            } catch (AttributeMessages.DamagedStrings e) {
                return new StoredAttribute(e.name(), null, null, e);
            }
        }

        /** The attribute read; the damage, naming {@code objectPath@name}, if it is damaged. */
        Attribute readable(String objectPath) throws CorruptFileException {
            if (damaged != null) {
                throw damaged.of(objectPath);
            }
            return attribute;
        }
    }

    /** How libhdf5 stores attributes densely: type 8 and 9 B-tree records, attribute messages. */
    static DenseMessageStorage.Kind<BTreeV2AttributeRecord, StoredAttribute> denseAttributes(
            StoredReferences references) {
        return new DenseMessageStorage.Kind<>() {
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
                public StoredAttribute decode(BTreeV2AttributeRecord record,
                                              LittleEndianReader in) throws IOException {
                    if ((record.messageFlags() & HeaderMessage.FLAG_SHARED) != 0) {
                        throw new UnsupportedFormatException(in.file(),
                                "dense attribute in the fractal heap", in.absolutePosition(),
                                "a shared message", "attribute messages stored in the heap");
                    }
                    return StoredAttribute.read(in, references);
                }

                @Override
                public String name(StoredAttribute attribute) {
                    return attribute.name();
                }
            };
    }

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
                StoredAttribute attribute = StoredAttribute.read(
                        message.reader(file.blocks().path(), "attribute message"),
                        file.references());
                attributes.put(attribute.name(), attribute);
            } else if (message.type() == AttributeInfoMessage.TYPE) {
                AttributeInfoMessage info = AttributeInfoMessage.decode(message.reader(
                        file.blocks().path(), "attribute info message"));
                if (info.isDense()) {
                    denseAttributes = DenseMessageStorage.open(file.blocks(),
                            denseAttributes(file.references()),
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
     * Names of the attributes (readable or not): in the order stored when in the object header;
     * when dense (as h5py lists them), in creation order if the object indexes it, otherwise
     * ordered by the bytes of their UTF-8 names.
     */
    public List<String> attributeNames() throws IOException {
        List<String> names = new ArrayList<>();
        for (StoredAttribute attribute : storedAttributes()) {
            names.add(attribute.name());
        }
        return names;
    }

    /**
     * The attributes Quire reads, in {@link #attributeNames()}'s order, from one pass over their
     * storage (no lookup by name); the others are {@link #unsupportedAttributes()}.
     *
     * @throws CorruptFileException an attribute's strings are damaged (named
     *                              {@code path@name}; {@link #attribute} reads the others)
     */
    public List<Attribute> attributes() throws IOException {
        List<Attribute> readable = new ArrayList<>();
        for (StoredAttribute attribute : storedAttributes()) {
            if (attribute.unsupported() == null) {
                readable.add(attribute.readable(path));
            }
        }
        return readable;
    }

    /** The attributes of a type Quire does not read, each named with the reason. */
    public List<Unsupported> unsupportedAttributes() throws IOException {
        List<Unsupported> unsupported = new ArrayList<>();
        for (StoredAttribute attribute : storedAttributes()) {
            if (attribute.unsupported() != null) {
                unsupported.add(attribute.unsupported());
            }
        }
        return unsupported;
    }

    /** Every attribute as stored, readable or not, in {@link #attributeNames()}'s order. */
    List<StoredAttribute> storedAttributes() throws IOException {
        try {
            return denseAttributes == null ? new ArrayList<>(attributes.values())
                    : denseAttributes.all();
        } catch (CorruptFileException e) {
            throw e.of(path);
        }
    }

    /**
     * The attribute {@code name}, looked up by name hash when the attributes are dense.
     *
     * @throws NoSuchElementException there is no attribute {@code name}
     * @throws UnsupportedFormatException its type is one Quire does not read
     * @throws CorruptFileException its strings are damaged (named {@code path@name})
     */
    public Attribute attribute(String name) throws IOException {
        StoredAttribute attribute;
        try {
            attribute = denseAttributes != null ? denseAttributes.find(name)
                    : attributes.get(name);
        } catch (CorruptFileException e) {
            throw e.of(path);
        }
        if (attribute == null) {
            throw new NoSuchElementException(path + " has no attribute \"" + name + "\"");
        }
        if (attribute.refusal() != null) {
            throw attribute.refusal().within(path + "@" + attribute.name());
        }
        return attribute.readable(path);
    }

    /**
     * Adds an attribute (stored compactly in the object header).
     *
     * @throws IllegalArgumentException an attribute of that name exists, or it is larger than
     *                                  one header message (64 KiB)
     * @throws UnsupportedOperationException the object (read from a file) stores its
     *                                       attributes densely, or has a version-1 header
     * @throws SwmrWriteRefusedException     the file is SWMR writing
     */
    public void setAttribute(Attribute attribute) {
        requireWritable();
        file.requireNotSwmrWriting("add attribute \"" + attribute.name() + "\" to " + path);
        requireGrowableHeader("add attribute \"" + attribute.name() + "\" to");
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
        if (header.handleOf(AttributeInfoMessage.TYPE) < 0) {
            // libhdf5 counts a version-2 header's attributes through this message.
            header.add(HeaderMessage.of(AttributeInfoMessage.TYPE, 0,
                    AttributeInfoMessage.encodeCompact()));
        }
        if (attribute.type() instanceof Datatype.VariableLengthStringType) {
            addStringAttribute(attribute);
        } else {
            header.add(HeaderMessage.of(AttributeMessage.TYPE, 0,
                    AttributeMessages.encode(attribute, attribute.data())));
        }
        attributes.put(attribute.name(), new StoredAttribute(attribute.name(), attribute, null));
    }

    /**
     * Deletes the attribute {@code name}, as h5py's {@code del obj.attrs[name]}: its message
     * becomes a null message of the same size (libhdf5's way; a later attribute may take the
     * room). Strings it held stay in the global heap, unreferenced. Replacing an attribute is
     * this, then {@link #setAttribute}; both reach the file at the same flush.
     *
     * @throws NoSuchElementException        there is no attribute {@code name}
     * @throws UnsupportedOperationException the object stores its attributes densely, or has
     *                                       a version-1 header
     * @throws SwmrWriteRefusedException     the file is SWMR writing
     */
    public void deleteAttribute(String name) throws IOException {
        requireWritable();
        file.requireNotSwmrWriting("delete attribute \"" + name + "\" of " + path);
        requireGrowableHeader("delete attribute \"" + name + "\" of");
        if (denseAttributes != null) {
            throw new UnsupportedOperationException(file.blocks().path() + ": cannot delete "
                    + "attribute \"" + name + "\" of " + path + ": its attributes are stored "
                    + "densely; Quire deletes attributes stored in the object header only");
        }
        if (!attributes.containsKey(name)) {
            throw new NoSuchElementException(path + " has no attribute \"" + name + "\"");
        }
        List<HeaderMessage> messages = header.messages();
        for (int handle = 0; handle < messages.size(); handle++) {
            HeaderMessage message = messages.get(handle);
            if (message.type() == AttributeMessage.TYPE && name.equals(AttributeMessage.name(
                    message.reader(file.blocks().path(), "attribute message")))) {
                header.remove(handle);
                attributes.remove(name);
                return;
            }
        }
        throw new IllegalStateException(path + ": attribute \"" + name
                + "\" is listed but has no message in the header");
    }

    /**
     * Writes new values into the existing attribute of the same name, type and shape, in place
     * in the object header, as libhdf5's {@code H5Awrite} (h5py's {@code attrs.modify}) does:
     * only the value's bytes of the stored message change, so this also works in a version-1
     * object header (libhdf5's default format), which Quire never grows. A fixed-size value is
     * allowed while SWMR writing, since the header keeps its size (Hangar updates its collection
     * files' cursor attributes so). Variable-length strings (versioned-hdf5's {@code
     * current_version}) go into a new object of a global heap collection Quire writes; the old
     * objects stay in theirs, unreferenced. Readers see the new values after the next flush.
     *
     * @throws NoSuchElementException        the object header holds no attribute of that name
     * @throws IllegalArgumentException      the attribute has another type or shape (for
     *                                       strings: both variable-length strings, same shape)
     * @throws SwmrWriteRefusedException     variable-length strings while SWMR writing
     */
    public void rewriteAttribute(Attribute attribute) throws IOException {
        requireWritable();
        StoredAttribute stored = attributes.get(attribute.name());
        if (stored == null || stored.attribute() == null) {
            throw new NoSuchElementException(path + " has no attribute \"" + attribute.name()
                    + "\" in its object header to rewrite");
        }
        Attribute old = stored.attribute();
        boolean strings = attribute.type() instanceof Datatype.VariableLengthStringType;
        if (strings != old.type() instanceof Datatype.VariableLengthStringType
                || !strings && !old.type().equals(attribute.type())
                || !java.util.Arrays.equals(old.shape(), attribute.shape())) {
            throw new IllegalArgumentException(file.blocks().path() + ": cannot rewrite "
                    + "attribute \"" + attribute.name()
                    + "\" of " + path + ": " + old.type() + " " + java.util.Arrays.toString(
                    old.shape()) + " in place with " + attribute.type() + " "
                    + java.util.Arrays.toString(attribute.shape())
                    + " (same fixed-size type and shape, or variable-length strings of the same "
                    + "shape, only)");
        }
        if (strings) {
            file.requireNotSwmrWriting("rewrite string attribute \"" + attribute.name()
                    + "\" of " + path);
        }
        List<HeaderMessage> messages = header.messages();
        for (int handle = 0; handle < messages.size(); handle++) {
            HeaderMessage message = messages.get(handle);
            if (message.type() == AttributeMessage.TYPE && attribute.name().equals(
                    AttributeMessage.name(message.reader(file.blocks().path(),
                            "attribute message")))) {
                GlobalHeap.Stored heapStrings = strings
                        ? file.globalHeap().store(attribute.strings()) : null;
                try {
                    header.replace(handle, AttributeMessage.withData(message.reader(
                            file.blocks().path(), "attribute message"),
                            strings ? heapStrings.elements() : attribute.data()));
                    if (strings) {
                        heapStrings.pointedAtBy(header, handle);
                    }
                } finally {
                    if (strings) {
                        heapStrings.release();
                    }
                }
                attributes.put(attribute.name(), new StoredAttribute(attribute.name(),
                        strings ? Attribute.ofStrings(attribute.name(), old.type(),
                                attribute.shape(), attribute.strings()) : attribute, null));
                return;
            }
        }
        throw new IllegalStateException(path + ": attribute \"" + attribute.name()
                + "\" was read but its message is gone");
    }

    /**
     * Adds a variable-length string attribute: its strings go into the file's global heap, and
     * the header chunk holding the message is written only after the collections holding them.
     */
    private void addStringAttribute(Attribute attribute) {
        try {
            GlobalHeap.Stored strings = file.globalHeap().store(attribute.strings());
            try {
                int handle = header.add(HeaderMessage.of(AttributeMessage.TYPE, 0,
                        AttributeMessages.encode(attribute, strings.elements())));
                strings.pointedAtBy(header, handle);
            } finally {
                strings.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The dense attribute storage of an object read from a file, or null. */
    DenseMessageStorage<BTreeV2AttributeRecord, StoredAttribute> denseAttributes() {
        return denseAttributes;
    }

    /**
     * Refuses {@code change} (a phrase ending before this object's path) to a version-1 object
     * header, which Quire changes in place only (docs/hdf5.md, "The old format").
     */
    private void requireGrowableHeader(String change) {
        if (header.isVersion1()) {
            throw new UnsupportedOperationException(file.blocks().path() + ": cannot " + change
                    + " " + path + ": its object header at " + address + " is version 1 "
                    + "(libhdf5's default format), which Quire changes in place only; "
                    + "rewriteAttribute replaces the value of an existing attribute");
        }
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
