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
import org.quire.format.hdf5.layout.HeaderMessage;

/** What groups and datasets share: a path in the file, an object header, attributes. */
public abstract sealed class Hdf5Object permits Group, Dataset {

    final Hdf5File file;
    private final String path;
    private final long address;
    /** The header being written, or null for an object of a file opened read-only. */
    final WritableObjectHeader header;
    private final Map<String, Attribute> attributes = new LinkedHashMap<>();

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
                Attribute attribute = AttributeMessage.decode(
                        message.reader(file.blocks().path(), "attribute message"));
                attributes.put(attribute.name(), attribute);
            } else if (message.type() == AttributeInfoMessage.TYPE
                    && AttributeInfoMessage.decode(message.reader(file.blocks().path(),
                    "attribute info message")).isDense()) {
                throw new UnsupportedFormatException(file.blocks().path(), "object " + path
                        + " stores its attributes densely (fractal heap), not read yet");
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

    public List<String> attributeNames() {
        return new ArrayList<>(attributes.keySet());
    }

    /** @throws NoSuchElementException there is no attribute {@code name} */
    public Attribute attribute(String name) {
        Attribute attribute = attributes.get(name);
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
     */
    public void setAttribute(Attribute attribute) {
        requireWritable();
        if (attributes.containsKey(attribute.name())) {
            throw new IllegalArgumentException(path + " already has attribute \""
                    + attribute.name() + "\"");
        }
        header.add(HeaderMessage.of(AttributeMessage.TYPE, 0, AttributeMessage.encode(attribute)));
        attributes.put(attribute.name(), attribute);
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
