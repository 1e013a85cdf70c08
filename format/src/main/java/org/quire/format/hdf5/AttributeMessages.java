package org.quire.format.hdf5;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.quire.format.CorruptFileException;
import org.quire.format.hdf5.layout.Addresses;
import org.quire.format.hdf5.layout.AttributeMessage;
import org.quire.format.hdf5.layout.GlobalHeapId;
import org.quire.format.hdf5.layout.LittleEndianReader;
import org.quire.format.hdf5.layout.StoredReferences;

/** Converts between the API's {@link Attribute} and the content of an attribute message. */
final class AttributeMessages {

    private AttributeMessages() {
    }

    /**
     * The attribute the attribute message {@code in} holds; a committed datatype and
     * variable-length strings are resolved through {@code references}.
     *
     * @throws CorruptFileException the message's datatype is no valid datatype
     * @throws DamagedStrings the message is sound, its variable-length strings are not
     * @throws org.quire.format.UnsupportedFormatException its type is one Quire does not read;
     *         the exception names the attribute
     */
    static Attribute decode(LittleEndianReader in, StoredReferences references)
            throws IOException {
        long at = in.absolutePosition();
        AttributeMessage.Content content = AttributeMessage.decode(in, references);
        Datatype type;
        try {
            type = Datatypes.of(content.type());
        } catch (IllegalArgumentException e) {
            throw in.corrupt(at, "datatype", "a valid datatype", e.getMessage());
        }
        if (!(type instanceof Datatype.VariableLengthStringType)) {
            return new Attribute(content.name(), type, content.shape(), content.data());
        }
        byte[] ids = content.data();
        List<byte[]> strings = new ArrayList<>();
        try {
            for (int offset = 0; offset < ids.length; offset += GlobalHeapId.SIZE) {
                GlobalHeapId id = GlobalHeapId.decode(in.file(), content.dataAddress(), ids,
                        offset);
                strings.add(id.isEmpty() ? new byte[0] : references.globalHeapObject(id));
            }
        } catch (CorruptFileException e) {
            throw new DamagedStrings(content.name(), e);
        }
        return Attribute.ofStrings(content.name(), type, content.shape(), strings);
    }

    /**
     * An attribute message that is sound but whose strings are not: a heap reference or the
     * collection it points at is damaged. The object and its other attributes stay readable.
     */
    static final class DamagedStrings extends IOException {
        private final String name;
        private final CorruptFileException damage;

        DamagedStrings(String name, CorruptFileException damage) {
            super(damage.getMessage(), damage);
            this.name = name;
            this.damage = damage;
        }

        String name() {
            return name;
        }

        /** The damage, its message naming the attribute as {@code objectPath@name}. */
        CorruptFileException of(String objectPath) {
            return damage.of(objectPath + "@" + name);
        }
    }

    /**
     * The attribute message of {@code attribute} whose elements are {@code stored} (its data,
     * or for variable-length strings the global heap IDs of its strings).
     */
    static byte[] encode(Attribute attribute, byte[] stored) {
        return AttributeMessage.encode(new AttributeMessage.Content(attribute.name(),
                Datatypes.describe(attribute.type()), attribute.shape(), stored,
                Addresses.UNDEFINED));
    }
}
