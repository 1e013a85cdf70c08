package org.quire.format.hdf5;

import org.quire.format.CorruptFileException;
import org.quire.format.UnsupportedFormatException;
import org.quire.format.hdf5.layout.AttributeMessage;
import org.quire.format.hdf5.layout.LittleEndianReader;

/** Converts between the API's {@link Attribute} and the content of an attribute message. */
final class AttributeMessages {

    private AttributeMessages() {
    }

    /**
     * The attribute the attribute message {@code in} holds.
     *
     * @throws CorruptFileException the message's datatype is no valid datatype
     */
    static Attribute decode(LittleEndianReader in)
            throws CorruptFileException, UnsupportedFormatException {
        long at = in.absolutePosition();
        AttributeMessage.Content content = AttributeMessage.decode(in);
        Datatype type;
        try {
            type = Datatypes.of(content.type());
        } catch (IllegalArgumentException e) {
            throw in.corrupt(at, "datatype", "a valid datatype", e.getMessage());
        }
        return new Attribute(content.name(), type, content.shape(), content.data());
    }

    static byte[] encode(Attribute attribute) {
        return AttributeMessage.encode(new AttributeMessage.Content(attribute.name(),
                Datatypes.describe(attribute.type()), attribute.shape(), attribute.data()));
    }
}
